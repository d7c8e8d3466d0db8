"""The Dragon: entering its Lair, the fight, raids, abandoned weapons and winning.

'When you think your party is strong enough to fight the Dragon, you can move to the Dragon's
Lair and draw a Dragon Location tile at random.' The fight in progress lives in
``state["fight"]`` (:class:`engines.dragonslayer.state.Fight`); its ``stage`` is ``"boxes"``
(the player places things pictured twice), ``"losses"`` (choosing what is lost) or
``"over"`` (waiting only for drops before the aftermath)."""

from __future__ import annotations

import itertools
import random
from typing import Literal

from engines.base import Event, IllegalAction, Termination
from engines.clone import clone
from engines.dragonslayer.battle import BattleTables, load_battle
from engines.dragonslayer.model import WEAPON, load_parties, load_urland
from engines.dragonslayer.state import (
    ASHES,
    State,
    Sums,
    current_fight,
    forget_slot,
    in_game,
    kind_of,
    magician_name,
    name,
    party_combat,
    place_of,
    tile,
    weapon_limit,
    weapons,
)

VALERIAN = "valerian"
SHIELD = "dragon_shield"
ULRICH = "ulrich"
LAKE = "lake"
"""The Location tile that denies Galen Ulrich: 'The Dragon is in the Lake of Fire'."""


# -- entering the Lair -------------------------------------------------------------------


def can_recover(state: State, seat: int) -> bool:
    """Whether going to the Lair may be a try at abandoned weapons or at Ulrich."""
    return any(state["abandoned"].values()) or ASHES in state["parties"][seat]["things"]


def enter(state: State, seat: int) -> None:
    """'Move to the Dragon's Lair. Draw a Dragon Location tile at random.' The magician
    stands in the Lair and draws next: what the party may do depends on the tile."""
    state["pending"].insert(0, {"kind": "draw", "seat": seat})


def draw(
    state: State, seat: int, rng: random.Random, events: list[Event],
    discarded: str | None = None,
) -> None:  # fmt: skip
    """Draw a Dragon Location tile at random (never the one just discarded), then do what
    it leaves to do, or ask when it allows more than one thing."""
    battle = load_battle()
    pile = [*battle.locations, battle.away]
    if discarded:
        pile.remove(discarded)
    location = rng.choice(pile)
    events.append(
        Event(
            f"{magician_name(state, seat)} draws: {location_name(location)}.",
            data={"location": location, "pile": pile},
        )
    )
    things = state["parties"][seat]["things"]
    second = [] if discarded else [k for k in battle.second_draw if k in things]
    allowed = lair_choices(state, seat, location, bool(second))
    if len(allowed) > 1:
        state["pending"].insert(
            0, {"kind": "lair", "seat": seat, "location": location, "items": second}
        )
        return
    if can_recover(state, seat) and "recover" not in allowed and location != battle.away:
        events.append(Event(f"{magician_name(state, seat)} finds the Dragon there and must fight."))
    act_on_draw(state, seat, location, allowed[0], events)


def lair_choices(state: State, seat: int, location: str, redraw: bool) -> list[str]:
    """What the tile drawn allows, in this order: ``fight`` (the Dragon is there),
    ``recover`` (see :func:`may_recover`), ``done`` (the Dragon is away: go to
    Morgenthorme) and ``redraw`` (a first draw, with a Silver Ewer, Orb of Vision or Far
    Mirror)."""
    away = location == load_battle().away
    allowed = [] if away else ["fight"]
    if may_recover(state, seat, location):
        allowed.append("recover")
    if away:
        allowed.append("done")
    if redraw:
        allowed.append("redraw")
    return allowed


def may_recover(state: State, seat: int, location: str) -> bool:
    """'If you draw the tile that matches the location of the weapons, you have to fight the
    Dragon and cannot recover weapons; if you draw any other tile, you can take the
    weapons.' Ulrich's Ashes likewise, with the Lake of Fire: any box holding weapons, or
    the Lake for Galen's Ashes, matches."""
    if not can_recover(state, seat):
        return False
    lying = {loc for loc, keys in state["abandoned"].items() if keys}
    ashes = ASHES in state["parties"][seat]["things"]
    return location not in lying and not (ashes and location == LAKE)


