"""What happens when a round's cards are revealed, when a round ends, and the final count.

These functions change the (already copied) state in place and return the events.
"""

from __future__ import annotations

from engines.base import Event, Termination
from engines.dragons_cave.board import (
    coin_words,
    coins_on,
    describe,
    in_lair,
    kind_name,
    progress,
    step_ahead,
    step_back,
)
from engines.dragons_cave.notation import CHEST
from engines.dragons_cave.state import (
    LAIR_BONUS,
    CardChoice,
    Play,
    Shortage,
    State,
    dwarf,
    dwarves_of,
    full_hand,
    name,
    seats,
)


def reveal(state: State) -> list[Event]:
    """Reveal every card and the Dragon's square and carry them out.

    Uncaught Dwarves move to the first square of their card's kind ahead and take its
    printed coins; caught ones go back and get nothing; Chest players lock their Purse
    away. Then the round goes on to the caught players' hands, or ends.
    """
    board = state["board"]
    dragon_kind = state["lair_choice"]
    assert dragon_kind is not None, "the cards are revealed once the Dragon has chosen"
    events = [
        Event(
            f"Round {state['round']}: the cards are revealed! The Dragon "
            f"({name(state, state['dragon_seat'])}) sits on the {kind_name(board, dragon_kind)} "
            "square of its lair.",
            data={"round": state["round"], "dragon_square": dragon_kind},
        )
    ]
    notes: list[Event] = []
    plays = [
        _play(state, seat, choice, notes)
        for seat in seats(state)
        if (choice := state["cards"][seat])
    ]
    shortage = _pay(state, plays)
    events.extend(_play_event(state, play) for play in plays)
    if shortage:
        events.append(Event(shortage["text"], data={"shortage": shortage}))
    events.extend(notes)
    state["last_round"] = {
        "round": state["round"],
        "dragon_seat": state["dragon_seat"],
        "dragon_square": dragon_kind,
        "plays": plays,
        "hands": [],
        "shortage": shortage,
    }
    state["cards"] = [None] * len(state["roles"])
    state["lair_choice"] = None
    if state["treasure"] == 0:
        state["catches"] = []
        events.append(Event("The Dragon's Treasure is empty: the game ends at once."))
        return events + finish(state, "treasure")
    if state["catches"]:
        state["phase"] = "split"
        caught = ", ".join(name(state, c["seat"]) for c in state["catches"])
        events.append(
            Event(
                f"{caught} must hide the coins of their Purse in two closed hands; then the "
                "Dragon picks one hand of each and takes its coins back to the Treasure.",
                data={"caught": [c["seat"] for c in state["catches"]]},
            )
        )
        return events
    return events + end_round(state)


def _play(state: State, seat: int, choice: CardChoice, notes: list[Event]) -> Play:
    """Carry out ``seat``'s revealed card ``choice`` (coins are paid later); return its
    public record.

    Private notes for the player (its new Chest total) are added to ``notes``.
    """
    board = state["board"]
    card, number = choice["card"], choice["dwarf"]
    if card == CHEST:
        locked = state["purses"][seat]
        state["chests"][seat] += locked
        state["purses"][seat] = 0
        _take_back_cards(state, seat)
        notes.append(
            Event(
                f"Your Chest now holds {coin_words(state['chests'][seat])}.",
                seat=seat,
                data={"chest": state["chests"][seat], "locked": locked},
            )
        )
        return {"seat": seat, "card": card, "dwarf": number, "outcome": "chest", "coins": 0}
    walker = dwarf(state, seat, number)
    start = walker["square"]
    if card == state["lair_choice"]:
        walker["square"] = step_back(board, walker["square"], card)
        _take_back_cards(state, seat)
        caught: Play = {
            "seat": seat,
            "card": card,
            "dwarf": number,
            "from": start,
            "to": walker["square"],
            "outcome": "caught",
            "coins": 0,
        }
        if state["purses"][seat] > 0:
            state["catches"].append(
                {
                    "seat": seat,
                    "dwarf": number,
                    "purse": state["purses"][seat],
                    "split": None,
                    "hand": None,
                }
            )
        return caught
    walker["square"] = step_ahead(board, walker["square"], card)
    state["hands"][seat].remove(card)
    state["played"][seat].append(card)
    return {
        "seat": seat,
        "card": card,
        "dwarf": number,
        "from": start,
        "to": walker["square"],
        "outcome": "moved",
        "coins": coins_on(board, walker["square"]),
    }


