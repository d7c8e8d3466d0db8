"""Decisions that wait before play goes on, kept first-come in ``state["pending"]``.

Each is a dict with ``kind`` and ``seat`` (who decides):

* ``keep`` (secret): the taken ``tile`` cannot be carried: ``return`` it to its ``place``
  and ``slot`` face down, or ``swap <tile>`` to keep it and put one of the party's there.
* ``lose``: give up a ``what`` (``companion``, ``weapon`` or ``thing``): ``lose <tile>``.
* ``drop``: put down a ``what`` (``weapon`` or ``magic``) the party can no longer carry.
* ``castle``: the chooser sends King's men ``km`` (and captive ``magician``, a seat or
  ``None``) to ``castle <key>``.
* ``challenge``: the owner of King's men ``km`` in ``place`` may ``challenge <magician>``
  one of the ``candidates``, or ``pass`` before the first challenge.
* ``answer``: the challenged magician will ``accept`` or take the ``road <place>``.
* ``escape``: a captured magician holding a Gain One Day tile may ``escape`` the castle
  rather than lose the turn, or ``wait``.
* ``draw``: in the Lair, ``draw`` a Dragon Location tile; nothing else is asked first.
* ``lair``: the ``location`` drawn allows more than one thing (:func:`fight.lair_choices`):
  ``fight``, ``recover`` (abandoned weapons or Ulrich), ``done`` (the Dragon away: go to
  Morgenthorme), or ``redraw`` when ``items`` (a Silver Ewer, Orb of Vision or Far Mirror)
  allow discarding this first draw.
* ``battle``: ``fight`` with things pictured twice placed ``thing=combat|magic``.
* ``lose`` with ``what`` ``battle``: the Matrix's ``count`` losses, one ``lose`` at a time.
* ``recover``: ``recover <weapon>`` from the Abandoned Weapons Display, or ``done``.
"""

from __future__ import annotations

import random
from typing import assert_never

from engines.base import Event, IllegalAction
from engines.dragonslayer import challenges, fight, flow, losses
from engines.dragonslayer.model import load_urland
from engines.dragonslayer.notation import match
from engines.dragonslayer.state import (
    DAYS,
    GAIN_DAY,
    SLOT_LETTERS,
    Answer,
    Castle,
    Challenge,
    Drop,
    Keep,
    Lair,
    Lose,
    Plain,
    State,
    current_fight,
    magician_name,
    name,
    same_load,
    slot_ref,
)


def resolve(state: State, verb: str, rest: str, events: list[Event], rng: random.Random) -> None:
    """Apply the answer ``verb rest`` to the first pending decision."""
    decision = state["pending"][0]
    if decision["kind"] == "draw":
        _draw(state, decision, verb, rest, events, rng)
    elif decision["kind"] == "lair":
        _lair(state, decision, verb, rest, events, rng)
    elif decision["kind"] == "battle":
        _battle(state, decision, verb, rest, events)
    elif decision["kind"] == "recover":
        _recover(state, decision, verb, rest, events)
    elif decision["kind"] == "keep":
        _keep(state, decision, verb, rest, events)
    elif decision["kind"] == "lose":
        _lose(state, decision, verb, rest, events)
    elif decision["kind"] == "drop":
        _drop(state, decision, verb, rest, events)
    elif decision["kind"] == "castle":
        _castle(state, decision, verb, rest, events)
    elif decision["kind"] == "challenge":
        _challenge(state, decision, verb, rest, events)
    elif decision["kind"] == "answer":
        _answer(state, decision, verb, rest, events)
    elif decision["kind"] == "escape":
        _escape(state, decision, verb, rest, events)
    else:
        assert_never(decision)


