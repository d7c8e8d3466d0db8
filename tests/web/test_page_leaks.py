"""A game's web page holds no secret: not its HTML, not a board of its replay, not an
event of its live stream.

Seeded random Dragon's Cave and Dragonslayer games are played through :class:`GameHost`
with the leak tests' stand-in renderer (a board's "picture" is the JSON of the view it was
drawn from), each served by the web application and followed by its event stream.

Differentially, copies of each game (the leak tests' twins) differ in one secret: a Dragon's
Cave card, lair square or hand split answered differently, or a Chest holding 7 coins more;
two Dragonslayer King's men with their strengths swapped, or two face-down tiles of a place
swapped. Each copy has its own server and page address. After every action each copy's
stream sends a ``page`` event and every new replay position is drawn; every few actions
the whole page is read (at its newest position and at another). Until the rules reveal the
secret, all of it (with the page address put back to the first copy's) is the same byte for
byte in both copies; once revealed, some copy's page must tell them apart, so the check can
fail.

Directly, on every copy: each board drawn is the public view, with no seat's own keys, and
the newest is the public view of the game as it stands; no sentence of a seat's private
view (while still secret) is in the page, a board or an event; and an action that answered
a secret prompt is shown as chosen in secret, never in notation.

A page walks the game's log from the seed, while a Chest or a tile swapped in the stored
game would not be seen by that walk: for those copies the set-up the walk starts from is
changed the same way (:func:`twin_starts`), and the direct check that the newest board is
the copy's own public view shows the walk and the game agree.
"""

from __future__ import annotations

import asyncio
import contextvars
import copy
import dataclasses
import html
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.service.history import web_pages
from bot.service.history.story import SECRET
from bot.service.host import GameHost
from bot.web.app import build_app
from games import ENGINES, SPECS
from tests.bot import leak_checks
from tests.bot.leak_checks import USERS, Stores, everyone_asked, state_of
from tests.bot.test_dragons_cave_leaks import CHEST_BONUS, add_to_chest
from tests.bot.test_dragonslayer_leaks import Twin, pick, reveals, swap_strengths, swap_tiles
from tests.web.events import EventReader

DC, DS = "dragons-cave", "dragonslayer"
SEAT_ONLY = {
    DC: {"seat", "role", "hand", "chest", "my_choice", "my_split", "private"},
    DS: {"seat", "private", "my_kings_men", "memory", "looking_at"},
}
MAX_BRANCHES = 3
"""Dragon's Cave copies followed at once (each walks the whole log at every version)."""
WHOLE_PAGE_EVERY = 6
"""Actions between readings of the whole page (the events and boards are read after each)."""
WAIT = 15.0
"""Seconds an event may take at most before the test fails (it comes at once)."""

STORES = Stores()
SERVED: list[Served] = []
Change = Callable[[Any], None]
CHANGE: contextvars.ContextVar[Change | None] = contextvars.ContextVar("change", default=None)
"""How a game's set-up is changed (:func:`twin_starts`)."""


@pytest.fixture(autouse=True)
async def close_stores():
    yield
    while SERVED:
        await SERVED[-1].close()
    await STORES.close_all()


@pytest.fixture(autouse=True)
def twin_starts(monkeypatch):
    """Each game's set-up, changed as :data:`CHANGE` says where it is set: in the tasks of
    a copy's server (they inherit the context its server was started in), so the walk of
    that copy's page starts from the set-up its stored game was changed to."""
    for slug in (DC, DS):
        spec = SPECS[slug]

        def setup(*args, real=spec.engine.setup, **options):
            state = real(*args, **options)
            change = CHANGE.get()
            if change is not None:
                state = copy.deepcopy(state)
                change(state)
            return state

        # A registered game is a frozen declaration: the registry holds the changed copy.
        changed = dataclasses.replace(spec.engine, setup=setup)
        monkeypatch.setitem(SPECS, slug, dataclasses.replace(spec, engine=changed))


# -- one copy's page, as a reader of the web sees it ----------------------------------


