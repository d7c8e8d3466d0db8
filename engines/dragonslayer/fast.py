"""The fast model of the Dragonslayer fight: a party as a small frozen value, and its sums.

These are the same rules as the engine in a compact form for search: a party is hashable, so
a search can remember what each party and Dragon strength give; nothing reads or writes a
game state but :func:`party_of`. It mirrors:

* :func:`engines.dragonslayer.state.party_combat`, ``weapon_limit``, ``magic_limit``,
  ``magic_load`` and ``fits`` (the people's combat strength, what the party may carry):
  :attr:`Party.combat`, :meth:`Party.fits`, :meth:`Party.over_limit`;
* :func:`engines.dragonslayer.losses.over_limit` (weapons first, then spells):
  :meth:`Party.over_limit`;
* :func:`engines.dragonslayer.fight.losable` (never Ulrich's Ashes): :attr:`Party.losable`;
* the Dragon Shield joining a first fight beside Valerian (``fight.begin``): :func:`party_of`;
* :func:`engines.dragonslayer.fight.strengths` with ``placements``, ``split_boxes`` and
  ``counted_items`` (people, counted combat things with one weapon-bound tile per weapon, the
  strongest, magic things, the Location's modifier), for every Location row and placement
  at once: :func:`placements`;
* :func:`engines.dragonslayer.fight.outcome_of` (the Battle Matrix, a party weaker than the
  Dragon wiped out): :func:`outcome`.

``tests/engines/test_dragonslayer_fast.py`` checks these against the engine in the
positions of random games and over every Location and placement. Pure and deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

from engines import data
from engines.dragonslayer.battle import ROWS, BattleTables, load_battle
from engines.dragonslayer.model import (
    COMPANION,
    MAGIC_ITEM,
    SPELL,
    WEAPON,
    Magician,
    load_parties,
)
from engines.dragonslayer.state import ASHES, State, tile

CACHE = 16384
"""Entries each memo keeps (parties already weighed)."""
VALERIAN = "valerian"
SHIELD = "dragon_shield"

# -- the party as the fight sees it ----------------------------------------------------------


@dataclass(frozen=True)
class Party:
    """What a fight depends on: the magician, companions and things (sorted), and whether the
    Dragon Shield joins the next fight."""

    magician: str
    companions: tuple[str, ...]
    things: tuple[str, ...]
    shield: bool = False

    def without(self, key: str) -> Party:
        if key in self.companions:
            rest = list(self.companions)
            rest.remove(key)
            return Party(self.magician, tuple(rest), self.things, self.shield)
        rest = list(self.things)
        rest.remove(key)
        return Party(self.magician, self.companions, tuple(rest), self.shield)

    def plus(self, key: str) -> Party:
        if tile_kind(key) == COMPANION:
            return Party(self.magician, tuple(sorted((*self.companions, key))), self.things,
                         self.shield)  # fmt: skip
        return Party(self.magician, self.companions, tuple(sorted((*self.things, key))),
                     self.shield)  # fmt: skip

    @cached_property
    def losable(self) -> tuple[str, ...]:
        """What the Dragon (or an event) can take: never Ulrich's Ashes."""
        return (*self.companions, *(k for k in self.things if k != ASHES))

    @property
    def people(self) -> int:
        return 1 + len(self.companions)

    @cached_property
    def combat(self) -> int:
        """The people's combat strength (what King's men are matched with)."""
        return magician(self.magician).combat + sum(tile_strength(k) for k in self.companions)

    def weapons(self) -> list[str]:
        return [k for k in self.things if tile_kind(k) == WEAPON]

    def magic(self) -> list[str]:
        return [k for k in self.things if tile_kind(k) in (SPELL, MAGIC_ITEM) and k != ASHES]

    def magic_limit(self) -> int:
        return magician(self.magician).pentacles + sum(tile_carries(k) for k in self.companions)

    def fits(self, key: str) -> bool:
        kind = tile_kind(key)
        if kind == WEAPON:
            return len(self.weapons()) < self.people
        if kind in (SPELL, MAGIC_ITEM):
            return len(self.magic()) < self.magic_limit()
        return True

    def over_limit(self) -> str | None:
        if len(self.weapons()) > self.people:
            return WEAPON
        if len(self.magic()) > self.magic_limit():
            return SPELL
        return None


