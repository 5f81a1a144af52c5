"""The evening's register (fees, dinner, federation cards) on a real SQLite file, and its page
in Debian's Chromium against a real ``burraco serve``.

Seed 001 ("Torneo della Torre"): "TORNEO+CENA Euro 15,00 a persona" — a fee that includes
the dinner, or, for a club whose players may leave before dinner, a fee and a dinner apart.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from sqlalchemy import select

from burraco.tournament.errors import TournamentError
from burraco.tournament.members import Card, member, members, resolve_entries, save_member
from burraco.tournament.members import save_member_card as give_card
from burraco.tournament.model import Settings
from burraco.tournament.register import (
    Terms,
    Typed,
    link_members,
    load,
    money,
    money_text,
    renumber_pairs,
    save_lines,
    save_terms,
)
from burraco.tournament.schedule import Schedule
from burraco.tournament.service import Director
from burraco.tournament.storage import RegisterRow

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
PAIRS = ["Rossi / Bianchi", "Verdi / Neri", "Gialli / Blu", "Ferri / Conti", "Sala / Riva"]
MY_TABLES = {"tournament_member_cards", "tournament_register", "tournament_register_settings"}

pytestmark = pytest.mark.xdist_group("e2e")


@pytest.fixture
def director(tmp_path: Path) -> Iterator[Director]:
    d = Director.open(f"sqlite:///{tmp_path / 'club.db'}")
    yield d
    d.close()


def torre(director: Director) -> str:
    tid = director.create(Settings("Torneo della Torre",
                                   schedule=Schedule.parse("mitchell:3,danish:1")))
    director.register_all(tid, [(p, p.split(" / ")) for p in PAIRS])
    return tid


def typed(paid: bool = False, amount: str = "", dinner: bool = False, **card: str) -> Typed:
    return Typed(card.get("member", ""), card.get("number", ""), card.get("kind", ""), paid,
                 amount, dinner)


def test_the_seed_evening_fee_with_dinner_included(director: Director) -> None:
    """15.00 a person, dinner included: what each paid, who is still owing, who dines."""
    tid = torre(director)
    t = director.load(tid)
    with director.engine.begin() as conn:
        save_terms(conn, tid, fee="15,00", dinner_price="", club="Il Molino della Catasta",
                   day="2027-03-03")
        save_lines(conn, tid, t, {(1, 1): typed(True, dinner=True),
                                  (1, 2): typed(True, dinner=True),
                                  (2, 1): typed(True, "10", dinner=True),  # 5.00 still owed
                                  (3, 2): typed(dinner=False)})
    with director.engine.connect() as conn:
        register = load(conn, tid, t)
    assert register.terms == Terms(1500, 0, "Il Molino della Catasta",
                                   register.terms.date, "club")
    assert str(register.terms.date) == "2027-03-03"
    assert [(x.pair, x.player, x.name) for x in register.lines[:3]] == [
        (1, 1, "Rossi"), (1, 2, "Bianchi"), (2, 1, "Verdi")]
    assert register.line(1, 1).paid == 1500 and register.line(2, 1).paid == 1000
    totals = register.totals()
    assert (totals.players, totals.paying, totals.paid) == (10, 3, 4000)
    assert (totals.due, totals.owed) == (15000, 500 + 7 * 1500)
    assert (totals.dinners, totals.dinner_money) == (3, 0)


def test_a_fee_and_a_dinner_apart(director: Director) -> None:
    """10.00 the tournament, 5.00 the dinner: a tick pays what is due, dinner or not; a
    dinner ticked after paying leaves the dinner owed."""
    tid = torre(director)
    t = director.load(tid)
    with director.engine.begin() as conn:
        save_terms(conn, tid, fee="10", dinner_price="5,00", level="regional")
        save_lines(conn, tid, t, {(1, 1): typed(True, dinner=True),
                                  (1, 2): typed(True),
                                  (4, 1): typed(True, "7.5")})
        save_lines(conn, tid, t, {(1, 2): typed(True, "10,00", dinner=True)})
    with director.engine.connect() as conn:
        register = load(conn, tid, t)
    assert [register.line(1, k).paid for k in (1, 2)] == [1500, 1000]
    assert register.line(1, 2).owed(register.terms) == 500
    assert register.line(4, 1).owed(register.terms) == 250
    totals = register.totals()
    assert (totals.paid, totals.dinners, totals.dinner_money) == (3250, 2, 1000)
    assert totals.due == 10 * 1000 + 2 * 500 and totals.owed == totals.due - totals.paid
    assert money_text("it", 1550) == "15,50\xa0€" and money_text("en", 1550) == "€15.50"


@pytest.mark.parametrize(("typed_text", "cents"), [
    ("15", 1500), ("15,5", 1550), ("15.50", 1550), ("€ 7,05", 705), ("0", 0), (" 1000 ", 100000)])
def test_amounts_as_typed(typed_text: str, cents: int) -> None:
    from burraco.tournament.i18n import Text
    assert money(typed_text, Text("what.fee")) == cents


@pytest.mark.parametrize(("line", "expected"), [
    (typed(True, "15,555"), "pair 1, Rossi: the amount paid must be an amount such as 15 or "
                            "15,50, not '15,555'"),
    (typed(True, "-5"), "not '-5'"),
    (typed(True, "1000,01"), "the amount paid '1000,01' is more than 1000"),
    (typed(number="IT-123"), "pair 1, Rossi: a federation card's number is letters and digits"),
    (typed(number="A" * 21), "not 'AAAAAAAAAAAAAAAA'… (21 characters)"),
    (typed(kind="agonista"), "the card type 'agonista' needs the card's number"),
    (typed(number="X1", kind="a very long card type name"), "at most 20 characters"),
    (typed(member="99"), "pair 1, Rossi: no club member #99"),
])
def test_a_refused_line_names_the_player_and_changes_nothing(director: Director, line: Typed,
                                                             expected: str) -> None:
    tid = torre(director)
    t = director.load(tid)
    with director.engine.begin() as conn:
        save_terms(conn, tid, fee="15")
        save_lines(conn, tid, t, {(2, 1): typed(True, dinner=True)})
    with director.engine.connect() as conn:
        before = load(conn, tid, t)
    with pytest.raises(TournamentError) as refused, director.engine.begin() as conn:
        save_lines(conn, tid, t, {(2, 2): typed(True), (1, 1): line})
    assert expected in str(refused.value)
    with director.engine.connect() as conn:
        assert load(conn, tid, t) == before  # not even the good line (2, 2) was written


def test_the_terms_are_checked(director: Director) -> None:
    tid = torre(director)
    for form, expected in [({"level": "world"}, "one of club, federal, regional, national"),
                           ({"day": "3/3/2027"}, "a day such as 2027-03-03, not '3/3/2027'"),
                           ({"day": "2027-02-30"}, "not '2027-02-30'"),
                           ({"fee": "dieci"}, "the entry fee must be an amount"),
                           ({"club": "x" * 121}, "at most 120 characters")]:
        with pytest.raises(TournamentError) as refused, director.engine.begin() as conn:
            save_terms(conn, tid, **form)
        assert expected in str(refused.value)
    with director.engine.connect() as conn:
        assert load(conn, tid, director.load(tid)).terms == Terms()


def test_a_members_card_is_his_and_a_card_in_the_register_wins(director: Director) -> None:
    with director.engine.begin() as conn:
        save_member(conn, "12", "Dino Neri", "Senior")
        give_card(conn, "12", "FB100234", "agonista")
        save_member(conn, "12", "Dino Neri", "Open")  # saved again: the card stays
        save_member(conn, "7", "Anna Verdi", "Open")
        with pytest.raises(TournamentError, match="no club member #8"):
            give_card(conn, "8", "X1")
    with director.engine.connect() as conn:
        assert member(conn, "12").card == Card("FB100234", "agonista")
        assert [m.to_dict() for m in members(conn)] == [
            {"number": "7", "name": "Anna Verdi", "category": "Open", "account": None},
            {"number": "12", "name": "Dino Neri", "category": "Open", "account": None,
             "card": {"number": "FB100234", "type": "agonista"}}]
        resolved = resolve_entries(conn, [("Carla / #12", ["Carla", "#12"])])
    assert resolved[0].members == (None, "12") and resolved[0].players == ["Carla", "Dino Neri"]
    tid = director.create(Settings("Serata", schedule=Schedule.parse("mitchell:1")))
    pair = director.register_all(tid, [(resolved[0].name, resolved[0].players),
                                       ("A / B", ["A", "B"])])[0]
    t = director.load(tid)
    with director.engine.begin() as conn:
        link_members(conn, tid, pair.number, resolved[0].members)  # what registration notes
        save_lines(conn, tid, t, {(2, 1): typed(member="#7"),
                                  (2, 2): typed(number="RO77", kind="promozionale")})
    with director.engine.connect() as conn:
        register = load(conn, tid, t)
    cards = [register.card_of(line) for line in register.lines]
    assert cards == [None, Card("FB100234", "agonista"), None, Card("RO77", "promozionale")]
    with director.engine.begin() as conn:  # Anna gets her card; Dino writes tonight's
        give_card(conn, "7", "FB555")
        save_lines(conn, tid, t, {(1, 2): typed(member="12", number="FB999", kind="ordinario")})
        give_card(conn, "12", "", "")  # taken away from the members' list
    with director.engine.connect() as conn:
        register = load(conn, tid, t)
        assert member(conn, "12").card is None
    assert [register.card_of(line) for line in register.lines] == [
        None, Card("FB999", "ordinario"), Card("FB555", ""), Card("RO77", "promozionale")]


def test_pairs_renumbered_before_round_1_keep_their_lines(director: Director) -> None:
    tid = torre(director)
    t = director.load(tid)
    with director.engine.begin() as conn:
        save_lines(conn, tid, t, {(p, k): typed(True, f"{p}{k}", number=f"C{p}{k}")
                                  for p in range(1, 6) for k in (1, 2)})

    def rows() -> dict[tuple[int, int], tuple[str | None, int | None]]:
        with director.engine.connect() as conn:
            return {(r.pair, r.player): (r.card_number, r.paid) for r in conn.execute(
                select(RegisterRow).where(RegisterRow.tournament_id == tid))}

    before = rows()
    for wrong in ({3: 2}, {2: 4, 3: 4}, {2: 0}):  # onto a pair kept, two onto one, not a number
        with pytest.raises(ValueError), director.engine.begin() as conn:
            renumber_pairs(conn, tid, wrong)
        assert rows() == before
    with director.engine.begin() as conn:  # pair 2 removed: 3, 4, 5 become 2, 3, 4
        renumber_pairs(conn, tid, {1: 1, 2: None, 3: 2, 4: 3, 5: 4})
    after = rows()
    assert sorted(after) == [(p, k) for p in range(1, 5) for k in (1, 2)]
    assert after[2, 1] == ("C31", 3100) and after[4, 2] == ("C52", 5200)
    assert after[1, 1] == before[1, 1]


def test_the_migration_makes_exactly_the_register_s_tables(tmp_path: Path) -> None:
    """t0006 creates the three tables as the models say, and goes down and up again."""
    from alembic import command
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy import inspect

    from burraco.infra.db import make_engine
    from burraco.tournament.storage import VERSION_TABLE, Base, alembic_config, migrate

    engine = make_engine(f"sqlite:///{tmp_path / 'club.db'}")
    migrate(engine)

    def mine(item: Any, name: str | None, kind: str, *_: Any) -> bool:
        """Only the register's tables (and their columns and indexes) are compared."""
        return (name if kind == "table" else item.table.name) in MY_TABLES

    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE,
                                                         "include_object": mine})
        assert compare_metadata(context, Base.metadata) == []
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "t0005")
    assert not MY_TABLES & set(inspect(engine).get_table_names())
    migrate(engine)
    assert set(inspect(engine).get_table_names()) >= MY_TABLES
    engine.dispose()


