"""Dragonslayer computer player: gather a party, then face the Dragon when the odds say so.

Why this approach. Only slaying the Dragon wins, the game is long, and one fight at the
wrong Location wipes a party out; most of the play is travel and tile-taking whose payoff
shows only in the Lair. A look-ahead search over the turns would drown in face-down tiles
and hidden draws, so the player is a planner around one exact sum instead, worked out on
the engine's fast model of the fight (:mod:`engines.dragonslayer.fast`: parties, their
sums at every Location and placement, the Matrix):
:func:`win_chance`, the chance that fighting in the Lair now, and again after every fight,
kills the Dragon before the party falls. It uses public knowledge only (the party, the
Dragon's strength, the Battle Display, the Matrix): six equally likely Locations per fight
('Away' just means trying again), the best placement of the things pictured twice, the
least missed tiles given up to the Matrix, the Dragon Shield in a first fight beside
Valerian, one redraw with a Silver Ewer, Orb of Vision or Far Mirror. Each fight of the
chain loses a tile or wounds the Dragon, so it is finite; tiles that fight, carry and are
lost alike share one memoised result, so a decision costs milliseconds.

Evaluation terms. :func:`worth` = 20 x win chance + :func:`strength_score`, the mean over
the six Locations of the best placement's smooth value (how far below the Dragon a
strength is, else 2 + 3 per level the Dragon loses - 0.3 per tile lost + 0.1 per point
over), + 0.15 per tile the party could lose (to 10), + 1.5 per spell the magician can
carry (to 4: Ulrich's worth to Galen before the spells are found). The smooth part lets a
party far from ready still tell a better sword from a worse one.

Play. Travel by Dijkstra over roads and sea zones in days, King's men's extra days
included; head for the most unseen face-down tiles per day (known ones only if they
help), take tiles where the party stands; keep, swap, drop and lose by :func:`worth`.
Go to the Lair when the win chance passes a bar that falls as unseen tiles run out (0.7
above 12, 0.5 above 6, 0.3 above 2, any chance below); go in for abandoned weapons when
that visit is worth more; Galen fetches Ulrich once he has three companions to lose
before him to a Companion Killed. In the Lair the tile is drawn first; then the player
takes the choice that tile allows with the best win chance (:func:`choice_values`: fight
there, recover, leave when the Dragon is away, or draw again with a seer item). King's
men challenge an opponent whose party's combat strength is at most the tile's own (known
to its owner), else stay in their castle; a challenge is accepted only when no tile of
that set (2 and 4, or the one a challenge revealed) can match the party, else the
magician takes the road towards his goal.

Measured with ``python -m bench.tournament --games dragonslayer --rounds 200`` (strong in
one seat, easy elsewhere, same seeds as all-easy), win rates strong vs easy in that seat:
2 players: Aurric 63.0% vs 0.5% (+62.5 pp), Galen 66.0% vs 0.0% (+66.0 pp); 4 players:
Aurric 48.0% vs 0.5% (+47.5), Merridyds 52.5% vs 1.0% (+51.5), Old Kyvin 76.0% vs 3.5%
(+72.5), Galen 60.5% vs 0.0% (+60.5). Decision time p50 0.4 ms, p95 14 ms (2 players) and
p50 0.3 ms, p95 4 ms (4 players) on 2 shared cores.
"""

from __future__ import annotations

import heapq
import random
import threading
import time
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

from engines import data
from engines.base import Game
from engines.dragonslayer.battle import ROWS, load_battle
from engines.dragonslayer.challenges import challengeable
from engines.dragonslayer.fast import (
    CACHE,
    SHIELD,
    VALERIAN,
    Party,
    outcome,
    party_of,
    placements,
)
from engines.dragonslayer.fast import battle_tables as _battle
from engines.dragonslayer.fast import magician as _magician
from engines.dragonslayer.fast import tile_kind as _kind
from engines.dragonslayer.fight import can_recover, lair_choices
from engines.dragonslayer.model import (
    COMPANION,
    MAGIC_ITEM,
    SPELL,
    WEAPON,
    load_parties,
    load_tiles,
    load_urland,
)
from engines.dragonslayer.moves import steps_from
from engines.dragonslayer.state import (
    ASHES,
    GAIN_DAY,
    SLOT_LETTERS,
    KingsMen,
    State,
    current_fight,
    place_of,
    standing,
    strength_of,
    tile,
)
from players.base import Decision