def _take_back_cards(state: State, seat: int) -> None:
    """Every card of ``seat`` returns to its hand."""
    state["hands"][seat] = full_hand(state["board"])
    state["played"][seat] = []


def _pay(state: State, plays: list[Play]) -> Shortage | None:
    """Pay each moved Dwarf the coins printed on its new square from the Treasure.

    If the Treasure cannot pay everyone, its coins are shared equally among the players
    owed gold this round and the remainder is set aside (``undistributed``); the public
    record of that is returned. ``play["coins"]`` becomes what was actually paid.
    """
    owed = [play for play in plays if play["outcome"] == "moved" and play["coins"] > 0]
    demand = sum(play["coins"] for play in owed)
    if demand <= state["treasure"]:
        for play in owed:
            state["purses"][play["seat"]] += play["coins"]
        state["treasure"] -= demand
        return None
    remaining = state["treasure"]
    share, leftover = divmod(remaining, len(owed))
    for play in owed:
        play["printed"] = play["coins"]
        play["coins"] = share
        state["purses"][play["seat"]] += share
    state["treasure"] = 0
    state["undistributed"] += leftover
    receivers = f"each of {len(owed)} players gets" if len(owed) > 1 else "the player gets"
    return {
        "treasure": remaining,
        "owed": demand,
        "players": [play["seat"] for play in owed],
        "share": share,
        "undistributed": leftover,
        "text": (
            f"The Treasure holds only {coin_words(remaining)} but {demand} are owed: "
            f"{receivers} {coin_words(share)}"
            + (
                f" and {coin_words(leftover)} {_is_are(leftover)} not given out."
                if leftover
                else "."
            )
        ),
    }


def _is_are(count: int) -> str:
    return "is" if count == 1 else "are"


def _play_event(state: State, play: Play) -> Event:
    """The public sentence for one revealed card."""
    board = state["board"]
    who = name(state, play["seat"])
    if state["two_player"] and play["card"] != CHEST:
        who = f"{who}'s Dwarf {play['dwarf']}"
    card = kind_name(board, play["card"])
    if play["outcome"] == "chest":
        text = (
            f"{name(state, play['seat'])} plays the Chest card: the Purse goes into the "
            "Chest and all cards return to hand."
        )
    elif play["outcome"] == "caught":
        text = (
            f"{who} played {card} and is caught by the Dragon! Back to "
            f"{describe(board, play['to'])}, no gold, and all cards return to hand."
        )
    else:
        gain = f", taking {coin_words(play['coins'])}" if play["coins"] else ""
        text = f"{who} plays {card} and moves to {describe(board, play['to'])}{gain}."
    return Event(text, data={"play": dict(play)})


TURN_NAME = "round"


def round_number(state: State) -> int:
    """The round ``state`` is in, from 1: a round is every seat's secret card, the reveal,
    any caught Dwarves' hidden coins and the Dragon's pick of their hands. A finished game
    stays on the round it ended in."""
    return int(state["round"])


