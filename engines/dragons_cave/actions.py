"""Checking and carrying out one action: a card, the Dragon's square, a split, a hand.

Text that is not notation (:func:`notation.read` refuses it) is refused with
:class:`UnreadableAction`; its message is the hint the position gives (what this seat is
asked for, how many coins it may split), else the notation's own."""

from __future__ import annotations

import random

from engines.base import Event, IllegalAction, UnreadableAction, unreadable
from engines.clone import clone
from engines.dragons_cave import rounds
from engines.dragons_cave.board import coin_words, describe, kind_name
from engines.dragons_cave.notation import CHEST, HANDS, hand_action, kind_word, parse, read
from engines.dragons_cave.prompts import prompts, waiting
from engines.dragons_cave.state import (
    HandPick,
    State,
    card_seats,
    dragon_away,
    dwarf,
    movable,
    name,
    seat_of_word,
)
from engines.options import clip


def apply(state: State, seat: int, action: str, rng: random.Random) -> tuple[State, list[Event]]:
    """The state after ``seat`` takes ``action`` and the events; ``state`` is untouched.

    ``rng`` is used only when this round's Dragon has left the game and its hand picks
    are drawn. Raises IllegalAction (with what to do instead) if the action is not allowed,
    UnreadableAction if it is not notation at all.
    """
    try:
        read(action, state["board"])
    except UnreadableAction as error:
        raise unreadable(error, lambda: _apply(state, seat, action, rng)) from None
    return _apply(state, seat, action, rng)


def _apply(state: State, seat: int, action: str, rng: random.Random) -> tuple[State, list[Event]]:
    """The rules' answer to ``action``, read or not (an unreadable one gets the refusal
    this position gives it)."""
    if state["phase"] == "over":
        raise IllegalAction("The game is over; there is nothing left to play.")
    if not 0 <= seat < len(state["roles"]):
        raise IllegalAction(f"There is no seat {seat} at this table.")
    if seat in state["departed"]:
        raise IllegalAction("You have left this game; you have nothing more to play.")
    parsed = parse(action)
    expected = {"card": "card", "lair": "lair", "split": "split", "hand": "hand"}[parsed.verb]
    mine = [prompt.kind for prompt in prompts(state) if prompt.seat == seat]
    if expected not in mine:
        raise IllegalAction(_not_now(state, seat, parsed.verb, mine))
    new = clone(state)
    if parsed.verb == "split":
        return new, split_purse(new, seat, parsed.words, rng)
    handler = {"card": play_card, "lair": choose_lair, "hand": pick_hand}[parsed.verb]
    return new, handler(new, seat, parsed.words)


def _not_now(state: State, seat: int, verb: str, mine: list[str]) -> str:
    """Why ``seat`` cannot use ``verb`` now, and what it should do instead."""
    hints = {
        "card": "play a card with `card <kind>` (or `card chest`)",
        "lair": "choose your lair square with `lair <kind>`",
        "split": "split your Purse with `split <coins in left hand>`",
        "hand": "pick a hand with `hand <player> left|right`",
    }
    todo = f"; {hints[mine[0]]}." if mine else "."
    if state["phase"] == "choose" and seat == state["dragon_seat"] and verb == "card":
        return "You are the Dragon this round, so you play no card" + todo
    if state["phase"] == "choose" and seat != state["dragon_seat"] and verb == "lair":
        return "Only the Dragon chooses a lair square" + todo
    if mine:
        return f"Not now: you should {hints[mine[0]]}."
    if state["phase"] == "choose":
        if seat == state["dragon_seat"]:
            return (
                "Your square in the lair is locked in for this round; wait for the Dwarves' cards."
            )
        if seat in card_seats(state):
            return "Your card is locked in for this round; it is revealed when everyone has chosen."
        return "Your Dwarves are in the lair; you play no more cards."
    if state["phase"] == "split":
        return "Waiting for the caught players to split their Purses."
    return "Waiting for the Dragon to pick the caught players' hands."


