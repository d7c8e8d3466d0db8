"""Who must decide what now, and the legal actions of each decision.

Both read a seat's observed state (:mod:`.observe`) as well as the full one: the seat's own
prompts and actions are the same in both."""

from __future__ import annotations

from engines.base import Choice, Prompt
from engines.dragons_cave.board import (
    Square,
    coin_words,
    coins_on,
    describe,
    in_lair,
    kind_name,
    lair_square,
    step_ahead,
)
from engines.dragons_cave.notation import (
    CHEST,
    canonical_card,
    hand_action,
    lair_action,
    split_action,
)
from engines.dragons_cave.state import (
    Observed,
    State,
    card_seats,
    dragon_away,
    dwarf,
    dwarves_of,
    movable,
    name,
)

MENU_LIMIT = 25
"""Most actions a frontend shows in one menu; longer lists get groups."""


def waiting(state: State | Observed) -> dict[str, object] | None:
    """Counts of the answers awaited in this phase (never who chose what).

    ``{"kind": "choices"|"splits"|"hands", "done": n, "total": m}``, or ``None`` once the
    game is over.
    """
    phase = state["phase"]
    if phase == "choose":
        players = card_seats(state)
        done = sum(1 for s in players if state["cards"][s] is not None)
        done += state["lair_choice"] is not None
        return {"kind": "choices", "done": done, "total": len(players) + 1}
    if phase == "split":
        done = sum(1 for c in state["catches"] if c["split"] is not None)
        return {"kind": "splits", "done": done, "total": len(state["catches"])}
    if phase == "hand":
        done = sum(1 for c in state["catches"] if c["hand"] is not None)
        return {"kind": "hands", "done": done, "total": len(state["catches"])}
    return None


def prompts(state: State | Observed) -> list[Prompt]:
    """The open decisions, in seat order; empty once the game is over."""
    phase = state["phase"]
    round_no = state["round"]
    found: list[Prompt] = []
    if phase == "choose":
        for seat in range(len(state["roles"])):
            if seat in state["departed"]:
                continue
            if seat == state["dragon_seat"] and state["lair_choice"] is None:
                found.append(
                    Prompt(
                        seat,
                        "lair",
                        f"Round {round_no}: you are the Dragon. Choose in secret the square "
                        "of your lair you sit on; Dwarves who played that kind are caught.",
                        secret=True,
                    )
                )
            elif seat in card_seats(state) and state["cards"][seat] is None:
                what = "which Dwarf moves and a card" if state["two_player"] else "a card"
                found.append(
                    Prompt(
                        seat,
                        "card",
                        f"Round {round_no}: choose {what} in secret. It is revealed when "
                        "everyone has chosen.",
                        secret=True,
                    )
                )
    elif phase == "split":
        for catch in state["catches"]:
            if catch["split"] is None:
                found.append(
                    Prompt(
                        catch["seat"],
                        "split",
                        f"You were caught! Hide your {_coins(catch['purse'])} in two "
                        "hands: how many go in the left hand? The Dragon takes one hand.",
                        secret=True,
                    )
                )
    elif phase == "hand" and not dragon_away(state):
        pending = [name(state, c["seat"]) for c in state["catches"] if c["hand"] is None]
        found.append(
            Prompt(
                state["dragon_seat"],
                "hand",
                f"Pick a closed hand of {', '.join(pending)}: its coins return to the Treasure.",
            )
        )
    return found


def legal_actions(state: State | Observed, seat: int) -> list[Choice]:
    """Every action ``seat`` may take now (empty when it has nothing to decide)."""
    kinds = {prompt.kind for prompt in prompts(state) if prompt.seat == seat}
    if "card" in kinds:
        return _card_choices(state, seat)
    if "lair" in kinds:
        board = state["board"]
        return [
            Choice(
                lair_action(k["key"]),
                f"Sit on {k['name']} ({k['colour']} {k['symbol']})",
                to=lair_square(k["key"]),
            )
            for k in board["kinds"]
        ]
    if "split" in kinds:
        return _split_choices(state, seat)
    if "hand" in kinds:
        return [
            Choice(
                hand_action(state["roles"][c["seat"]], side),
                f"{name(state, c['seat'])}'s {side} hand",
                state["roles"][c["seat"]],
            )
            for c in state["catches"]
            if c["hand"] is None
            for side in ("left", "right")
        ]
    return []


def _card_choices(state: State | Observed, seat: int) -> list[Choice]:
    """Each card in hand for each Dwarf that can move, then the Chest card."""
    board = state["board"]
    two = state["two_player"]
    choices = []
    for number in movable(state, seat):
        square = dwarf(state, seat, number)["square"]
        for card in state["hands"][seat]:
            if card == CHEST:
                continue
            target = step_ahead(board, square, card)
            coins = coins_on(board, target)
            label = f"{kind_name(board, card)}: to {describe(board, target)}"
            label += f", {coin_words(coins)}" if coins else ""
            if two:
                label = f"Dwarf {number}, {label}"
            told = _lair_outcome(state, seat, number, target, card)
            choices.append(
                Choice(
                    canonical_card(card, number if two else None),
                    label,
                    f"dwarf {number}" if two else "",
                    to=str(target),
                    outcome=told,
                    notable=bool(told),
                )
            )
    purse = state["purses"][seat]
    choices.append(
        Choice(
            "card chest",
            f"Chest: stay, lock {coin_words(purse)} in your Chest, take all cards back",
            "chest" if two else "",
        )
    )
    return choices


def _lair_outcome(
    state: State | Observed, seat: int, number: int, target: Square, card: str
) -> str:
    """What a card taking Dwarf ``number`` to ``target`` does there when it matters: it
    reaches the Dragon's lair, which ends the game when the rules say so (3-4 players: any
    Dwarf there; 2 players: both of a player's Dwarves), unless the Dragon sits on the
    card's kind this round and catches it (as :mod:`.rounds` carries the reveal out)."""
    if not in_lair(target):
        return ""
    unless = f"unless the Dragon sits on {kind_name(state['board'], card)}"
    partners = [d for d in dwarves_of(state, seat) if d["dwarf"] != number]
    if all(in_lair(d["square"]) for d in partners):
        return f"ends the journey at the Dragon's lair, {unless}"
    return f"reaches the Dragon's lair, {unless}"


def _split_choices(state: State | Observed, seat: int) -> list[Choice]:
    """Every split of the Purse; grouped by tens when there are too many for one menu."""
    purse = next(c["purse"] for c in state["catches"] if c["seat"] == seat)
    grouped = purse + 1 > MENU_LIMIT
    return [
        Choice(
            split_action(left),
            f"Left hand {left}, right hand {purse - left}",
            f"left {left // 10 * 10}-{min(left // 10 * 10 + 9, purse)}" if grouped else "",
        )
        for left in range(purse + 1)
    ]


def _coins(purse: int) -> str:
    """The Purse as said in a prompt: "your 1 Purse coin", "your 5 Purse coins"."""
    return f"{purse} Purse coin{'' if purse == 1 else 's'}"
