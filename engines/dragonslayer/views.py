"""What each player may know of a game of Dragonslayer.

Public: where magicians and King's men stand, how many face-down tiles lie in each place,
every party (parties are on the table), the Dragon's strength, strengths of King's men that
a challenge revealed. Private to one seat: its own King's men's strengths, the tiles it
looked at and put back (or saw put down), and the tile it is deciding about.
"""

from __future__ import annotations

from typing import Any

from engines.dragonslayer import fight
from engines.dragonslayer.battle import load_battle
from engines.dragonslayer.model import MAGIC_ITEM, SPELL, WEAPON, load_parties, load_urland
from engines.dragonslayer.state import (
    KingsMen,
    State,
    kind_of,
    kings_man_name,
    magic_limit,
    magic_load,
    magician_name,
    party_combat,
    people,
    tile,
    weapon_limit,
    weapons,
    where_words,
)


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The view ``seat`` may see (:func:`seat_view`), or the public one for ``None``."""
    if seat is None:
        return public_view(state)
    return seat_view(state, seat)


def public_view(state: State) -> dict[str, Any]:
    return {
        "game": "dragonslayer",
        "summary": summary(state),
        "turn": state["turn"],
        "phase": state["phase"],
        "current": None if state["phase"] == "over" else state["seat"],
        "days_left": state["days"],
        "dragon": {"strength": state["dragon"]},
        "boxes": {key: key in state["boxes"] for key in ("ulrich", "dragon_shield")},
        "face_down": {
            place: n for place, slots in state["slots"].items() if (n := sum(map(bool, slots)))
        },
        "magicians": [_magician(state, seat) for seat in range(len(state["roles"]))],
        "kings_men": [_kings_man(state, km) for km in state["kings_men"]],
        "parties": [_party(state, seat) for seat in range(len(state["roles"]))],
        "last": state["last"],
        "abandoned": {
            row: [{"key": k, "name": tile(k).name} for k in keys]
            for row, keys in state["abandoned"].items()
            if keys
        },
        "battle": battle_view(state),
        "removed": len(state["removed"]),
        "set_aside": len(state["set_aside"]),
    }


def seat_view(state: State, seat: int) -> dict[str, Any]:
    view = public_view(state)
    view["seat"] = seat
    view["private"] = private_text(state, seat)
    view["my_kings_men"] = {
        km["key"]: km["strength"] for km in state["kings_men"] if km["seat"] == seat
    }
    view["memory"] = dict(state["memory"][seat])
    pending = state["pending"][0] if state["pending"] else None
    if pending and pending["kind"] == "keep" and pending["seat"] == seat:
        view["looking_at"] = pending["tile"]
    return view


def summary(state: State) -> str:
    if state["outcome"] is not None:
        return state["outcome"]["text"]
    who = magician_name(state, state["seat"])
    whose = f"{who}'" if who.endswith("s") else f"{who}'s"
    turn = f"Turn {state['turn']}"
    if state["phase"] == "place":
        return f"Setting up: {who} places King's men in castles."
    if state["pending"]:
        waiting = magician_name(state, state["pending"][0]["seat"])
        return f"{turn}, {whose} turn: waiting for {waiting} to decide."
    if state["phase"] == "magician":
        days = state["days"]
        return f"{turn}: {who} has {days} day{'' if days == 1 else 's'} left."
    return f"{turn}: {whose} King's men are on the move."


def private_text(state: State, seat: int) -> str:
    lines = []
    mine = [km for km in state["kings_men"] if km["seat"] == seat]
    if mine:
        lines.append(
            "Your King's men: "
            + ", ".join(f"{kings_man_name(km)} strength {km['strength']}" for km in mine)
            + "."
        )
    urland = load_urland()
    for ref, key in sorted(state["memory"][seat].items()):
        place, _, letter = ref.partition("/")
        lines.append(f"You know tile {letter} at {urland.places[place].name}: {tile(key).name}.")
    pending = state["pending"][0] if state["pending"] else None
    if pending and pending["kind"] == "keep" and pending["seat"] == seat:
        lines.append(f"You are holding the {tile(pending['tile']).name}, which you cannot carry.")
    return "\n".join(lines)


def _magician(state: State, seat: int) -> dict[str, Any]:
    magician = state["magicians"][seat]
    where = magician["where"]
    if where is None:
        placed = None
    else:
        kind, _, rest = where.partition(":")
        road = rest.split(":") if kind == "road" else None
        placed = {"kind": kind, "key": road[0] if road else rest, "road": road}
    status = []
    if magician["delayed"]:
        status.append("delayed")
    if magician["lost"]:
        status.append("loses next turn")
    if magician["out"]:
        status.append("out of the game")
    return {
        "seat": seat,
        "key": state["roles"][seat],
        "name": magician_name(state, seat),
        "where": placed,
        "where_text": where_words(where),
        "status": ", ".join(status),
        "out": magician["out"],
    }


def _kings_man(state: State, km: KingsMen) -> dict[str, Any]:
    return {
        "key": km["key"],
        "seat": km["seat"],
        "magician": state["roles"][km["seat"]],
        "leader": km["leader"],
        "number": km["number"],
        "at": km["at"],
        "strength": km["strength"] if km["revealed"] else None,
        "idle": km["lost"] > 0,
    }


def _party(state: State, seat: int) -> dict[str, Any]:
    magician = load_parties().magicians[state["roles"][seat]]
    party = state["parties"][seat]

    def named(keys: list[str]) -> list[dict[str, Any]]:
        return [{"key": k, "name": tile(k).name} for k in keys]

    things = party["things"]
    return {
        "seat": seat,
        "magician": magician.key,
        "name": magician.name,
        "combat": magician.combat,
        "magic": magician.magic,
        "pentacles": magician.pentacles,
        "companions": [_companion(k) for k in party["companions"]],
        "weapons": named([k for k in things if kind_of(k) == WEAPON]),
        "spells": named([k for k in things if kind_of(k) == SPELL]),
        "magic_items": named([k for k in things if kind_of(k) == MAGIC_ITEM]),
        "kept": named(party["kept"]),
        "people": people(state, seat),
        "party_combat": party_combat(state, seat),
        "carry": {
            "weapons": [len(weapons(state, seat)), weapon_limit(state, seat)],
            "magic": [magic_load(state, seat), magic_limit(state, seat)],
        },
    }


def _companion(key: str) -> dict[str, Any]:
    found = tile(key)
    return {"key": key, "name": found.name, "strength": found.strength or 0, "home": found.home}


def battle_view(state: State) -> dict[str, Any] | None:
    """The fight in progress as the Battle Display shows it (see ``render.dragonslayer.battle``).

    Every name the Display prints is here, as the data files name it: the magician, the
    Display row (``location_name``, from ``battle.json``), the things and, in a raid, the
    raided place (``raid_place``, from ``urland.json``)."""
    current = state["fight"]
    if current is None or "boxes" not in current:
        return None
    battle = load_battle()
    seat = current["seat"]
    boxes = current["boxes"] or {}
    resolved = current["boxes"] is not None
    sums = fight.strengths(state, seat, boxes or fight.best_placement(state, seat))
    twice = set(battle.twice())

    def item(key: str, table: str) -> dict[str, Any]:
        values = battle.combat if table == "combat" else battle.magic
        return {
            "key": key,
            "name": tile(key).name,
            "values": dict(values[key]),
            "counted": not resolved or table == "magic" or key in sums["counted"],
            "legible": list(battle.legible.get(table, {}).get(key, [])),
            "twice": key in twice,
        }

    if resolved:
        combat_items, magic_items = sums["combat_items"], sums["magic_items"]
    else:
        keys = fight.things_in_battle(state, seat)
        combat_items = [k for k in keys if k in battle.combat]
        magic_items = [k for k in keys if k in battle.magic]
    magician = load_parties().magicians[state["roles"][seat]]
    # Once fought, the people who fought (losses chosen since do not rewrite the battle).
    fought = current.get("people", state["parties"][seat]["companions"])
    people = [{"name": magician.name, "strength": magician.combat}] + [
        {"name": tile(k).name, "strength": tile(k).strength or 0} for k in fought
    ]
    cell = current["cell"]
    raid = current["raid"]
    return {
        "seat": seat,
        "magician": magician.key,
        "name": magician.name,
        "location": current["location"],
        "location_name": battle.locations[current["location"]].name,
        "raid": raid is not None,
        "raid_place": load_urland().places[raid].name if raid else None,
        "rows": [
            {"key": loc.key, "name": loc.name, "modifier": loc.modifier}
            for loc in battle.locations.values()
        ],
        "combat_items": [item(k, "combat") for k in combat_items],
        "magic_items": [item(k, "magic") for k in magic_items],
        "people": people,
        "magician_magic": magician.magic,
        "resolved": resolved,
        "combat": sums["combat"] if resolved else None,
        "magic": sums["magic"] if resolved else None,
        "dragon": current.get("dragon", state["dragon"]),
        "cell": (
            {"magic": cell[0], "combat": cell[1], "lost": cell[2], "levels": cell[3]}
            if cell
            else None
        ),
        "matrix": [[list(c) for c in row] for row in battle.matrix],
        "matrix_legible": [list(rc) for rc in battle.legible.get("matrix", [])],
        "outcome": current.get("outcome", ""),
    }