ULRICH = "ulrich"
BUDGET_SECONDS = 0.8
"""Safety net only: a decision that has thought this long settles for the quick score.
The calculation is bounded by itself (each fight of a chain loses a tile or wounds the
Dragon, alike parties share one result), so it triggers only for a very large party on a
busy machine."""
FIGHT_BARS = ((12, 0.7), (6, 0.5), (2, 0.3))
"""``(unexplored tiles above, win chance needed)``: the bar for heading to the Lair falls
as Urland runs out of tiles to find (with none left, any chance will do)."""
ULRICH_ESCORT = 3
"""Companions Galen gathers before fetching Ulrich (see :func:`time_for_ulrich`)."""
SPARE_GAINS = 2
"""Gain One Day tiles held before one is spent on a day of travel or a tile (the last is
kept for escaping a castle)."""
GAIN_MARGIN = 0.05
"""How much a known face-down tile must add (in :func:`worth` units) to be worth a day."""
EXACT_OPTIONS = 4
"""How many options a loss is weighed between exactly (the rest by the quick score)."""
UNKNOWN = "?"
LAIR_PREFERENCE = ("recover", "done", "fight", "redraw")
"""After a draw, between choices of the same win chance: the one that risks least."""
"""What a face-down tile the seat never saw looks like in its observed state."""

# -- alike tiles ------------------------------------------------------------------------------


@cache
def _canon(key: str) -> str:
    """The representative of the tiles that count exactly like ``key`` in a fight, in the
    carrying limits and as a loss (same kind of load, same Display values, same rules)."""
    return _canon_table().get(key, key)


@lru_cache(maxsize=1)
def _canon_table() -> dict[str, str]:
    # Read from the deployment's data, as engines.dragonslayer.fast remembers it.
    with data.corrected(data.NONE):
        return _canon_table_of(_battle())


def _canon_table_of(battle: Any) -> dict[str, str]:
    keys = sorted(
        {t.key for t in load_tiles().tiles}
        | {t.key for t in load_tiles().map_tiles}
        | {t.key for t in load_parties().galen_tiles}
    )
    first: dict[tuple[object, ...], str] = {}
    table = {}
    for key in keys:
        found = tile(key)
        load = "weapon" if found.kind == WEAPON else found.kind in (SPELL, MAGIC_ITEM)
        signature = (
            found.kind == COMPANION,
            load,
            found.strength or 0,
            found.carries,
            tuple(battle.combat.get(key, {}).values()),
            tuple(battle.magic.get(key, {}).values()),
            key in battle.weapon_bound,
            key in battle.second_draw,
            key in (ASHES, VALERIAN, SHIELD, ULRICH),
            key if found.kind not in (WEAPON, SPELL, MAGIC_ITEM, COMPANION) else "",
        )
        table[key] = first.setdefault(signature, key)
    return table


def _canonical(party: Party) -> Party:
    """The same party with every tile replaced by the first tile that fights, carries and is
    lost exactly alike, so alike parties share one calculation."""
    return Party(
        party.magician,
        tuple(sorted(_canon(k) for k in party.companions)),
        tuple(sorted(_canon(k) for k in party.things)),
        party.shield,
    )


def _smooth(party: Party, dragon: int, combat: int, magic: int) -> float:
    """A fight's worth on a smooth scale: how close to surviving, or how good the Matrix."""
    over_c, over_m = combat - dragon, magic - dragon
    if over_c < 0 or over_m < 0:
        return -4.0 + min(over_c, 0) + min(over_m, 0)
    lost, levels, wiped = outcome(party, dragon, combat, magic)
    if wiped:
        return -3.0
    return 2.0 + 3.0 * levels - 0.3 * lost + 0.1 * (min(over_c, 6) + min(over_m, 6))


def strength_score(party: Party, dragon: int) -> float:
    """:func:`_score` of the party's canonical form."""
    return _score(_canonical(party), dragon)


@lru_cache(maxsize=CACHE)
def _score(party: Party, dragon: int) -> float:
    """Mean over the six Locations of the best placement's smooth worth, plus a little for
    each thing the party could lose and still stand, and for room to carry spells found
    later (what Ulrich is worth to Galen before he finds them)."""
    rows = placements(party)
    total = sum(max(_smooth(party, dragon, c, m) for c, m in {(c, m) for c, m, _ in row})
                for row in rows)  # fmt: skip
    room = 1.5 * min(party.magic_limit(), 4)
    return total / len(rows) + 0.15 * min(len(party.losable), 10) + room