# --- the page, in the browser ------------------------------------------------------------------


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"register-{name}.png"), full_page=True)


def totals(page: Any) -> dict[str, int]:
    cells = page.locator("#totals td[data-total]")
    return {str(cells.nth(k).get_attribute("data-total")):
            int(cells.nth(k).get_attribute("data-value") or 0) for k in range(cells.count())}


def test_the_director_keeps_the_register_in_the_browser(server: ServerProcess,
                                                        browser: Any) -> None:
    http = server.http
    made = http.post("/tournaments/", data={"name": "Torneo della Torre",
                                            "schedule": "mitchell:3,danish:1"})
    tid = made.headers["location"].split("/")[2]
    http.post(f"/tournaments/{tid}/pairs", data={"pairs": "\n".join(PAIRS)})
    base = f"{server.base}/tournaments/{tid}"
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="it-IT")
    page = context.new_page()
    page.goto(f"{base}/register?lang=it")
    assert page.locator("html").get_attribute("lang") == "it"
    assert page.locator("#ledger tr[data-pair]").count() == 10
    page.locator("#terms input[name=fee]").fill("10,00")
    page.locator("#terms input[name=dinner_price]").fill("5")
    page.locator("#terms input[name=club]").fill("Il Molino della Catasta")
    page.locator("#terms input[name=date]").fill("2027-03-03")
    page.locator("#terms select[name=level]").select_option("club")
    page.locator("#terms button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator("#notice").is_visible()
    assert page.locator("#terms input[name=fee]").input_value() == "10,00"
    assert totals(page)["due"] == 10 * 1000
    for key in ("1-1", "1-2", "2-1"):
        page.locator(f"input[name=paid-{key}]").check()
    for key in ("1-1", "1-2", "3-1"):
        page.locator(f"input[name=dinner-{key}]").check()
    page.locator("input[name=amount-2-1]").fill("8")
    page.locator("input[name=card-3-1]").fill("FB100234")
    page.locator("input[name=type-3-1]").fill("agonista")
    page.locator("#ledger-form button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator("#notice").is_visible()
    assert totals(page) == {"players": 10, "paying": 3, "paid": 3800, "owed": 7700,
                            "due": 10 * 1000 + 3 * 500, "dinners": 3, "dinner_money": 1500}
    assert page.locator("tr[data-pair='2'][data-player='1'] td[data-owed]").get_attribute(
        "data-owed") == "200"
    assert "15,00" in page.locator("input[name=amount-1-1]").input_value()
    assert page.locator("input[name=card-3-1]").input_value() == "FB100234"
    shot(page, "01-saved-it")
    # refused: nothing changes, the reason names the player and what was wrong
    page.locator("input[name=card-4-2]").fill("FB-1")
    page.locator("input[name=paid-5-1]").check()
    page.locator("#ledger-form button[type=submit]").click()
    page.wait_for_load_state()
    assert "coppia 4, Conti" in page.locator("#error").inner_text()  # Italian: the page's
    shot(page, "02-refused-it")
    page.goto(f"{base}/register?lang=en")
    assert totals(page)["paying"] == 3 and not page.locator("input[name=paid-5-1]").is_checked()
    assert page.locator("#ledger tr[data-pair]").count() == 10
    shot(page, "03-register-en")
    for lang in ("es", "ro", "sl"):
        page.goto(f"{base}/register?lang={lang}")
        assert page.locator("html").get_attribute("lang") == lang
        assert page.locator("#ledger-form").is_visible()
    context.close()
    phones = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = phones.new_page()
    phone.goto(f"{base}/register?lang=it")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the register page is {width} px wide on a phone"
    shot(phone, "04-phone-it")
    phones.close()
