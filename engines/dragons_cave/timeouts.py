"""When a player's time runs out: skipping the pending answer, or forfeiting the game.

* **Skip** answers the pending secret for the player: a Dwarf player plays the Treasure
  Chest card; the Dragon's lair square is drawn; a Purse is split as evenly as possible (the
  odd coin in the left hand); the Dragon's hand picks are drawn.
* **Forfeit** with 2 players ends the game: the other player wins. With 3-4 players the
  seat leaves for good: its Dwarf leaves the board, its Purse goes back to the Treasure, its
  Chest stays sealed and no longer counts, and it is never the Dragon or prompted again.
  A Dragon that leaves has this round's choices drawn. Once fewer than two players are
  left, the last one wins.

Both are pure like ``apply``: the state given is copied, never changed.
"""

from __future__ import annotations

import random

from engines.base import Event, ForfeitReason, IllegalAction, Termination
from engines.clone import clone
from engines.dragons_cave import actions, rounds
from engines.dragons_cave.board import coin_words, kind_keys
from engines.dragons_cave.notation import CHEST
from engines.dragons_cave.prompts import prompts
from engines.dragons_cave.state import State, dragon_away, name, present


def skip(state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:
    """The state after ``seat``'s pending prompt is answered for it, and the events."""
    kinds = [prompt.kind for prompt in prompts(state) if prompt.seat == seat]
    if not kinds:
        raise IllegalAction(f"Seat {seat} has nothing to decide now, so nothing to skip.")
    new = clone(state)
    who = name(new, seat)
    kind = kinds[0]
    data = {"timeout": "skip", "seat": seat, "prompt": kind}
    if kind == "card":
        text = (
            f"{who} ran out of time: the Treasure Chest card is played for them. Their Dwarf "
            "stays put, cannot be caught, and their Purse goes into their Chest."
        )
        events = [Event(text, data=data), *actions.play_card(new, seat, (CHEST,))]
    elif kind == "lair":
        square = rng.choice(kind_keys(new["board"]))
        text = (
            f"{who}, the Dragon, ran out of time: its lair square is drawn at random and stays "
            "secret until the cards are revealed."
        )
        events = [Event(text, data=data), *actions.choose_lair(new, seat, (square,))]
    elif kind == "split":
        catch = next(c for c in new["catches"] if c["seat"] == seat and c["split"] is None)
        left = (catch["purse"] + 1) // 2
        text = (
            f"{who} ran out of time: their Purse is split as evenly as possible between the "
            "two hands, the odd coin in the left hand."
        )
        events = [Event(text, data=data), *actions.split_purse(new, seat, (str(left),), rng)]
    else:
        text = f"{who}, the Dragon, ran out of time: its hand picks are drawn at random."
        events = [Event(text, data=data), *actions.draw_hands(new, rng)]
    new["last_action"] = {"seat": seat, "verb": "skip", "text": text}
    return new, events


GIVES_UP: dict[ForfeitReason, tuple[str, str, str]] = {
    "timeout": (
        "{who} ran out of time and forfeits the game",
        "{who} forfeited on time",
        "{who} ran out of time and leaves the game for good",
    ),
    "resigned": ("{who} resigns", "{who} resigned", "{who} resigns and leaves the game for good"),
    "left": ("{who} has left the game", "{who} left the game", "{who} has left the game for good"),
}
"""How a seat giving up is told, per reason: with 2 players, the event and why the other
won; with 3-4, the event of the seat leaving."""


def forfeit(
    state: State, seat: int, rng: random.Random, reason: ForfeitReason = "timeout"
) -> tuple[State, list[Event]]:
    """The state after ``seat`` gives up for good for ``reason``, and the events, which
    tell it as what it was (a timeout, a resignation, a player leaving)."""
    if state["phase"] == "over":
        raise IllegalAction("The game is over; there is nothing left to forfeit.")
    if not 0 <= seat < len(state["roles"]):
        raise IllegalAction(f"There is no seat {seat} at this table.")
    if seat in state["departed"]:
        raise IllegalAction(f"{name(state, seat)} has already left the game.")
    new = clone(state)
    who = name(new, seat)
    gives_up, why, leaves = GIVES_UP[reason]
    if new["two_player"]:
        other = 1 - seat
        text = f"{gives_up.format(who=who)}: {name(new, other)} wins."
        data = {"timeout": "forfeit", "reason": reason, "seat": seat, "winners": [other]}
        events = [Event(text, data=data)]
        how = Termination.of_forfeit(reason)
        events += rounds.finish(new, "forfeit", [other], why.format(who=who), how)
    else:
        text, events = _leave(new, seat, rng, leaves.format(who=who), reason)
    new["last_action"] = {"seat": seat, "verb": "forfeit", "text": text}
    return new, events


def _leave(
    state: State, seat: int, rng: random.Random, leaves: str, reason: ForfeitReason
) -> tuple[str, list[Event]]:
    """3-4 players: ``seat`` leaves the (copied) state for good (``leaves`` tells how);
    the round goes on."""
    was_dragon = seat == state["dragon_seat"]
    purse = state["purses"][seat]
    state["treasure"] += purse
    state["purses"][seat] = 0
    state["dwarves"] = [d for d in state["dwarves"] if d["seat"] != seat]
    state["departed"].append(seat)
    state["cards"][seat] = None
    state["catches"] = [c for c in state["catches"] if c["seat"] != seat or c["hand"]]
    remaining = present(state)
    text = (
        f"{leaves}: their Dwarf leaves the board, the "
        f"{coin_words(purse)} of their Purse go back to the Treasure, and their Chest stays "
        "sealed and no longer counts."
    )
    if len(remaining) < 2:
        text += f" Only {name(state, remaining[0])} is left, so the game ends."
    elif was_dragon:
        text += (
            " They were the Dragon: its choices this round are drawn at random, and from "
            "the next round on the Dragon passes over them."
        )
    else:
        text += " They will not play the Dragon again."
    data = {"timeout": "forfeit", "reason": reason, "seat": seat, "returned": purse,
            "remaining": remaining}  # fmt: skip
    events = [Event(text, data=data)]
    if len(remaining) < 2:
        return text, events + rounds.finish(
            state, "forfeit", remaining, "every other player left the game",
            Termination.of_forfeit(reason),
        )  # fmt: skip
    return text, events + _go_on(state, rng)


def _go_on(state: State, rng: random.Random) -> list[Event]:
    """Carry the round on after a seat left: draw what a departed Dragon still owed, and
    reveal, move to the hand picks or end the round if nobody else is awaited."""
    phase = state["phase"]
    if phase == "choose":
        if dragon_away(state) and state["lair_choice"] is None:
            # Secret until the reveal, whose public event records the drawn square.
            state["lair_choice"] = rng.choice(kind_keys(state["board"]))
        return actions.reveal_if_ready(state)
    if phase == "split":
        return actions.hands_if_ready(state, rng)
    if all(c["hand"] is not None for c in state["catches"]):
        return rounds.end_round(state)
    if dragon_away(state):
        return actions.draw_hands(state, rng)
    return []