def _drop_to_limits(party: Party, dragon: int) -> Party:
    """Drop the least useful weapons or spells until the party may carry what it has."""
    while (what := party.over_limit()) is not None:
        pool = party.weapons() if what == WEAPON else party.magic()
        party = max((party.without(k) for k in pool), key=lambda p: _score(p, dragon))
    return party


def _loss_candidates(party: Party) -> list[str]:
    """The tiles worth considering for one loss: every thing, and one companion of each
    kind (same strength, same carrying, Valerian apart), since alike companions are lost
    alike."""
    seen: dict[tuple[object, ...], str] = {}
    for key in party.companions:
        found = tile(key)
        seen.setdefault((found.strength, found.carries, key == VALERIAN), key)
    return [*seen.values(), *(k for k in party.things if k != ASHES)]


@lru_cache(maxsize=CACHE)
def lose_one(party: Party, dragon: int) -> Party:
    """The party after its least missed tile is lost (and what it can no longer carry is
    dropped): the loss that leaves the best :func:`strength_score`."""
    best, score = party, None
    for key in _loss_candidates(party):
        option = party.without(key)
        if _kind(key) == COMPANION:
            option = _drop_to_limits(option, dragon)
        value = _score(option, dragon)
        if score is None or value > score:
            best, score = option, value
    return best


def after_losses(party: Party, lost: int, dragon: int) -> Party:
    """The party after giving up ``lost`` of its tiles, the least missed one at a time."""
    for _ in range(min(lost, len(party.losable))):
        party = lose_one(party, dragon)
    return party


@lru_cache(maxsize=CACHE)
def row_values(party: Party, dragon: int) -> tuple[float, ...]:
    """Per Location row, the chain's win chance after facing the Dragon there (best
    placement)."""
    return tuple(
        max(fight_value(party, dragon, c, m) for c, m in {(c, m) for c, m, _ in row})
        for row in placements(party)
    )


def fight_value(party: Party, dragon: int, combat: int, magic: int) -> float:
    """Win chance of the chain after a fight with these strengths."""
    lost, levels, wiped = outcome(party, dragon, combat, magic)
    if wiped:
        return 0.0
    if dragon - levels <= 0:
        return 1.0
    plain = _canonical(Party(party.magician, party.companions, party.things))
    return _win(after_losses(plain, lost, dragon), dragon - levels)


def has_redraw(party: Party) -> bool:
    return any(k in _battle().second_draw for k in party.things)


def win_chance(party: Party, dragon: int) -> float:
    """:func:`_win` of the party's canonical form (0 when the decision is out of time)."""
    if getattr(_clock, "quick", False):
        return 0.0
    return _win(_canonical(party), dragon)


class _OutOfTime(Exception):
    """The decision's time budget ran out (see :data:`BUDGET_SECONDS`)."""


_clock = threading.local()


@lru_cache(maxsize=CACHE)
def _win(party: Party, dragon: int) -> float:
    """Chance that fighting in the Lair now and after every fight kills the Dragon before
    the party is wiped out (a kill that wipes the party out is a draw: no win)."""
    if dragon <= 0:
        return 1.0
    deadline = getattr(_clock, "deadline", None)
    if deadline is not None and time.perf_counter() > deadline:
        raise _OutOfTime
    values = row_values(party, dragon)
    plain = sum(values) / len(values)
    if not has_redraw(party):
        return plain
    total = 0.0
    for value in values:
        others = (sum(values) - value + plain) / len(values)
        total += max(value, others)
    return total / len(values)


def worth(party: Party, dragon: int) -> float:
    """How good a party is: the chain's win chance first, the smooth score to break ties."""
    return 20.0 * win_chance(party, dragon) + strength_score(party, dragon)


# -- the map ---------------------------------------------------------------------------------


def magician_steps(state: State, position: str) -> list[tuple[str, int]]:
    """``(position, days)`` of each single move from ``position`` (as the engine counts)."""
    return [(step.to, step.days) for step in steps_from(state, position)]


def travel(state: State, start: str, lair: bool) -> tuple[dict[str, int], dict[str, str]]:
    """Days from ``start`` to every position, and the first move of a shortest way there.
    The Lair is entered only as a destination when ``lair`` is true (never passed through)."""
    lair_key = load_urland().lair.key
    dist = {start: 0}
    first: dict[str, str] = {}
    queue = [(0, start, "")]
    while queue:
        days, here, step = heapq.heappop(queue)
        if days > dist.get(here, 1 << 30):
            continue
        if place_of(here) == lair_key and here != start:
            continue
        for there, cost in magician_steps(state, here):
            if place_of(there) == lair_key and not lair:
                continue
            total = days + cost
            if total < dist.get(there, 1 << 30):
                dist[there] = total
                first[there] = step or there
                heapq.heappush(queue, (total, there, step or there))
    return dist, first