def _count_event(state: State) -> Event:
    """Public count of the answers in so far, never whose; also kept as the public note of
    the last action, so the public view does not say who answered either."""
    counts = waiting(state) or {"kind": "", "done": 0, "total": 0}
    if counts["kind"] == "splits":
        text = f"Purses hidden in closed hands: {counts['done']} of {counts['total']}."
    else:
        done, total = counts["done"], counts["total"]
        text = f"{done} of {total} choices {'is' if done == 1 else 'are'} in."
    state["last_action"] = {"seat": None, "verb": "secret", "text": text}
    return Event(text, data={"waiting": counts})


def play_card(state: State, seat: int, words: tuple[str, ...]) -> list[Event]:
    """Lock in ``seat``'s secret card; reveal the round once every choice is in."""
    board = state["board"]
    if not words:
        raise IllegalAction("Name a card: `card <kind>` or `card chest`.")
    card = kind_word(board, words[0], allow_chest=True)
    number = _dwarf_number(state, seat, card, words[1:])
    if card not in state["hands"][seat]:
        in_hand = ", ".join(kind_name(board, c) for c in state["hands"][seat])
        raise IllegalAction(
            f"Your {kind_name(board, card)} card is face up in front of you and cannot be "
            f"played again until you are caught or play your Chest. In hand: {in_hand}."
        )
    state["cards"][seat] = {"card": card, "dwarf": number}
    if card == CHEST:
        locked = "Chest"
    elif state["two_player"]:
        locked = f"{kind_name(board, card)} for Dwarf {number}"
    else:
        locked = kind_name(board, card)
    events = [
        Event(
            f"Your card is locked in: {locked}.",
            seat=seat,
            data={"card": card, "dwarf": number},
        ),
        _count_event(state),
    ]
    return events + reveal_if_ready(state)


def _dwarf_number(state: State, seat: int, card: str, words: tuple[str, ...]) -> int | None:
    """Which Dwarf a card moves: always 1 with 3-4 players; named (or the only one left)
    in the 2-player game; ``None`` for the Chest card, which moves nobody."""
    if card == CHEST:
        return None
    free = movable(state, seat)
    if words:
        word = words[0].removeprefix("dwarf")
        if not word.isdecimal() or int(word) not in free:
            where = ", ".join(
                f"Dwarf {n} on {describe(state['board'], dwarf(state, seat, n)['square'])}"
                for n in free
            )
            raise IllegalAction(f"{clip(words[0])!r} is not a Dwarf that can move; yours: {where}.")
        return int(word)
    if len(free) == 1:
        return free[0]
    raise IllegalAction(
        f"Say which Dwarf moves: `card {card} {free[0]}` or `card {card} {free[1]}`."
    )


def choose_lair(state: State, seat: int, words: tuple[str, ...]) -> list[Event]:
    """Lock in the Dragon's secret lair square; reveal once every choice is in."""
    board = state["board"]
    if not words:
        raise IllegalAction("Name a square of your lair: `lair <kind>`, e.g. `lair ruby`.")
    kind = kind_word(board, words[0], allow_chest=False)
    state["lair_choice"] = kind
    events = [
        Event(
            f"The Dragon will sit on the {kind_name(board, kind)} square of its lair.",
            seat=seat,
            data={"lair": kind},
        ),
        _count_event(state),
    ]
    return events + reveal_if_ready(state)


def reveal_if_ready(state: State) -> list[Event]:
    """Reveal the round if the Dragon and every Dwarf player have chosen."""
    counts = waiting(state)
    if counts and counts["done"] == counts["total"]:
        return rounds.reveal(state)
    return []


