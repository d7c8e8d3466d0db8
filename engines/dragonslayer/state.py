"""The state of a game of Dragonslayer: a JSON-ready dict, and small queries on it.

Keys (all JSON types, so ``dump``/``load`` are plain copies; :class:`State` types them):

* ``format``: the snapshot format (see :data:`FORMAT`).
* ``roles``: the magician key of each seat, in turn order. ``turn``: the round, from 1.
* ``seat``: whose turn it is. ``phase``: ``"place"`` (King's men go to castles),
  ``"magician"`` (the magician spends days), ``"kings_men"`` or ``"over"``.
* ``days``: days left to whoever moves now (the magician, or the active King's man).
* ``magicians``: per seat ``{"where", "lost", "delayed", "out"}``. ``where`` is a position
  (see below) or ``None`` once out; ``lost`` counts whole turns still to lose; ``delayed``
  forbids taking the road until that lost turn is over.
* ``parties``: per seat ``{"companions", "things", "kept"}``, lists of tile keys: people who
  joined, weapons/spells/magic items carried, saved 'Gain One Day' tiles.
* ``kings_men``: ``{"key", "seat", "leader", "number", "strength", "at", "lost",
  "revealed", "arrived"}`` per tile; ``arrived`` orders tiles in one place (the highest is
  "on top"). ``arrivals``: how many arrivals so far (the next one is numbered after it).
* ``active``: the King's man moving now (its key) or ``None``; ``finished``: keys of
  King's men done for this turn.
* ``slots``: per place, its face-down tiles by slot (``None`` for an empty slot), so a slot
  letter keeps meaning the same tile. ``memory``: per seat, ``"place/slot" -> tile`` the
  seat looked at and put back (or put down).
* ``set_aside``, ``removed``: tile keys out of play. ``boxes``: tiles still in their map
  boxes. ``dragon``: the Dragon's strength.
* ``abandoned``: per Dragon Location row, the weapons lying on the Abandoned Weapons Display.
  ``fought``: per seat, whether its party has fought the Dragon (the Dragon Shield joins a
  first fight only). ``fight``: the fight in progress, or ``None`` (see :class:`Fight`).
* ``rest``: the magician of this turn rests in Morgenthorme for the rest of it.
* ``pending``: decisions waiting before play goes on, first one first (see
  :mod:`engines.dragonslayer.decisions` and :data:`Decision`).
* ``last``: ``{"text", "path"}`` of the last move, for the picture. ``outcome``:
  ``{"winners", "text"}`` once the game is over, else ``None``.

Positions are strings: ``"abode:<magician>"``, ``"sea:<zone>"``, ``"place:<key>"`` or
``"road:<from>:<to>"`` (standing on the road after taking it out of ``<from>``).

A seat's observed state (:mod:`engines.dragonslayer.observe`) has the same shape: hidden
tiles read ``"?"`` and hidden King's men strengths ``None``.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, TypeGuard

from engines.base import Result, Termination, termination
from engines.clone import clone
from engines.dragonslayer.model import (
    COMPANION,
    MAGIC_ITEM,
    SPELL,
    WEAPON,
    Tile,
    load_parties,
    load_tiles,
    load_urland,
)
from engines.snapshot import check_format

Phase = Literal["place", "magician", "kings_men", "over"]
"""``place`` (King's men go to castles), ``magician`` (the magician spends days),
``kings_men`` (the seat's King's men move) or ``over``."""


class Magician(TypedDict):
    """A seat's magician: ``where`` (a position, ``None`` once out), turns still ``lost``,
    ``delayed`` (no taking the road until that lost turn is over), ``out`` of the game."""

    where: str | None
    lost: int
    delayed: bool
    out: bool


class Party(TypedDict):
    """Tile keys of a seat's party: ``companions`` who joined, ``things`` carried (weapons,
    spells, magic items) and ``kept`` 'Gain One Day' tiles."""

    companions: list[str]
    things: list[str]
    kept: list[str]


class KingsMen(TypedDict):
    """A King's men tile: its ``key``, owner ``seat``, ``leader`` and ``number`` (its public
    name), ``strength`` (``None`` in an observed state when hidden from the seat), where it
    is ``at`` (a place key, ``None`` before it is placed), turns ``lost``, whether a
    challenge ``revealed`` its strength, and when it ``arrived`` where it is."""

    key: str
    seat: int
    leader: str
    number: int
    strength: int | None
    at: str | None
    lost: int
    revealed: bool
    arrived: int


class Last(TypedDict):
    """The last move, for the picture: in words, and the places it went through."""

    text: str
    path: list[str]


class Outcome(TypedDict):
    """How the game ended: the winning seats (none for a draw) and the ending in words."""

    winners: list[int]
    text: str
    how: NotRequired[str]
    """How it ended (a :class:`~engines.base.Termination` value); absent in snapshots kept
    before it was recorded."""


class CombatSums(TypedDict):
    """The combat strength: ``people`` (magician and companions), ``things``, the location's
    ``modifier``, the ``total`` and how far it is ``over`` the Dragon's strength."""

    people: int
    things: int
    modifier: int
    total: int
    over: int


