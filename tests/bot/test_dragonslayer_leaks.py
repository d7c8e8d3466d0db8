"""Dragonslayer's hidden information never leaks through the game host.

Seeded games with 2, 3 and 4 players are played through :class:`GameHost` by random legal
choices. After every action:

* each channel post's picture is drawn from the public view of the game as it now stands,
  and every seat's own view adds only its private keys to it;
* no seat's private sentences (its King's men's strengths, the tiles it looked at and put
  back) appear in a channel post;
* a tile that could not be carried is named in its taker's private message only.

Differentially, copies of each game differ in one hidden thing: one player's two King's men
tiles have their strengths swapped, or two face-down tiles of a place are swapped. Until the
rules reveal it (a challenge accepted against that player's King's men; one of those tiles
taken), everything the other users observe must be the same in both copies.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from bot.service.host import GameHost
from bot.service.notices import ChannelPost, Outcome, PrivateMessage
from engines.dragonslayer.state import SLOT_LETTERS, name, place_of
from games import ENGINES
from tests.bot import leak_checks
from tests.bot.leak_checks import USERS, Stores, edit_snapshot, everyone_asked, observed, state_of

SLUG = "dragonslayer"
GAME = ENGINES[SLUG]
SEAT_ONLY = {"seat", "private", "my_kings_men", "memory", "looking_at"}
STORES = Stores()
WEIGHTS = {"take": 6, "go": 4, "challenge": 5, "accept": 2, "road": 2, "done": 1}


@pytest.fixture(autouse=True)
async def close_stores():
    yield
    await STORES.close_all()


@dataclass
class Twin:
    """A copy of the game that differs in one hidden thing."""

    host: GameHost
    holder: int | None  # the user who knows it (None: nobody)
    kind: str  # "kings_men" or "tiles"
    seat: int = -1  # kings_men: the owner's seat
    place: str = ""  # tiles: the place and the two slots swapped
    slots: tuple[str, str] = ("", "")


async def swap_strengths(stores: Stores, host: GameHost, game_id: int, seat: int) -> Twin:
    twin = await leak_checks.fork(stores, host, SLUG)

    def change(state):
        first, second = [km for km in state["kings_men"] if km["seat"] == seat]
        first["strength"], second["strength"] = second["strength"], first["strength"]

    await edit_snapshot(twin, game_id, change)
    return Twin(twin, USERS[seat], "kings_men", seat=seat)


async def swap_tiles(stores: Stores, host: GameHost, game_id: int, place: str) -> Twin | None:
    slots = (await state_of(host, game_id))["slots"][place]
    if slots[0] == slots[1]:
        return None
    twin = await leak_checks.fork(stores, host, SLUG)

    def change(state):
        here = state["slots"][place]
        here[0], here[1] = here[1], here[0]

    await edit_snapshot(twin, game_id, change)
    return Twin(twin, None, "tiles", place=place, slots=(SLOT_LETTERS[0], SLOT_LETTERS[1]))


def reveals(twin: Twin, state, user_seat: int, action: str) -> bool:
    """Whether ``action`` (about to be played by ``user_seat``) lets the rules show the secret."""
    verb, _, rest = action.partition(" ")
    if twin.kind == "kings_men":
        pending = state["pending"][0] if state["pending"] else None
        return (
            verb == "accept"
            and pending is not None
            and any(k["key"] == pending["km"] for k in state["kings_men"] if k["seat"] == twin.seat)
        )
    here = place_of(state["magicians"][user_seat]["where"])
    return verb == "take" and here == twin.place and rest in twin.slots


def check_public_parts(state, outcome: Outcome, said_privately: set[str]) -> None:
    leak_checks.check_public_parts(
        GAME, state, outcome, SEAT_ONLY, said_privately,
        sentences=lambda text: [line for line in text.splitlines() if line],
    )  # fmt: skip


def check_held_tile(before, outcome: Outcome, users: list[int]) -> bool:
    """A tile that cannot be carried is named to its taker alone. True if one was checked."""
    pending = before["pending"][0] if before["pending"] else None
    if pending is None or pending["kind"] != "keep":
        return False
    held = name(pending["tile"])
    for notice in outcome.notices:
        if isinstance(notice, ChannelPost):
            assert held not in notice.text or "keeps the" in notice.text
        if isinstance(notice, PrivateMessage):
            assert notice.user_id == users[pending["seat"]] or held not in notice.text
    return True


def pick(chooser: random.Random, asked: list):
    user, control = chooser.choice(asked)
    choices = control.choices
    weights = [WEIGHTS.get(c.action.split()[0], 2) for c in choices]
    return user, control, chooser.choices(choices, weights)[0].action


async def play_and_compare(players: int, seed: int, steps: int = 220) -> dict[str, int]:
    host, game_id = await leak_checks.open_game(STORES, SLUG, players)
    users = list(USERS[:players])
    chooser = random.Random(f"leaks:{SLUG}:{players}:{seed}")
    twins = [await swap_strengths(STORES, host, game_id, chooser.randrange(players))]
    for place in ("pennick", "caerlow", "eastwold", "culnakask"):
        twin = await swap_tiles(STORES, host, game_id, place)
        if twin is not None:
            twins.append(twin)
    said_privately: set[str] = set()
    checked = {"actions": 0, "comparisons": 0, "held": 0, "revealed": 0}
    for _ in range(steps):
        before = await state_of(host, game_id)
        user, control, action = pick(chooser, await everyone_asked(host, game_id, users))
        for twin in list(twins):
            if reveals(twin, before, control.prompt.seat, action):
                twins.remove(twin)
                await STORES.close(twin.host)
                checked["revealed"] += 1
        outcome = await host.turns.act(game_id=game_id, user_id=user, action=action)
        checked["actions"] += 1
        checked["held"] += check_held_tile(before, outcome, users)
        check_public_parts(await state_of(host, game_id), outcome, said_privately)
        for twin in twins:
            theirs = await twin.host.turns.act(game_id=game_id, user_id=user, action=action)
            mine = await observed(host, game_id, outcome, users, twin.holder)
            assert await observed(twin.host, game_id, theirs, users, twin.holder) == mine, (
                f"{twin.kind} ({twin.seat}{twin.place}) leaked at {user}: {action}"
            )
            checked["comparisons"] += 1
    return checked


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)], ids=str)
async def test_no_public_notice_or_other_users_controls_reveal_a_secret(players, seed):
    checked = await play_and_compare(players, seed)
    assert checked["comparisons"] >= checked["actions"]
    assert checked["revealed"] >= 1, "at least one hidden thing came to light and was dropped"


async def test_a_tile_that_cannot_be_carried_is_named_to_its_taker_only():
    checked = {"held": 0}
    for seed in range(4, 10):
        checked["held"] += (await play_and_compare(2, seed, steps=200))["held"]
        if checked["held"]:
            break
    assert checked["held"], "some taker looked at a tile they could not carry"


async def test_the_comparison_tells_swapped_strengths_apart_once_a_challenge_reveals_them():
    """Galen (combat 2 with Hodge) accepts a challenge by a King's man of strength 2 or 4:
    the two copies differ in the strength the channel is told."""
    host, game_id = await leak_checks.open_game(STORES, SLUG, 2)
    twin = await swap_strengths(STORES, host, game_id, 0)
    users = list(USERS[:2])
    alice, bob = users
    script = [
        (alice, "place castle_morn"), (alice, "place castle_morn"),
        (bob, "place redkeep"), (bob, "place redkeep"),
        (alice, "go north_sea"), (alice, "go caerlow"), (alice, "done"),
        (alice, "k1 pennick"), (alice, "done"), (alice, "done"),
        (bob, "go sunset_sea"), (bob, "go pennick"), (bob, "done"),
        (alice, "done"), (alice, "k2 pennick"), (alice, "challenge galen"),
        (bob, "accept"),
    ]  # fmt: skip
    seen = []
    for user, action in script:
        mine = await host.turns.act(game_id=game_id, user_id=user, action=action)
        theirs = await twin.host.turns.act(game_id=game_id, user_id=user, action=action)
        seen.append(
            (
                await observed(host, game_id, mine, users, alice),
                await observed(twin.host, game_id, theirs, users, alice),
            )
        )
    assert all(a == b for a, b in seen[:-1])
    assert seen[-1][0] != seen[-1][1]
    assert "strength" in seen[-1][0]["posts"][0][0]