def location_name(key: str) -> str:
    return tile(key).name


def act_on_draw(state: State, seat: int, location: str, choice: str, events: list[Event]) -> None:
    """Do what the player chose after the draw: fight, recover, or (the Dragon away) go
    to Morgenthorme."""
    if choice == "recover":
        recover(state, seat, location, events)
    elif choice == "done":
        who = magician_name(state, seat)
        events.append(Event(f"The Dragon is away: {who} goes to Morgenthorme."))
        rest_in_morgenthorme(state, seat)
    else:
        begin(state, seat, location, events)


def recover(state: State, seat: int, location: str, events: list[Event]) -> None:
    """'If you draw any other tile, you can take the weapons (as many as you can carry) and
    then go to Morgenthorme.' Ulrich's Ashes become Ulrich the same way."""
    who = magician_name(state, seat)
    party = state["parties"][seat]
    if ASHES in party["things"]:
        party["things"].remove(ASHES)
        state["removed"].append(ASHES)
        if ULRICH in state["boxes"]:
            state["boxes"].remove(ULRICH)
            party["companions"].append(ULRICH)
            events.append(Event(f"{who} turns Ulrich's Ashes into Ulrich, who joins the party."))
    state["fight"] = {"seat": seat, "stage": "recover", "location": location}
    if recoverable(state, seat):
        state["pending"].insert(0, {"kind": "recover", "seat": seat})
    else:
        end_recovery(state, seat, events)


def recoverable(state: State, seat: int) -> list[str]:
    """Abandoned weapons the party could carry now (none lie where the Dragon was drawn)."""
    if len(weapons(state, seat)) >= weapon_limit(state, seat):
        return []
    return [k for keys in state["abandoned"].values() for k in keys]


def take_abandoned(state: State, seat: int, key: str, events: list[Event]) -> None:
    for keys in state["abandoned"].values():
        if key in keys:
            keys.remove(key)
            state["parties"][seat]["things"].append(key)
            events.append(Event(f"{magician_name(state, seat)} recovers the {name(key)}."))
            return
    raise IllegalAction(f"The {name(key)} is not on the Abandoned Weapons Display.")


def end_recovery(state: State, seat: int, events: list[Event]) -> None:
    state["fight"] = None
    events.append(Event(f"{magician_name(state, seat)} goes to Morgenthorme; the Dragon rests."))
    rest_in_morgenthorme(state, seat)


def rest_in_morgenthorme(state: State, seat: int) -> None:
    """'Put your magician in Morgenthorme, where he stays for the rest of this turn.'"""
    state["magicians"][seat]["where"] = f"place:{load_urland().morgenthorme.key}"
    if seat == state["seat"] and state["phase"] == "magician":
        state["days"] = 0
        state["rest"] = True


# -- the fight -----------------------------------------------------------------------------


def begin(
    state: State, seat: int, location: str, events: list[Event],
    raid: str | None = None, victims: list[int] | None = None,
) -> None:  # fmt: skip
    """The party faces the Dragon at ``location``; the player places things next."""
    party = state["parties"][seat]
    shield = (
        VALERIAN in party["companions"] and SHIELD in state["boxes"] and not state["fought"][seat]
    )
    if shield:
        state["boxes"].remove(SHIELD)
        events.append(Event("Valerian takes the Dragon Shield from its box for this fight."))
    state["fought"][seat] = True
    state["fight"] = {
        "seat": seat,
        "location": location,
        "raid": raid,
        "victims": victims or [],
        "shield": shield,
        "stage": "boxes",
        "boxes": None,
        "cell": None,
    }
    who, row = magician_name(state, seat), location_row(location)
    if raid:
        place = load_urland().places[raid].name
        events.append(Event(f"The Dragon attacks {who} in {place}, as if at {row}."))
    else:
        events.append(Event(f"{who} fights the Dragon at {row}."))
    state["pending"].insert(0, {"kind": "battle", "seat": seat})