def _keep(state: State, decision: Keep, verb: str, rest: str, events: list[Event]) -> None:
    seat, key = decision["seat"], decision["tile"]
    place, letter = decision["place"], decision["slot"]
    index = SLOT_LETTERS.index(letter)
    who = magician_name(state, seat)
    at = load_urland().places[place].name
    if verb == "return":
        state["slots"][place][index] = key
        state["memory"][seat][slot_ref(place, letter)] = key
        state["pending"].pop(0)
        events.append(Event(f"{who} puts the tile back face down at {at} (slot {letter})."))
        events.append(Event(f"You put the {name(key)} back at {at}, slot {letter}.", seat=seat))
        return
    if verb != "swap":
        raise IllegalAction("Answer `return` (put it back) or `swap <one of your things>`.")
    offered = swap_options(state, seat, key)
    give = match(rest, [(k, name(k)) for k in offered])
    if give is None:
        listed = ", ".join(name(k) for k in offered) or "nothing"
        raise IllegalAction(f"You can swap it for: {listed}. Or `return` it.")
    party = state["parties"][seat]
    party["things"].remove(give)
    party["things"].append(key)
    state["slots"][place][index] = give
    # The swapped-out thing was on show in the party, so every player knows where it lies.
    for memory in state["memory"]:
        memory[slot_ref(place, letter)] = give
    state["pending"].pop(0)
    events.append(
        Event(
            f"{who} keeps the {name(key)} and leaves the {name(give)} face down at {at} "
            f"(slot {letter})."
        )
    )


def swap_options(state: State, seat: int, key: str) -> list[str]:
    """Carried things that make room for ``key`` when put down (never Ulrich's Ashes)."""
    return [k for k in losses.things(state, seat) if same_load(key, k)]


def _lose(state: State, decision: Lose, verb: str, rest: str, events: list[Event]) -> None:
    if decision["what"] == "battle":
        _lose_in_battle(state, decision, verb, rest, events)
        return
    seat = decision["seat"]
    offered = losses.options(state, seat, decision["what"])
    key = match(rest, [(k, name(k)) for k in offered]) if verb == "lose" else None
    if key is None:
        listed = ", ".join(name(k) for k in offered)
        raise IllegalAction(f"Choose the {losses.WHAT[decision['what']]} to lose: {listed}.")
    state["pending"].pop(0)
    losses.remove(state, seat, key, decision["reason"], events)


def _drop(state: State, decision: Drop, verb: str, rest: str, events: list[Event]) -> None:
    seat = decision["seat"]
    offered = losses.drop_options(state, seat, decision["what"])
    key = match(rest, [(k, name(k)) for k in offered]) if verb == "drop" else None
    if key is None:
        listed = ", ".join(name(k) for k in offered)
        raise IllegalAction(f"Your party carries too much: `drop` one of {listed}.")
    state["pending"].pop(0)
    losses.drop(state, seat, key, events)


def _castle(state: State, decision: Castle, verb: str, rest: str, events: list[Event]) -> None:
    castles = [(p.key, p.name) for p in load_urland().of_kind("castle")]
    castle = match(rest, castles) if verb == "castle" else None
    if castle is None:
        raise IllegalAction(
            "Choose a castle: " + ", ".join(f"`castle {key}`" for key, _ in castles) + "."
        )
    challenges.to_castle(state, decision, castle, events)


def _challenge(
    state: State, decision: Challenge, verb: str, rest: str, events: list[Event]
) -> None:
    if verb == "pass" and not decision["started"]:
        state["pending"].pop(0)
        events.append(Event("No challenge."))
        return
    offered = [(state["roles"][s], magician_name(state, s)) for s in decision["candidates"]]
    role = match(rest, offered) if verb == "challenge" else None
    if role is None:
        names = ", ".join(f"`challenge {key}`" for key, _ in offered)
        also = "" if decision["started"] else ", or `pass`"
        raise IllegalAction(f"Answer {names}{also}.")
    challenges.challenge(state, decision, state["roles"].index(role), events)


def _answer(state: State, decision: Answer, verb: str, rest: str, events: list[Event]) -> None:
    if verb == "accept":
        challenges.accept(state, decision, events)
        return
    urland = load_urland()
    roads = [(p, urland.places[p].name) for p in urland.neighbours(decision["place"])]
    neighbour = match(rest, roads) if verb == "road" else None
    if neighbour is None:
        raise IllegalAction(
            "Answer `accept`, or take the road: " + ", ".join(f"`road {k}`" for k, _ in roads)
        )
    challenges.take_road(state, decision, neighbour, events)