class MagicSums(TypedDict):
    """The magic strength: the ``magician``'s, ``things``, the location's ``modifier``, the
    ``total`` and how far it is ``over`` the Dragon's strength."""

    magician: int
    things: int
    modifier: int
    total: int
    over: int


class Sums(TypedDict):
    """Both strengths of a fight, and the things in each box (``counted``: the combat things
    that count, one weapon-bound tile per weapon)."""

    combat: CombatSums
    magic: MagicSums
    combat_items: list[str]
    counted: list[str]
    magic_items: list[str]


class Fight(TypedDict):
    """The fight in progress (or the recovery of abandoned weapons and Ulrich).

    ``seat`` fights at Dragon Location ``location``; ``stage`` is ``"boxes"`` (the player
    places things pictured twice), ``"losses"`` (choosing what is lost), ``"over"``
    (waiting only for drops before the aftermath) or ``"recover"`` (no fight: taking
    abandoned weapons). A fight also has ``raid`` (the place raided, else ``None``),
    ``victims`` (seats the raid attacks next), ``shield`` (the Dragon Shield joins),
    ``boxes`` (``thing -> "combat"|"magic"`` once fought, else ``None``) and ``cell`` (the
    Matrix cell ``[magic over, combat over, lost, levels]``, ``None`` for a party wiped out
    or before the fight). Once fought: ``dragon`` (its strength before), ``sums``,
    ``people`` (the companions who fought) and ``outcome`` in words.
    """

    seat: int
    stage: str
    location: str
    raid: NotRequired[str | None]
    victims: NotRequired[list[int]]
    shield: NotRequired[bool]
    boxes: NotRequired[dict[str, str] | None]
    cell: NotRequired[list[int] | None]
    dragon: NotRequired[int]
    sums: NotRequired[Sums]
    people: NotRequired[list[str]]
    outcome: NotRequired[str]


class Keep(TypedDict):
    """The taken ``tile`` cannot be carried: it goes back to ``place`` and ``slot`` (a
    letter), or is swapped for one of the party's things. Secret: ``tile`` reads ``"?"`` in
    other seats' observed states."""

    kind: Literal["keep"]
    seat: int
    tile: str
    place: str
    slot: str


class Lose(TypedDict):
    """Give up a ``what`` (``companion``, ``weapon``, ``thing``, or ``battle``: ``count``
    losses to the Matrix, one at a time) because of ``reason``."""

    kind: Literal["lose"]
    seat: int
    what: str
    reason: str
    count: NotRequired[int]


class Drop(TypedDict):
    """Put down a ``what`` (``weapon`` or ``magic``) the party can no longer carry."""

    kind: Literal["drop"]
    seat: int
    what: str


