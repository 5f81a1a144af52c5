"""The terminal table: a Textual app drawing a :class:`Table` and sending the engine's actions.

It holds only the screen's own state (the cursor, the selection, the sort
order, a half-typed meld number); the table itself belongs to the driver
(offline bots, a server, a record).  Keys come from the settings
(:mod:`burraco.tui.keys`) and are shown in the footer; the mouse works too.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.events import Key, Resize
from textual.markup import escape
from textual.widgets import Footer

from burraco.engine.cards import card_face, face_str
from burraco.tui import render
from burraco.tui.cards import card_text, sorted_hand
from burraco.tui.driver import Driver
from burraco.tui.i18n import Words
from burraco.tui.keys import DEFAULT_KEYS, Settings, key_label
from burraco.tui.model import Table
from burraco.tui.widgets import Line, MeldArea, Message

PLAY_ACTIONS = {"draw", "pickup", "meld", "attach", "discard", "undo"}
REPLAY_ACTIONS = {"back", "seat", "first", "last"}
MAX_SIDES = 3


def build_bindings(settings: Settings, words: Words) -> list[Binding]:
    out = []
    for action, (_, shown) in DEFAULT_KEYS.items():
        keys = settings.keys.get(action, DEFAULT_KEYS[action][0])
        show = shown or action in ("next", "back", "seat", "last")
        # tab moves the focus in Textual's screens; the seat switch must come first
        out.append(Binding(keys, action, words(f"key.{action}"), show=show,
                           key_display=key_label(keys), id=action, priority=action == "seat"))
    return out


class BurracoApp(App[int]):
    """One table in the terminal."""

    TITLE = "Burraco"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #header { background: $boost; height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    #melds { height: 1fr; min-height: 3; }
    .meldcol { width: 1fr; padding: 0 1 0 0; }
    #log { height: 3; color: $text-muted; }
    #status { min-height: 1; }
    #hand { min-height: 2; border-top: solid $accent; }
    """

    def __init__(self, driver: Driver, *, words: Words, settings: Settings) -> None:
        super().__init__()
        self.driver = driver
        self.words = words
        self.settings = settings
        self.symbols = settings.suits != "letters"
        self.sort_mode = "suit"
        self.cursor_card: int | None = None
        self.selected: set[int] = set()
        self.message = ""
        self.attach_digits: str | None = None
        self.last: Table = driver.table()
        self.log_count = 3
        self._hand_seen: set[int] = set()
        self._drawn: dict[str, str] = {}
        self._keys_for: tuple[object, ...] = ()
        self._bindings_for(settings, words)

    def _bindings_for(self, settings: Settings, words: Words) -> None:
        for binding in Binding.make_bindings(build_bindings(settings, words)):
            self._bindings._add_binding(binding)

    # --- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Line(id="header")
        yield Line(id="seats")
        with MeldArea(id="melds"), Horizontal():
            for side in range(MAX_SIDES):
                yield Line(id=f"melds-{side}", classes="meldcol")
        yield Line(id="table")
        yield Line(id="log")
        yield Line(id="status")
        yield Line(id="hand")
        yield Footer(compact=True, show_command_palette=False)

    async def on_mount(self) -> None:
        self.set_interval(1.0, self._tick)
        await self.driver.start(self.refresh_table)
        self.refresh_table()

    def on_resize(self, event: Resize) -> None:
        height = event.size.height
        self.log_count = 3 if height < 30 else 4 + (height - 30) // 4
        self.refresh_table()

    def _tick(self) -> None:
        if self.last.clock_deadline is not None:
            self.query_one("#header", Line).update(render.header(self.last, self.words))

    # --- drawing --------------------------------------------------------------------------

    def hand_order(self) -> list[int]:
        return sorted_hand(self.last.hand, self.sort_mode)

    def cursor_index(self, order: list[int]) -> int:
        if self.cursor_card in order:
            return order.index(self.cursor_card)
        return 0 if order else -1

    def refresh_table(self) -> None:
        if not self.is_running:
            return
        t = self.last = self.driver.table()
        w = self.words
        if set(t.hand) != self._hand_seen:
            # the hand changed (a play went through): the engine may have played the other
            # copy of a selected face, so the selection starts afresh
            self.selected = set()
            self._hand_seen = set(t.hand)
        order = self.hand_order()
        if self.cursor_card not in order:
            self.cursor_card = order[0] if order else None
        width = self.size.width or 80
        self._draw("#header", render.header(t, w))
        self._draw("#seats", render.seats(t, w, width))
        sides = render.sides_in_order(t)
        for column in range(MAX_SIDES):
            widget = self.query_one(f"#melds-{column}", Line)
            widget.display = column < len(sides)
            if column < len(sides):
                self._draw(f"#melds-{column}", render.meld_column(
                    t, sides[column], w, symbols=self.symbols,
                    mine=column == 0 and t.seat is not None))
        self._draw("#table", render.table_line(t, w, symbols=self.symbols,
                                               show=max(6, (width - 60) // 4)))
        log = render.log_lines(t, w, symbols=self.symbols, count=self.log_count)
        rows = self.log_count
        if t.result and (t.status in ("over", "finished") or not any(
                seat == t.seat or t.seat is None for seat, _ in t.moves)):
            # the last hand's score sheet stays until the seat's own first move, whole: the
            # log grows to its lines, each broken between terms only
            log = render.result_lines(t, w, width=width)
            rows = max(rows, log.count("\n") + 1)
        if t.status == "waiting" and t.notice:
            log = escape(t.notice)
        log_area = self.query_one("#log", Line)
        if log_area.styles.height is None or log_area.styles.height.value != rows:
            log_area.styles.height = rows
        self._draw("#log", log)
        self._draw_status()
        self._draw_hand()
        keys_for = (t.kind, t.status, t.match_over)
        if keys_for != self._keys_for:  # the footer is rebuilt only when its keys change
            self._keys_for = keys_for
            self.refresh_bindings()

    def _draw(self, selector: str, markup: str) -> None:
        """Update a piece only when its text changed (a redraw costs a layout pass)."""
        if self._drawn.get(selector) != markup:
            self._drawn[selector] = markup
            self.query_one(selector, Line).update(markup)

    def _draw_status(self) -> None:
        w = self.words
        message = self.message
        if self.attach_digits is not None:
            message = w("attach_which") + (f" {self.attach_digits}" if self.attach_digits else "")
        self._draw("#status", render.status(self.last, w, message, symbols=self.symbols))

    def _draw_hand(self) -> None:
        self._draw("#hand", self._hand_markup(self.last, self.hand_order()))

    def _hand_markup(self, t: Table, order: list[int]) -> str:
        if t.seat is None and t.kind != "replay":
            return render.revealed_lines(t, self.words, symbols=self.symbols) \
                if t.revealed else ""
        text = render.hand_line(order, cursor=self.cursor_index(order), selected=self.selected,
                                symbols=self.symbols)
        if t.pozzetto_seen:
            seen = render.cards_plain([card_text(c) for c in t.pozzetto_seen],
                                      symbols=self.symbols)
            text += "\n" + self.words("seen_pozzetto", cards=seen)
        return text

    # --- which keys apply -----------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        kind = self.last.kind
        if action in PLAY_ACTIONS or action == "attach_to":
            return kind in ("offline", "online")
        if action in REPLAY_ACTIONS:
            return kind == "replay"
        if action == "sort":
            return kind != "watch"
        if action == "next":
            return kind == "replay" or (kind == "offline" and self.last.status == "over"
                                        and not self.last.match_over)
        return True

    # --- actions --------------------------------------------------------------------------

    def _faces(self, cards: list[int]) -> str:
        return " ".join(face_str(card_face(c)) for c in cards)

    def _selection(self) -> list[int]:
        return [c for c in self.hand_order() if c in self.selected]

    async def _send(self, action: str) -> None:
        self.message = ""
        await self.driver.act(action)
        self.refresh_table()

    async def action_draw(self) -> None:
        await self._send("draw")

    async def action_pickup(self) -> None:
        await self._send("pickup")

    async def action_meld(self) -> None:
        cards = self._selection()
        if not cards:
            self._say(self.words("nothing_selected"))
            return
        await self._send("meld " + self._faces(cards))

    def action_attach(self) -> None:
        if not self._selection():
            self._say(self.words("nothing_selected"))
            return
        self.attach_digits = ""
        self.refresh_table()

    async def action_attach_to(self, number: int) -> None:
        cards = self._selection()
        if not cards:
            self._say(self.words("nothing_selected"))
            return
        self.attach_digits = None
        await self._send(f"attach {number} " + self._faces(cards))

    async def action_discard(self) -> None:
        cards = self._selection()
        if not cards and self.cursor_card is not None:
            cards = [self.cursor_card]
        if len(cards) != 1:
            self._say(self.words("select_one"))
            return
        await self._send("discard " + self._faces(cards))

    async def action_undo(self) -> None:
        self.message = ""
        await self.driver.undo()
        self.refresh_table()

    def action_sort(self) -> None:
        self.sort_mode = "rank" if self.sort_mode == "suit" else "suit"
        self._say(self.words("sorted_rank" if self.sort_mode == "rank" else "sorted_suit"))

    def action_left(self) -> None:
        self._move(-1)

    def action_right(self) -> None:
        self._move(1)

    def _move(self, step: int) -> None:
        order = self.hand_order()
        if order:
            index = (self.cursor_index(order) + step) % len(order)
            self.cursor_card = order[index]
        self._draw_hand()

    def action_select(self) -> None:
        if self.cursor_card is not None:
            self.selected ^= {self.cursor_card}
        self._draw_hand()

    def action_card(self, card: int) -> None:
        if card in self.last.hand:
            self.cursor_card = card
            self.selected ^= {card}
        self.refresh_table()

    async def action_next(self) -> None:
        await self.driver.forward()
        self.refresh_table()

    async def action_back(self) -> None:
        await self.driver.back()
        self.refresh_table()

    async def action_first(self) -> None:
        await self.driver.jump(0)
        self.refresh_table()

    async def action_last(self) -> None:
        await self.driver.jump(10**9)
        self.refresh_table()

    async def action_seat(self) -> None:
        await self.driver.switch_seat()
        self.refresh_table()

    def action_pile(self) -> None:
        pile = self.last.pile
        text = escape(self.words("pile_all", n=len(pile))) + "\n" + (
            render.cards_plain(pile, symbols=self.symbols) or self.words("pile_empty"))
        if self.last.revealed:  # the hand is over: every seat's cards are laid down (§9)
            text += "\n\n" + render.revealed_lines(self.last, self.words, symbols=self.symbols)
        self.push_screen(Message(text))

    def action_help(self) -> None:
        w = self.words
        lines = [f"[b]{escape(w('help_title'))}[/b]"]
        for action in DEFAULT_KEYS:  # the keys that do something here
            listed = self.last.kind in ("replay", "offline") if action == "next" else \
                self.check_action(action, ())
            if not listed:
                continue
            keys = key_label(self.settings.keys.get(action, DEFAULT_KEYS[action][0]))
            lines.append(escape(f"{keys:>7}  {w(f'help.{action}')}"))
        if self.last.kind in ("offline", "online"):
            lines.append(escape(w("help.mouse")))
        if self.settings.path is not None:
            lines.append(escape(w("help.settings", path=str(self.settings.path))))
        if "seed" in self.last.extra:
            lines.append(escape(w("seed", seed=self.last.extra["seed"])))
        lines.append(f"[dim]{escape(w('help_close'))}[/]")
        self.push_screen(Message("\n".join(lines)))

    async def action_quit(self) -> None:
        t = self.last
        in_match = t.kind in ("offline", "online") and t.status != "finished" \
            and not t.match_over
        if not in_match:
            await self._leave()
            return

        async def answer(yes: bool | None) -> None:
            if yes:
                await self._leave()

        self.push_screen(Message(self.words("quit_confirm"), question=True), answer)

    async def _leave(self) -> None:
        await self.driver.close()
        self.exit(0)

    def _say(self, message: str) -> None:
        self.message = message
        self._draw_status()
        self._draw_hand()

    # --- typing a meld number after `attach` ----------------------------------------------

    async def on_key(self, event: Key) -> None:
        if self.attach_digits is None:
            return
        event.stop()
        event.prevent_default()
        count = len(self.last.melds[render.sides_in_order(self.last)[0]]) if self.last.melds \
            else 0
        if event.key == "escape":
            self.attach_digits = None
            self._say(self.words("attach_cancel"))
        elif event.character is not None and event.character.isdigit():
            self.attach_digits += event.character
            number = int(self.attach_digits)
            if number * 10 > count or len(self.attach_digits) >= 2:
                await self.action_attach_to(number)
            else:
                self.refresh_table()
        elif event.key == "enter" and self.attach_digits:
            await self.action_attach_to(int(self.attach_digits))
        else:
            self.attach_digits = None
            self._say(self.words("attach_cancel"))