# -- reading the observed state ---------------------------------------------------------------


def _unknown_slots(state: State, place: str) -> list[str]:
    return [SLOT_LETTERS[i] for i, k in enumerate(state["slots"].get(place, [])) if k == UNKNOWN]


def _known_slots(state: State, place: str) -> list[tuple[str, str]]:
    return [
        (SLOT_LETTERS[i], k)
        for i, k in enumerate(state["slots"].get(place, []))
        if k and k != UNKNOWN
    ]


@lru_cache(maxsize=CACHE)
def gain_from(party: Party, key: str, dragon: int) -> float:
    """What taking the known tile ``key`` adds (keeping it, or swapping out the worst thing
    of its load), in :func:`worth` units."""
    base = worth(party, dragon)
    if _kind(key) not in (WEAPON, SPELL, MAGIC_ITEM, COMPANION):
        return -1.0
    if party.fits(key):
        return worth(party.plus(key), dragon) - base
    same = party.weapons() if _kind(key) == WEAPON else party.magic()
    if not same:
        return -1.0
    return max(worth(party.without(k).plus(key), dragon) for k in same) - base


def wanted_here(state: State, party: Party, place: str) -> str | None:
    """The slot letter worth taking in ``place``: a known good tile first, else an unknown."""
    dragon = state["dragon"]
    best = None
    for letter, key in _known_slots(state, place):
        gain = gain_from(party, key, dragon)
        if gain > GAIN_MARGIN and (best is None or gain > best[0]):
            best = (gain, letter)
    if best:
        return best[1]
    unknown = _unknown_slots(state, place)
    return unknown[0] if unknown else None


def unexplored(state: State) -> int:
    """Face-down tiles on the map that the seat has not seen."""
    return sum(1 for slots in state["slots"].values() for k in slots if k == UNKNOWN)


def fight_bar(state: State) -> float:
    """The win chance at which the party heads for the Lair: high while much of Urland is
    unexplored, anything above nothing once little is left to find."""
    left = unexplored(state)
    for above, bar in FIGHT_BARS:
        if left > above:
            return bar
    return 0.0


def needs_ulrich(state: State, seat: int) -> bool:
    """Whether the seat is Galen with Ulrich's Ashes and Ulrich still in his box."""
    return ASHES in state["parties"][seat]["things"] and ULRICH in state["boxes"]


def time_for_ulrich(state: State, seat: int) -> bool:
    """Galen fetches Ulrich once two companions besides Hodge can be lost in his place
    (a Companion Killed while Ulrich is the only companion would leave Galen one spell
    for the rest of the game), or once little is left to find meanwhile."""
    companions = state["parties"][seat]["companions"]
    return needs_ulrich(state, seat) and (
        len(companions) >= ULRICH_ESCORT or unexplored(state) <= 12
    )


# -- the player ------------------------------------------------------------------------------


Handler = Callable[[Any, int, list[str]], Decision | None]
"""How the player answers one kind of prompt: the state, the seat, its legal actions."""