def split_purse(state: State, seat: int, words: tuple[str, ...], rng: random.Random) -> list[Event]:
    """Record how a caught player hides the Purse in two hands."""
    catch = next(c for c in state["catches"] if c["seat"] == seat and c["split"] is None)
    purse = catch["purse"]
    if not words or not words[0].isdecimal() or int(words[0]) > purse:
        raise IllegalAction(
            f"Say how many of your {coin_words(purse)} go in the left hand: `split <0 to {purse}>`."
        )
    left = int(words[0])
    catch["split"] = [left, purse - left]
    events = [
        Event(
            f"Your hands are closed: {coin_words(left)} in the left, {purse - left} in the right.",
            seat=seat,
            data={"split": [left, purse - left]},
        ),
        _count_event(state),
    ]
    return events + hands_if_ready(state, rng)


def hands_if_ready(state: State, rng: random.Random) -> list[Event]:
    """Once every caught player has split: the Dragon's turn to pick hands, or the end of
    the round if no caught player is left. A Dragon that left the game has its picks drawn."""
    if not state["catches"]:
        return rounds.end_round(state)
    if any(c["split"] is None for c in state["catches"]):
        return []
    state["phase"] = "hand"
    if dragon_away(state):
        return draw_hands(state, rng)
    dragon = name(state, state["dragon_seat"])
    return [Event(f"The Dragon ({dragon}) now picks one hand of each caught player.")]


def draw_hands(state: State, rng: random.Random) -> list[Event]:
    """Pick a hand drawn with ``rng`` for each caught player still waiting, in catch order;
    the draws are in the first (public) event's data."""
    pending = [c for c in state["catches"] if c["hand"] is None]
    draws = [(c["seat"], rng.choice(HANDS)) for c in pending]
    words = ", ".join(f"{name(state, seat)}'s {hand} hand" for seat, hand in draws)
    drawn = [{"seat": seat, "hand": hand} for seat, hand in draws]
    events = [Event(f"The Dragon's hands are drawn at random: {words}.", data={"drawn": drawn})]
    for seat, hand in draws:
        events += pick_hand(state, state["dragon_seat"], (state["roles"][seat], hand))
    return events


def pick_hand(state: State, seat: int, words: tuple[str, ...]) -> list[Event]:
    """The Dragon takes the coins of one hand of a caught player back to the Treasure."""
    pending = [c for c in state["catches"] if c["hand"] is None]
    names = ", ".join(state["roles"][c["seat"]] for c in pending)
    side_words = [w for w in words if w in HANDS]
    others = [w for w in words if w not in HANDS]
    if len(side_words) != 1 or len(others) > 1:
        raise IllegalAction(f"Pick a hand with `hand <player> left|right`; waiting: {names}.")
    if others:
        target = seat_of_word(state, others[0])
        catch = next((c for c in pending if c["seat"] == target), None)
        if catch is None:
            raise IllegalAction(
                f"{clip(others[0])!r} has no hand for you to pick; waiting: {names}."
            )
    elif len(pending) == 1:
        catch = pending[0]
    else:
        raise IllegalAction(f"Say whose hand: `hand <player> left|right`; waiting: {names}.")
    side = side_words[0]
    assert catch["split"] is not None, "the Dragon picks once every Purse is split"
    left, right = catch["split"]
    taken, kept = (left, right) if side == "left" else (right, left)
    target = catch["seat"]
    catch["hand"] = side
    state["purses"][target] = kept
    state["treasure"] += taken
    record: HandPick = {"seat": target, "hand": side, "returned": taken, "kept": kept}
    assert state["last_round"] is not None, "the Dragon picks after a round is revealed"
    state["last_round"]["hands"].append(record)
    state["last_action"] = {
        "seat": seat,
        "verb": "hand",
        "action": hand_action(state["roles"][target], side),
        "text": f"The Dragon picked {name(state, target)}'s {side} hand.",
    }
    events = [
        Event(
            f"The Dragon picks {name(state, target)}'s {side} hand: {coin_words(taken)} back to "
            f"the Treasure, {kept} left in the Purse.",
            data={"hand": record},
        )
    ]
    if all(c["hand"] is not None for c in state["catches"]):
        events += rounds.end_round(state)
    return events
