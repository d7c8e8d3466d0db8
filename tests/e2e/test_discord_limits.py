"""Every request the bot sends stays within Discord's limits, in every game at every table size,
and in languages longer than English.

A whole game of each registered game at each of its table sizes is played through the bot on
simulated Discord: a person plays one seat (asking autocomplete for their moves each turn,
as they would type), easy computers play the others. Every request the bot makes (posts,
edits, DMs, interaction answers and follow-ups, autocomplete, files) is checked against
Discord's published limits; a failure names the request and the field.

Each game is played again at its smallest table with the server and the person reading
German and the pseudo-locale ``en-XA`` (a third longer, every text bracketed ⟦…⟧). German
reads the shipped catalog, its untranslated entries filled with their English made 40%
longer (as German often is), so the run is as long as a translated one would be.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from simcord.backend.errors import BackendError
from simcord.components import walk_components
from simcord.http import router

import i18n
from bot.settings import Settings
from games import ENGINES
from i18n import catalogs
from tests.console.test_locale import (
    made_by_the_engine,
    outside_the_catalog,
    record_engine_texts,
)
from tests.e2e.languages import channel_lines, made_from_shipped, speak

MiB = 1024 * 1024
COMPONENTS_V2 = 1 << 15
"""The flag of a message laid out as a card (Components V2)."""
FILE_LIMIT = 10 * MiB
"""A server without boosts takes files up to 10 MiB each..."""
UPLOAD_LIMIT = 25 * MiB
"""...and up to 25 MiB in one message."""
STEPS = 120
"""The person's moves and the computers' turns waited for, after which the host cancels a
game still running, so each test ends in bounded time (a cancelled game's posts are
checked too; most games end by their rules before)."""

TABLES = [
    (slug, players)
    for slug, engine in sorted(ENGINES.items())
    for players in range(engine.min_players, engine.max_players + 1)
]
LONGER: list[i18n.Locale] = ["de", "en-XA"]
"""Languages whose texts run longer than English: German, and the pseudo-locale."""
LONGER_BY = 0.4
"""How much longer than English a German text is taken to be where none is translated."""


@pytest.fixture
async def database(tmp_path: Path) -> AsyncIterator[str]:
    """The limits do not depend on the store: SQLite only."""
    yield str(tmp_path / "games.sqlite3")


@pytest.fixture
def settings(database: str) -> Settings:
    """Computers move as soon as their turn comes."""
    return Settings(
        database=database, seed=1234, members_intent=True, paced=False, computer_delay=0.0
    )


@dataclass
class Request:
    method: str
    path: str
    body: Any
    files: list[tuple[str, int]] = field(default_factory=list)
    refused: str = ""
    """Why simulated Discord refused it as malformed (a 400), if it did."""

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


@pytest.fixture
def requests(monkeypatch: pytest.MonkeyPatch) -> list[Request]:
    """Every request the bot makes to simulated Discord, with its files' sizes."""
    made: list[Request] = []
    dispatch = router.dispatch

    def recording(
        backend: Any, method: str, path: str, *, json: Any = None, files: Any = None, **kwargs: Any
    ) -> Any:
        sizes = [(getattr(f, "filename", "?"), _size(f)) for f in files or []]
        made.append(Request(method, path, json, sizes))
        try:
            return dispatch(backend, method, path, json=json, files=files, **kwargs)
        except BackendError as error:
            if error.status == 400:
                made[-1].refused = str(error)
            raise

    monkeypatch.setattr(router, "dispatch", recording)
    return made


def _size(file: Any) -> int:
    fp = getattr(file, "fp", file)
    if hasattr(fp, "getbuffer"):
        return int(fp.getbuffer().nbytes)
    here = fp.tell()
    fp.seek(0, 2)
    end = fp.tell()
    fp.seek(here)
    return int(end)


# -- Discord's limits ------------------------------------------------------------------------


