"""The screen's text, as Textual markup, from a :class:`Table` (pure, so it is tested alone).

Clickable parts carry ``@click`` actions: a card selects, a meld of your side
takes the selection, the stock draws, the pile is taken.  Nothing here needs
colour to be read: the cursor is shown reversed, a selected card in brackets,
a burraco with a star and its kind.
"""

from __future__ import annotations

import time

from rich.cells import cell_len
from textual.markup import escape

from burraco.tui.cards import card_text, face_label, face_markup, meld_markup
from burraco.tui.i18n import Words, rules_section
from burraco.tui.model import Table


def short(name: str) -> str:
    """``East (Club player)`` -> ``East``."""
    return name.split(" (")[0]


def name_of(t: Table, seat: int, *, full: bool = False) -> str:
    if 0 <= seat < len(t.names):
        return t.names[seat] if full else short(t.names[seat])
    return f"#{seat + 1}"


def sides_in_order(t: Table) -> list[int]:
    """Sides to show, the viewer's first."""
    count = max(len(t.melds), max(t.side_of) + 1 if t.side_of else 2)
    mine = t.side_of[t.seat] if t.seat is not None and t.side_of else 0
    # at 3 and 5 players a side may empty when the pairs form; it is shown while it has melds
    return [mine] + [s for s in range(count) if s != mine and (
        s in t.side_of or (s < len(t.melds) and t.melds[s]))]


def side_label(t: Table, side: int) -> str:
    seats = [s for s, sd in enumerate(t.side_of) if sd == side]
    return "+".join(name_of(t, s) for s in seats) or f"#{side + 1}"


def header(t: Table, w: Words, now: float | None = None) -> str:
    parts = [f"[b]{w('title')}[/b]"]
    if t.kind == "replay":
        parts.append(w("replay"))
    elif t.kind == "watch":
        parts.append(w("spectator"))
    if t.hand_number:
        parts.append(w("hand_no", n=t.hand_number))
    if t.scores and t.score_names:
        score = " · ".join(f"{escape(n)} {s}" for n, s in zip(t.score_names, t.scores,
                                                               strict=False))
        if t.target:
            score += f" ({w('target', n=t.target)})"
        parts.append(score)
    if t.replay_at is not None:
        parts.append(w("replay_pos", i=t.replay_at[0], n=t.replay_at[1]))
        if t.seat is not None:
            parts.append(w("replay_seat", name=escape(name_of(t, t.seat))))
    clock = clock_text(t, w, now)
    if clock:
        parts.append(f"[reverse]{clock}[/]")
    return " · ".join(parts)


def clock_text(t: Table, w: Words, now: float | None = None) -> str:
    if t.clock_deadline is None or t.clock_seat is None:
        return ""
    left = max(0, int(t.clock_deadline - (time.time() if now is None else now) + 0.999))
    return f"{escape(name_of(t, t.clock_seat))} {w('clock', s=left)}"


def seats(t: Table, w: Words, width: int) -> str:
    """Each seat: the turn marker, name, cards held, connection; short names when narrow."""
    def entry(seat: int, full: bool) -> tuple[str, int]:
        name = name_of(t, seat, full=full)
        count = t.hand_counts[seat] if seat < len(t.hand_counts) else 0
        on = t.status == "playing" and t.turn == seat
        mark = "▶" if on else " "
        link = ""
        online = t.online[seat] if seat < len(t.online) else None
        if online is False:
            link = " ✕" + (f" {t.standin[seat]}" if seat < len(t.standin) and t.standin[seat]
                           else "")
        elif online is True:
            link = " ●"
        plain = f"{mark}{name} {count}{link}"
        text = f"{mark}{'[b]' if on else ''}{escape(name)}{'[/b]' if on else ''} {count}{link}"
        return text, len(plain)

    for full in (True, False):
        entries = [entry(s, full) for s in range(t.players)]
        if sum(n for _, n in entries) + 3 * (len(entries) - 1) <= width or not full:
            return " │ ".join(e for e, _ in entries)
    return ""