@dataclass
class Served:
    """One copy of the game with a server of its own, its page followed by a stream."""

    host: GameHost
    game_id: int
    slug: str
    token: str
    client: TestClient
    stream: ClientResponse
    events: EventReader
    positions: int = 0  # positions the stream has sent
    last: dict = field(default_factory=dict)  # the newest event

    @classmethod
    async def open(
        cls, host: GameHost, game_id: int, slug: str, since: int = 0, change: Change | None = None
    ) -> Served:
        record = await host.store.get_game(game_id)
        assert record.page, "a new game has a page"
        client = TestClient(TestServer(build_app(host.pages)))
        changed = CHANGE.set(change)
        try:
            await client.start_server()
        finally:
            CHANGE.reset(changed)
        stream = await client.get(f"/g/{record.page}/events?from={since}")
        assert stream.status == 200
        served = cls(host, game_id, slug, record.page, client, stream, EventReader(stream.content))
        served.positions = since
        SERVED.append(served)
        await served.read_events()
        return served

    async def close(self) -> None:
        SERVED.remove(self)
        self.stream.close()
        await self.client.close()
        await STORES.close(self.host)

    async def read_events(self) -> list[dict]:
        """The stream's ``page`` events up to the game's version now."""
        version = (await self.host.store.get_game(self.game_id)).version
        read = []
        while not read or read[-1]["version"] < version:
            data = await asyncio.wait_for(self.events.next("page"), WAIT)
            assert data["from"] == self.positions, "each position is sent once"
            self.positions += len(data["positions"])
            read.append(data)
        assert read[-1]["version"] == version
        self.last = read[-1]
        return read

    async def get(self, path: str) -> bytes:
        response = await self.client.get(path)
        assert response.status == 200, path
        return await response.read()

    async def seen(self, whole: int | None) -> dict[str, Any]:
        """What the page shows after an action: the events sent, each new position's board,
        and with ``whole`` the page at its newest position and at position ``whole``.
        The page address is written as ``{token}`` (each copy has its own), and the turn's
        deadline as ``{deadline}`` (it is read off each copy's own ticking clock)."""
        first = self.positions
        events = await self.read_events()
        boards = {
            n: await self.get(f"/g/{self.token}/board/{n}.png")
            for n in range(first, self.positions)
        }
        seen: dict[str, Any] = {"events": events, "boards": boards}
        if whole is not None:
            seen["page"] = (await self.get(f"/g/{self.token}")).decode()
            seen["page at"] = (await self.get(f"/g/{self.token}?at={whole}")).decode()
        return _text(seen, self.token)

    async def twin(self, host: GameHost, change: Change | None = None) -> Served:
        """A copy of this game (forked at its version) served at an address of its own,
        its stream picking up where this one is; with ``change``, the copy's set-up was
        changed so (its page's walk starts from the same)."""
        token = web_pages.new_token()
        await host.store.set_page(self.game_id, token)
        twin = await Served.open(host, self.game_id, self.slug, self.positions, change)
        mine, theirs = _parts(self.last, self.token), _parts(twin.last, twin.token)
        assert mine == theirs, "a fresh copy's page differs before anything was played"
        return twin


def _parts(event: dict, token: str) -> Any:
    """An event as a fresh copy's first one can match the game's last: the status and the
    seats. (Their move lists differ by construction: the game's last event carried the
    turns it gained, the copy's first none; every later event, and every page, of the two
    is compared whole.)"""
    shown = ("from", "positions", "moves_from", "moves")
    return _text({k: v for k, v in event.items() if k not in shown}, token)


DEADLINE = re.compile(r'<p class="deadline">.*?</p>')


def _text(value: Any, token: str) -> Any:
    """What a page showed as one JSON value (boards as text), the page address and the
    deadline written as placeholders."""
    if isinstance(value, bytes):
        value = value.decode()
    if isinstance(value, str):
        value = DEADLINE.sub('<p class="deadline">{deadline}</p>', value)
        return value.replace(token, "{token}")
    if isinstance(value, dict):
        return {str(k): _text(v, token) for k, v in value.items()}
    if isinstance(value, list):
        return [_text(v, token) for v in value]
    return value


# -- the direct checks ------------------------------------------------------------------