class DragonslayerPlayer:
    """The strong Dragonslayer player (stateless: every answer comes from the state)."""

    def choose(self, game: Game[Any], state: Any, seat: int, rng: random.Random) -> Decision:
        choices = game.legal_actions(state, seat)
        if not choices:
            return Decision("done", "")
        actions = [c.action for c in choices]
        prompts = [p for p in game.prompts(state) if p.seat == seat]
        kind = prompts[0].kind if prompts else ""
        handler: Handler | None = getattr(self, f"_{kind}", None)
        decision: Decision | None = None
        if handler:
            _clock.deadline = time.perf_counter() + BUDGET_SECONDS
            try:
                decision = handler(state, seat, actions)
            except _OutOfTime:
                _clock.deadline = None
                _clock.quick = True
                decision = handler(state, seat, actions)
            finally:
                _clock.deadline = None
                _clock.quick = False
        if decision is None or decision.action not in actions:
            return Decision(actions[0], "")
        return decision

    # -- setting up and the King's men --------------------------------------------------

    def _place(self, state: State, seat: int, actions: list[str]) -> Decision:
        """King's men start in the castle farthest from this magician's landing ports."""
        urland = load_urland()
        abode = urland.abodes[state["roles"][seat]]
        ports = [p.key for p in urland.ports_on(abode.sea)] or list(urland.places)
        dist = [urland.distances(p) for p in ports]

        def far(action: str) -> int:
            castle = action.split()[1]
            return min(d.get(castle, 99) for d in dist)

        return Decision(max(actions, key=far), "posts the King's men away from its own road")

    def _kings_men(self, state: State, seat: int, actions: list[str]) -> Decision:
        """March a King's man to an opponent it can beat within its days; else stay put."""
        urland = load_urland()
        lair = urland.lair.key
        movers = {a.split()[0] for a in actions if a != "done"}
        best: tuple[int, str, str, str, int] | None = None
        for km in state["kings_men"]:
            group = f"k{km['number']}"
            if km["seat"] != seat or group not in movers or km["at"] is None:
                continue
            days = state["days"] if state["active"] == km["key"] else 3
            dist = urland.distances(km["at"], avoid=[lair])
            for target in _targets(state, seat, km):
                place = place_of(state["magicians"][target]["where"])
                if place is None or not 0 < dist.get(place, 0) <= days:
                    continue
                if best is None or dist[place] < best[0]:
                    best = (dist[place], group, km["at"], place, target)
        if best is None:
            return Decision("done", "")
        _, group, start, place, target = best
        back = urland.distances(place, avoid=[lair])
        step = min(
            (p for p in urland.neighbours(start) if p != lair and p in back),
            key=lambda p: (back[p], p),
        )
        who = _magician(state["roles"][target]).name
        return Decision(f"{group} {step}", f"King's men march on {who}")

    def _challenge(self, state: State, seat: int, actions: list[str]) -> Decision:
        decision = state["pending"][0]
        assert decision["kind"] == "challenge", "a challenge prompt asks about a challenge"
        km = next(k for k in state["kings_men"] if k["key"] == decision["km"])
        beatable = [s for s in decision["candidates"] if s != seat and
                    party_of(state, s).combat <= strength_of(km)]  # fmt: skip
        if beatable:
            target = min(beatable, key=lambda s: party_of(state, s).combat)
            who = _magician(state["roles"][target]).name
            combat = party_of(state, target).combat
            return Decision(
                f"challenge {state['roles'][target]}",
                f"challenges {who}, whose party's combat strength is only {combat}",
            )
        if "pass" in actions:
            return Decision("pass", "")
        others = [s for s in decision["candidates"] if s != seat]
        target = others[0] if others else seat
        return Decision(f"challenge {state['roles'][target]}", "")

    def _answer(self, state: State, seat: int, actions: list[str]) -> Decision:
        decision = state["pending"][0]
        assert decision["kind"] == "answer", "an answer prompt asks about a challenge"
        km = next(k for k in state["kings_men"] if k["key"] == decision["km"])
        combat = party_of(state, seat).combat
        strongest = _kings_man_at_most(state, km)
        if combat > strongest or len(actions) == 1:
            why = f"accepts: no tile of that set matches the party's {combat}"
            return Decision("accept", why if combat > strongest else "")
        goal = self._goal(state, seat)[1]
        roads = [a for a in actions if a.startswith("road ")]
        lair = load_urland().lair.key
        dists = load_urland().distances(goal) if goal else {}

        def closeness(action: str) -> tuple[bool, int, str]:
            place = action.split()[1]
            return (place == lair and goal != lair, dists.get(place, 99), place)

        return Decision(min(roads, key=closeness), "takes the road rather than risk capture")

    def _castle(self, state: State, seat: int, actions: list[str]) -> Decision:
        decision = state["pending"][0]
        assert decision["kind"] == "castle", "a castle prompt asks for a castle"
        urland = load_urland()
        here = place_of(state["magicians"][seat]["where"]) or urland.lair.key
        km = next(k for k in state["kings_men"] if k["key"] == decision["km"])
        if decision["magician"] == seat:
            # Our own magician goes too: the castle nearest where it was heading.
            goal = self._goal(state, seat)[1] or here
            dist = urland.distances(goal)
            return Decision(min(actions, key=lambda a: (dist.get(a.split()[1], 99), a)), "")
        dist = urland.distances(here)
        why = "sends the King's men far from the party's road"
        if km["seat"] == seat and decision["magician"] is not None:
            why = "locks the captive away far from here"
        return Decision(max(actions, key=lambda a: (dist.get(a.split()[1], 0), a)), why)

    # -- the magician's days ---------------------------------------------------------------

    def _goal(self, state: State, seat: int) -> tuple[str, str | None, str]:
        """``(purpose, place, why)``: ``fight``/``recover`` (the Lair) or ``gather``."""
        urland = load_urland()
        lair = urland.lair.key
        party = party_of(state, seat)
        dragon = state["dragon"]
        if time_for_ulrich(state, seat):
            return "recover", lair, "heads for the Lair to turn Ulrich's Ashes into Ulrich"
        chance = win_chance(party, dragon)
        where = standing(state, seat)
        target = self._gather_target(state, seat, where)
        if chance > 0 and (chance >= fight_bar(state) or target is None):
            return "fight", lair, self._lair_words(state, party, chance)
        if any(state["abandoned"].values()):
            recovery = recovery_chance(state, seat)
            if recovery > chance and (recovery >= fight_bar(state) or target is None):
                return "recover", lair, "heads for the Lair to recover abandoned weapons"
        if target is None:
            return "wait", None, ""
        return "gather", target, ""

    def _lair_words(self, state: State, party: Party, chance: float) -> str:
        rows = placements(party)
        dragon = state["dragon"]
        combat = max(max(c for c, _, _ in row) for row in rows)
        magic = max(max(m for _, m, _ in row) for row in rows)
        return (
            f"heads for the Lair against the Dragon's {dragon} with combat up to {combat} and "
            f"magic up to {magic}: about {round(100 * chance)}% to slay it"
        )

    def _gather_target(self, state: State, seat: int, where: str) -> str | None:
        party = party_of(state, seat)
        dist, _ = travel(state, where, lair=False)
        best = None
        for place, slots in state["slots"].items():
            days = dist.get(f"place:{place}")
            if days is None or not any(slots):
                continue
            value = float(len(_unknown_slots(state, place)))
            for _, key in _known_slots(state, place):
                if gain_from(party, key, state["dragon"]) > GAIN_MARGIN:
                    value += 1.0
            if value <= 0:
                continue
            if any(km["at"] == place for km in state["kings_men"]):
                value *= 0.8
            score = value / (days + 2)
            if best is None or score > best[0]:
                best = (score, place)
        return best[1] if best else None

    def _move(self, state: State, seat: int, actions: list[str]) -> Decision:
        where = standing(state, seat)
        days = state["days"]
        party = party_of(state, seat)
        purpose, goal, why = self._goal(state, seat)
        here = place_of(where)
        spare = state["parties"][seat]["kept"].count(GAIN_DAY) >= SPARE_GAINS
        if purpose in ("gather", "wait") and here:
            letter = wanted_here(state, party, here)
            if letter and f"take {letter}" in actions:
                return Decision(f"take {letter}", "")
            if letter and days == 0 and spare and "gain" in actions:
                return Decision("gain", "uses a spare Gain One Day to take one more tile")
        if goal is None:
            return Decision("done", "")
        target = f"place:{goal}"
        _, first = travel(state, where, lair=(purpose in ("fight", "recover")))
        if target not in first:
            return Decision("done", "")
        step = first[target]
        cost = dict(magician_steps(state, where))[step]
        key = step.partition(":")[2]
        if cost <= days and f"go {key}" in actions:
            return Decision(f"go {key}", why if place_of(step) == goal else "")
        # One Gain One Day is kept for escaping a castle; it is spent only to reach the Lair.
        if "gain" in actions and cost == days + 1 and (spare or purpose in ("fight", "recover")):
            return Decision("gain", "uses Gain One Day to travel on")
        return Decision("done", "")

    def _escape(self, state: State, seat: int, actions: list[str]) -> Decision:
        return Decision("escape", "escapes the castle with Gain One Day")

    # -- tiles and losses --------------------------------------------------------------------

    def _keep(self, state: State, seat: int, actions: list[str]) -> Decision:
        decision = state["pending"][0]
        assert decision["kind"] == "keep", "a keep prompt asks about a tile"
        new = decision["tile"]
        party = party_of(state, seat)
        dragon = state["dragon"]
        best, value = "return", worth(party, dragon)
        for action in actions:
            if action.startswith("swap "):
                old = action.split()[1]
                option = worth(party.without(old).plus(new), dragon)
                if option > value + 1e-9:
                    best, value = action, option
        if best == "return":
            return Decision("return", "puts the find back: the party's things are better")
        old = best.split()[1]
        return Decision(best, f"keeps the find in place of {_called(old)}")

    def _lose(self, state: State, seat: int, actions: list[str]) -> Decision:
        party = party_of(state, seat)
        dragon = state["dragon"]
        current = state["fight"]
        if current and current["seat"] == seat:
            party = Party(party.magician, party.companions, party.things)
        best = _least_missed(party, dragon, [a.split()[1] for a in actions])
        return Decision(f"lose {best}", f"gives up {_called(best)}, the least missed")

    def _drop(self, state: State, seat: int, actions: list[str]) -> Decision:
        party = party_of(state, seat)
        best = _least_missed(party, state["dragon"], [a.split()[1] for a in actions])
        return Decision(f"drop {best}", f"leaves {_called(best)} behind")

    # -- the Lair ---------------------------------------------------------------------------

    def _draw(self, state: State, seat: int, actions: list[str]) -> Decision:
        return Decision("draw", "")

    def _lair(self, state: State, seat: int, actions: list[str]) -> Decision:
        """After the draw: the choice it allows with the best win chance (recovering, then
        leaving, when out of time)."""
        decision = state["pending"][0]
        assert decision["kind"] == "lair", "a lair prompt asks about the tile drawn"
        drawn = decision["location"]
        if getattr(_clock, "quick", False):
            safe = [a for a in ("recover", "done") if a in actions]
            return Decision(safe[0] if safe else actions[0], "")
        values = choice_values(state, seat, drawn, redraw="redraw" in actions)
        best = max(actions, key=lambda a: (round(values[a], 9), -LAIR_PREFERENCE.index(a)))
        where = load_battle().locations[drawn].name if drawn in ROWS else "the Dragon away"
        why = {
            "fight": "",
            "recover": f"draws {where} and recovers instead of fighting",
            "done": "",
            "redraw": f"will not face {where} and draws again",
        }[best]
        return Decision(best, why)

    def _battle(self, state: State, seat: int, actions: list[str]) -> Decision:
        party = party_of(state, seat)
        dragon = state["dragon"]
        row = current_fight(state)["location"]
        options = placements(party)[ROWS.index(row)]
        by_boxes = {frozenset(boxes): (c, m) for c, m, boxes in options}
        best = None
        for action in actions:
            boxes = frozenset(_placed(word) for word in action.split()[1:])
            c, m = by_boxes.get(boxes, options[0][:2])
            lost, levels, wiped = outcome(party, dragon, c, m)
            quick = getattr(_clock, "quick", False)
            value = 0.0 if quick else fight_value(party, dragon, c, m)
            key = (value, not wiped, levels, -lost)
            if best is None or key > best[0]:
                best = (key, action, c, m, lost, levels, wiped)
        assert best is not None, "a battle prompt offers at least one placement"
        _, action, c, m, lost, levels, wiped = best
        where = load_battle().locations[row].name
        if wiped:
            result = "the party cannot stand"
        elif levels:
            result = f"the Dragon loses {levels}, the party {lost}"
        else:
            result = f"the Dragon is unhurt, the party loses {lost}"
        placed = [w.split("=") for w in action.split()[1:]]
        put = " and ".join(f"{_called(k)} on {box}" for k, box in placed)
        head = f"places {put}: " if put else ""
        return Decision(action, f"{head}combat {c}, magic {m} at {where}; {result}")

    def _recover(self, state: State, seat: int, actions: list[str]) -> Decision:
        party = party_of(state, seat)
        dragon = state["dragon"]
        best, value = "done", worth(party, dragon)
        for action in actions:
            if action.startswith("recover "):
                key = action.split()[1]
                option = worth(party.plus(key), dragon)
                if option > value + 1e-9:
                    best, value = action, option
        if best == "done":
            return Decision("done", "")
        return Decision(best, f"recovers {_called(best.split()[1])}")