def end_round(state: State) -> list[Event]:
    """End the round: finish the game if it is over, else pass the Dragon and start the
    next round."""
    if _lair_reached(state):
        return finish(state, "lair")
    events = []
    previous = state["dragon_seat"]
    if state["two_player"]:
        last = state["last_round"]
        plays = last.get("plays", []) if last else []
        if any(play["outcome"] in ("caught", "chest") for play in plays):
            state["dragon_seat"] = 1 - previous
    else:
        state["dragon_seat"] = next_dragon(state, previous)
    state["round"] += 1
    state["phase"] = "choose"
    state["catches"] = []
    who = name(state, state["dragon_seat"])
    if state["two_player"] and state["dragon_seat"] == previous:
        change = f"{who} stays the Dragon."
    elif state["two_player"]:
        change = f"The players swap roles: {who} now plays the Dragon."
    else:
        change = f"The Dragon passes to {who}."
    events.append(
        Event(
            f"{change} Round {state['round']} begins: choose your cards in secret.",
            data={"round": state["round"], "dragon_seat": state["dragon_seat"]},
        )
    )
    return events


def next_dragon(state: State, previous: int) -> int:
    """The next seat on the left of ``previous`` that is still in the game."""
    count = len(state["roles"])
    seat = (previous + 1) % count
    while seat in state["departed"]:
        seat = (seat + 1) % count
    return seat


def _lair_reached(state: State) -> bool:
    """3-4 players: some Dwarf is in the lair. 2 players: both Dwarves of a player are."""
    if state["two_player"]:
        return any(
            all(in_lair(d["square"]) for d in dwarves_of(state, seat)) for seat in seats(state)
        )
    return any(in_lair(d["square"]) for d in state["dwarves"])


def closeness(state: State, seat: int) -> int:
    """How close ``seat`` is to the lair for breaking ties (larger is closer): its Dwarf's
    progress, or in the 2-player game the sum over both Dwarves."""
    return sum(progress(state["board"], d["square"]) for d in dwarves_of(state, seat))


def finish(
    state: State,
    reason: str,
    winners: list[int] | None = None,
    why: str = "",
    how: Termination = Termination.RULES,
) -> list[Event]:
    """Count everyone's gold, decide the winners and end the game, brought about ``how``.

    Seats that left the game count nothing (their Chest stays sealed) and cannot win.
    ``winners`` given (the game ended by forfeit) win whatever the gold; ``why`` says why.
    """
    players = list(seats(state))
    departed = state["departed"]
    bonus = [
        LAIR_BONUS if any(in_lair(d["square"]) for d in dwarves_of(state, s)) else 0
        for s in players
    ]
    totals = [
        0 if s in departed else state["purses"][s] + state["chests"][s] + bonus[s] for s in players
    ]
    tiebreak = None
    if winners is not None:
        names = " and ".join(name(state, s) for s in winners)
        text = f"{names} wins: {why}."
    else:
        best = max(totals[s] for s in players if s not in departed)
        richest = [s for s in players if s not in departed and totals[s] == best]
        winners = richest
        if len(richest) > 1:
            nearest = max(closeness(state, s) for s in richest)
            winners = [s for s in richest if closeness(state, s) == nearest]
            tiebreak = "closest" if len(winners) == 1 else "shared"
        names = " and ".join(name(state, s) for s in winners)
        if len(winners) == 1:
            text = f"{names} wins with {coin_words(best)}"
            text += " (tied on gold, but closest to the lair)." if tiebreak else "."
        else:
            text = f"{names} share the victory with {coin_words(best)} each."
    details = "; ".join(
        f"{name(state, s)}: left the game, Chest sealed"
        if s in departed
        else f"{name(state, s)}: Purse {state['purses'][s]} + Chest {state['chests'][s]}"
        + (f" + lair bonus {bonus[s]}" if bonus[s] else "")
        + f" = {totals[s]}"
        for s in players
    )
    state["cards"] = [None] * len(players)
    state["lair_choice"] = None
    state["catches"] = []
    state["phase"] = "over"
    state["outcome"] = {
        "reason": reason,
        "how": how.value,
        "winners": winners,
        "tiebreak": tiebreak,
        "bonus": bonus,
        "totals": totals,
        "text": text,
        "details": details,
    }
    return [
        Event(
            f"Game over! {details}. {text}",
            data={"winners": winners, "totals": totals, "bonus": bonus, "reason": reason},
        )
    ]
