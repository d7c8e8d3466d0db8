"""St. George and the Dragon: the engine the host plays through the contract in engines.base.

A turn is two decisions of the same seat: ``roll`` (the die, from the host's rng), then a
move ``<from>-<to>``. A roll with no legal move passes the turn by itself. When a turn runs
out of time the host calls ``skip`` (the turn passes) or ``forfeit`` (the seat leaves).
"""

from __future__ import annotations

import random
from typing import Any

from engines import register
from engines.base import BadOptions, Choice, Event, IllegalAction, Prompt, Result, Role
from engines.stgeorge import rules
from engines.stgeorge.board import LAIR, BadPoint, Board, current_board
from engines.stgeorge.help import rules_help
from engines.stgeorge.moves import DRAGON, destinations, pieces_of
from engines.stgeorge.seats import LAYOUTS, castles_in_play, layout, seat
from engines.stgeorge.state import State
from engines.stgeorge.state import dump as dump_state
from engines.stgeorge.state import load as load_state

Move = tuple[str, str, tuple[str, ...]]
"""A legal move: from, to, and the path kept for it (both ends included)."""


class StGeorge:
    """The rules of St. George and the Dragon (see ``rules_help`` for the readings)."""

    slug = "stgeorge"
    title = "St. George and the Dragon"
    min_players = 2
    max_players = 5

    # --- setting up -------------------------------------------------------------------

    def roles(self, players: int, options: dict[str, Any]) -> list[Role]:
        """The seats for ``players`` (2-5), Knights first and the Dragon last."""
        self.normalize_options(options)
        if players not in LAYOUTS:
            raise BadOptions(
                f"St. George and the Dragon is played by 2 to 5 players, not {players}."
            )
        return [Role(s.key, s.name) for s in layout(players)]

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The game has no options: an empty dict, or BadOptions naming the unknown keys."""
        if options:
            names = ", ".join(f"`{key}`" for key in sorted(options))
            raise BadOptions(f"St. George and the Dragon has no options; remove {names}.")
        return {}

    def setup(self, roles: list[str], options: dict[str, Any], rng: random.Random) -> State:
        """Knights on their castles' three points, the Dragon on the Lair, first seat to roll."""
        self.normalize_options(options)
        keys = tuple(roles)
        if keys not in LAYOUTS.values():
            tables = "; ".join(", ".join(seats) for seats in LAYOUTS.values())
            raise BadOptions(f"The seats must be one of these, in order: {tables}.")
        board = current_board()
        in_play = castles_in_play(keys)
        pieces = {LAIR: DRAGON}
        for castle in in_play:
            for point in board.castles[castle].points:
                pieces[point] = castle
        return State(
            roles=list(keys),
            pieces=pieces,
            taken=dict.fromkeys(in_play, 0),
            scored=dict.fromkeys(in_play, 0),
            to_move=0,
            phase="roll",
            roll=None,
            roll_seat=None,
            passed=False,
            last=None,
            turn=1,
            winners=None,
            result_text=None,
        )

    # --- asking ----------------------------------------------------------------------

    def prompts(self, state: State) -> list[Prompt]:
        """One prompt for the seat to move: ``roll`` or ``move``; none once the game is over."""
        if state.phase == "over":
            return []
        who = _name(state, state.to_move)
        if state.phase == "roll":
            return [Prompt(state.to_move, "roll", f"{who}: roll the die (`roll`).")]
        example = self._moves(state)[0]
        return [
            Prompt(
                state.to_move,
                "move",
                f"{who} rolled {state.roll}: move {_what_moves(state)} exactly "
                f"{_points(state.roll)} (`from-to`, e.g. `{example[0]}-{example[1]}`).",
            )
        ]

    def legal_actions(self, state: State, seat: int) -> list[Choice]:
        """``roll``, or every move ``from-to`` (grouped by the piece's point)."""
        if state.phase == "over" or seat != state.to_move:
            return []
        if state.phase == "roll":
            return [Choice("roll", "Roll the die")]
        return [
            Choice(f"{start}-{end}", _move_label(state, start, end), start)
            for start, end, _path in self._moves(state)
        ]

    # --- acting ----------------------------------------------------------------------

    def apply(
        self, state: State, seat: int, action: str, rng: random.Random
    ) -> tuple[State, list[Event]]:
        """Roll the die or make a move; IllegalAction (state untouched) if not allowed now."""
        if state.phase == "over":
            raise IllegalAction(f"The game is over. {state.result_text}")
        if seat != state.to_move:
            doing = "roll" if state.phase == "roll" else "move"
            raise IllegalAction(
                f"It is not your turn: {_name(state, state.to_move)} is to {doing}."
            )
        words = " ".join(action.split()).lower()
        if state.phase == "roll":
            if words != "roll":
                raise IllegalAction("Roll the die first: send `roll`.")
            return self._roll(state, rng)
        if words == "roll":
            start, end, _path = self._moves(state)[0]
            raise IllegalAction(
                f"You already rolled {state.roll}; now move a piece exactly "
                f"{_points(state.roll)}, e.g. `{start}-{end}`."
            )
        return self._move(state, action)

    def _roll(self, state: State, rng: random.Random) -> tuple[State, list[Event]]:
        new = state.copy()
        new.timed_out = None
        value = rng.randint(1, rules.DIE_SIDES)
        who = _name(state, state.to_move)
        new.roll, new.roll_seat = value, state.to_move
        data = {"seat": state.to_move, "roll": value}
        if self._moves(new):
            new.phase, new.passed = "move", False
            return new, [Event(f"{who} rolled {value}.", data={**data, "passed": False})]
        new.passed = True
        _advance(new)
        text = f"{who} rolled {value} and has no legal move: turn passes."
        return new, [Event(text, data={**data, "passed": True})]

    def _move(self, state: State, action: str) -> tuple[State, list[Event]]:
        board = current_board()
        start, end = _parse_move(board, action)
        mover = state.to_move
        owners = _owners(state, mover)
        if state.pieces.get(start) not in owners:
            raise IllegalAction(_not_yours(board, state, start))
        reachable = destinations(board, state.pieces, start, state.roll)
        if end not in reachable:
            raise IllegalAction(_cannot_reach(board, state, start, end, reachable))
        path = reachable[end]

        new = state.copy()
        new.timed_out = None
        owner = new.pieces.pop(start)
        captured = new.pieces.pop(end, None)
        if captured is not None:
            new.taken[captured] += 1
        scored = owner != DRAGON and end == LAIR
        if scored:
            new.scored[owner] += 1
        else:
            new.pieces[end] = owner
        new.last = {
            "seat": mover,
            "owner": owner,
            "from": start,
            "to": end,
            "path": list(path),
            "captured": captured,
            "scored": scored,
            "roll": state.roll,
        }
        events = [Event(_move_text(new), data={**new.last, "path": list(path)})]
        return new, events + _end_turn(new, _outcome(board, new))

    def _moves(self, state: State) -> list[Move]:
        return _legal_moves(current_board(), state)

    # --- running out of time -----------------------------------------------------------

    def skip(self, state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:
        """The seat's turn passes without a move, from the roll or the move step; the next
        seat is asked to roll. The rng is not used: nothing is left to chance."""
        _check_prompted(state, seat)
        new = state.copy()
        new.timed_out = {"seat": seat, "forfeit": False}
        step = state.phase
        _advance(new)
        text = f"{_name(state, seat)} ran out of time: the turn passes without a move."
        return new, [Event(text, data={"seat": seat, "skipped": True, "phase": step})]

    def forfeit(self, state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:
        """The seat leaves for good. The Dragon leaving ends the game, every Knight seat
        still playing winning together. A Knight seat leaving takes its castles out of play
        (its Knights leave the board and the Dragon no longer needs two of them); the others
        play on, and the Dragon wins once no Knight seat is left. The rng is not used."""
        _check_prompted(state, seat)
        board = current_board()
        new = state.copy()
        new.departed.append(seat)
        new.timed_out = {"seat": seat, "forfeit": True}
        who = _name(state, seat)
        if state.roles[seat] == DRAGON:
            knights = _seats_playing(new, knights_only=True)
            names = _and([_name(new, index) for index in knights])
            if len(knights) > 1:
                verb = "win together"
            else:
                verb = "wins" if len(_owners(new, knights[0])) == 1 else "win"
            ending = (
                knights,
                f"The Dragon left the game: the Knights have driven it off. {names} {verb}.",
            )
            text = f"{who} ran out of time and leaves the game."
            data = {"seat": seat, "forfeit": True, "removed": []}
        else:
            castles = _owners(state, seat)
            removed = sorted(
                (point for point, owner in state.pieces.items() if owner in castles),
                key=board.index.__getitem__,
            )
            for point in removed:
                del new.pieces[point]
            names = _and([_castle_name(board, castle) for castle in castles])
            out = "that castle is" if len(castles) == 1 else "those castles are"
            text = (
                f"{who} ran out of time and leaves the game: the Knights of {names} leave the "
                f"board and {out} out of play."
            )
            data = {"seat": seat, "forfeit": True, "removed": removed, "castles": list(castles)}
            if not _seats_playing(new, knights_only=True):
                dragon = new.roles.index(DRAGON)
                ending = ([dragon], "The Dragon wins: no Knight is left to face it.")
            else:
                ending = _outcome(board, new)
        return new, [Event(text, data=data), *_end_turn(new, ending)]

    # --- showing ---------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The public picture (see :func:`_public_view` for its keys). Nothing in this game
        is secret, so a seat's view is the public one plus ``"private": ""``."""
        picture = _public_view(current_board(), state)
        if seat is not None:
            picture["private"] = ""
        return picture

    def result(self, state: State) -> Result | None:
        """Winners (none for a draw) and the reason, once the game is over."""
        if state.phase != "over":
            return None
        return Result(winners=tuple(state.winners or ()), text=state.result_text or "")

    def observe(self, state: State, seat: int) -> State:
        """Nothing is hidden in St. George: every seat sees the whole state."""
        return load_state(dump_state(state))

    def dump(self, state: State) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: dict[str, Any]) -> State:
        return load_state(data)

    def rules_help(self) -> str:
        return rules_help()


# --- helpers -------------------------------------------------------------------------


def _name(state: State, index: int) -> str:
    return seat(state.roles[index]).name


def _owners(state: State, index: int) -> tuple[str, ...]:
    """The owners whose pieces seat ``index`` moves: its castles, or the Dragon."""
    role = seat(state.roles[index])
    return role.castles or (DRAGON,)


def _what_moves(state: State) -> str:
    """What the seat to move moves: the Dragon, or one of its Knights."""
    return "the Dragon" if _owners(state, state.to_move) == (DRAGON,) else "one of your Knights"


def _points(count: int) -> str:
    return "1 point" if count == 1 else f"{count} points"


def _castle_name(board: Board, castle: str) -> str:
    return board.castles[castle].name


def _end_turn(state: State, ending: tuple[list[int], str] | None) -> list[Event]:
    """Pass the turn on, or end the game with ``ending`` (winners, text); mutates ``state``
    (a fresh copy made by the caller) and returns the events of a finished game."""
    if ending is None:
        _advance(state)
        return []
    state.phase = "over"
    state.winners, state.result_text = ending
    return [Event(state.result_text, data={"winners": list(state.winners), "over": True})]


def _advance(state: State) -> None:
    """Hand the turn to the next seat still playing (Knights first, Dragon last, then round
    again); seats that forfeited are passed over. A round begins each time seat 0's place in
    the order comes round, even if that seat has left."""
    while True:
        state.to_move = (state.to_move + 1) % len(state.roles)
        if state.to_move == 0:
            state.turn += 1
        if state.to_move not in state.departed:
            break
    state.phase = "roll"


def _check_prompted(state: State, index: int) -> None:
    """IllegalAction unless seat ``index`` is the one asked to act now."""
    if state.phase == "over":
        raise IllegalAction(f"The game is over. {state.result_text}")
    if index != state.to_move:
        raise IllegalAction(f"It is not your turn: {_name(state, state.to_move)} is to act.")


def _seats_playing(state: State, knights_only: bool = False) -> list[int]:
    """The seats that have not forfeited, in turn order (only Knight seats if asked)."""
    return [
        index
        for index, key in enumerate(state.roles)
        if index not in state.departed and not (knights_only and key == DRAGON)
    ]


def _castles_playing(state: State) -> list[str]:
    """The castles in play: those of the seats that have not forfeited, in board order."""
    return castles_in_play([state.roles[index] for index in _seats_playing(state)])


def _and(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _parse_move(board: Board, action: str) -> tuple[str, str]:
    """The canonical ``(from, to)`` of a move written ``from-to``; IllegalAction if malformed."""
    compact = "".join(action.split())
    # Phones and menus turn "-" into dashes or arrows; all mean the same.
    for dash in ("–", "—", "→"):
        compact = compact.replace(dash, "-")
    parts = compact.split("-")
    if len(parts) != 2 or not all(parts):
        raise IllegalAction(
            "Write a move as `from-to`: the point your piece is on, a dash, and the point "
            "it ends on, e.g. `G2-1d` or `3c-lair`. The route it takes does not matter."
        )
    try:
        return board.parse_point(parts[0]), board.parse_point(parts[1])
    except BadPoint as error:
        raise IllegalAction(str(error)) from None


def _legal_moves(board: Board, state: State) -> list[Move]:
    """Every legal move of the seat to move with the current roll: piece by piece, each
    piece's destinations in board order."""
    moves = []
    for start in pieces_of(board, state.pieces, _owners(state, state.to_move)):
        found = destinations(board, state.pieces, start, state.roll)
        for end in sorted(found, key=board.index.__getitem__):
            moves.append((start, end, found[end]))
    return moves


def _not_yours(board: Board, state: State, start: str) -> str:
    owners = _owners(state, state.to_move)
    mine = ", ".join(pieces_of(board, state.pieces, owners)) or "nowhere"
    yours = "the Dragon is" if owners == (DRAGON,) else "your Knights are"
    if start not in state.pieces:
        return f"There is no piece on {start}; {yours} on {mine}."
    return f"{start} is not one of your pieces; {yours} on {mine}."


def _cannot_reach(
    board: Board, state: State, start: str, end: str, reachable: dict[str, tuple[str, ...]]
) -> str:
    roll = state.roll
    if not reachable:
        movable = list(dict.fromkeys(m[0] for m in _legal_moves(board, state)))
        return (
            f"The piece on {start} cannot move exactly {_points(roll)}. "
            f"Pieces that can: {', '.join(movable)}."
        )
    ends = ", ".join(sorted(reachable, key=board.index.__getitem__))
    knight = state.pieces[start] != DRAGON
    occupant = state.pieces.get(end)
    why = ""
    if end == start:
        why = "A piece may not end where it started. "
    elif occupant == DRAGON:
        why = f"The Dragon is on {end}, and Knights may not capture it. "
    elif occupant is not None and knight:
        why = f"{end} is occupied, and only the Dragon may end a move on a Knight. "
    if knight:
        rule = "never onto or over an occupied point, never over the Lair, never onto a point twice"
    else:
        rule = "never over an occupied point or onto a point twice; it may end on a Knight"
    return (
        f"The piece on {start} cannot end on {end} with a roll of {roll}. {why}"
        f"It moves exactly {_points(roll)} along the lines, {rule}. It can reach: {ends}."
    )


def _piece_words(board: Board, state: State, index: int, owner: str) -> str:
    """How to name the moved piece: plain for one castle, with its castle for several."""
    if owner == DRAGON or len(_owners(state, index)) == 1:
        return ""
    return f" a Knight of {_castle_name(board, owner)}"


def _move_text(state: State) -> str:
    """One sentence about ``state.last`` (the move just made), for the public event."""
    board = current_board()
    last = state.last
    owner = last["owner"]
    text = (
        f"{_name(state, last['seat'])} moved{_piece_words(board, state, last['seat'], owner)} "
        f"{last['from']}-{last['to']} (rolled {last['roll']}: {'-'.join(last['path'])})"
    )
    if last["captured"]:
        castle = last["captured"]
        text += (
            f" and took a Knight of {_castle_name(board, castle)} "
            f"({state.taken[castle]} taken from that castle)"
        )
    if last["scored"]:
        text += (
            f"; the Knight reached the Lair and is set behind its castle "
            f"({state.scored[owner]} scored for {_castle_name(board, owner)})"
        )
    return text + "."


def _move_label(state: State, start: str, end: str) -> str:
    board = current_board()
    label = f"{start} → {end}"
    occupant = state.pieces.get(end)
    if occupant is not None:
        return f"{label} (takes a Knight of {_castle_name(board, occupant)})"
    if end == LAIR and state.pieces[start] != DRAGON:
        return f"{label} (reaches the Lair)"
    return label


def _outcome(board: Board, state: State) -> tuple[list[int], str] | None:
    """Winners and the reason if the game just ended, else None."""
    in_play = _castles_playing(state)
    castle = rules.castle_winner(state.scored, in_play)
    if castle is not None:
        holder = next(i for i, key in enumerate(state.roles) if castle in seat(key).castles)
        verb = "wins" if len(seat(state.roles[holder]).castles) == 1 else "win"
        return [holder], (
            f"{_name(state, holder)} {verb}: two Knights of {_castle_name(board, castle)} "
            f"reached the Dragon's Lair."
        )
    if rules.dragon_has_won(state.taken, in_play):
        dragon = state.roles.index(DRAGON)
        return [dragon], "The Dragon wins: it took two Knights of every castle in play."
    if rules.nobody_can_win(state.pieces, state.taken, state.scored, in_play):
        return [], "Draw: neither the Dragon nor any castle can still win."
    if rules.board_blocked(board, state.pieces):
        return [], "Draw: no piece can move with any roll of the die (the board is blocked)."
    return None


def _summary(board: Board, state: State) -> str:
    """One line: whose turn and what to do, and what the last roll did."""
    if state.phase == "over":
        return f"Game over after {state.turn} turns. {state.result_text}"
    who = _name(state, state.to_move)
    if state.phase == "move":
        return f"Turn {state.turn}: {who} rolled {state.roll} and must move a piece."
    now = f"Turn {state.turn}: {who} to roll."
    lapse = state.timed_out
    if lapse is not None:
        what = "left the game" if lapse["forfeit"] else "the turn passed"
        return f"{now} Last: {_name(state, lapse['seat'])} ran out of time and {what}."
    if state.passed and state.roll_seat is not None:
        return (
            f"{now} Last: {_name(state, state.roll_seat)} rolled {state.roll} "
            f"and had no legal move."
        )
    last = state.last
    if last is None:
        return now
    text = (
        f"{now} Last: {_name(state, last['seat'])} rolled {last['roll']} and moved "
        f"{last['from']}-{last['to']}"
    )
    if last["captured"]:
        text += f", taking a Knight of {_castle_name(board, last['captured'])}"
    if last["scored"]:
        text += ", reaching the Lair"
    return text + "."


def _public_view(board: Board, state: State) -> dict[str, Any]:
    """The whole game as JSON-ready data. Keys:

    - ``pieces``: ``[{"point", "owner"}]`` in board order; owner is a castle key
      (``"george"``, ``"patrick"``, ``"andrew"``, ``"david"``) or ``"dragon"``.
    - ``taken`` / ``scored``: ``{castle: n}`` for the castles the game began with: Knights
      the Dragon took, Knights that reached the Lair.
    - ``castles_in_play``: castle keys with Knights in this game, in board order; a castle
      whose seat forfeited is no longer in play.
    - ``seats``: ``[{"role", "name", "castles", "departed"}]`` in turn order (the Dragon's
      castles: []; ``departed``: the seat forfeited and no longer plays).
    - ``to_move``: the seat to act, None once over. ``phase``: "roll", "move" or "over".
    - ``roll``: the last roll (None before the first), ``roll_seat``: who rolled it,
      ``passed``: that roll had no legal move and the turn passed.
    - ``last``: the last move, None before the first: ``seat``, ``owner`` (castle key or
      "dragon"), ``from``, ``to``, ``path`` (points from start to end inclusive),
      ``captured`` (castle key or None), ``scored`` (bool), ``roll``.
    - ``turn``: the round number from 1. ``result``: the ending in words or None;
      ``winners``: seats (empty list: a draw) or None while playing. ``summary``: one line.
    """
    over = state.phase == "over"
    pieces = sorted(state.pieces.items(), key=lambda item: board.index[item[0]])
    return {
        "pieces": [{"point": point, "owner": owner} for point, owner in pieces],
        "taken": dict(state.taken),
        "scored": dict(state.scored),
        "castles_in_play": _castles_playing(state),
        "seats": [
            {
                "role": key,
                "name": seat(key).name,
                "castles": list(seat(key).castles),
                "departed": index in state.departed,
            }
            for index, key in enumerate(state.roles)
        ],
        "to_move": None if over else state.to_move,
        "phase": state.phase,
        "roll": state.roll,
        "roll_seat": state.roll_seat,
        "passed": state.passed,
        "last": None if state.last is None else {**state.last, "path": list(state.last["path"])},
        "turn": state.turn,
        "result": state.result_text,
        "winners": None if state.winners is None else list(state.winners),
        "summary": _summary(board, state),
    }


GAME = register(StGeorge())