def location_row(key: str) -> str:
    return load_battle().locations[key].name


def things_in_battle(state: State, seat: int) -> list[str]:
    """The party's things with a box on the Display (and the Shield if it was taken)."""
    battle = load_battle()
    keys = [k for k in state["parties"][seat]["things"] if k in battle.combat or k in battle.magic]
    if state["fight"] and state["fight"]["shield"]:
        keys.append(SHIELD)
    return keys


def twice(state: State, seat: int) -> list[str]:
    """Things the player must place in one of their two boxes."""
    pictured = load_battle().twice()
    return [k for k in things_in_battle(state, seat) if k in pictured]


def placements(state: State, seat: int) -> list[dict[str, str]]:
    """Every way to place the things pictured twice: ``{thing: "combat" or "magic"}``."""
    keys = twice(state, seat)
    return [
        dict(zip(keys, boxes, strict=True))
        for boxes in itertools.product(("combat", "magic"), repeat=len(keys))
    ]


def strengths(state: State, seat: int, boxes: dict[str, str]) -> Sums:
    """Both strengths at the fight's location with things placed as ``boxes`` says; once the
    fight is resolved, the strengths it was fought with (losses chosen since change nothing)."""
    battle = load_battle()
    fight = current_fight(state)
    if fight.get("sums") and boxes == fight["boxes"]:
        return clone(fight["sums"])
    row = fight["location"]
    magician = load_parties().magicians[state["roles"][seat]]
    people = party_combat(state, seat)
    combat_items, magic_items = split_boxes(state, seat, boxes, battle)
    counted = counted_items(state, seat, combat_items, battle, row)
    modifier = battle.locations[row].modifier
    combat_things = sum(battle.combat[k][row] for k in counted)
    magic_things = sum(battle.magic[k][row] for k in magic_items)
    combat = people + combat_things + modifier
    magic = magician.magic + magic_things + modifier
    return {
        "combat": {"people": people, "things": combat_things, "modifier": modifier,
                   "total": combat, "over": combat - state["dragon"]},
        "magic": {"magician": magician.magic, "things": magic_things, "modifier": modifier,
                  "total": magic, "over": magic - state["dragon"]},
        "combat_items": combat_items,
        "counted": counted,
        "magic_items": magic_items,
    }  # fmt: skip


def split_boxes(
    state: State, seat: int, boxes: dict[str, str], battle: BattleTables
) -> tuple[list[str], list[str]]:
    combat: list[str] = []
    magic: list[str] = []
    for key in things_in_battle(state, seat):
        in_combat = key in battle.combat and (key not in battle.magic or boxes[key] == "combat")
        (combat if in_combat else magic).append(key)
    return combat, magic


def counted_items(
    state: State, seat: int, combat_items: list[str], battle: BattleTables, row: str
) -> list[str]:
    """'You can use only one of these tiles per weapon': the strongest weapon-bound ones."""
    bound = [k for k in combat_items if k in battle.weapon_bound]
    allowed = len([k for k in combat_items if kind_of(k) == WEAPON])
    best = sorted(bound, key=lambda k: -battle.combat[k][row])[:allowed]
    return [k for k in combat_items if k not in bound or k in best]


def outcome_of(state: State, seat: int, boxes: dict[str, str]) -> tuple[int, int, bool]:
    """(things lost, levels the Dragon loses, party wiped out) for a placement."""
    sums = strengths(state, seat, boxes)
    over_c, over_m = sums["combat"]["over"], sums["magic"]["over"]
    if over_c < 0 or over_m < 0:
        return len(losable(state, seat)), 0, True
    lost, levels = load_battle().cell(over_m, over_c)
    return lost, levels, lost > len(losable(state, seat))


