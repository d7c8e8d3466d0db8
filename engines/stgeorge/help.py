"""The rules help shown to players: notation, readings of the rule text, reconstructed data."""

from __future__ import annotations

from engines.data import reconstructed_notes
from engines.helptext import Examples
from engines.stgeorge.board import board_data

_written = Examples()
EXAMPLES = _written.actions
"""Every action the help writes as an example (tests play them all)."""
OPTION_EXAMPLES = _written.options
"""Every ``key=value`` option example the help writes (tests open a game with each)."""
_example = _written.action


_HELP = f"""\
# St. George and the Dragon

A wheel of 14 spokes with the green Dragon's Lair in the centre and four Knight's Castles on \
the rim: St. George (spoke 1, top), St. Patrick (spoke 5), St. Andrew (spoke 8) and St. David \
(spoke 12). Each castle starts with three Knights on its three points; the Dragon starts on \
the Lair. The Dragon wins by taking two Knights of every castle in play; a castle wins by \
bringing two of its own Knights to the Lair.

## Seats
- 5 players: St. George, St. Patrick, St. Andrew, St. David, the Dragon.
- 4 players: St. George, St. Andrew, St. David, the Dragon (no St. Patrick Knights).
- 3 players: St. Andrew & St. George, St. David & St. Patrick, the Dragon.
- 2 players: all four Knights, the Dragon.
Turns go in that order, Knights first and the Dragon last, then round again. The game has \
no options.

## Notation
- Points: spoke number 1-14 (clockwise from the top) and ring letter a (next to the Lair) \
to f (the rim): `4c`, `14f`. The centre is `lair` (or `L`). Castle points: `G1 G2 G3` \
(St. George), `P1`-`P3` (St. Patrick), `A1`-`A3` (St. Andrew), `D1`-`D3` (St. David); point 2 is \
the gate on the castle's spoke, 1 and 3 lie half a spoke to either side.
- {_example("roll")}: roll the die (1-6).
- `<from>-<to>`: move the piece on `from` to `to`, e.g. {_example("G2-1d")}, \
{_example("3c-lair")}. Only the two ends are written; the route does not matter (the \
picture shows one route found). Letters may be upper or lower case, spaces are ignored, \
and a dash or `→` may stand for `-`.

## A turn
Send {_example("roll")}, then move one of your pieces exactly that many points along the \
lines, in any combination of directions, never onto or over an occupied point and never \
onto a point twice (the starting point included). A player holding several castles moves \
any one of their Knights. If no piece can move that far, the turn passes by itself and the \
picture says so.
"""

_READINGS = """\
## How this host reads the rules
- **Capture.** Only a move that *ends* on a Knight takes it; the Dragon cannot pass over \
a Knight. The taken Knight leaves play and counts against its castle.
- **The Lair.** A Knight may end on the Lair but not pass over it; it is then removed and \
scored behind its own castle. It cannot land there while the Dragon sits on it. The Dragon \
may pass through the empty Lair.
- **Castle points** are ordinary points: any piece may move onto or through any castle's \
points once they are empty, its own or another's, including St. Patrick's unused castle \
with four players.
- **Dragon's win:** two Knights taken from *each* castle in play (three castles with four \
players).
- **Knights' win:** "the first Knight to do so" is read as the first *castle* with two of \
its own Knights in the Lair; the player holding that castle wins. A player with two castles \
does not add their two castles' Knights together.
- **Draws.** The Dragon can no longer win once some castle in play cannot lose two more \
Knights (it has scored two, or too few are left on the board); a castle can no longer win \
once fewer than two of its Knights are scored or still on the board. When neither the \
Dragon nor any castle can still win, the game is a draw. With three Knights a castle, a \
castle that cannot lose two has already won, so in practice this draw does not come up. The \
game is also a draw when no piece can move with any roll (a blocked board); the Dragon can \
always step to an empty point or take a neighbouring Knight, so this too needs a corrected \
board to happen.
- **Knights' order:** the text only says the Knights go first; they go in seat order.
"""

_TIMEOUTS = """\
## If time runs out
The table's turn clock either skips or forfeits a turn that runs out of time.
- **Skip:** the turn passes without a move, whether the player had yet to roll or had \
rolled and not moved (that roll is lost). The next seat is asked to roll, as after any turn.
- **Forfeit, the Dragon:** the game ends at once and every Knight player still in the game \
wins together: the Knights have driven the Dragon off.
- **Forfeit, a Knight player:** the player leaves with all their castles. Their Knights are \
removed from the board (Knights already in the Lair or taken count for nothing), those \
castles are shown as not in play, and the Dragon now needs two Knights from each castle \
still in play only; if it already has them, it wins at once. The others play on and the \
turn order passes over the empty seat. When no Knight player is left, the Dragon wins.
"""


_AGREEMENT = """\
## Resigning, draws and takebacks
`/game resign` gives your seat up by the forfeit rule above, at once, whoever is to move: \
the Dragon resigning ends the game; a Knight player resigning leaves with their castles \
and the player to move keeps their turn. There is no draw by agreement: the rule text \
knows only wins, the Dragon's or a castle's. `/game undo` asks the other players to take \
back your last action; every other player must accept (a computer seat always does). \
Nothing is hidden, so only the die stops it: once a die was rolled after your action, it \
stands.
"""


def rules_help() -> str:
    """The full help (Markdown, sections under about 1900 characters each)."""
    notes = "\n".join(f"- {note}" for note in reconstructed_notes(board_data()))
    board = (
        "## Reconstructed board\n"
        "The rule text gives no drawing of the board; these parts are this host's "
        "reconstruction (a server may load a corrected board file):\n"
        f"{notes}\n"
    )
    return "\n".join([_HELP, _READINGS, _TIMEOUTS, _AGREEMENT, board])