def problems(request: Request) -> list[str]:
    """Every way ``request`` breaks one of Discord's limits, each naming the field."""
    found: list[str] = []

    def over(where: str, value: Any, limit: int) -> None:
        if value is not None and len(value) > limit:
            found.append(f"{where}: {len(value)} > {limit}")

    body = request.body
    if isinstance(body, dict):
        if "/callback" in request.path and isinstance(body.get("data"), dict):
            data = body["data"]
            if body.get("type") == 8:  # autocomplete
                choices = data.get("choices") or []
                over("data.choices", choices, 25)
                for i, choice in enumerate(choices):
                    over(f"data.choices[{i}].name", choice.get("name"), 100)
                    if isinstance(choice.get("value"), str):
                        over(f"data.choices[{i}].value", choice["value"], 100)
            elif body.get("type") == 9:  # a modal
                over("data.title", data.get("title"), 45)
                over("data.custom_id", data.get("custom_id"), 100)
                _components(data.get("components"), "data.components", over, modal=True)
            else:
                _message(data, "data", over)
        else:
            _message(body, "", over)
            over("name", body.get("name") if "/threads" in request.path else None, 100)
    sizes = [size for _, size in request.files]
    for name, size in request.files:
        if size > FILE_LIMIT:
            found.append(f"file {name}: {size} bytes > {FILE_LIMIT}")
    if sum(sizes) > UPLOAD_LIMIT:
        found.append(f"files: {sum(sizes)} bytes in one message > {UPLOAD_LIMIT}")
    return found


def _message(body: dict[str, Any], at: str, over: Any) -> None:
    prefix = f"{at}." if at else ""
    card = bool(int(body.get("flags") or 0) & COMPONENTS_V2)
    over(f"{prefix}content" + (" (a card has none)" if card else ""), body.get("content"),
         0 if card else 2000)  # fmt: skip
    embeds = body.get("embeds") or []
    over(f"{prefix}embeds", embeds, 10)
    total = 0
    for i, embed in enumerate(embeds):
        where = f"{prefix}embeds[{i}]"
        texts = {
            "title": (embed.get("title"), 256),
            "description": (embed.get("description"), 4096),
            "footer.text": ((embed.get("footer") or {}).get("text"), 2048),
            "author.name": ((embed.get("author") or {}).get("name"), 256),
        }
        for name, (value, limit) in texts.items():
            over(f"{where}.{name}", value, limit)
            total += len(value or "")
        fields = embed.get("fields") or []
        over(f"{where}.fields", fields, 25)
        for j, item in enumerate(fields):
            over(f"{where}.fields[{j}].name", item.get("name"), 256)
            over(f"{where}.fields[{j}].value", item.get("value"), 1024)
            total += len(item.get("name") or "") + len(item.get("value") or "")
    if total > 6000:
        over(f"{prefix}embeds (all text)", "x" * total, 6000)
    for i, attachment in enumerate(body.get("attachments") or []):
        over(f"{prefix}attachments[{i}].description", attachment.get("description"), 1024)
    if card:
        _card(body.get("components"), f"{prefix}components", over)
    else:
        _components(body.get("components"), f"{prefix}components", over)


def _card(components: Any, where: str, over: Any) -> None:
    """A card's limits: 40 components in all (nested ones too), 4,000 characters of text,
    an alt text of 1,024 per picture, and each action row's own."""
    found = list(walk_components(components or []))
    over(f"{where} (all, nested too)", found, 40)
    text = "".join(c.get("content") or "" for c in found if c.get("type") == 10)
    over(f"{where} (text displays' text)", text, 4000)
    for c in found:
        for i, item in enumerate(c.get("items") or [] if c.get("type") == 12 else []):
            over(f"{where} gallery item {i} description", item.get("description"), 1024)
    rows = [c for c in found if c.get("type") == 1]
    _rows(rows, f"{where} row", over)


def _components(rows: Any, where: str, over: Any, *, modal: bool = False) -> None:
    rows = rows or []
    over(where, rows, 5)
    _rows(rows, where, over)