class Castle(TypedDict):
    """Send King's men ``km`` (and the captive ``magician``'s seat, or ``None``) to a
    castle."""

    kind: Literal["castle"]
    seat: int
    km: str
    magician: int | None


class Challenge(TypedDict):
    """The owner of King's men ``km`` that entered ``place`` may challenge one of the
    ``candidates`` (seats), or pass before the first challenge (``started``)."""

    kind: Literal["challenge"]
    seat: int
    km: str
    place: str
    candidates: list[int]
    started: bool


class Answer(TypedDict):
    """The magician challenged by King's men ``km`` in ``place`` accepts or takes a road."""

    kind: Literal["answer"]
    seat: int
    km: str
    place: str


class Plain(TypedDict):
    """A decision with nothing more than who makes it: ``escape`` (a captured magician
    holding a Gain One Day tile escapes or waits), ``draw`` (a Dragon Location tile, in the
    Lair), ``battle`` (place things and fight) or ``recover`` (abandoned weapons)."""

    kind: Literal["escape", "draw", "battle", "recover"]
    seat: int


class Lair(TypedDict):
    """The Dragon Location tile drawn, ``location``, allows more than one thing; ``items``
    (a Silver Ewer, Orb of Vision or Far Mirror carried) allow a redraw."""

    kind: Literal["lair"]
    seat: int
    location: str
    items: list[str]


Decision = Keep | Lose | Drop | Castle | Challenge | Answer | Plain | Lair
"""A decision waiting before play goes on: its ``kind`` and the ``seat`` who decides."""


class State(TypedDict):
    """A game of Dragonslayer (see the module's description of each key)."""

    format: int
    roles: list[str]
    turn: int
    seat: int
    phase: Phase
    days: int
    magicians: list[Magician]
    parties: list[Party]
    kings_men: list[KingsMen]
    arrivals: int
    active: str | None
    finished: list[str]
    slots: dict[str, list[str | None]]
    memory: list[dict[str, str]]
    set_aside: list[str]
    removed: list[str]
    boxes: list[str]
    dragon: int
    abandoned: dict[str, list[str]]
    fought: list[bool]
    fight: Fight | None
    rest: bool
    pending: list[Decision]
    last: Last | None
    outcome: Outcome | None


FORMAT = 2
"""The snapshot format :func:`dump` writes (kept in the state as ``"format"``). Format 2
draws the Dragon Location tile first (pending ``draw``, then ``lair``); format 1 asked why
a party came (``purpose``) before the draw and held a draw to face (``location``), and
:func:`load` reads it as format 2."""

KEYS = State.__required_keys__

DAYS = 3
"""'Each of your turns represents 3 days.'"""
ASHES = "ulrichs_ashes"
GAIN_DAY = "gain_one_day_or_escape_from_castle"
SLOT_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def dump(state: State) -> dict[str, Any]:
    """The state as JSON-ready data: a copy (it holds its ``format``)."""
    return {**clone(state)}


def load(data: dict[str, Any]) -> State:
    """The state :func:`dump` wrote. Raises ``ValueError`` (``UnknownFormat`` for an
    unknown or newer format) for anything else."""
    found = check_format(data, FORMAT, "Dragonslayer")
    state = clone(data)
    if found < 2:
        _draw_first(state)
    if not _has_every_key(state):
        raise ValueError(f"Not a Dragonslayer state: missing {sorted(KEYS - set(state))}")
    return state


def _has_every_key(data: dict[str, Any]) -> TypeGuard[State]:
    return set(data) >= KEYS


def _draw_first(state: dict[str, Any]) -> None:
    """A format 1 snapshot as format 2: a party asked why it came has not drawn yet (it
    draws now, and chooses after), and a draw held for a redraw offers what it allows."""
    for index, decision in enumerate(state["pending"]):
        if decision["kind"] == "purpose":
            state["pending"][index] = {"kind": "draw", "seat": decision["seat"]}
        elif decision["kind"] == "location":
            state["pending"][index] = {
                "kind": "lair",
                "seat": decision["seat"],
                "location": decision["location"],
                "items": decision["items"],
            }
    state["format"] = FORMAT