def after_recovery(state: State, seat: int, party: Party) -> Party:
    """The party after a successful try: Ulrich for the Ashes, then the abandoned weapons
    that help, best first, as long as they can be carried."""
    dragon = state["dragon"]
    if ASHES in party.things and ULRICH in state["boxes"]:
        party = party.without(ASHES).plus(ULRICH)
    lying = [k for keys in state["abandoned"].values() for k in keys]
    while True:
        options = [k for k in lying if party.fits(k)]
        if not options:
            return party
        best = max(options, key=lambda k: (worth(party.plus(k), dragon), k))
        if worth(party.plus(best), dragon) <= worth(party, dragon):
            return party
        party = party.plus(best)
        lying.remove(best)


def choice_values(state: State, seat: int, drawn: str, redraw: bool = False) -> dict[str, float]:
    """Win chance after each choice that the Location tile ``drawn`` allows (the engine's
    :func:`engines.dragonslayer.fight.lair_choices`): ``fight`` there, ``recover`` (then the
    chain with what was recovered), ``done`` (the Dragon away: a fight later, any row),
    ``redraw`` (the best choice after each other tile, on average)."""
    return _choice_values(state, seat, drawn, redraw, _lair_outcomes(state, seat))


def _lair_outcomes(state: State, seat: int) -> dict[str, Any]:
    """What every choice in the Lair is weighed with: the chain's win chance after a fight
    at each row, and after recovering (only where something could be recovered)."""
    party = party_of(state, seat)
    dragon = state["dragon"]
    rows = dict(zip(ROWS, row_values(_canonical(party), dragon), strict=True))
    recovered = None
    if can_recover(state, seat):
        recovered = win_chance(after_recovery(state, seat, party), dragon)
    return {"rows": rows, "recover": recovered}


