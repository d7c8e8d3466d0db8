"""Lions and Dragons Chess (Tony Quintanilla, 2002) behind the engine contract.

The state is a JSON-ready dict, so ``dump``/``load`` are copies; ``apply`` works on a deep
copy and never touches the state it is given. Keys:

``seats`` (role key per seat), ``options``, ``lions`` (non-hex cells), ``goals`` (each side's
own goal cell), ``pieces`` (cell -> piece dict), ``reserves`` (Proto-Dragons in hand),
``to_move``, ``ply``, ``quiet`` (plies since the last progress), ``seen`` (position key ->
times seen since the last progress), ``last`` (the last action, see :meth:`view`),
``result`` (``None`` or ``{"winner", "reason", "text"}``) and ``setup`` (how the Lions were
chosen).

When a turn runs out of time the host calls ``skip`` (the side passes; the Fireball phase
still runs) or ``forfeit`` (the side gives up and the other wins). Both only fill ``last``
(``kind`` ``"skip"`` or ``"forfeit"``, no ``action``) and ``result``: no extra state keys.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from engines.base import BadOptions, Choice, Event, IllegalAction, Prompt, Result, Role
from engines.lions_dragons import board, fireballs, layout, rules
from engines.lions_dragons.help import rules_help
from engines.lions_dragons.moves import Move, label, legal_moves, parse, wizard_cell
from engines.lions_dragons.pieces import KIND_NAMES, SIDES, other

State = dict[str, Any]

OPTION_HELP = "Options: lions=random|symmetric, reserve=N (0-12), cap=N (plies, 2-2000)."


class LionsDragons:
    """The rules of Lions and Dragons Chess for two seats, White and Black."""

    slug = "lions-dragons"
    title = "Lions and Dragons Chess"
    min_players = 2
    max_players = 2

    # -- set-up -------------------------------------------------------------------------

    def roles(self, players: int, options: dict[str, Any]) -> list[Role]:
        if players != 2:
            raise BadOptions("Lions and Dragons Chess is for exactly 2 players.")
        return [Role("white", "White"), Role("black", "Black")]

    def normalize_options(self, options: dict[str, str]) -> dict[str, Any]:
        data = layout.setup_data()
        result: dict[str, Any] = {
            "lions": "random",
            "reserve": data["reserve"],
            "cap": data["quiet_ply_cap"],
        }
        for raw_key, raw_value in options.items():
            key, value = str(raw_key).strip().lower(), str(raw_value).strip().lower()
            if key == "lions":
                if value not in ("random", "symmetric"):
                    raise BadOptions(f"lions must be random or symmetric, not {value!r}.")
                result["lions"] = value
            elif key in ("reserve", "cap"):
                low, high = (0, 12) if key == "reserve" else (2, 2000)
                if not value.isdigit() or not low <= int(value) <= high:
                    raise BadOptions(f"{key} must be a whole number from {low} to {high}.")
                result[key] = int(value)
            else:
                raise BadOptions(f"Unknown option {key!r}. {OPTION_HELP}")
        return result

    def setup(self, roles: list[str], options: dict[str, Any], rng: random.Random) -> State:
        if sorted(roles) != ["black", "white"]:
            raise BadOptions("The two seats must be White and Black.")
        options = self.normalize_options(options)
        data = layout.setup_data()
        if options["lions"] == "symmetric":
            lions, draws = layout.symmetric_lions(data), 0
            if not layout.lions_valid(lions, data):
                raise BadOptions(
                    "The agreed Lion arrangement of this server does not fit the "
                    "board; play with lions=random."
                )
        else:
            lions, draws = layout.random_lions(data, rng)
        state: State = {
            "seats": list(roles),
            "options": options,
            "lions": lions,
            "goals": dict(data["goals"]),
            "pieces": layout.initial_pieces(data),
            "reserves": {side: options["reserve"] for side in SIDES},
            "to_move": "white",
            "ply": 0,
            "quiet": 0,
            "seen": {},
            "last": None,
            "result": None,
            "setup": {"lions": options["lions"], "draws": draws, "chosen": list(lions)},
        }
        state["seen"][rules.position_key(state)] = 1
        return state

    def position(
        self,
        pieces: dict[str, str],
        to_move: str = "white",
        lions: list[str] | tuple[str, ...] = (),
        reserves: tuple[int, int] = (0, 0),
        options: dict[str, Any] | None = None,
    ) -> State:
        """A game in progress with exactly these pieces, for puzzles, analysis and tests.

        ``pieces`` maps a cell to ``"<side> <kind>"`` (``"white dragon"``), ``"ball"`` or
        ``"fireball <dir>"`` (``"fireball ne"``). The Lions are taken as given (no checks);
        the goals are those of the data file. Fireballs count as already in flight.
        """
        state = self.setup(
            ["white", "black"], {"lions": "symmetric", **(options or {})}, random.Random(0)
        )
        placed: dict[str, Any] = {}
        for cell, spec in pieces.items():
            words = spec.lower().split()
            if words[0] == "fireball":
                placed[cell] = {"kind": "fireball", "side": None, "dir": words[1], "born": -1}
            elif words[0] == "ball":
                placed[cell] = {"kind": "ball", "side": None}
            else:
                placed[cell] = {"kind": words[1], "side": words[0]}
        state.update(
            pieces=placed,
            lions=list(lions),
            to_move=to_move,
            reserves={"white": reserves[0], "black": reserves[1]},
        )
        state["setup"] = {"lions": "given", "draws": 0, "chosen": list(lions)}
        state["seen"] = {rules.position_key(state): 1}
        return state

    # -- turns --------------------------------------------------------------------------

    def _seat(self, state: State, side: str) -> int:
        return state["seats"].index(side)

    def prompts(self, state: State) -> list[Prompt]:
        if state["result"] is not None:
            return []
        side = state["to_move"]
        text = f"{side.capitalize()}: move a piece, drop a Proto-Dragon or shoot a Fireball."
        return [Prompt(self._seat(state, side), "move", text)]

    def legal_actions(self, state: State, seat: int) -> list[Choice]:
        if state["result"] is not None or state["seats"][seat] != state["to_move"]:
            return []
        return [
            Choice(m.action, label(state, m), m.origin or "drop")
            for m in legal_moves(state, state["to_move"])
        ]

    def apply(
        self, state: State, seat: int, action: str, rng: random.Random
    ) -> tuple[State, list[Event]]:
        side = _check_turn(state, seat)
        move = _resolve(state, side, action)

        new = copy.deepcopy(state)
        captured, shot, text = rules.make_move(new, side, move)
        events = [
            Event(
                text,
                data={
                    "side": side,
                    "action": move.action,
                    "kind": move.kind,
                    "from": move.origin,
                    "to": move.target,
                    "captured": captured,
                },
            )
        ]
        flights: list[dict[str, Any]] = []
        if new["result"] is None:
            flights = rules.fireball_phase(new)
            events.extend(Event(f["text"], data={"fireball": f}) for f in flights)
            rules.end_of_turn(new, rules.progressed(captured, move, flights))
        else:
            new["ply"] += 1
        new["last"] = {
            "seat": seat,
            "side": side,
            "action": move.action,
            "kind": move.kind,
            "from": move.origin,
            "to": move.target,
            "captured": captured,
            "shot": shot or None,
            "fireballs": flights,
            "text": text,
        }
        if new["result"] is not None:
            events.append(Event(new["result"]["text"], data={"result": dict(new["result"])}))
        return new, events

    # -- running out of time ------------------------------------------------------------

    def skip(self, state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:
        """The side to move passes. The Fireball phase that follows every turn still runs,
        then the other side is to move. The pass itself is not progress for the quiet-ply cap
        (a Fireball hit in that phase is) and its position counts for repetition like any
        other. The rng is not used: nothing is left to chance.
        """
        side = _check_turn(state, seat)
        new = copy.deepcopy(state)
        text = f"{side.capitalize()} ran out of time: the turn passes without a move."
        events = [Event(text, data={"side": side, "seat": seat, "skipped": True})]
        flights = rules.fireball_phase(new)
        events.extend(Event(f["text"], data={"fireball": f}) for f in flights)
        progress = any(f["outcome"] in fireballs.PROGRESS_OUTCOMES for f in flights)
        rules.end_of_turn(new, progress)
        new["last"] = _lapse(seat, side, "skip", text, flights)
        if new["result"] is not None:
            events.append(Event(new["result"]["text"], data={"result": dict(new["result"])}))
        return new, events

    def forfeit(self, state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:
        """The side to move gives up: the other side wins at once (reason ``"forfeit"``).
        The board is left as it stands and no Fireball flies. The rng is not used.
        """
        side = _check_turn(state, seat)
        winner = other(side)
        new = copy.deepcopy(state)
        text = f"{side.capitalize()} ran out of time and forfeits the game."
        new["result"] = {
            "winner": winner,
            "reason": "forfeit",
            "text": f"{winner.capitalize()} wins: {side.capitalize()} forfeited.",
        }
        new["last"] = _lapse(seat, side, "forfeit", text, [])
        events = [
            Event(text, data={"side": side, "seat": seat, "forfeit": True}),
            Event(new["result"]["text"], data={"result": dict(new["result"])}),
        ]
        return new, events

    # -- views and results --------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        over = state["result"] is not None
        pieces = [
            {"cell": cell, "kind": p["kind"], "side": p["side"], "dir": p.get("dir")}
            for cell, p in sorted(state["pieces"].items(), key=lambda kv: _ORDER[kv[0]])
        ]
        result = None
        if over:
            winner = state["result"]["winner"]
            result = {
                "winner": winner,
                "winners": [self._seat(state, winner)] if winner else [],
                "reason": state["result"]["reason"],
                "text": state["result"]["text"],
            }
        view: dict[str, Any] = {
            "game": self.slug,
            "cells": [
                {"name": n, "q": board.COORD[n][0], "r": board.COORD[n][1]} for n in board.CELLS
            ],
            "lions": list(state["lions"]),
            "lions_mode": state["setup"]["lions"],
            "goals": dict(state["goals"]),
            "pieces": pieces,
            "reserves": dict(state["reserves"]),
            "seats": {side: self._seat(state, side) for side in SIDES},
            "to_move": None if over else state["to_move"],
            "last": copy.deepcopy(state["last"]),
            "ply": state["ply"],
            "quiet": state["quiet"],
            "cap": state["options"]["cap"],
            "result": result,
            "summary": _summary(state),
        }
        if seat is not None:
            view["private"] = ""
        return view

    def result(self, state: State) -> Result | None:
        outcome = state["result"]
        if outcome is None:
            return None
        winners = () if outcome["winner"] is None else (self._seat(state, outcome["winner"]),)
        return Result(winners=winners, text=outcome["text"])

    def observe(self, state: State, seat: int) -> State:
        """Nothing is hidden in Lions and Dragons Chess: both sides see the whole board."""
        return copy.deepcopy(state)

    def dump(self, state: State) -> dict[str, Any]:
        return copy.deepcopy(state)

    def load(self, data: dict[str, Any]) -> State:
        missing = {
            "seats",
            "options",
            "lions",
            "goals",
            "pieces",
            "reserves",
            "to_move",
            "ply",
            "quiet",
            "seen",
            "last",
            "result",
            "setup",
        } - set(data)
        if missing:
            raise ValueError(f"Not a Lions and Dragons state: missing {sorted(missing)}")
        return copy.deepcopy(data)

    def rules_help(self) -> str:
        return rules_help()


_ORDER = {c: i for i, c in enumerate(board.CELLS)}


def _summary(state: State) -> str:
    """One line: whose turn (or the result), the ply, the last action."""
    if state["result"] is not None:
        head = state["result"]["text"]
    else:
        head = f"{state['to_move'].capitalize()} to move (turn {state['ply'] // 2 + 1})."
        left = state["options"]["cap"] - state["quiet"]
        if left <= 20:
            head += f" Draw in {left} plies without a capture, drop or Fireball hit."
    reserves = state["reserves"]
    hand = f"In hand: White {reserves['white']}, Black {reserves['black']} Proto-Dragons."
    last = state["last"]
    tail = ""
    if last:
        hits = [f["text"] for f in last["fireballs"] if f["outcome"] != "flew"]
        tail = " ".join([f" Last: {last['text']}", *hits])
    return f"{head} {hand}{tail}"


def _check_turn(state: State, seat: int) -> str:
    """The side of ``seat`` if it is to act now, else :class:`IllegalAction`."""
    if state["result"] is not None:
        raise IllegalAction(f"The game is over. {state['result']['text']}")
    side = state["seats"][seat]
    if side != state["to_move"]:
        raise IllegalAction(f"It is {state['to_move'].capitalize()}'s turn; please wait.")
    return side


def _lapse(
    seat: int, side: str, kind: str, text: str, flights: list[dict[str, Any]]
) -> dict[str, Any]:
    """The ``last`` record of a turn lost to the clock: no piece moved, nothing taken."""
    return {
        "seat": seat,
        "side": side,
        "action": None,
        "kind": kind,
        "from": None,
        "to": None,
        "captured": [],
        "shot": None,
        "fireballs": flights,
        "text": text,
    }


def _pieces_of(state: State, side: str) -> str:
    """``"Wizard f2, Rocs d1 h1, ..."``: where ``side``'s pieces stand, for error messages."""
    by_kind: dict[str, list[str]] = {}
    for cell in sorted(state["pieces"], key=_ORDER.__getitem__):
        p = state["pieces"][cell]
        if p["side"] == side:
            by_kind.setdefault(KIND_NAMES[p["kind"]], []).append(cell)
    return "; ".join(f"{kind} {' '.join(cells)}" for kind, cells in by_kind.items())