def best_placement(state: State, seat: int) -> dict[str, str]:
    """The placement a careful player picks: survive, wound the Dragon most, lose least."""

    def score(boxes: dict[str, str]) -> tuple[bool, int, int]:
        lost, levels, wiped = outcome_of(state, seat, boxes)
        return (not wiped, levels, -lost)

    return max(placements(state, seat), key=score)


def losable(state: State, seat: int) -> list[str]:
    """What the Dragon can take: companions, weapons, spells and magic items (never the
    Ashes; the Shield leaves after the fight anyway)."""
    party = state["parties"][seat]
    return [*party["companions"], *(k for k in party["things"] if k != ASHES)]


def resolve(state: State, seat: int, boxes: dict[str, str], events: list[Event]) -> None:
    """Fight with things placed as ``boxes`` says; the Matrix decides."""
    fight = current_fight(state)
    sums = strengths(state, seat, boxes)
    lost, levels, wiped = outcome_of(state, seat, boxes)
    over_c, over_m = sums["combat"]["over"], sums["magic"]["over"]
    fight.update(
        {"boxes": boxes, "stage": "losses", "dragon": state["dragon"], "sums": sums,
         "people": list(state["parties"][seat]["companions"])}
    )  # fmt: skip
    who = magician_name(state, seat)
    head = (
        f"Combat {sums['combat']['total']}, magic {sums['magic']['total']} against the "
        f"Dragon's {state['dragon']}"
    )
    if over_c < 0 or over_m < 0:
        fight["cell"] = None
        text = f"{head}: weaker than the Dragon, the party is wiped out."
    else:
        fight["cell"] = [min(over_m, 5), min(over_c, 5), lost, levels]
        cell_words = f"the Matrix reads {lost}/{levels}"
        state["dragon"] = max(0, state["dragon"] - levels)
        text = f"{head}: {cell_words}."
        if levels:
            text += f" The Dragon loses {levels} strength (now {state['dragon']})."
        if wiped:
            text += f" {who}'s party cannot lose {lost} and is wiped out."
        elif lost:
            text += f" {who} loses {lost} of the party."
    fight["outcome"] = text
    events.append(Event(text, data={"picture": True, "lost": lost, "levels": levels}))
    if wiped:
        wipe_out(state, seat, events)
        fight["stage"] = "over"
    elif lost:
        state["pending"].insert(
            0, {"kind": "lose", "seat": seat, "what": "battle", "reason": "the Dragon",
                "count": lost},
        )  # fmt: skip
    else:
        fight["stage"] = "over"


def lose_in_battle(state: State, seat: int, key: str, events: list[Event]) -> None:
    """One loss of the Matrix: weapons lost in the Lair go to the Abandoned Weapons Display
    at the battle's place; in a raid, and everything else, they leave the game."""
    party = state["parties"][seat]
    group: Literal["companions", "things"] = (
        "companions" if key in party["companions"] else "things"
    )
    party[group].remove(key)
    who = magician_name(state, seat)
    # only a weapon asks where the fight is: a party wiped out outside a fight (a magician
    # slain while the game goes on) loses its other things all the same
    if kind_of(key) == WEAPON and not current_fight(state)["raid"]:
        abandon(state, key)
        at = location_row(current_fight(state)["location"])
        events.append(Event(f"{who} loses the {name(key)}; it lies abandoned at {at}."))
    else:
        state["removed"].append(key)
        events.append(Event(f"{who} loses {name(key)}."))


def abandon(state: State, key: str) -> None:
    """Put a weapon lost in the Lair on the Abandoned Weapons Display, in the box of the
    place the battle is fought. A spell or magic item put down there leaves the game: the
    Display holds weapons only, and the Lair has no place for face-down tiles."""
    if kind_of(key) != WEAPON:
        state["removed"].append(key)
        return
    state["abandoned"][current_fight(state)["location"]].append(key)