def _choice_values(
    state: State, seat: int, drawn: str, redraw: bool, outcomes: dict[str, Any]
) -> dict[str, float]:
    rows = outcomes["rows"]
    values: dict[str, float] = {}
    for choice in lair_choices(state, seat, drawn, redraw):
        if choice == "fight":
            values[choice] = rows[drawn]
        elif choice == "recover":
            values[choice] = outcomes["recover"]
        elif choice == "done":
            values[choice] = sum(rows.values()) / len(rows)
        else:
            others = [t for t in location_tiles() if t != drawn]
            values[choice] = sum(
                max(_choice_values(state, seat, t, False, outcomes).values()) for t in others
            ) / len(others)
    return values


def recovery_chance(state: State, seat: int) -> float:
    """Win chance of going into the Lair now with abandoned weapons or Galen's Ashes about:
    draw first, then the best choice that tile allows (0 when there is nothing to recover)."""
    if not any(state["abandoned"].values()) and not needs_ulrich(state, seat):
        return 0.0
    outcomes = _lair_outcomes(state, seat)
    tiles = location_tiles()
    best = [max(_choice_values(state, seat, t, False, outcomes).values()) for t in tiles]
    return sum(best) / len(tiles)


def location_tiles() -> list[str]:
    """The Dragon Location tiles a draw takes from: the six rows and 'away'."""
    return [*ROWS, _battle().away]


