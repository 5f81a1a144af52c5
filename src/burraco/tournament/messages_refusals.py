"""The club's refusals in English, by key: the catalogs' source (context ``tournament.<key>``).

A refusal is raised as ``TournamentError(Text("error.KEY", name=value))`` (:mod:`.i18n`);
the phones and the director read it in their language, the CLI and the JSON in English.
A value may itself be a message (``what``, ``where``, ``line``): "the NS score",
"round 2, table 3". The English here is exactly what the refusals said before the
catalogs, so an English page and the command line read as they did.
"""

from __future__ import annotations

from burraco.locale import N_

MESSAGES: dict[str, str] = {
    # what a value is, as a refusal names it
    "what.score": N_("tournament.what.score", "the {line} score"),
    "what.where_score": N_("tournament.what.where_score", "{where}: the {line} score"),
    "what.hand_score": N_("tournament.what.hand_score", "smazzata {k}, the {line} score"),
    "what.where_hand_score": N_("tournament.what.where_hand_score",
                                "{where}: smazzata {k}, the {line} score"),
    "what.room_home": N_("tournament.what.room_home", "table {k}, the home team's score"),
    "what.room_away": N_("tournament.what.room_away", "table {k}, the away team's score"),
    "what.where_room_home": N_("tournament.what.where_room_home",
                               "{where}: table {k}, the home team's score"),
    "what.where_room_away": N_("tournament.what.where_room_away",
                               "{where}: table {k}, the away team's score"),
    "what.where_hands": N_("tournament.what.where_hands", "{where}: the smazzate"),
    "what.where_rooms": N_("tournament.what.where_rooms", "{where}: the two tables"),
    "what.hands": N_("tournament.what.hands", "smazzate per match"),
    "what.bye_vp": N_("tournament.what.bye_vp", "the bye's VP"),
    "what.bye_mp": N_("tournament.what.bye_mp", "the bye's MP"),
    "what.seed": N_("tournament.what.seed", "the seed"),
    "what.round": N_("tournament.what.round", "the round"),
    "what.table": N_("tournament.what.table", "the table"),
    "what.pair": N_("tournament.what.pair", "the pair"),
    "what.bot": N_("tournament.what.bot", "a bot's number"),
    "what.penalty_vp": N_("tournament.what.penalty_vp", "the penalty's VP"),
    "what.penalty_mp": N_("tournament.what.penalty_mp", "the penalty's MP"),
    "what.absent_vp": N_("tournament.what.absent_vp", "a missed round's VP"),
    "what.absent_mp": N_("tournament.what.absent_mp", "a missed round's MP"),
    "what.arbitral_vp": N_("tournament.what.arbitral_vp", "the {line} arbitral VP"),
    "error.absent_both": N_("tournament.error.absent_both",
                            "give a missed round both its VP and its MP (or neither, for the "
                            "mirror of a bye)"),
    "error.hands_gap": N_("tournament.error.hands_gap",
                          "smazzata {k} is empty but a later one is filled in: fill in the "
                          "smazzate played, in order"),
    "error.rename_nothing": N_("tournament.error.rename_nothing",
                               "write the pair's new name or its players' names"),
    "what.segment_rounds": N_("tournament.what.segment_rounds", "{where}: the number of rounds"),
    "what.segment_step": N_("tournament.what.segment_step", "{where}: the step"),
    "where.table": N_("tournament.where.table", "round {round}, table {table}"),
    "where.match": N_("tournament.where.match", "round {round}, match {table}"),
    "where.segment": N_("tournament.where.segment", "schedule {whole}, segment {part}"),
    # numbers typed
    "error.excerpt": N_("tournament.error.excerpt", "{start}… ({n} characters)"),
    "error.cut": N_("tournament.error.cut", "{start}… ({n} digits)"),
    "error.missing": N_("tournament.error.missing", "{what} is missing"),
    "error.whole_number": N_("tournament.error.whole_number",
                             "{what} must be a whole number, not {value}"),
    "error.implausible": N_("tournament.error.implausible",
                            "{what} {value} is not a plausible score (from -{limit} to {limit})"),
    "error.implausible_burraco": N_("tournament.error.implausible_burraco",
                                    "{what} {value} is not a plausible Burraco score"),
    "error.not_multiple": N_("tournament.error.not_multiple",
                             "{what} {value} is not a multiple of 5 (every Burraco score is)"),
    # the tournament and its entrants
    "error.none_registered": N_("tournament.error.none_registered", "none registered yet"),
    "error.none_yet": N_("tournament.error.none_yet", "none yet"),
    "error.none": N_("tournament.error.none", "none"),
    "error.no_pair": N_("tournament.error.no_pair",
                        "no pair {number} in this tournament (pairs: {known})"),
    "error.no_pair_named": N_("tournament.error.no_pair_named",
                              "no pair named {name} in this tournament"),
    "error.no_round": N_("tournament.error.no_round",
                         "round {number} has not started (rounds started: {started})"),
    "error.no_table": N_("tournament.error.no_table",
                         "round {round} has no table {table} (tables: {known})"),
    "error.name_needed": N_("tournament.error.name_needed", "a {what} needs a name"),
    "error.name_long": N_("tournament.error.name_long",
                          "a {what}'s name is at most 80 characters: {start}…"),
    "error.registration_closed": N_(
        "tournament.error.registration_closed",
        "registration closed when round 1 was drawn: register {what} {name} as a late entry"),
    "error.player_long": N_("tournament.error.player_long",
                            "a player's name is at most 80 characters: {start}…"),
    "error.late_mode": N_("tournament.error.late_mode",
                          "a late entry joins by {modes}, not {mode}"),
    "error.late_pairs": N_("tournament.error.late_pairs",
                           "late entries are for pairs events: in an individual or a team "
                           "event register before round 1"),
    "error.late_early": N_("tournament.error.late_early",
                           "round 1 has not been drawn: register the pair as usual"),
    "error.late_over": N_("tournament.error.late_over",
                          "every round has been drawn: a late pair has no round left to play"),
    "error.late_no_place": N_(
        "tournament.error.late_no_place",
        "pair {pair} cannot take the bye table: the movement has no empty place (an even "
        "field and no withdrawn pair); draw the movement again for the rounds to come"),
    "error.remove_started": N_(
        "tournament.error.remove_started",
        "pair {pair} cannot be removed: round 1 has been drawn (withdraw it, or take the "
        "round back first if nobody has entered a result)"),
    "error.undo_none": N_("tournament.error.undo_none", "no round has been drawn yet"),
    "error.undo_results": N_("tournament.error.undo_results",
                             "round {round} cannot be taken back: table(s) {tables} have a "
                             "result"),
    "error.undo_entries": N_("tournament.error.undo_entries",
                             "round {round} cannot be taken back: the phones of table(s) "
                             "{tables} have entered a result"),
    "error.undo_online": N_("tournament.error.undo_online",
                            "round {round} cannot be taken back: it is being played online"),
    "error.rename_same": N_("tournament.error.rename_same",
                            "pair {pair} already has these names: nothing to change"),
    "error.absent_whole": N_("tournament.error.absent_whole",
                             "an absence's {unit} must be a whole number, not {value}"),
    "error.absent_vp": N_("tournament.error.absent_vp",
                          "an absence scores 0 to 20 VP, not {value}"),
    "error.absent_mp": N_("tournament.error.absent_mp",
                          "an absence's MP difference is a multiple of 5 between −{most} and "
                          "{most}, not {value}"),
    "error.hands_over": N_("tournament.error.hands_over",
                           "{where}: {n} smazzate entered, but a match has {hands} at most"),
    "error.arbitral_two": N_("tournament.error.arbitral_two",
                             "{where}: an arbitral score gives two VP (NS and EW), not {n}"),
    "error.arbitral_whole": N_("tournament.error.arbitral_whole",
                               "{where}: the {line} arbitral VP must be a whole number, not "
                               "{value}"),
    "error.arbitral_range": N_("tournament.error.arbitral_range",
                               "{where}: the {line} arbitral VP must be between 0 and 20, not "
                               "{value}"),
    "error.name_taken": N_("tournament.error.name_taken",
                           "a {what} named {name} is already registered"),
    "error.name_number": N_("tournament.error.name_number",
                            "a {what}'s name cannot be a number ({name}): numbers are the "
                            "{whats}' table numbers"),
    "error.individual_players": N_("tournament.error.individual_players",
                                   "an individual event registers players one by one: {name} "
                                   "lists {n} players"),
    "error.pair_players": N_("tournament.error.pair_players",
                             "pair {name} lists {n} players; a pair has 2"),
    "error.team_players": N_("tournament.error.team_players",
                             "team {name} lists {n} players; a team has {least} to {most} (two "
                             "pairs and substitutes): write it as 'Team name: Rossi / Bianchi / "
                             "Verdi / Neri'"),
    "error.all_started": N_("tournament.error.all_started",
                            "all {n} rounds of the schedule {schedule} have started"),
    "error.round_not_over": N_("tournament.error.round_not_over",
                               "round {round} is not over: no result yet at table(s) {tables}"),
    "error.too_few": N_("tournament.error.too_few",
                        "at least {least} {whats} are needed, {n} registered"),
    # a table's result
    "error.wrong_seat": N_("tournament.error.wrong_seat",
                           "{where} seats {what} {ns} NS and {what} {ew} EW, so the {line} "
                           "{what} is {expected}, not {given}"),
    "error.hands_count": N_("tournament.error.hands_count",
                            "{where}: {n} smazzate given, the matches have {hands}"),
    "error.rooms_not_teams": N_("tournament.error.rooms_not_teams",
                                "{where}: the two tables' scores are for team matches; this is "
                                "a {kind} event"),
    "error.rooms_count": N_("tournament.error.rooms_count",
                            "{where}: a team match is played at 2 tables, {n} given"),
    "error.vp_mismatch": N_("tournament.error.vp_mismatch",
                            "{where}: VP {a}–{b} do not follow the table {name}: MP {ns} – {ew} "
                            "(difference {diff}, band {band}) give {c}–{d}"),
    "error.has_result": N_("tournament.error.has_result",
                           "{where} already has a result (MP {a} – {b}, VP {c}–{d}); enter it as "
                           "a correction (--correct) to replace it"),
    "error.no_result": N_("tournament.error.no_result", "{where} has no result to correct yet"),
    "error.add_up": N_("tournament.error.add_up", "{whole} add up to {a} – {b}, not {c} – {d}"),
    "error.table_done": N_("tournament.error.table_done",
                           "{where} already has its result (MP {a} – {b}, VP {c}–{d}); only the "
                           "director can change it now"),
    # the settings
    "error.kind": N_("tournament.error.kind", "the kind of event is {kinds}, not {kind}"),
    "error.no_name": N_("tournament.error.no_name", "a tournament needs a name"),
    "error.hands_range": N_("tournament.error.hands_range",
                            "smazzate per match must be 1 to 12, not {n}"),
    "error.scale_hands": N_("tournament.error.scale_hands",
                            "the VP table {name} is for {hands} smazzate, the matches have {n}"),
    "error.bye_vp": N_("tournament.error.bye_vp", "the bye award must be 0 to 20 VP, not {n}"),
    "error.bye_mp": N_("tournament.error.bye_mp", "the bye's MP must be a multiple of 5, not {n}"),
    "error.tie_break": N_("tournament.error.tie_break",
                          "unknown tie-break {name} (known: {known})"),
    "error.tie_twice": N_("tournament.error.tie_twice", "a tie-break is listed twice: {listed}"),
    "error.seating": N_("tournament.error.seating",
                        "first-round seating is registration or draw, not {value}"),
    "error.individual_movement": N_("tournament.error.individual_movement",
                                    "an individual event has no fixed pairs, so {movement} cannot "
                                    "seat it: use {movements} (e.g. random:3,danish:1)"),
    "error.team_scale": N_("tournament.error.team_scale",
                           "a team event needs the team VP table, which is not among the official "
                           "ones (RULES.md §11.3): give the club's with --vp-table "
                           "NAME:B1,...,B10"),
    "error.scale_count": N_("tournament.error.scale_count",
                            "VP table {name}: a VP table needs 10 bounds (VP 10…19), got {n}"),
    "error.scale_fives": N_("tournament.error.scale_fives",
                            "VP table {name}: VP table bounds must be non-negative multiples of 5: "
                            "{bounds}"),
    "error.scale_increase": N_("tournament.error.scale_increase",
                               "VP table {name}: VP table bounds must increase: {bounds}"),
    "error.scale_one_hand": N_("tournament.error.scale_one_hand",
                               "a match has at least one smazzata, not {n}"),
    "error.scale_official": N_("tournament.error.scale_official",
                               "no official VP table is known for matches of {n} smazzate (only 3 "
                               "and 4; RULES.md §11.3): give the club's table with --vp-table "
                               "NAME:B1,...,B10"),
    "error.scale_format": N_("tournament.error.scale_format",
                             "VP table {text}: expected NAME:B1,...,B10 (a name, then the ten "
                             "upper bounds of the MP difference for VP 10 to 19)"),
    "error.scale_numbers": N_("tournament.error.scale_numbers",
                              "VP table {text}: the bounds must be whole numbers separated by "
                              "commas"),
    # the schedule and the movements
    "error.schedule_empty": N_("tournament.error.schedule_empty",
                               "empty schedule: give e.g. mitchell:3,danish:1"),
    "error.schedule_rounds": N_("tournament.error.schedule_rounds",
                                "the schedule {schedule} has {n} rounds for {pairs} pairs; there "
                                "is no round {round}"),
    "error.segment_empty": N_("tournament.error.segment_empty",
                              "schedule {whole}: an empty segment (two commas, or a trailing "
                              "comma)"),
    "error.segment_movement": N_("tournament.error.segment_movement",
                                 "{where}: unknown movement {name} (known: {known})"),
    "error.segment_count": N_("tournament.error.segment_count",
                              "{where}: the number of rounds must be 1 to {most}"),
    "error.segment_needs_count": N_("tournament.error.segment_needs_count",
                                    "{where}: give the number of rounds, e.g. {movement}:3"),
    "error.segment_step_mitchell": N_("tournament.error.segment_step_mitchell",
                                      "{where}: only a Mitchell has a step (@N)"),
    "error.segment_step": N_("tournament.error.segment_step",
                             "{where}: the step must be at least 1"),
    "error.two_pairs": N_("tournament.error.two_pairs",
                          "at least 2 pairs are needed, {n} registered"),
    "error.schedule_pairs": N_("tournament.error.schedule_pairs",
                               "schedule {schedule} with {n} pairs: {reason}"),
    "error.robin_rounds": N_("tournament.error.robin_rounds",
                             "schedule {schedule} with {n} pairs: {robin} round-robin rounds, but "
                             "everyone has met everyone after {cycle}"),
    "error.mitchell_two": N_("tournament.error.mitchell_two",
                             "a Mitchell needs at least 2 pairs, not {n}"),
    "error.mitchell_lines": N_("tournament.error.mitchell_lines",
                               "a Mitchell needs lines of equal length, got {a} and {b}"),
    "error.mitchell_repeat": N_("tournament.error.mitchell_repeat",
                                "Mitchell round {number} would seat every EW pair against the NS "
                                "pair it met in Mitchell round {met}: with {tables} tables and "
                                "these steps, at most {most} Mitchell rounds are possible without "
                                "a repeat (change the step with @N or play fewer Mitchell "
                                "rounds)"),
    "error.robin_two": N_("tournament.error.robin_two",
                          "a round robin needs at least 2 pairs, not {n}"),
    "error.robin_over": N_("tournament.error.robin_over",
                           "a round robin of {n} pairs has {rounds} rounds; there is no round "
                           "{round} (every pair has already met every other)"),
    # the database
    "error.no_tournament_yet": N_("tournament.error.no_tournament_yet",
                                  "no tournament yet: create one with `burraco tournament "
                                  "create`"),
    "error.bad_id": N_("tournament.error.bad_id",
                       "tournament id {tid}: use lowercase letters, digits and dashes (at most "
                       "64)"),
    "error.id_taken": N_("tournament.error.id_taken", "a tournament {tid} already exists"),
    "error.no_tournament": N_("tournament.error.no_tournament",
                              "no tournament {tid} (known: {known})"),
    "error.no_tournament_none": N_("tournament.error.no_tournament_none",
                                   "no tournament {tid} (there are none yet)"),
    # the pages' doors and forms
    "error.form_too_large": N_("tournament.error.form_too_large", "form too large"),
    "error.locked": N_("tournament.error.locked",
                       "director pages are locked: open /tournaments/login?key=... (the "
                       "server's {env})"),
    "error.page_locked": N_("tournament.error.page_locked",
                            "the director's page is locked: open /tournaments/login?key=... (the "
                            "server's {env})"),
    "error.pages_locked": N_("tournament.error.pages_locked", "the director's pages are locked"),
    "error.paper_locked": N_("tournament.error.paper_locked",
                             "the paper is printed from the director's page"),
    "error.too_many_keys": N_("tournament.error.too_many_keys",
                              "too many wrong director keys: retry in {seconds} s"),
    "error.wrong_key": N_("tournament.error.wrong_key", "wrong director key"),
    "error.write_pairs": N_("tournament.error.write_pairs",
                            "write the pairs to register, one per line"),
    "error.online_server": N_("tournament.error.online_server",
                              "online play needs the game server: open these pages through "
                              "`burraco serve`"),
    "error.online_no_round": N_("tournament.error.online_no_round",
                                "no round has started: start one before opening it online"),
    "error.online_done": N_("tournament.error.online_done",
                            "every table of round {round} already has a result or a web table"),
    # the tables' links, the clock
    "error.no_links": N_("tournament.error.no_links", "no round started yet: start round 1 first"),
    "error.link_bad": N_("tournament.error.link_bad",
                         "this link is not a table link of this tournament: scan the QR code on "
                         "your table card again, or ask the director"),
    "error.link_stale": N_("tournament.error.link_stale",
                           "this link was for round {r}; round {n} is being played: use the table "
                           "card of this round"),
    "error.link_over": N_("tournament.error.link_over",
                          "this link was for round {r}; the tournament is over"),
    "error.minutes_whole": N_("tournament.error.minutes_whole",
                              "the round's length must be whole minutes, not {value}"),
    "error.minutes_range": N_("tournament.error.minutes_range",
                              "the round's length is 1 to {most} minutes, not {n}"),
    "error.clock_no_round": N_("tournament.error.clock_no_round",
                               "there is no round being played to start the clock of"),
    "error.time_no_round": N_("tournament.error.time_no_round",
                              "there is no round being played to call time in"),
    "error.clock_not_started": N_("tournament.error.clock_not_started",
                                  "round {round}'s clock has not been started"),
    "error.time_up": N_("tournament.error.time_up", "round {round}'s time is already up"),
    # the evening's changes
    "error.withdraw_playing": N_("tournament.error.withdraw_playing",
                                 "a pair withdraws between rounds: round {round} is still being "
                                 "played (no result yet at table(s) {tables})"),
    "error.withdraw_over": N_("tournament.error.withdraw_over",
                              "every round has been played: there is nothing to withdraw from"),
    "error.withdraw_mode": N_("tournament.error.withdraw_mode",
                              "a withdrawal's remaining matches become byes or are re-seated "
                              "(byes or reseat), not {mode}"),
    "error.withdraw_pairs": N_("tournament.error.withdraw_pairs",
                               "withdrawals are for pairs events"),
    "error.withdrawn": N_("tournament.error.withdrawn", "{what} {pair} has already withdrawn"),
    "error.withdraw_early": N_("tournament.error.withdraw_early",
                               "before round 1 there is nothing to withdraw from: pair {pair} can "
                               "simply not be registered (registrations are final)"),
    "error.withdraw_few": N_("tournament.error.withdraw_few",
                             "pair {pair} cannot withdraw: fewer than 2 pairs would be left"),
    "error.penalty_reason": N_("tournament.error.penalty_reason",
                               "a penalty needs a reason (it is printed with the standings)"),
    "error.penalty_reason_long": N_("tournament.error.penalty_reason_long",
                                    "a penalty's reason is at most {most} characters"),
    "error.penalty_whole": N_("tournament.error.penalty_whole",
                              "a penalty in {unit} must be a whole number, not {value}"),
    "error.penalty_range": N_("tournament.error.penalty_range",
                              "a penalty is 0 to {most} {unit} (a positive number taken away), "
                              "not {value}"),
    "error.penalty_fives": N_("tournament.error.penalty_fives",
                              "a penalty of {mp} MP is not a multiple of 5"),
    "error.penalty_empty": N_("tournament.error.penalty_empty",
                              "a penalty takes some VP or MP: both are 0"),
    "error.penalty_twice": N_("tournament.error.penalty_twice",
                              "this penalty of pair {pair} ({reason}) is already recorded; give "
                              "another reason to add a second one"),
    "error.line_rankings": N_("tournament.error.line_rankings",
                              "NS and EW rankings are for Mitchell rounds; this schedule has none "
                              "({schedule})"),
    "error.line_rankings_value": N_("tournament.error.line_rankings_value",
                                    "NS/EW rankings: on is 1 or 0, not {value}"),
    "error.prize_lines": N_("tournament.error.prize_lines",
                            "prize {prize}: switch the NS/EW rankings on first"),
    "error.prize_category": N_("tournament.error.prize_category",
                               "prize {prize}: no pair is in category {category} (members' "
                               "categories of the pairs: {categories})"),
    "error.prize_none_yet": N_("tournament.error.prize_none_yet", "none yet"),
    "error.prize_format": N_("tournament.error.prize_format",
                             "a prize is CATEGORY:PLACES (e.g. overall:3), not {part}"),
    "error.prize_places": N_("tournament.error.prize_places",
                             "prize {part}: 1 to 50 places, not {n}"),
    "error.prize_twice": N_("tournament.error.prize_twice",
                            "the prize category {category} is listed twice"),
    # the club's members
    "error.no_accounts": N_("tournament.error.no_accounts",
                            "@{username}: this database holds no player accounts (open the game "
                            "server's database, where players register)"),
    "error.no_account": N_("tournament.error.no_account", "no player account @{username}"),
    "error.no_member": N_("tournament.error.no_member", "no club member #{number}"),
    "error.no_online_club": N_("tournament.error.no_online_club",
                               "no online club at the address {club}"),
    "error.member_number": N_("tournament.error.member_number",
                              "a membership number is letters, digits and dashes (at most 20), "
                              "not {number}"),
    "error.member_name": N_("tournament.error.member_name",
                            "a member needs a name (at most 80 characters)"),
    "error.member_category": N_("tournament.error.member_category",
                                "a member's category is a name of at most 40 characters other "
                                "than overall, NS, EW; not {category}"),
    "error.same_account": N_("tournament.error.same_account",
                             "{name} names the same account twice"),
    # the paper
    "error.paper_lang": N_("tournament.error.paper_lang",
                           "the paper is printed in {langs}, not {lang}"),
    "error.paper_kind": N_("tournament.error.paper_kind", "no paper {kind}: the kinds are {kinds}"),
    "error.paper_no_round": N_("tournament.error.paper_no_round",
                               "no round has started yet: start round 1 to print its tables"),
    "error.deals_not_duplicate": N_("tournament.error.deals_not_duplicate",
                                    "deal sheets are for duplicate events (carte uguali): every "
                                    "table of a round plays the same cards; this event is not "
                                    "one"),
    "error.deals_round": N_("tournament.error.deals_round",
                            "round {round}: the event has {rounds} rounds"),
    "error.deals_pairs": N_("tournament.error.deals_pairs",
                            "register the pairs first: the number of rounds depends on them (or "
                            "ask for one round)"),
    # the evening's register and the federation's cards
    "error.card_number": N_("tournament.error.card_number",
                            "a federation card's number is letters and digits (at most 20), "
                            "not {number}"),
    "error.card_type": N_("tournament.error.card_type",
                          "a card's type is a short text of at most {n} characters (agonista, "
                          "ordinario, promozionale, …), not {type}"),
    "error.card_type_alone": N_("tournament.error.card_type_alone",
                                "the card type {type} needs the card's number"),
    "error.money": N_("tournament.error.money",
                      "{what} must be an amount such as 15 or 15,50, not {value}"),
    "error.money_high": N_("tournament.error.money_high",
                           "{what} {value} is more than {most}: check the amount"),
    "error.club_name": N_("tournament.error.club_name",
                          "the club's name is one line of at most {n} characters"),
    "error.level": N_("tournament.error.level",
                      "the event's level is one of {levels}, not {level}"),
    "error.event_date": N_("tournament.error.event_date",
                           "the event's date is a day such as 2027-03-03, not {value}"),
    "error.register_line": N_("tournament.error.register_line", "pair {pair}, {name}: {problem}"),
    "error.register_unknown": N_("tournament.error.register_unknown",
                                 "pair {pair} has no player {player}"),
    "error.register_empty": N_("tournament.error.register_empty",
                               "the form names no player of the register"),
    "what.fee": N_("tournament.what.fee", "the entry fee"),
    "what.dinner_price": N_("tournament.what.dinner_price", "the dinner's price"),
    "what.amount_paid": N_("tournament.what.amount_paid", "the amount paid"),
    "error.cards_no_tables": N_("tournament.error.cards_no_tables",
                                "no tables to print yet: register the pairs first (the number "
                                "of tables depends on them)"),
}