def _rows(rows: list[dict[str, Any]], where: str, over: Any) -> None:
    for i, row in enumerate(rows):
        inner = row.get("components") or []
        at = f"{where}[{i}].components"
        over(at, inner, 5)
        if any(c.get("type") in (3, 5, 6, 7, 8) for c in inner):
            over(f"{at} (a select fills its row)", inner, 1)
        for j, component in enumerate(inner):
            here = f"{at}[{j}]"
            over(f"{here}.custom_id", component.get("custom_id"), 100)
            if component.get("type") == 2:  # a button
                over(f"{here}.label", component.get("label"), 80)
            elif component.get("type") == 4:  # a text input
                over(f"{here}.label", component.get("label"), 45)
                over(f"{here}.placeholder", component.get("placeholder"), 100)
            else:  # a select
                over(f"{here}.placeholder", component.get("placeholder"), 150)
                options = component.get("options") or []
                over(f"{here}.options", options, 25)
                for k, option in enumerate(options):
                    for name in ("label", "value", "description"):
                        over(f"{here}.options[{k}].{name}", option.get(name), 100)
                for name in ("min_values", "max_values"):
                    if (component.get(name) or 0) > 25:
                        over(f"{here}.{name}", "x" * component[name], 25)


def test_the_checks_catch_each_limit() -> None:
    """The checks themselves: each field past its limit is named."""
    row = {"type": 1, "components": [{"type": 2, "label": "x" * 81, "custom_id": "y" * 101}] * 6}
    select = {
        "type": 3, "custom_id": "s", "placeholder": "p" * 151,
        "options": [{"label": "l" * 101, "value": "v", "description": "d" * 101}] * 26,
    }  # fmt: skip
    body = {
        "content": "c" * 2001,
        "components": [row, {"type": 1, "components": [select]}] + [row] * 4,
        "embeds": [{"description": "d" * 4097, "fields": [{"name": "n", "value": "v"}] * 26}],
    }
    found = "\n".join(
        problems(Request("POST", "/channels/1/messages", body, [("a.png", 11 * MiB)]))
    )
    for name in (
        "content", "components: 6", "components[0].components: 6", "label: 81",
        "custom_id: 101", "placeholder: 151", "options: 26", "options[0].label",
        "options[0].description", "embeds[0].description", "embeds[0].fields: 26", "file a.png",
    ):  # fmt: skip
        assert name in found, (name, found)
    text = {"type": 10, "content": "t" * 4001}
    gallery = {
        "type": 12,
        "items": [{"media": {"url": "attachment://a.png"}, "description": "d" * 1025}],
    }
    container = {"type": 17, "components": [text, gallery, *[row] * 6]}
    card = {"flags": COMPONENTS_V2, "content": "c", "components": [container]}
    found = "\n".join(problems(Request("POST", "/channels/1/messages", card)))
    for name in ("content (a card has none)", "(all, nested too): 45", "text displays' text",
                 "gallery item 0 description", "row[0].components: 6"):  # fmt: skip
        assert name in found, (name, found)
    choices = {"type": 8, "data": {"choices": [{"name": "n" * 101, "value": "v" * 101}] * 26}}
    found = "\n".join(problems(Request("POST", "/interactions/1/t/callback", choices)))
    assert "data.choices: 26" in found and ".name: 101" in found and ".value: 101" in found


# -- whole games -----------------------------------------------------------------------------


@pytest.fixture
def speaking(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """``{user or server id: Discord locale code}`` that their interactions tell the bot."""
    return speak(monkeypatch)


def lengthened(text: str) -> str:
    """``text`` made :data:`LONGER_BY` longer by padding after it, its places and markup
    untouched."""
    return f"{text} {'Ä' * max(1, round(len(text) * LONGER_BY) - 1)}"


@pytest.fixture
def longer_german(tmp_path: Path) -> Iterator[None]:
    """German read from the shipped catalog, each untranslated entry its English made
    longer (:func:`lengthened`): translations made since are read as they are."""
    made_from_shipped(tmp_path / "catalogs", "de", lengthened, keep=True)
    with catalogs.reading(tmp_path / "catalogs"):
        yield


@pytest.fixture
def engine_texts(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], set[str]]:
    """``texts(slug)``: from then on, every text the engine of ``slug`` returns is kept in
    the set it gives (its title and turn word to begin with). The engines' own texts are
    not catalog messages yet; the set tells them apart from the host's."""

    def texts(slug: str) -> set[str]:
        return record_engine_texts(monkeypatch, slug)

    return texts


@pytest.mark.parametrize(
    ("slug", "players"),
    [pytest.param(s, n, id=f"{s}-{n}") for s, n in TABLES],
)
# Once the person's seat is out, the computers play the rest of the game from one action: a
# Dragonslayer table of three took 52-115 s in whole runs of the suite and once 424 s run
# alone, so 120 s is no sign of a hang there.
@pytest.mark.hang(600)
async def test_every_request_of_a_whole_game_is_within_discords_limits(
    simcord_env: Any, world: Any, requests: list[Request], slug: str, players: int
) -> None:
    _, channel, users = world
    await play_a_whole_game(simcord_env, channel, users["alice"], slug, players)
    assert_within_limits(requests)