def meld_column(t: Table, side: int, w: Words, *, symbols: bool, mine: bool) -> str:
    lines = [f"[b]{escape(side_label(t, side))}[/b]"]
    melds = t.melds[side] if side < len(t.melds) else ()
    kinds = t.burraco[side] if side < len(t.burraco) else ()
    if not melds:
        lines.append(f"[dim]{w('no_melds')}[/]")
    for index, text in enumerate(melds):
        cards = meld_markup(text, symbols=symbols)
        kind = kinds[index] if index < len(kinds) else None
        mark = ""
        if kind:
            label = w(f"burraco.{kind}") if f"burraco.{kind}" in _known_kinds(w) else kind
            mark = f" [b]★{label}[/b]"
        number = f"{index + 1:>2}"
        line = f"{number} {cards}{mark}"
        if mine:
            line = f"[@click=app.attach_to({index + 1})]{line}[/]"
        lines.append(line)
    return "\n".join(lines)


def _known_kinds(w: Words) -> set[str]:
    return {"burraco.clean", "burraco.semi-clean", "burraco.dirty"}


def table_line(t: Table, w: Words, *, symbols: bool, show: int = 6) -> str:
    """``show``: how many of the pile's top cards (the app gives more on a wide screen)."""
    if not t.hand_number and t.status == "waiting":
        return ""
    stock = f"[@click=app.draw]{w('stock')} {t.stock_count}[/]"
    if t.pile:
        cards = " ".join(face_markup(c, symbols=symbols) for c in t.pile[-show:])
        more = "… " if len(t.pile) > show else ""
        pile = f"[@click=app.pickup]{w('pile')} {len(t.pile)}: {more}{cards}[/]"
    else:
        pile = f"{w('pile')}: {w('pile_empty')}"
    takers = [(side, taker) for side, taker in enumerate(t.pozzetto_taker) if taker >= 0]
    pozz = f"{w('pozzetti')}: {w('pozzetto_left', n=t.pozzetti_left)}"
    if takers:
        pozz += " (" + ", ".join(
            escape(w("pozzetto_taken", side=side_label(t, side), name=name_of(t, taker)))
            for side, taker in takers) + ")"
    parts = [stock, pile, pozz]
    if t.final_turn:
        parts.append(f"[b]{w('final_turn')}[/b]")
    return " · ".join(parts)


def turn_part(t: Table, seat: int, action: str, w: Words, *, symbols: bool) -> str:
    """One action of a turn, without the name: ``melded 5♥ 6♥ 7♥``."""
    verb, _, rest = action.partition(" ")
    me = "me." if seat == t.seat and t.kind in ("offline", "online") else ""
    if verb == "attach":
        number, _, faces = rest.partition(" ")
        cards = " ".join(face_markup(c, symbols=symbols) for c in faces.split())
        return w(f"turn.{me}attach", cards=cards, n=number)
    cards = " ".join(face_markup(c, symbols=symbols) for c in rest.split())
    if verb in ("draw", "pickup", "meld", "discard", "time"):
        return w(f"turn.{me}{verb}", cards=cards, card=cards)
    return escape(action)


def log_lines(t: Table, w: Words, *, symbols: bool, count: int) -> str:
    """The last ``count`` turns, one line each: ``West: drew · melded 6♥ 6♥ 6♣ · discarded 8♠``."""
    turns: list[tuple[int, list[str]]] = []
    for seat, action in t.moves:
        if not turns or turns[-1][0] != seat:
            turns.append((seat, []))
        turns[-1][1].append(turn_part(t, seat, action, w, symbols=symbols))
    shown = turns[-count:] if count > 0 else []
    return "\n".join(f"[b]{escape(name_of(t, seat))}[/b]: " + " · ".join(parts)
                     for seat, parts in shown)