def party_of(state: State, seat: int) -> Party:
    """The seat's party; the Shield counts when it will join (or has joined) the fight."""
    party = state["parties"][seat]
    current = state.get("fight")
    if current and current.get("seat") == seat and "shield" in current:
        shield = bool(current["shield"])
    else:
        shield = (
            VALERIAN in party["companions"]
            and SHIELD in state["boxes"]
            and not state["fought"][seat]
        )
    return Party(
        state["roles"][seat],
        tuple(sorted(party["companions"])),
        tuple(sorted(party["things"])),
        shield,
    )


# What is remembered here is read from the deployment's data (never a server's corrections,
# whichever game asks first), so one process plans alike for every server.


@cache
def tile_kind(key: str) -> str:
    """A tile's kind (remembered)."""
    with data.corrected(data.NONE):
        return tile(key).kind


@cache
def tile_strength(key: str) -> int:
    """A tile's combat strength, 0 for none (remembered)."""
    with data.corrected(data.NONE):
        return tile(key).strength or 0


@cache
def tile_carries(key: str) -> int:
    """How many spells or magic items a companion carries for the magician (remembered)."""
    with data.corrected(data.NONE):
        return tile(key).carries


@lru_cache(maxsize=1)
def battle_tables() -> BattleTables:
    """The Battle Display, modifiers and Matrix (read once)."""
    with data.corrected(data.NONE):
        return load_battle()


@cache
def magician(key: str) -> Magician:
    """A magician's card: combat, magic and pentacles (remembered)."""
    with data.corrected(data.NONE):
        return load_parties().magicians[key]


# -- one fight -------------------------------------------------------------------------------


Option = tuple[int, int, tuple[tuple[str, str], ...]]
"""One placement at one Location: combat and magic totals, and ``(thing, box)`` pairs for
the things pictured twice."""


@lru_cache(maxsize=CACHE)
def placements(party: Party) -> tuple[tuple[Option, ...], ...]:
    """Per Battle Display row (in :data:`ROWS` order), each placement's ``(combat, magic,
    boxes)`` before the Dragon's strength is taken off; modifiers included. The sums are the
    engine's (``fight.strengths``): people, counted combat things (one weapon-bound spell
    or charm per weapon, the strongest), magic things, the Location's modifier."""
    battle = battle_tables()
    wizard = magician(party.magician)
    people = party.combat
    things = [k for k in party.things if k in battle.combat or k in battle.magic]
    if party.shield:
        things.append(SHIELD)
    pictured = set(battle.twice())
    twice = [k for k in things if k in pictured]
    bound = [k for k in things if k in battle.weapon_bound and k in battle.combat]
    weapons = sum(1 for k in things if tile_kind(k) == WEAPON)
    rows = []
    for row in ROWS:
        mod = battle.locations[row].modifier
        fixed_c = sum(
            battle.combat[k][row]
            for k in things
            if k in battle.combat and k not in pictured and k not in bound
        )
        fixed_m = sum(
            battle.magic[k][row] for k in things if k in battle.magic and k not in pictured
        )
        best_bound = sum(sorted((battle.combat[k][row] for k in bound), reverse=True)[:weapons])
        options = []
        for mask in range(1 << len(twice)):
            c = people + fixed_c + best_bound + mod
            m = wizard.magic + fixed_m + mod
            boxes = []
            for i, key in enumerate(twice):
                if mask >> i & 1:
                    m += battle.magic[key][row]
                    boxes.append((key, "magic"))
                else:
                    c += battle.combat[key][row]
                    boxes.append((key, "combat"))
            options.append((c, m, tuple(boxes)))
        rows.append(tuple(options))
    return tuple(rows)


def outcome(party: Party, dragon: int, combat: int, magic: int) -> tuple[int, int, bool]:
    """(things lost, levels the Dragon loses, wiped out) for these strengths."""
    over_c, over_m = combat - dragon, magic - dragon
    if over_c < 0 or over_m < 0:
        return len(party.losable), 0, True
    lost, levels = battle_tables().matrix[min(over_m, 5)][min(over_c, 5)]
    return lost, levels, lost > len(party.losable)