def result(state: State) -> Result | None:
    """The winners and the ending in words once the game is over."""
    outcome = state["outcome"]
    if outcome is None:
        return None
    return Result(winners=tuple(outcome["winners"]), text=outcome["text"], how=_how(outcome))


def _how(outcome: Outcome) -> Termination:
    """How the game ended; a snapshot kept before that was recorded tells it only in its
    words, which were fixed then: an agreed draw's, or every other magician leaving."""
    text = outcome["text"]
    if text.startswith("The magicians agreed"):
        legacy = Termination.AGREED
    elif "has left" in text or "Every magician has left" in text:
        legacy = Termination.FORFEIT
    else:
        legacy = Termination.RULES
    return termination(outcome.get("how"), legacy)


def tile(key: str) -> Tile:
    """The tile ``key``, wherever the data lists it (pool, map boxes, Galen's tiles)."""
    tiles = load_tiles()
    try:
        return tiles.tile(key)
    except KeyError:
        for galen in load_parties().galen_tiles:
            if galen.key == key:
                return galen
        raise


def name(key: str) -> str:
    """Display name of a tile."""
    return tile(key).name


def magician_name(state: State, seat: int) -> str:
    return load_parties().magicians[state["roles"][seat]].name


def standing(state: State, seat: int) -> str:
    """The position of the magician of ``seat``, who is still in the game."""
    where = state["magicians"][seat]["where"]
    if where is None:
        raise ValueError(f"{magician_name(state, seat)} is out of the game.")
    return where


def current_fight(state: State) -> Fight:
    """The fight in progress (or the recovery in the Lair): there is one."""
    fight = state["fight"]
    if fight is None:
        raise ValueError("No fight is in progress.")
    return fight


def strength_of(km: KingsMen) -> int:
    """The strength of a King's men tile, known in the full state (an observed state may
    hide it)."""
    strength = km["strength"]
    if strength is None:
        raise ValueError(f"The strength of {kings_man_name(km)} is hidden.")
    return strength


def seats(state: State) -> range:
    return range(len(state["roles"]))


def in_game(state: State) -> list[int]:
    """Seats whose magician is still playing."""
    return [seat for seat in seats(state) if not state["magicians"][seat]["out"]]


# -- positions -------------------------------------------------------------------------


def place_of(position: str | None) -> str | None:
    """The place key of a position in a place, else ``None`` (sea, abode, road, out)."""
    if position and position.startswith("place:"):
        return position[6:]
    return None


def where_words(position: str | None) -> str:
    """A position in words: 'Swanscombe', 'the West Sea', 'the road from A towards B'."""
    urland = load_urland()
    if position is None:
        return "out of the game"
    kind, _, rest = position.partition(":")
    if kind == "place":
        return urland.places[rest].name
    if kind == "sea":
        return f"the {urland.seas[rest].name}"
    if kind == "abode":
        return urland.abodes[rest].name
    start, _, end = rest.partition(":")
    return f"the road from {urland.places[start].name} towards {urland.places[end].name}"


def magicians_at(state: State, place: str) -> list[int]:
    """Seats whose magician stands in ``place``."""
    return [s for s in in_game(state) if place_of(state["magicians"][s]["where"]) == place]


def kings_men_at(state: State, place: str) -> list[KingsMen]:
    """King's men tiles in ``place``, bottom first (the last one is 'on top')."""
    here = [km for km in state["kings_men"] if km["at"] == place]
    return sorted(here, key=lambda km: km["arrived"])


def kings_man(state: State, key: str) -> KingsMen:
    for km in state["kings_men"]:
        if km["key"] == key:
            return km
    raise KeyError(key)


