"""Dragon's Cave secrets never leak through the game host.

Seeded random games (3 and 4 players, and the 2-player variation) are played through
:class:`GameHost`. After every action:

* each channel post's picture is drawn from the public view of the game as it now stands,
  and that view is exactly what every seat's own view shares (nothing more);
* no seat's private sentences (its locked-in card or lair square, its hands, its Chest)
  appear in a channel post;
* ``controls_for`` offers a user only decisions of their own seats.

The precise check is differential. Whenever a secret is answered (a card, with two players
also the Dwarf it moves, the Dragon's square, a hand split), a copy of the game takes a
*different* legal answer and then follows the same actions. Until the rules reveal that
secret, everything the others can observe (channel posts with their pictures, mentions and
controls, their private messages, ``controls_for`` for each of them, and ``/game status``
with its picture) must be identical in both games. A twin of each game whose one Chest
holds 7 coins more must look the same to everybody but that Chest's owner until the final
count.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from bot.service.host import GameHost
from bot.service.notices import Outcome
from games import ENGINES
from tests.bot import leak_checks
from tests.bot.leak_checks import USERS, Stores, edit_snapshot, everyone_asked, observed, state_of

SLUG = "dragons-cave"
GAME = ENGINES[SLUG]
SEAT_ONLY = {"seat", "role", "hand", "chest", "my_choice", "my_split", "private"}
CHEST_BONUS = 7


STORES = Stores()


@pytest.fixture(autouse=True)
async def close_stores():
    yield
    await STORES.close_all()


async def open_game(players: int, options: str = "") -> tuple[GameHost, int]:
    return await leak_checks.open_game(STORES, SLUG, players, options)


async def fork(host: GameHost) -> GameHost:
    return await leak_checks.fork(STORES, host, SLUG)


async def close(host: GameHost) -> None:
    await STORES.close(host)


async def add_to_chest(host: GameHost, game_id: int, seat: int, coins: int) -> None:
    """Put ``coins`` more into one Chest of the stored game, keeping its version."""

    def change(snapshot):
        snapshot["chests"][seat] += coins

    await edit_snapshot(host, game_id, change)


@dataclass
class Branch:
    """A copy of the game that differs from the main one in one unrevealed secret."""

    host: GameHost
    holder: int  # the user who knows the secret
    seat: int
    kind: str  # "card", "lair", "split" or "chest"
    round: int
    first: Outcome | None = None  # its answer to the secret, not yet compared


def check_public_parts(state, outcome: Outcome, said_privately: set[str]) -> None:
    """The direct checks on one action's notices (see the module docstring)."""
    over = state["phase"] == "over"
    public = leak_checks.check_public_parts(
        GAME, state, outcome, SEAT_ONLY, said_privately,
        sentences=lambda text: [s.strip() + "." for s in text.split(".") if s.strip()],
        still_secret=lambda sentence: not over or "Chest" not in sentence,
    )  # fmt: skip
    assert public["chests"] == (state["chests"] if over else ["hidden"] * len(state["roles"]))


async def play_and_compare(players: int, seed: int, options: str = "") -> dict[str, int]:
    """Play one seeded random game, checking every action; returns counts of what was checked."""
    host, game_id = await open_game(players, options)
    users = list(USERS[:players])
    chooser = random.Random(f"leaks:{players}:{seed}")
    roles = (await state_of(host, game_id))["roles"]
    holder_seat = chooser.randrange(players)
    chest_twin = Branch(await fork(host), USERS[holder_seat], holder_seat, "chest", 0)
    await add_to_chest(chest_twin.host, game_id, holder_seat, CHEST_BONUS)
    branches: list[Branch] = [chest_twin]
    said_privately: set[str] = set()
    checked = {"actions": 0, "comparisons": 0, "card": 0, "lair": 0, "split": 0}
    for _ in range(600):
        if (await host.store.get_game(game_id)).status != "running":
            break
        before = await state_of(host, game_id)
        asked = await everyone_asked(host, game_id, users)
        user, control = chooser.choice(asked)
        action = chooser.choice(control.choices).action
        prompt = control.prompt

        if prompt.secret:
            others = [c.action for c in control.choices if c.action != action]
            assert prompt.kind in ("card", "lair", "split")
            if others:
                branch = Branch(await fork(host), user, prompt.seat, prompt.kind, before["round"])
                branch.first = await branch.host.turns.act(
                    game_id=game_id, user_id=user, action=chooser.choice(others)
                )
                branches.append(branch)
                checked[prompt.kind] += 1

        outcome = await host.turns.act(game_id=game_id, user_id=user, action=action)
        after = await state_of(host, game_id)
        checked["actions"] += 1
        check_public_parts(after, outcome, said_privately)

        still_hidden = []
        for branch in branches:
            if branch.kind in ("card", "lair"):
                revealed = after["round"] != branch.round or after["phase"] != "choose"
            elif branch.kind == "split":
                target = roles[branch.seat]
                revealed = action.startswith(f"hand {target} ") or after["phase"] == "over"
            else:
                revealed = after["phase"] == "over"
            if revealed:
                continue
            theirs, branch.first = branch.first, None
            if theirs is None:
                theirs = await branch.host.turns.act(game_id=game_id, user_id=user, action=action)
            mine = await observed(host, game_id, outcome, users, branch.holder)
            assert await observed(branch.host, game_id, theirs, users, branch.holder) == mine, (
                f"{branch.kind} of seat {branch.seat} leaked at {user}: {action}"
            )
            checked["comparisons"] += 1
            still_hidden.append(branch)
        for branch in branches:
            if branch not in still_hidden:
                await close(branch.host)
        branches = still_hidden
    assert (await host.store.get_game(game_id)).status == "finished"
    return checked


GAMES_PLAYED = [(3, 1), (3, 2), (4, 3), (4, 4), (2, 5), (2, 6)]


@pytest.mark.parametrize(("players", "seed"), GAMES_PLAYED, ids=lambda v: str(v))
async def test_no_public_notice_or_other_users_controls_reveal_a_secret(players, seed):
    checked = await play_and_compare(players, seed)
    assert checked["actions"] >= 30
    # Every kind of secret was answered differently in a copy and compared; each seeded
    # game has a catch with coins, so hand splits are among them.
    assert checked["card"] and checked["lair"] and checked["split"]
    assert checked["comparisons"] >= checked["actions"]


async def test_the_comparison_tells_a_secret_apart_once_the_rules_reveal_it():
    """Two copies whose Dragon sits on different squares look the same until the reveal."""
    host, game_id = await open_game(3)
    twin = await fork(host)
    users = list(USERS[:3])
    seen = []
    for target, lair in ((host, "lair amber"), (twin, "lair ruby")):
        steps = []
        for user, action in ((USERS[0], lair), (USERS[1], "card ruby"), (USERS[2], "card yellow")):
            outcome = await target.turns.act(game_id=game_id, user_id=user, action=action)
            steps.append(await observed(target, game_id, outcome, users, USERS[0]))
        seen.append(steps)
    assert seen[0][:2] == seen[1][:2]
    assert seen[0][2] != seen[1][2]
    assert "sits on the Amber square" in seen[0][2]["posts"][0][0]
    assert "Blue played Ruby and is caught" in seen[1][2]["posts"][0][0]