def _escape(state: State, decision: Plain, verb: str, rest: str, events: list[Event]) -> None:
    seat = decision["seat"]
    magician = state["magicians"][seat]
    if verb == "escape":
        state["pending"].pop(0)
        state["parties"][seat]["kept"].remove(GAIN_DAY)
        state["removed"].append(GAIN_DAY)
        magician["lost"] -= 1
        magician["delayed"] = False
        state["days"] = DAYS
        events.append(
            Event(f"{magician_name(state, seat)} uses {name(GAIN_DAY)} to leave the castle.")
        )
    elif verb == "wait":
        state["pending"].pop(0)
        flow.lose_turn(state, seat, events)
        flow.begin_kings_men(state, events)
    else:
        raise IllegalAction("Answer `escape` (use your Gain One Day tile) or `wait`.")


def _lose_in_battle(
    state: State, decision: Lose, verb: str, rest: str, events: list[Event]
) -> None:
    seat = decision["seat"]
    offered = fight.losable(state, seat)
    key = match(rest, [(k, name(k)) for k in offered]) if verb == "lose" else None
    if key is None:
        listed = ", ".join(name(k) for k in offered)
        raise IllegalAction(f"The Dragon takes {decision['count']} more: `lose` one of {listed}.")
    fight.lose_in_battle(state, seat, key, events)
    decision["count"] -= 1
    if decision["count"] == 0:
        state["pending"].pop(0)
        current_fight(state)["stage"] = "over"


def _draw(
    state: State, decision: Plain, verb: str, rest: str, events: list[Event], rng: random.Random
) -> None:
    if verb != "draw":
        raise IllegalAction(
            "In the Lair, `draw` a Dragon Location tile first: what you may do then (fight, "
            "recover abandoned weapons or Ulrich) depends on the tile drawn."
        )
    state["pending"].pop(0)
    fight.draw(state, decision["seat"], rng, events)


def _lair(
    state: State, decision: Lair, verb: str, rest: str, events: list[Event], rng: random.Random
) -> None:
    seat, location = decision["seat"], decision["location"]
    allowed = fight.lair_choices(state, seat, location, bool(decision["items"]))
    if verb not in allowed or rest:
        where = fight.location_name(location)
        options = ", ".join(f"`{a}`" for a in allowed)
        raise IllegalAction(f"'{where}' was drawn: answer {options}.")
    state["pending"].pop(0)
    if verb == "redraw":
        item = name(decision["items"][0])
        events.append(Event(f"{magician_name(state, seat)} uses the {item} to draw again."))
        fight.draw(state, seat, rng, events, discarded=location)
        return
    fight.act_on_draw(state, seat, location, verb, events)


def _battle(state: State, decision: Plain, verb: str, rest: str, events: list[Event]) -> None:
    seat = decision["seat"]
    if verb != "fight":
        raise IllegalAction(
            "Answer `fight`, placing things pictured twice: `fight amulet_of_power=magic`."
        )
    boxes = parse_boxes(state, seat, rest)
    state["pending"].pop(0)
    fight.resolve(state, seat, boxes, events)


def parse_boxes(state: State, seat: int, rest: str) -> dict[str, str]:
    """``thing=combat|magic`` words; things not named go where the best placement puts them."""
    boxes = dict(fight.best_placement(state, seat))
    twice = fight.twice(state, seat)
    for word in rest.split():
        thing, _, box = word.partition("=")
        key = match(thing, [(k, name(k)) for k in twice])
        if key is None or box not in ("combat", "magic"):
            listed = ", ".join(f"{k}=combat|magic" for k in twice) or "nothing to place"
            raise IllegalAction(f"Place things pictured twice as {listed}.")
        boxes[key] = box
    return boxes


def _recover(state: State, decision: Plain, verb: str, rest: str, events: list[Event]) -> None:
    seat = decision["seat"]
    if verb == "done":
        state["pending"].pop(0)
        fight.end_recovery(state, seat, events)
        return
    offered = fight.recoverable(state, seat)
    key = match(rest, [(k, name(k)) for k in offered]) if verb == "recover" else None
    if key is None:
        listed = ", ".join(name(k) for k in offered)
        raise IllegalAction(f"`recover` one of {listed}, or be `done`.")
    fight.take_abandoned(state, seat, key, events)
    if not fight.recoverable(state, seat):
        state["pending"].pop(0)
        fight.end_recovery(state, seat, events)