def _called(key: str) -> str:
    """A tile as a sentence names it: 'Elspeth', 'the Hart Bow', 'The Diamond Mace'."""
    name = tile(key).name
    if _kind(key) == COMPANION or name.startswith("The "):
        return name
    return f"the {name}"


def _least_missed(party: Party, dragon: int, keys: list[str]) -> str:
    """The tile among ``keys`` whose loss costs the party least: alike tiles are weighed
    once, the few best by :func:`strength_score` are weighed by :func:`worth`."""
    alike: dict[str, str] = {}
    for key in keys:
        alike.setdefault(_canon(key), key)

    def left(key: str) -> Party:
        option = party.without(key)
        return _drop_to_limits(_canonical(option), dragon)

    ranked = sorted(alike.values(), key=lambda k: (-strength_score(left(k), dragon), k))
    return max(ranked[:EXACT_OPTIONS], key=lambda k: (worth(left(k), dragon), -ranked.index(k)))


def _placed(word: str) -> tuple[str, str]:
    """A battle action's ``thing=box`` word as ``(thing, box)``."""
    thing, _, box = word.partition("=")
    return thing, box


def _targets(state: State, seat: int, km: KingsMen) -> list[int]:
    """Opponents a King's man could challenge and beat: in a town or hamlet, no townsfolk in
    the party there, party combat strength at most the tile's."""
    found = []
    for other, magician in enumerate(state["magicians"]):
        place = place_of(magician["where"])
        if other == seat or place is None or other not in challengeable(state, place):
            continue
        if party_of(state, other).combat <= strength_of(km):
            found.append(other)
    return found


def _kings_man_at_most(state: State, km: KingsMen) -> int:
    """The most this King's men tile can be: its strength if revealed, else the strongest of
    its set not yet shown on the other tile."""
    if km["strength"] is not None:
        return km["strength"]
    parties = load_parties()
    sets = {s.leader: [m.strength for m in s.men] for s in parties.kings_men}
    left = list(sets.get(km["leader"], [4]))
    for other in state["kings_men"]:
        shown = other["strength"]
        if other is not km and other["leader"] == km["leader"] and shown in left:
            left.remove(shown)
    return max(left) if left else 4


PLAYER = DragonslayerPlayer()