def kings_man_name(km: KingsMen) -> str:
    """Public name of a King's men tile: its leader's and its number, never its strength."""
    return f"{km['leader']}'s King's men {km['number']}"


# -- parties ---------------------------------------------------------------------------


def kind_of(key: str) -> str:
    return tile(key).kind


def weapons(state: State, seat: int) -> list[str]:
    return [k for k in state["parties"][seat]["things"] if kind_of(k) == WEAPON]


def magic(state: State, seat: int) -> list[str]:
    """Spells and magic items carried, Ulrich's Ashes included."""
    return [k for k in state["parties"][seat]["things"] if kind_of(k) in (SPELL, MAGIC_ITEM)]


def people(state: State, seat: int) -> int:
    """The magician and the companions."""
    return 1 + len(state["parties"][seat]["companions"])


def party_combat(state: State, seat: int) -> int:
    """Total combat strength of the people in the party (what King's men are matched with)."""
    magician = load_parties().magicians[state["roles"][seat]]
    people = state["parties"][seat]["companions"]
    return magician.combat + sum(tile(k).strength or 0 for k in people)


def weapon_limit(state: State, seat: int) -> int:
    """'You can never have more weapons than you have people (including your magician).'"""
    return people(state, seat)


def magic_limit(state: State, seat: int) -> int:
    """Pentacles, plus what companions such as Ulrich carry for the magician."""
    magician = load_parties().magicians[state["roles"][seat]]
    helpers = sum(tile(k).carries for k in state["parties"][seat]["companions"])
    return magician.pentacles + helpers


def magic_load(state: State, seat: int) -> int:
    """Spells and magic items that count against the limit: Galen's Ashes never do."""
    return sum(1 for k in magic(state, seat) if k != ASHES)


def fits(state: State, seat: int, key: str) -> bool:
    """Whether the party can carry one more ``key`` (companions and kept tiles always fit)."""
    kind = kind_of(key)
    if kind == WEAPON:
        return len(weapons(state, seat)) < weapon_limit(state, seat)
    if kind in (SPELL, MAGIC_ITEM):
        return magic_load(state, seat) < magic_limit(state, seat)
    return True


def same_load(a: str, b: str) -> bool:
    """Whether swapping ``b`` out makes room for ``a`` (both weapons, or both spell/item)."""
    kinds = {kind_of(a), kind_of(b)}
    return kinds == {WEAPON} or kinds <= {SPELL, MAGIC_ITEM}


def companions(state: State, seat: int) -> list[str]:
    return list(state["parties"][seat]["companions"])


def is_companion(key: str) -> bool:
    return kind_of(key) == COMPANION


# -- slots -----------------------------------------------------------------------------


def face_down(state: State, place: str) -> list[tuple[str, str]]:
    """``(letter, tile)`` for each face-down tile in ``place``, in slot order."""
    return [(SLOT_LETTERS[i], key) for i, key in enumerate(state["slots"].get(place, [])) if key]


def slot_ref(place: str, letter: str) -> str:
    return f"{place}/{letter}"


def forget_slot(state: State, place: str, letter: str, keep: int | None = None) -> None:
    """Every seat but ``keep`` forgets what lay in this slot (it was taken or changed)."""
    ref = slot_ref(place, letter)
    for seat, memory in enumerate(state["memory"]):
        if seat != keep:
            memory.pop(ref, None)


def put_face_down(state: State, place: str, key: str, knowing: list[int]) -> str:
    """Lay ``key`` face down in the first free slot of ``place``; ``knowing`` seats remember it.

    Returns the slot's letter. Reusing free slots keeps letters few and short.
    """
    slots = state["slots"].setdefault(place, [])
    index = slots.index(None) if None in slots else len(slots)
    if index == len(slots):
        slots.append(None)
    slots[index] = key
    letter = SLOT_LETTERS[index]
    for seat in knowing:
        state["memory"][seat][slot_ref(place, letter)] = key
    return letter