@dataclass
class Secrets:
    """What only some seat was told, and which actions answered a secret prompt."""

    slug: str
    sentences: Callable[[str], list[str]]
    still_secret: Callable[[str, Any], bool]
    said_privately: set[str] = field(default_factory=set)
    answers: dict[int, str] = field(default_factory=dict)  # position -> secret answer

    def note(self, state: Any) -> None:
        game = ENGINES[self.slug]
        for seat in range(len(state["roles"])):
            self.said_privately.update(self.sentences(game.view(state, seat)["private"]))

    def check(self, served: Served, seen: dict[str, Any], state: Any) -> None:
        """The direct checks (see the module docstring) on what one copy's page showed."""
        game = ENGINES[self.slug]
        for board in seen["boards"].values():
            view = json.loads(board)
            assert not SEAT_ONLY[self.slug] & set(view), "a seat's own keys on a board"
        if seen["boards"]:
            newest = seen["boards"][str(served.positions - 1)]
            public = json.loads(json.dumps(game.view(state, None)))
            assert json.loads(newest) == public, "the newest board is not the public view"
        shown = html.unescape(json.dumps(seen, ensure_ascii=False).replace("\\n", "\n"))
        for sentence in self.said_privately:
            if self.still_secret(sentence, state):
                assert sentence not in shown, sentence
        # The events carry the turns that gained a move; a whole page carries them all.
        moves = "".join(e["moves"] for e in seen["events"]) + seen.get("page", "")
        for position, action in self.answers.items():
            said = re.search(rf'data-at="{position}"[^>]*>[^<:]*: ([^<]*)', moves)
            if said is None:
                assert int(position) < served.positions - len(seen["boards"]), position
                continue  # told in an earlier event, checked there
            assert said[1].startswith(SECRET.plain()), (position, action)
            assert f"<code>{html.escape(action, quote=False)}</code>" not in shown, action
        new = range(served.positions - len(seen["boards"]), served.positions)
        for position in set(self.answers) & set(new):
            assert re.search(rf'data-at="{position}"', moves), ("a new move not told", position)


def dragons_cave_secrets() -> Secrets:
    return Secrets(
        DC,
        sentences=lambda text: [s.strip() + "." for s in text.split(".") if s.strip()],
        still_secret=lambda sentence, state: state["phase"] != "over" or "Chest" not in sentence,
    )


def dragonslayer_secrets() -> Secrets:
    return Secrets(
        DS,
        sentences=lambda text: [line for line in text.splitlines() if line],
        still_secret=lambda sentence, state: True,
    )


# -- Dragon's Cave ----------------------------------------------------------------------


@dataclass
class Branch:
    served: Served
    seat: int
    kind: str  # "card", "lair", "split" or "chest"
    round: int
    fresh: bool = True  # it has just taken its own answer


def revealed(branch: Branch, roles: list[str], action: str, after: Any) -> bool:
    if branch.kind in ("card", "lair"):
        return after["round"] != branch.round or after["phase"] != "choose"
    if branch.kind == "split":
        return action.startswith(f"hand {roles[branch.seat]} ") or after["phase"] == "over"
    return after["phase"] == "over"


async def play_dragons_cave(players: int, seed: int) -> dict[str, int]:
    host, game_id = await leak_checks.open_game(STORES, DC, players)
    main = await Served.open(host, game_id, DC)
    users = list(USERS[:players])
    chooser = random.Random(f"pages:{DC}:{players}:{seed}")
    roles = (await state_of(host, game_id))["roles"]
    chest_seat = chooser.randrange(players)
    chest_host = await leak_checks.fork(STORES, host, DC)
    await add_to_chest(chest_host, game_id, chest_seat, CHEST_BONUS)

    def more_coins(state):
        state["chests"][chest_seat] += CHEST_BONUS

    chest = Branch(await main.twin(chest_host, more_coins), chest_seat, "chest", 0, fresh=False)
    branches = [chest]
    secrets = dragons_cave_secrets()
    secrets.note(await state_of(host, game_id))
    checked = {"card": 0, "lair": 0, "split": 0, "chest": 1, "comparisons": 0, "told apart": 0}
    for step in range(1, 600):
        if (await host.store.get_game(game_id)).status != "running":
            break
        before = await state_of(host, game_id)
        user, control = chooser.choice(await everyone_asked(host, game_id, users))
        action = chooser.choice(control.choices).action
        prompt = control.prompt
        others = [c.action for c in control.choices if c.action != action]
        if prompt.secret:
            secrets.answers[main.positions] = action  # the position it leads to
            if others and len(branches) < MAX_BRANCHES:
                twin = await main.twin(await leak_checks.fork(STORES, host, DC))
                await twin.host.turns.act(
                    game_id=game_id, user_id=user, action=chooser.choice(others)
                )
                branches.append(Branch(twin, prompt.seat, prompt.kind, before["round"]))
                checked[prompt.kind] += 1
        await host.turns.act(game_id=game_id, user_id=user, action=action)
        after = await state_of(host, game_id)
        secrets.note(after)
        over = after["phase"] == "over"
        whole = (
            chooser.randrange(main.positions + 1) if over or step % WHOLE_PAGE_EVERY == 0 else None
        )
        mine = await main.seen(whole)
        secrets.check(main, mine, after)
        kept = []
        for branch in branches:
            if not branch.fresh:
                await branch.served.host.turns.act(game_id=game_id, user_id=user, action=action)
            branch.fresh = False
            theirs = await branch.served.seen(whole)
            secrets.check(branch.served, theirs, await state_of(branch.served.host, game_id))
            if revealed(branch, roles, action, after):
                checked["told apart"] += theirs != mine
                await branch.served.close()
                continue
            assert theirs == mine, f"{branch.kind} of seat {branch.seat} shows on the page"
            checked["comparisons"] += 1
            kept.append(branch)
        branches = kept
    assert (await host.store.get_game(game_id)).status == "finished"
    return checked


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (2, 3)], ids=str)
async def test_a_dragons_cave_page_shows_no_secret_until_the_rules_reveal_it(players, seed):
    checked = await play_dragons_cave(players, seed)
    assert checked["card"] and checked["lair"] and checked["split"]
    assert checked["comparisons"] >= 30
    assert checked["told apart"], "a revealed secret changes the page: the check can fail"


