"""Each game's notation, read and written both ways, over positions of seeded random play.

* Every legal action's text reads, and writing what was read gives the text back: the
  engines' own actions are canonical.
* The spellings the rules help documents (case, spacing, dashes, names for keys, colours for
  kinds) read to the same action, and write back to the canonical text.
* Text that does not read is refused by ``apply`` with :class:`UnreadableAction`; text that
  reads is accepted or refused with a plain :class:`IllegalAction`. Junk never raises
  anything else.
"""

from __future__ import annotations

import importlib
import random
import re
import string
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest

from engines.base import Game, IllegalAction, UnreadableAction
from engines.dragons_cave.board import load_board
from engines.dragonslayer.model import load_parties, load_tiles, load_urland
from engines.stgeorge.board import LAIR
from games import ENGINES

SLUGS = sorted(ENGINES)


def notation_of(game: Game) -> ModuleType:
    """The ``notation`` module of the engine package ``game`` comes from."""
    package = type(game).__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.notation")


def positions(slug: str, seed: int, plies: int, every: int = 3) -> Iterator[Any]:
    """States of a game of ``slug`` played by seeded random legal choices, every
    ``every``-th ply, for each table size the game has."""
    game = ENGINES[slug]
    for players in range(game.min_players, game.max_players + 1):
        rng = random.Random(f"{slug}:{players}:{seed}")
        options = game.parse_options("")
        keys = [role.key for role in game.roles(players, options)]
        state = game.setup(keys, options, rng)
        for ply in range(plies):
            asked = game.prompts(state)
            if not asked:
                break
            if ply % every == 0:
                yield state
            seat = rng.choice(asked).seat
            choice = rng.choice(game.legal_actions(state, seat))
            state, _events = game.apply(state, seat, choice.action, rng)


def legal_texts(game: Game, state: Any) -> Iterator[tuple[int, str]]:
    for prompt in game.prompts(state):
        for choice in game.legal_actions(state, prompt.seat):
            yield prompt.seat, choice.action


# The spellings each game's rules help documents, as variants of a canonical action.


def _stgeorge(action: str) -> list[str]:
    # "Letters may be upper or lower case, spaces are ignored, and a dash or `→` may stand
    # for `-`." "The centre is `lair` (or `L`)."
    found = [action.replace("-", " - "), action.replace("-", "→"), action.replace("-", "–")]
    if action != "roll":
        found.append(" ".join(action))
    if LAIR in action:
        found.append(action.replace(LAIR, "L"))
    return found


def _lions_dragons(action: str) -> list[str]:
    # "Case and spaces do not matter."
    spaced = re.sub(r"([a-l])(\d)", r"\1 \2", action)
    return [action.replace(" ", ""), spaced, action.replace("-", " - ")]


_KINDS = {kind["key"]: kind for kind in load_board()["kinds"]}
_COLOURS = ("red", "blue", "green", "yellow")


def _dragons_cave(action: str) -> list[str]:
    # "a colour works too: `card red`", "the seat number works too", "Words are
    # case-insensitive."
    words = action.split()
    found = []
    if words[0] in ("card", "lair") and words[1] in _KINDS:
        kind = _KINDS[words[1]]
        for word in (kind["colour"], kind["name"]):
            found.append(" ".join([words[0], word, *words[2:]]))
    if words[0] == "hand" and words[1] in _COLOURS:
        found.append(f"hand {_COLOURS.index(words[1])} {words[2]}")
        found.append(f"hand {words[2]} {words[1]}")
    return found


def _names() -> dict[str, str]:
    urland, parties, tiles = load_urland(), load_parties(), load_tiles()
    named = {**urland.places, **urland.seas, **parties.magicians}
    every = (*tiles.tiles, *tiles.map_tiles, *tiles.dragon_tiles, *parties.galen_tiles)
    return {key: thing.name for key, thing in {**named, **{t.key: t for t in every}}.items()}


_SLAYER_NAMES = _names()


def _dragonslayer(action: str) -> list[str]:
    # "Names work with spaces or underscores, in any case: `go ashby fell`, `go West Sea`."
    verb, _, rest = action.partition(" ")
    if not rest or "=" in rest:
        return [f"  {verb.upper()}   {rest}  "]
    return [f"{verb} {rest.replace('_', ' ')}", f"{verb} {_SLAYER_NAMES.get(rest, rest)}"]