def status(t: Table, w: Words, message: str, *, symbols: bool) -> str:
    """The line under the table: a refusal with its section, the end of a hand, whose turn."""
    if message:
        return escape(message)
    if t.link in ("connecting", "reconnecting"):
        why = f" ({escape(t.link_error)})" if t.link_error else ""
        return f"[b]{w(t.link)}[/b]{why}"
    if t.link == "refused":
        why = w.reason(t.refusal.reason) if t.refusal else ""
        return f"[b #e05050]{escape(w('closed_link', reason=why))}[/]"
    if t.refusal is not None:
        reason = w.reason(t.refusal.reason)
        if rules_section(reason) and "(§" in reason:
            reason = reason.replace("(§", "(RULES.md §")
        return f"[b #e05050]{escape(w('refused', reason=reason))}[/]"
    if t.status == "finished" or t.match_over:
        if t.winner is None:
            return f"[b]{w('match_tie')}[/b]"
        names = t.score_names
        winner = names[t.winner] if t.winner < len(names) else str(t.winner)
        return f"[b]{escape(w('match_over', winner=winner))}[/b]"
    if t.status == "over":
        why = w(f"hand_over_reason.{t.end_reason}", name=escape(name_of(t, t.closer))) \
            if t.end_reason else ""
        text = f"[b]{w('hand_over')}[/b]: {why}"
        if t.redeal:
            text += f" · {w('redeal')}"
        if t.kind in ("offline",):
            text += f" · {w('next_hand')}"
        if t.extra.get("saved"):
            text += " · " + escape(w("saved", path=t.extra["saved"]))
        return text
    if t.status == "waiting":
        return w("waiting_players")
    if t.my_turn:
        return w("your_turn_draw") if t.phase == "draw" else w("your_turn_play")
    if t.status == "playing" and t.kind in ("replay", "watch"):
        return escape(w("turn_of", name=name_of(t, t.turn, full=True)))
    if t.status == "playing":
        return w("waiting_for", name=escape(name_of(t, t.turn, full=True)))
    return ""


def result_lines(t: Table, w: Words, *, width: int = 0) -> str:
    """The score sheet of a hand that has just ended (RULES.md §9), its number first.

    ``width``: the lines are broken to it between terms only (:func:`wrap_terms`), never
    inside one of them or inside ``= total``; 0 leaves them whole."""
    ended = t.hand_number if t.status in ("over", "finished") else t.hand_number - 1
    out: list[str] = []
    for index, side in enumerate(t.result):
        who = "+".join(name_of(t, s) for s in side.seats)
        line = w("result_line", side=who, melds=side.melds, bonuses=side.bonuses,
                 closing=side.closing, pozzetto=side.pozzetto, hand=side.hand,
                 total=side.total)
        prefix = w("hand_no", n=ended) if index == 0 and ended > 0 else ""
        if prefix:
            line = f"{prefix} · {line}"
        lines = [escape(text) for text in wrap_terms(line, width)] if width > 0 \
            else [escape(line)]
        if prefix and lines[0].startswith(escape(prefix)):
            lines[0] = f"[b]{escape(prefix)}[/b]" + lines[0][len(escape(prefix)):]
        out.extend(lines)
    return "\n".join(out)


TERM_ENDS = (",", ";", ":", "·")


def wrap_terms(text: str, width: int, *, indent: str = "  ") -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken only at a space after ``,`` ``;``
    ``:`` or ``·``: a label and its number (``hand -20``) and a sum's end (``= 35``) stay on
    one line whatever the language puts around them.  A term wider than ``width`` has a line
    of its own (the screen folds it)."""
    terms: list[str] = []
    for word in text.split(" "):
        if terms and not terms[-1].endswith(TERM_ENDS):
            terms[-1] += " " + word
        else:
            terms.append(word)
    lines: list[str] = []
    for term in terms:
        if lines and cell_len(lines[-1]) + 1 + cell_len(term) <= width:
            lines[-1] += " " + term
        else:
            lines.append(indent + term if lines else term)
    return lines


def hand_line(cards: list[int], *, cursor: int, selected: set[int], symbols: bool,
              clickable: bool = True) -> str:
    """The hand in display order: the cursor reversed, selected cards in brackets."""
    out = []
    for index, card in enumerate(cards):
        text = card_text(card)
        label = face_markup(text, symbols=symbols)
        label = f"[b]\\[{label}][/b]" if card in selected else f" {label} "
        if index == cursor:
            label = f"[reverse]{label}[/]"
        if clickable:
            label = f"[@click=app.card({card})]{label}[/]"
        out.append(label)
    return " ".join(out)


def cards_plain(texts: list[str] | tuple[str, ...], *, symbols: bool) -> str:
    return " ".join(face_label(t, symbols=symbols) for t in texts)


def revealed_lines(t: Table, w: Words, *, symbols: bool) -> str:
    """Every seat's cards once the hand is over (counted in public)."""
    lines = []
    for seat, cards in enumerate(t.revealed):
        texts = " ".join(face_markup(card_text(c), symbols=symbols) for c in cards) or "–"
        lines.append(f"{escape(name_of(t, seat))}: {texts}")
    return "\n".join(lines)