def wipe_out(state: State, seat: int, events: list[Event]) -> None:
    """'If your party is wiped out by the Dragon, you are out of the game.'"""
    for key in losable(state, seat):
        lose_in_battle(state, seat, key, events)
    party = state["parties"][seat]
    state["removed"] += party["things"] + party["kept"]
    party["things"], party["kept"] = [], []
    magician = state["magicians"][seat]
    magician.update({"where": None, "out": True, "lost": 0, "delayed": False})
    state["kings_men"] = [km for km in state["kings_men"] if km["seat"] != seat]
    events.append(Event(f"{magician_name(state, seat)} is slain by the Dragon and is out."))


# -- after the fight ---------------------------------------------------------------------


def aftermath(state: State, events: list[Event]) -> None:
    """Once the losses are chosen: the Shield leaves, the game may end, the magician goes to
    Morgenthorme, and a surviving Dragon raids (or attacks the next magician of a raid)."""
    fight = current_fight(state)
    seat = fight["seat"]
    state["fight"] = None
    if fight["shield"]:
        state["removed"].append(SHIELD)
    if ended(state, seat, events):
        return
    if fight["raid"]:
        victims = [s for s in fight["victims"] if not state["magicians"][s]["out"]]
        if victims:
            begin(state, victims[0], load_battle().raid_location, events,
                  raid=fight["raid"], victims=victims[1:])  # fmt: skip
        return
    if not state["magicians"][seat]["out"]:
        rest_in_morgenthorme(state, seat)
        events.append(Event(f"{magician_name(state, seat)} rests in Morgenthorme."))
    raid(state, events)


def ended(state: State, seat: int, events: list[Event]) -> bool:
    """'You win Dragonslayer by fighting the Dragon ... and reducing the Dragon's strength to
    zero.' Killing it and dying is a draw; with every magician out, nobody wins."""
    who = magician_name(state, seat)
    if state["dragon"] == 0:
        if state["magicians"][seat]["out"]:
            text = finish(state, [], f"{who} killed the Dragon and died: a draw with the Dragon.")
        else:
            text = finish(
                state, [seat], f"{who} slew Vermithrax Pejorative and is the Dragonslayer!"
            )
        events.append(Event(text))
        return True
    if not in_game(state):
        text = finish(state, [], "Every magician has fallen: the Dragon wins and nobody wins.")
        events.append(Event(text))
        return True
    return False


def finish(state: State, winners: list[int], text: str) -> str:
    """The game is over: ``winners`` and the ending ``text`` (returned)."""
    state["outcome"] = {"winners": winners, "text": text, "how": Termination.RULES.value}
    state["phase"] = "over"
    state["pending"] = []
    return text


def raid_target(state: State) -> str | None:
    """'The nearest place that still has face-down tiles in it', by road from the Lair; ties
    go to the place listed first in the map data."""
    urland = load_urland()
    distances = urland.distances(urland.lair.key)
    order = list(urland.places)
    holding = [p for p, slots in state["slots"].items() if any(slots) and p in distances]
    if not holding:
        return None
    return min(holding, key=lambda p: (distances[p], order.index(p)))


def raid(state: State, events: list[Event]) -> None:
    """The Dragon raids: the tiles there leave the game; magicians there fight it."""
    target = raid_target(state)
    if target is None:
        events.append(Event("The Dragon finds nothing left to raid."))
        return
    place = load_urland().places[target]
    for index, key in enumerate(state["slots"][target]):
        if key:
            state["removed"].append(key)
            forget_slot(state, target, chr(ord("a") + index))
    state["slots"][target] = [None] * len(state["slots"][target])
    events.append(
        Event(f"The Dragon raids {place.name}: its face-down tiles are destroyed.",
              data={"raid": target})
    )  # fmt: skip
    victims = [s for s in in_game(state) if place_of(state["magicians"][s]["where"]) == target]
    if victims:
        begin(state, victims[0], load_battle().raid_location, events,
              raid=target, victims=victims[1:])  # fmt: skip