@pytest.mark.parametrize(
    ("slug", "players", "locale"),
    [
        pytest.param(slug, engine.min_players, locale, id=f"{slug}-{engine.min_players}-{locale}")
        for slug, engine in sorted(ENGINES.items())
        for locale in LONGER
    ],
)
@pytest.mark.hang(600)
async def test_every_request_of_a_whole_game_in_a_longer_language_is_within_discords_limits(
    requests: list[Request],
    longer_german: None,
    speaking: dict[int, str],
    engine_texts: Callable[[str], set[str]],
    simcord_env: Any,
    world: Any,
    slug: str,
    players: int,
    locale: i18n.Locale,
) -> None:
    guild, channel, users = world
    alice = users["alice"]
    languages = simcord_env.bot.host.languages
    await languages.set_server(guild.id, alice.id, locale, is_admin=True)
    if i18n.from_discord(locale):
        speaking[alice.id] = locale  # as her Discord app tells
    else:
        await languages.choose(alice.id, locale)  # the pseudo-locale is only chosen
    engine = engine_texts(slug)

    await play_a_whole_game(simcord_env, channel, alice, slug, players)

    assert_within_limits(requests)
    # The channel was written in the server's language: the game's start says so.
    begins = i18n.write(i18n.Said("The game begins!"), locale)
    assert any(begins in line for line in channel_lines(channel))
    if locale == "en-XA":
        # Every word the channel shows went through the catalog, but the engines' texts.
        escaped = [
            words
            for line in channel_lines(channel)
            for words in outside_the_catalog(line)
            if not made_by_the_engine(words, engine)
        ]
        assert escaped == []


async def play_a_whole_game(
    simcord_env: Any, channel: Any, alice: Any, slug: str, players: int
) -> None:
    """Alice plays a game of ``slug`` at ``players`` seats against easy computers to its
    end (or the host cancels it after :data:`STEPS`), asking autocomplete for her moves,
    then asks for the game's status and history and the finished games."""
    await alice.slash(channel, "game new", game=slug, players=players)
    for _ in range(players - 1):
        await alice.slash(channel, "game addbot", level="easy")
    await alice.slash(channel, "game start")
    host = simcord_env.bot.host
    chooser = random.Random(f"{slug}-{players}")
    steps = 0
    while (await host.store.get_game(1)).status == "running":
        controls = await host.turns.controls_for(game_id=1, user_id=alice.id)
        if steps == STEPS:
            await alice.slash(channel, "game cancel", game=1)
        elif controls:
            await alice.autocomplete(channel, "move", "action", "")
            await alice.slash(channel, "move", action=chooser.choice(controls[0].choices).action)
        else:
            await simcord_env.advance_time(1)  # a computer's turn comes due
        steps += 1
    assert (await host.store.get_game(1)).status in ("finished", "cancelled")
    await alice.slash(channel, "game status", game=1)
    await alice.slash(channel, "game history", game=1)
    await alice.slash(channel, "game list", show="finished")
    await alice.autocomplete(channel, "game history", "game", "")


def assert_within_limits(requests: list[Request]) -> None:
    """Boards, controls and autocomplete were all sent, and no request broke a limit or
    was refused by simulated Discord."""
    assert any(r.files for r in requests), "boards were uploaded"
    assert any(_has(r.body, "components") for r in requests), "controls were sent"
    assert any(_has(r.body, "choices") for r in requests), "autocomplete was answered"
    broken = [f"{r}: {p}" for r in requests for p in problems(r)]
    assert not broken, "\n".join(broken[:20])
    refused = [f"{r}: {r.refused}" for r in requests if r.refused]
    assert not refused, "simulated Discord refused: " + "\n".join(refused[:20])


def _has(body: Any, key: str) -> bool:
    """Whether a request's body (or its ``data``) carries ``key``, non-empty."""
    if not isinstance(body, dict):
        return False
    return bool(body.get(key)) or _has(body.get("data"), key)