def _check_cell(state: State, raw: str) -> str:
    cell = board.parse_cell(raw)
    if cell is None:
        raise IllegalAction(
            f"{raw} is not a cell: files are a-l without j, ranks from 1 (f has 1-11, a and l 1-6)."
        )
    return cell


def _resolve(state: State, side: str, action: str) -> Move:
    """The legal move ``action`` names, or :class:`IllegalAction` saying what to do instead."""
    parsed = parse(action)
    if parsed is None:
        raise IllegalAction(
            f"I can't read {action.strip()!r}. Write a move as f2-f4 (f2xf4 for a capture), "
            "a drop as 'drop e3', or a shot as 'fire f2-f4'."
        )
    kind, origin, target = parsed
    target = _check_cell(state, target)
    origin = _check_cell(state, origin) if origin else None
    moves = legal_moves(state, side)

    if kind == "drop":
        options = [m for m in moves if m.kind == "drop"]
        for m in options:
            if m.target == target:
                return m
        if state["reserves"][side] <= 0:
            raise IllegalAction("You have no Proto-Dragons left in hand; move or shoot instead.")
        home = wizard_cell(state, side)
        cells = " ".join(m.target for m in options) or "none free"
        raise IllegalAction(
            f"A Proto-Dragon is dropped on an empty cell next to your Wizard on {home}: {cells}."
        )

    home = wizard_cell(state, side)
    if kind == "fire":
        if origin is not None and origin != home:
            raise IllegalAction(f"Only your Wizard shoots Fireballs, and it stands on {home}.")
        shots = [m for m in moves if m.kind == "fire"]
        for m in shots:
            if m.target == target:
                return m
        cells = " ".join(m.target for m in shots) or "nowhere"
        raise IllegalAction(
            "A Fireball flies two cells in a straight line through the Wizard's sides, never "
            f"to an adjacent cell; from {home} it can land on: {cells}."
        )

    mover = state["pieces"].get(origin)
    if mover is None or mover["side"] != side:
        raise IllegalAction(
            f"{origin} is not one of your pieces; yours are: {_pieces_of(state, side)}."
        )
    name = KIND_NAMES[mover["kind"]]
    own = [m for m in moves if m.kind == "move" and m.origin == origin]
    for m in own:
        if m.target == target:
            return m
    if mover["kind"] == "proto":
        raise IllegalAction("A Proto-Dragon never moves; shoot it with a Fireball to wake it.")
    lion = ""
    if target in state["lions"]:
        lion = f"{target} is a non-hex (a Lion): nothing may enter it. "
    # A Wizard that cannot step (or not there) may still shoot: say so.
    shots = [m.action for m in moves if m.kind == "fire" and m.origin == origin]
    shoot = f" It can also shoot: {', '.join(shots)}." if shots else ""
    if not own:
        if shots:
            raise IllegalAction(
                f"{lion}Your {name} on {origin} cannot step now, but it can shoot: "
                f"{', '.join(shots)}."
            )
        raise IllegalAction(f"{lion}Your {name} on {origin} has no move now; choose another piece.")
    cells = " ".join(m.target for m in own)
    raise IllegalAction(f"{lion}Your {name} on {origin} can go to: {cells}.{shoot}")