VARIANTS: dict[str, Callable[[str], list[str]]] = {
    "stgeorge": _stgeorge,
    "lions-dragons": _lions_dragons,
    "dragons-cave": _dragons_cave,
    "dragonslayer": _dragonslayer,
}


def case_and_spacing(action: str) -> list[str]:
    """Every game reads any case and any spacing between words."""
    return [action.upper(), action.title(), f"  {'   '.join(action.split())}  "]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_legal_action_reads_and_writes_back(slug):
    game = ENGINES[slug]
    notation = notation_of(game)
    checked = 0
    for state in positions(slug, seed=1, plies=300):
        for _seat, action in legal_texts(game, state):
            read = notation.read(action)
            assert notation.write(read) == action, f"{action!r} is not canonical"
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("slug", SLUGS)
def test_documented_spellings_read_to_the_same_action(slug):
    game = ENGINES[slug]
    notation = notation_of(game)
    variants = VARIANTS[slug]
    seen: set[str] = set()
    for state in positions(slug, seed=2, plies=300):
        for _seat, action in legal_texts(game, state):
            if action in seen:
                continue
            seen.add(action)
            canonical = notation.read(action)
            for written in case_and_spacing(action) + variants(action):
                assert notation.read(written) == canonical, (action, written)
                assert notation.write(notation.read(written)) == action


JUNK = [
    "",
    "   ",
    "hello",
    "🐉",
    "move the dragon",
    "roll roll",
    "zz9-zz10",
    "card",
    "card diamond",
    "go",
    "go narnia",
    "k1",
    "drop",
    "fire",
    "split many",
    "hand",
    "fight sword=",
    "lair 3",
    "take 12",
    "-",
    "x" * 300,
]


def junk(rng: random.Random, legal: list[str]) -> Iterator[str]:
    """Fixed junk, random characters, and legal actions spoiled (a word dropped, added or
    repeated, a character changed)."""
    yield from JUNK
    alphabet = string.ascii_letters + string.digits + " -_=x→²①'\"\\\n\t"
    for _ in range(8):
        yield "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 14)))
    for action in rng.sample(legal, min(4, len(legal))):
        words = action.split()
        yield " ".join([*words, rng.choice(("now", "9", "left", "x", "=", "please"))])
        yield " ".join(words[:-1]) if len(words) > 1 else words[0] + "q"
        at = rng.randrange(len(action))
        yield action[:at] + rng.choice("#?9z ") + action[at + 1 :]
        yield action + action


@pytest.mark.parametrize("slug", SLUGS)
def test_text_that_does_not_read_is_refused_as_unreadable(slug):
    """``read`` raises only UnreadableAction; ``apply`` refuses what does not read with
    UnreadableAction and what does read with a plain IllegalAction (or accepts it)."""
    game = ENGINES[slug]
    notation = notation_of(game)
    rng = random.Random(slug)
    unreadable = 0
    for state in positions(slug, seed=3, plies=200, every=7):
        asked = [prompt.seat for prompt in game.prompts(state)]
        legal = [action for _seat, action in legal_texts(game, state)]
        for text in junk(rng, legal):
            try:
                notation.read(text)
                reads = True
            except UnreadableAction as error:
                assert str(error).strip()
                reads = False
                unreadable += 1
            for seat in {asked[0], 0}:  # the seat asked, and maybe one that is not
                try:
                    game.apply(state, seat, text, random.Random(0))
                except UnreadableAction:
                    assert not reads, f"{text!r} reads but apply calls it unreadable"
                except IllegalAction:
                    assert reads, f"{text!r} does not read but apply refused it as illegal"
                else:
                    assert reads, f"{text!r} does not read but apply accepted it"
    assert unreadable > 100


@pytest.mark.parametrize("slug", SLUGS)
def test_fixed_junk_never_reads(slug):
    notation = notation_of(ENGINES[slug])
    for text in ("", "hello", "🐉", "x" * 300, "move the dragon"):
        with pytest.raises(UnreadableAction):
            notation.read(text)