# -- Dragonslayer -----------------------------------------------------------------------


def dragonslayer_change(twin: Twin) -> Change:
    """What ``twin`` changed in the stored game, as a change of a set-up."""

    def change(state):
        if twin.kind == "kings_men":
            first, second = [k for k in state["kings_men"] if k["seat"] == twin.seat]
            first["strength"], second["strength"] = second["strength"], first["strength"]
        else:
            here = state["slots"][twin.place]
            here[0], here[1] = here[1], here[0]

    return change


async def play_dragonslayer(players: int, seed: int, steps: int) -> dict[str, int]:
    host, game_id = await leak_checks.open_game(STORES, DS, players)
    main = await Served.open(host, game_id, DS)
    users = list(USERS[:players])
    chooser = random.Random(f"pages:{DS}:{players}:{seed}")
    twins = [await swap_strengths(STORES, host, game_id, chooser.randrange(players))]
    for place in ("pennick", "caerlow", "eastwold", "culnakask"):
        twin = await swap_tiles(STORES, host, game_id, place)
        if twin is not None:
            twins.append(twin)
    served = {id(t): await main.twin(t.host, dragonslayer_change(t)) for t in twins}
    secrets = dragonslayer_secrets()
    secrets.note(await state_of(host, game_id))
    checked = {"comparisons": 0, "revealed": 0, "told apart": 0}
    for step in range(1, steps + 1):
        before = await state_of(host, game_id)
        user, control, action = pick(chooser, await everyone_asked(host, game_id, users))
        if control.prompt.secret:
            secrets.answers[main.positions] = action
        shown = [id(t) for t in twins if reveals(t, before, control.prompt.seat, action)]
        await host.turns.act(game_id=game_id, user_id=user, action=action)
        after = await state_of(host, game_id)
        secrets.note(after)
        whole = chooser.randrange(main.positions + 1) if step % WHOLE_PAGE_EVERY == 0 else None
        mine = await main.seen(whole)
        secrets.check(main, mine, after)
        for twin in list(twins):
            copy_ = served[id(twin)]
            await twin.host.turns.act(game_id=game_id, user_id=user, action=action)
            theirs = await copy_.seen(whole)
            secrets.check(copy_, theirs, await state_of(twin.host, game_id))
            if id(twin) in shown:
                checked["revealed"] += 1
                checked["told apart"] += theirs != mine
                twins.remove(twin)
                await copy_.close()
                continue
            assert theirs == mine, f"{twin.kind} ({twin.seat}{twin.place}) shows on the page"
            checked["comparisons"] += 1
    return checked


@pytest.mark.parametrize(("players", "seed", "steps"), [(2, 1, 120), (3, 2, 100)], ids=str)
async def test_a_dragonslayer_page_shows_no_hidden_tile_or_strength(players, seed, steps):
    checked = await play_dragonslayer(players, seed, steps)
    assert checked["comparisons"] >= 3 * steps
    assert checked["revealed"] and checked["told apart"], "the check can fail"
