"""The screen's pieces: thin Textual widgets that draw :mod:`burraco.tui.render`'s markup.

Modal screens for the help, the whole discard pile and the question before
leaving a match.
"""

from __future__ import annotations

from rich.style import Style
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Static


class Line(Static):
    """One piece of the table (markup; clicks run the ``@click`` actions in it).

    A clickable card is drawn as any other, in its suit's or the wild colour: Textual would
    give every ``@click`` span the theme's link colour and an underline (a red Q♦ on the pile
    would come out grey), so links add nothing to the style; under the mouse they are
    underlined, the colour kept.
    """

    DEFAULT_CSS = """
    Line { height: auto; width: 1fr; }
    """

    @property
    def link_style(self) -> Style:
        return Style()

    @property
    def link_style_hover(self) -> Style:
        return Style(underline=True)


class MeldArea(VerticalScroll, can_focus=False):
    """The melds, scrolled by the mouse wheel when they outgrow the screen; never focused, so
    the arrow keys, Home and End stay the table's."""


class Message(ModalScreen[bool]):
    """A box of text; any key closes it (``y`` answers yes when it asks)."""

    DEFAULT_CSS = """
    Message { align: center middle; }
    Message > Vertical { width: auto; max-width: 96%; height: auto; max-height: 96%;
                         border: round $accent; padding: 0 1; background: $panel; }
    #message-text { width: auto; max-width: 76; height: auto; }
    """

    def __init__(self, text: str, *, question: bool = False) -> None:
        super().__init__()
        self.text = text
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.text, id="message-text")

    def on_key(self, event: Key) -> None:
        event.stop()
        self.dismiss(self.question and event.key == "y")

    def on_click(self) -> None:
        self.dismiss(False)
