"""When a player's time runs out: skipping a decision or a turn, and leaving the game."""

from __future__ import annotations

import random

from engines.base import Event, ForfeitReason, IllegalAction, Termination
from engines.clone import clone
from engines.dragonslayer import actions, decisions, fight, flow
from engines.dragonslayer.model import load_urland
from engines.dragonslayer.notation import split
from engines.dragonslayer.prompts import legal_actions
from engines.dragonslayer.state import (
    SLOT_LETTERS,
    Decision,
    State,
    in_game,
    kings_man,
    magician_name,
)


def default_answer(state: State, decision: Decision, rng: random.Random) -> str:
    """What a skipped decision becomes: the mildest answer, or a castle drawn at random.
    In the Lair: the draw, then recovering where the tile allows it, else going to
    Morgenthorme (the Dragon away), else the fight; never a redraw."""
    if decision["kind"] == "keep":
        return "return"
    if decision["kind"] == "challenge" and not decision["started"]:
        return "pass"
    if decision["kind"] == "answer":
        return "accept"
    if decision["kind"] == "escape":
        return "wait"
    if decision["kind"] == "draw":
        return "draw"
    if decision["kind"] == "lair":
        allowed = fight.lair_choices(state, decision["seat"], decision["location"], False)
        return next(a for a in ("recover", "done", "fight") if a in allowed)
    if decision["kind"] == "recover":
        return "done"
    if decision["kind"] == "battle":
        boxes = fight.best_placement(state, decision["seat"])
        return " ".join(["fight", *(f"{k}={box}" for k, box in boxes.items())])
    choices = legal_actions(state, decision["seat"])
    if decision["kind"] == "castle":
        return rng.choice(choices).action
    return choices[0].action


def skip(state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:
    """A waiting decision gets its default answer; a turn ends where it stands (the King's
    men of a skipped turn stay put); unplaced King's men go to castles drawn at random."""
    state = clone(state)
    events: list[Event] = [Event(f"Time ran out for {magician_name(state, seat)}.")]
    if state["pending"]:
        verb, rest = split(default_answer(state, state["pending"][0], rng))
        decisions.resolve(state, verb, rest, events, rng)
    elif state["phase"] == "place":
        castles = [p.key for p in load_urland().of_kind("castle")]
        while state["phase"] == "place" and state["seat"] == seat:
            castle = rng.choice(castles)
            state, placed = actions.apply(state, seat, f"place {castle}", rng)
            events += placed
    else:
        flow.end_turn(state, events)
    actions.after(state, events)
    return state, events


LEAVES: dict[ForfeitReason, str] = {
    "timeout": "{who} ran out of time and leaves the game",
    "resigned": "{who} resigns and leaves the game",
    "left": "{who} has left the game",
}
"""How a magician giving up is told, per reason."""


def forfeit(
    state: State, seat: int, rng: random.Random, reason: ForfeitReason = "timeout"
) -> tuple[State, list[Event]]:
    """The magician leaves the game for good for ``reason`` (told as what it was): the
    party's tiles leave the game, the King's men leave the map, and the turn passes on.
    The last magician left wins. Any magician still playing may leave, on its turn or not.
    """
    if state["phase"] == "over":
        raise IllegalAction("The game is over; there is nothing left to give up.")
    if seat not in in_game(state):
        raise IllegalAction(f"{magician_name(state, seat)} has already left the game.")
    state = clone(state)
    who = magician_name(state, seat)
    text = f"{LEAVES[reason].format(who=who)}; the party and King's men leave the board."
    events = [Event(text, data={"seat": seat, "forfeit": True, "reason": reason})]
    _withdraw_decisions(state, seat)
    ended = state["fight"] if state["fight"] and state["fight"]["seat"] == seat else None
    if ended:
        # The fight ends with the party that fought it; the Dragon neither wins nor raids
        # again, but goes on attacking the other magicians of a raided place.
        if ended.get("shield"):
            state["removed"].append("dragon_shield")
        state["fight"] = None
    magician = state["magicians"][seat]
    magician.update({"where": None, "out": True, "lost": 0, "delayed": False})
    party = state["parties"][seat]
    for group in ("companions", "things", "kept"):
        state["removed"] += party[group]
        party[group] = []
    state["kings_men"] = [km for km in state["kings_men"] if km["seat"] != seat]
    victims = [s for s in ended.get("victims", []) if s != seat] if ended else []
    if ended and ended.get("raid") and victims:
        fight.begin(state, victims[0], ended["location"], events,
                    raid=ended["raid"], victims=victims[1:])  # fmt: skip
    playing = in_game(state)
    if len(playing) <= 1:
        text = (
            f"Every other magician has left: {magician_name(state, playing[0])} wins."
            if playing
            else "Every magician has left the game: nobody wins."
        )
        state["outcome"] = {
            "winners": playing,
            "text": text,
            "how": Termination.of_forfeit(reason).value,
        }
        state["phase"] = "over"
        state["pending"] = []
        events.append(Event(text))
        return state, events
    if state["seat"] == seat:
        if state["phase"] == "place":
            waiting = [s for s in playing if any(
                km["seat"] == s and km["at"] is None for km in state["kings_men"]
            )]  # fmt: skip
            if waiting:
                state["seat"] = waiting[0]
            else:
                flow.begin_turn(state, playing[0], events)
        else:
            flow.end_turn(state, events)
    actions.after(state, events)
    return state, events


def _withdraw_decisions(state: State, seat: int) -> None:
    """Settle or drop every pending decision that waits on, or concerns, ``seat``."""
    mine = {km["key"] for km in state["kings_men"] if km["seat"] == seat}
    kept: list[Decision] = []
    for decision in state["pending"]:
        if decision.get("km") in mine:
            continue
        if decision["kind"] == "keep" and decision["seat"] == seat:
            place, letter = decision["place"], decision["slot"]
            state["slots"][place][SLOT_LETTERS.index(letter)] = decision["tile"]
            continue
        if decision["kind"] == "castle" and decision["seat"] == seat:
            # The King's men's owner chooses instead of the player who left.
            kept.append({**decision, "seat": kings_man(state, decision["km"])["seat"]})
            continue
        if decision["seat"] == seat:
            continue
        if decision["kind"] == "challenge":
            decision["candidates"] = [s for s in decision["candidates"] if s != seat]
            if not decision["candidates"]:
                continue
        kept.append(decision)
    state["pending"] = kept
