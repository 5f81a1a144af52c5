"""The message catalogs (issue: five languages on catalogs): every language's catalog has
every message of the source, none empty or fuzzy, each with the placeholders of its English;
the terminal's and the server's messages format; the template is what the sources say today;
and no hand-written translation table is left anywhere in the sources."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from burraco.locale import (
    LANGUAGES,
    SOURCE,
    catalog_path,
    from_environment,
    negotiate,
    ngettext_in,
    pgettext_in,
    translations,
)
from burraco.locale.reasons import reason_in

ROOT = Path(__file__).resolve().parents[2]
POT = ROOT / "src" / "burraco" / "locale" / "burraco.pot"
OTHERS = [lang for lang in LANGUAGES if lang != SOURCE]
SLOT = re.compile(r"\{\s*(\w+)")


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def _slots(text: str) -> set[str]:
    return set(SLOT.findall(text))


@pytest.mark.parametrize("lang", OTHERS)
def test_every_catalog_has_every_message_with_its_placeholders(lang: str) -> None:
    template = _read(POT)
    catalog = _read(catalog_path(lang), lang)
    problems: list[str] = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        where = f"{lang} {message.context or ''}|{message.id!s:.60}"
        if found is None or not found.string:
            problems.append(f"{where}: missing")
            continue
        if found.fuzzy:
            problems.append(f"{where}: fuzzy")
        english = message.id if isinstance(message.id, str) else " ".join(message.id)
        text = found.string if isinstance(found.string, str) else " ".join(found.string)
        if _slots(english) != _slots(text):
            problems.append(f"{where}: placeholders {sorted(_slots(text))}, "
                            f"not {sorted(_slots(english))}")
        if "icu-format" not in message.flags and "{" in english:
            # Python's str.format (the terminal, the server): no ICU syntax, and it formats
            try:
                text.format(**{name: "x" for name in _slots(english)})
            except (KeyError, IndexError, ValueError) as error:
                problems.append(f"{where}: does not format ({error})")
    assert problems == []


def test_the_template_is_what_the_sources_say() -> None:
    """``scripts/i18n extract`` run now would write the template as it is (no message added in
    a source and forgotten by the catalogs)."""
    out = subprocess.run([sys.executable, "-c", (
        "import runpy, sys; sys.argv = ['i18n']; "
        "ns = runpy.run_path('scripts/i18n', run_name='i18n'); "
        "t = ns['template'](); "
        "print('\\n'.join(sorted(f'{m.context}|{m.id}' for m in t if m.id)))")],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout.splitlines()
    written = sorted(f"{m.context}|{m.id}" for m in _read(POT) if m.id)
    assert out == written


def test_the_status_command_reports_every_language() -> None:
    out = subprocess.run([sys.executable, "scripts/i18n", "status", "--check"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout
    for lang in OTHERS:
        assert re.search(rf"^{lang}: (\d+)/\1 translated \(100 %\), 0 fuzzy, 0 missing$",
                         out.stdout, re.M), out.stdout


def test_messages_in_each_language() -> None:
    assert pgettext_in("it", "tui.hand_no", "Hand {n}") == "Smazzata {n}"
    assert pgettext_in("en", "tui.hand_no", "Hand {n}") == "Hand {n}"
    for lang in OTHERS:
        assert pgettext_in(lang, "code.not_your_turn", "It is not your turn.") \
            != "It is not your turn."
        # a reason with a card, a rank and a list in it: every value in the player's words
        said = reason_in(lang, "sets of 7s are not allowed (only aces and threes)")
        assert said != "sets of 7s are not allowed (only aces and threes)"
        assert "aces" not in said and "threes" not in said
    assert reason_in("it", "you do not hold another 10S") == "non hai un altro 10♠"
    assert reason_in("it", "sets of 7s are not allowed (only aces and threes)") \
        == "le combinazioni di 7 non sono ammesse (solo assi e tre)"
    assert reason_in("es", "a reason nobody wrote") == "a reason nobody wrote"


def test_plural_forms_follow_each_language() -> None:
    """The catalogs carry each language's plural rule (Slovenian has four forms)."""
    counts = {lang: translations(lang).info().get("plural-forms", "") for lang in OTHERS}
    assert "nplurals=4" in counts["sl"] and "nplurals=3" in counts["ro"]
    assert ngettext_in("en", "{n} card", "{n} cards", 1) == "{n} card"


def test_the_language_is_negotiated() -> None:
    assert negotiate(["de-DE", "ro-RO", "it"]) == "ro"
    assert negotiate(["fr"]) == "en"
    assert from_environment({"LANG": "sl_SI.UTF-8"}) == "sl"
    assert from_environment({"LC_ALL": "C", "LANG": "it_IT.UTF-8"}) == "en"
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        translations("fr")


# --- no hand-written translation table ----------------------------------------------------

#: What a hand-written table looks like: a language code as a key beside another one, a
#: per-language dict or object, an Italian (or other) table named as such.
TABLE_SHAPES = [
    re.compile(r"""["']?\b(it|en|es|ro|sl)["']?\s*:\s*["'][^"']+["']\s*,\s*["']?\b(it|en|es|ro|sl)["']?\s*:"""),
    re.compile(r"""["'](it|en)["']\s*:\s*\{"""),
    re.compile(r"""\b(const|let)\s+(it|en|IT|EN)\s*(:[^=]+)?=\s*\{"""),
    re.compile(r"""^_?(IT|EN|ITALIAN|ENGLISH|[A-Z_]+_IT)\s*(:[^=]+)?=\s*\{""", re.M),
    re.compile(r"""lang\(\)\s*===\s*["']it["']\s*\?"""),
]


def _sources() -> list[Path]:
    found = [*sorted((ROOT / "src" / "burraco").rglob("*.py")),
             *sorted((ROOT / "web" / "src").rglob("*.ts")),
             *sorted((ROOT / "web" / "src").rglob("*.tsx"))]
    return [path for path in found if "static" not in path.parts]


def test_no_hand_written_translation_table_is_left() -> None:
    tables = []
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        for shape in TABLE_SHAPES:
            for match in shape.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                tables.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0)[:60]}")
    assert tables == []


def test_the_table_finder_finds_tables() -> None:
    """The check above would see the tables the catalogs replaced."""
    samples = [
        'const it: Record<Key, string> = {\n  "a": "b",\n};',
        '  not_your_turn: { en: "It is not your turn.", it: "Non è il tuo turno." },',
        '    "table": {"it": "Tavolo", "en": "Table"},',
        '_IT: dict[str, str] = {\n    "title": "Burraco",\n}',
        'TEXTS = {"en": EN, "it": {"a": "b"}}',
        'return lang() === "it" ? reasonIt(reason) : reason;',
    ]
    for sample in samples:
        assert any(shape.search(sample) for shape in TABLE_SHAPES), sample
