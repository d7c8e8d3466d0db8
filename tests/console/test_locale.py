"""The local table in a locale (`--locale`): every line it prints is written in it. In
the pseudo-locale ``en-XA`` a text that went through the catalog is bracketed ⟦…⟧, so a
line without the brackets went around it.

The engines' own texts (rules, prompts, story lines, summaries from ``engines/``) are not
catalog messages yet: the lines made of them alone are told apart by recording every text
the engines return while the same example is played in English, and left out."""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.console.script import recorded_seed
from bot.console.table import LocalTable
from engines.declared import DeclaredGame
from games import SPECS
from i18n.pseudo import CLOSE, OPEN
from tests.console.terminal import console

EXAMPLES = Path(__file__).parents[2] / "examples"
EXAMPLE = EXAMPLES / "dragons-cave-2p.txt"
"""An example with open and secret choices, hands, private texts and an ending."""
SLUG = "dragons-cave"

ENGINE_CALLS = (
    "roles", "prompts", "legal_actions", "apply", "skip", "view", "result", "forfeit",
    "agree_draw", "rules_help",
)  # fmt: skip
"""The engine's methods whose answers hold texts people read."""
MENTION = re.compile(r"@\w+")
WORDS = re.compile(r"[^\W\d_]{2,}")


def texts_in(value: Any) -> set[str]:
    """Every string in ``value`` (lists, dicts, tuples, dataclasses), each line alone."""
    found: set[str] = set()
    if isinstance(value, str):
        found |= {line.strip() for line in value.splitlines() if WORDS.search(line)}
    elif isinstance(value, dict):
        for item in value.values():
            found |= texts_in(item)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            found |= texts_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            found |= texts_in(getattr(value, field.name))
    return found


def record_engine_texts(monkeypatch: pytest.MonkeyPatch, slug: str) -> set[str]:
    """From now on, every text the engine of ``slug`` returns is kept in the set returned
    (its title and turn word to begin with): the engines' own texts are not catalog
    messages yet, and the set tells them apart from the host's."""
    spec = SPECS[slug]
    found = texts_in([spec.engine.title, spec.engine.turn_name])

    def recording(method: Callable[..., Any]) -> Callable[..., Any]:
        def recorded(*args: Any, **kwargs: Any) -> Any:
            answer = method(*args, **kwargs)
            found.update(texts_in(answer))
            return answer

        return recorded

    # The game is declared: its calls are fields of the engine, replaced in a copy of it.
    assert isinstance(spec.engine, DeclaredGame)
    calls: dict[str, Any] = {n: recording(getattr(spec.engine, n)) for n in ENGINE_CALLS}
    engine = dataclasses.replace(spec.engine, **calls)
    monkeypatch.setitem(SPECS, slug, dataclasses.replace(spec, engine=engine))
    return found


async def engine_texts(monkeypatch: pytest.MonkeyPatch, script: str) -> set[str]:
    """The texts the engine returns while ``script`` is played (in English, with the seed
    it records): the same game ``--script`` plays."""
    found = record_engine_texts(monkeypatch, SLUG)
    table = await LocalTable.open(seed=recorded_seed(script), out=io.StringIO())
    try:
        refused = await table.run_lines(script.splitlines())
    finally:
        await table.close()
    assert not refused
    return found


def made_by_the_engine(line: str, engine: set[str]) -> bool:
    """Whether ``line`` holds no words but the engine's texts (and players' @names), what
    the host adds around them being an emoji or punctuation; or is one part of an engine's
    text (a story line the host cut from the result it tells on a line of its own)."""
    rest = line
    for text in sorted(engine, key=len, reverse=True):
        rest = rest.replace(text, " ")
    return not WORDS.search(MENTION.sub(" ", rest)) or any(line in text for text in engine)


def outside_the_catalog(output: str) -> list[str]:
    """Each line of ``output`` with only its characters outside the pseudo-locale's
    brackets (a message written over several lines brackets them all), where some are."""
    found = []
    depth = 0
    for line in output.splitlines():
        outside = ""
        for char in line:
            if char == OPEN:
                depth += 1
            elif char == CLOSE:
                depth -= 1
            elif depth == 0:
                outside += char
        if WORDS.search(outside):
            found.append(outside)
    return found


async def test_every_line_of_an_example_in_the_pseudo_locale_went_through_the_catalog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = EXAMPLE.read_text(encoding="utf-8")
    played = console(["--script", str(EXAMPLE), "--locale", "en-XA"], tmp_path)
    assert played.returncode == 0, played.stderr
    typed = {"> " + line.strip() for line in script.splitlines()}
    # The player's lines are echoed as typed: commands and notation stay English.
    left = [words for words in outside_the_catalog(played.stdout) if words not in typed]
    engine = await engine_texts(monkeypatch, script)
    # The engines' texts are not converted yet: the words of those alone are left out.
    escaped = [words for words in left if not made_by_the_engine(words, engine)]
    assert escaped == []
    assert played.stdout.count("⟦(ƀöáŕð þîçţûŕé: ") == 41  # the whole game was played


async def test_an_unknown_locale_is_refused_naming_the_choices(tmp_path: Path) -> None:
    played = console(["--locale", "xx", "--script", str(EXAMPLE)], tmp_path)
    assert played.returncode == 2 and not played.stdout
    assert "no language 'xx' here; choose one of en, de, fr, es, pt-BR, en-XA" in played.stderr


async def test_the_tables_own_words_are_written_in_its_locale() -> None:
    out = io.StringIO()
    table = await LocalTable.open(seed=3, out=out, locale="en-XA")
    lines = [
        "help",
        "alice /game list",  # no colon: the table explains how lines are written
        "alice: /game settings hours:2",  # a Discord command
        "alice: /game new game:stgeorge players:2",
        "bob: /hand",
        "alice: /move",
        "alice: /games",
    ]
    try:
        refused = await table.run_lines(lines, echo=False)
    finally:
        await table.close()
    assert [number for number, _ in refused] == [2, 3, 6]
    shown = out.getvalue()
    commands = re.compile(r"^  \w+: /|^  \w+: \w")  # the help's lines of typed commands
    assert [words for words in outside_the_catalog(shown) if not commands.match(words)] == []
    assert "⟦[ţö alice] ~~~~⟧ ⚠️ ⟦Šáý ŵĥáţ ţö þļáý, é.ĝ. `alice: /move action:roll`." in shown
    assert "`/game settings` îš á Ðîšçöŕð çöɱɱáñð" in shown
    assert "⟦[ţö bob] ~~~~⟧ ⟦Ñöţĥîñĝ þŕîṽáţé ƒöŕ ýöû ñöŵ. ~~~~~~~~⟧" in shown
    assert "öñ **⟦ţĥîš ţáƀļé ~~~⟧**, #table" in shown  # the server, named as the table is
