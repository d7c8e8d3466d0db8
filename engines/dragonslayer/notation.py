"""Dragonslayer's action notation: reading the words players type.

Actions are a verb and its arguments, lower-case, separated by spaces:
``go <place or sea>``, ``take <slot>``, ``gain``, ``done``, ``k1 <place>``, ``k2 <place>``,
``place <castle>``, ``return``, ``swap <tile>``, ``lose <tile>``, ``drop <tile>``,
``castle <castle>``, ``challenge <magician>``, ``pass``, ``accept``, ``road <place>``,
``escape``, ``wait``, ``draw``, ``fight``, ``recover``, ``redraw``. Places, seas, tiles
and magicians may be typed by key (``ashby_fell``) or by name (``Ashby Fell``,
``ashby fell``).

:func:`read` turns text into an :class:`Action` (raising :class:`UnreadableAction` for text
that is not notation: a verb the game does not have, a missing word, a name that is no
place, sea, tile or magician of the game's data) and :func:`write` gives an action's
canonical text: lower case, single spaces, names by key (``go ashby_fell``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engines.base import UnreadableAction
from engines.dragonslayer.model import load_parties, load_tiles, load_urland

BARE = ("gain", "done", "return", "pass", "accept", "escape", "wait", "draw", "redraw")
"""Verbs written alone."""
PLACES = ("place", "castle", "road")
"""Verbs naming a place of Urland (as does ``k1``, ``k2``...)."""
TILES = ("swap", "lose", "drop")
"""Verbs naming a tile (as may ``recover``)."""
BOXES = ("combat", "magic")
"""Where ``fight`` may place a thing pictured twice."""

_KINGS_MAN = re.compile(r"k\d+")


@dataclass(frozen=True)
class Action:
    """A read action: its verb and the keys it names, in order (``("ashby_fell",)`` for
    ``go Ashby Fell``, ``("amulet_of_power=magic",)`` for a ``fight`` placement; empty for
    a verb written alone, or a ``take`` or ``recover`` naming nothing)."""

    verb: str
    args: tuple[str, ...] = ()


def read(action: str) -> Action:
    """The action the text ``action`` writes (case, spacing, and spaces or underscores in
    names do not matter), its names turned into keys.

    Raises :class:`UnreadableAction` saying how actions are written if it is not notation.
    """
    verb, rest = split(action)
    if verb in BARE:
        if rest:
            raise UnreadableAction(f"`{verb}` is written alone. {_HOW}")
        return Action(verb)
    if verb == "go":
        places = _names(load_urland().places) | _names(load_urland().seas)
        return Action(verb, (_named(rest, places, "`go <place or sea>`, e.g. `go ashby_fell`"),))
    if verb in PLACES or _KINGS_MAN.fullmatch(verb):
        example = f"`{verb} <place>`, e.g. `{verb} swanscombe`"
        return Action(verb, (_named(rest, _names(load_urland().places), example),))
    if verb in TILES or (verb == "recover" and rest):
        example = f"`{verb} <tile>`, e.g. `{verb} hodge`"
        return Action(verb, (_named(rest, _tiles(), example),))
    if verb == "recover":
        return Action(verb)
    if verb == "challenge":
        example = "`challenge <magician>`, e.g. `challenge galen`"
        return Action(verb, (_named(rest, _names(load_parties().magicians), example),))
    if verb == "take":
        slot = key_of(rest)
        if slot and (len(slot) > 1 or not slot.isalpha()):
            raise UnreadableAction("Name a tile's slot by its letter: `take a`, `take b`...")
        return Action(verb, (slot,) if slot else ())
    if verb == "fight":
        return Action(verb, tuple(_placement(word) for word in rest.split()))
    raise UnreadableAction(_HOW)


def write(action: Action) -> str:
    """The canonical text of ``action``, the inverse of :func:`read`: ``go swanscombe``,
    ``fight amulet_of_power=magic``, ``done``."""
    return " ".join((action.verb, *action.args))


def readable(action: str) -> bool:
    """Whether :func:`read` reads ``action``."""
    try:
        read(action)
    except UnreadableAction:
        return False
    return True


_HOW = (
    "Actions are a verb and what it names, by key or name: `go <place or sea>` "
    "(`go ashby_fell`), `take <slot>` (`take a`), `gain`, `done`, `k1 <place>`, "
    "`place <castle>`, `return`, `swap <tile>`, `lose <tile>`, `drop <tile>`, "
    "`castle <castle>`, `challenge <magician>`, `pass`, `accept`, `road <place>`, "
    "`escape`, `wait`, `draw`, `fight`, `recover`, `redraw`."
)


def _names(table: dict[str, Any]) -> dict[str, str]:
    """Every way to write each key of ``table`` (things with a ``name``): the key, and
    its name as a key (with or without a leading ``the``)."""
    found: dict[str, str] = {}
    for key, thing in table.items():
        found[key] = key
        written = key_of(thing.name)
        found.setdefault(written, key)
        found.setdefault(written.removeprefix("the_"), key)
    return found


def _tiles() -> dict[str, str]:
    """Every way to write each tile's key, wherever the data lists it (the pool, the map's
    boxes, the Dragon's, Galen's)."""
    pool = load_tiles()
    every = (*pool.tiles, *pool.map_tiles, *pool.dragon_tiles, *load_parties().galen_tiles)
    tiles = {t.key: t for t in every}
    return _names(tiles)


def _named(rest: str, names: dict[str, str], example: str) -> str:
    """The key ``rest`` names among ``names``, else UnreadableAction with ``example``."""
    key = names.get(key_of(rest)) if rest else None
    if key is None:
        raise UnreadableAction(f"Write it as {example} (a key or a name).")
    return key


def _placement(word: str) -> str:
    """``thing=box`` of a ``fight``, canonical, else UnreadableAction."""
    thing, _, box = word.partition("=")
    key = _tiles().get(key_of(thing)) if thing else None
    if key is None or box not in BOXES:
        raise UnreadableAction(
            "Place things pictured twice as `thing=combat` or `thing=magic`, e.g. "
            "`fight amulet_of_power=magic`."
        )
    return f"{key}={box}"


_WORD = re.compile(r"[^a-z0-9]+")


def key_of(text: str) -> str:
    """A name or key as a key: ``"Eldrinn's Halberd"`` -> ``"eldrinns_halberd"``."""
    return _WORD.sub("_", text.lower().replace("'", "")).strip("_")


def split(action: str) -> tuple[str, str]:
    """``(verb, rest)`` of an action, case and spacing normalised."""
    words = action.strip().lower().split(maxsplit=1)
    if not words:
        return "", ""
    return words[0], words[1].strip() if len(words) > 1 else ""


def match(text: str, options: Iterable[tuple[str, str]]) -> str | None:
    """The key among ``(key, name)`` pairs that ``text`` names, by key or name; else None."""
    wanted = key_of(text)
    for key, name in options:
        if wanted in (key, key_of(name)):
            return key
    return None
