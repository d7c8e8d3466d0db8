"""The rules summary shown by the bot: notation, readings of the text, reconstructed data."""

from __future__ import annotations

from engines.data import reconstructed_notes
from engines.helptext import Examples
from engines.lions_dragons import layout

_written = Examples()
EXAMPLES = _written.actions
"""Every action the help writes as an example (tests play them all)."""
OPTION_EXAMPLES = _written.options
"""Every ``key=value`` option example the help writes (tests open a game with each)."""
_example = _written.action
_option = _written.option


OVERVIEW = f"""\
# Lions and Dragons Chess
A ball game on a hexagonal board of side 6: 91 cells, 7 of them removed as non-hexes \
("Lions"), leaving the 84 the text asks for. Cells have Glinski names: files a-l without j, \
ranks from 1 at White's end (bottom). White moves first.
**Win** by moving a Dragon-with-Ball into the opponent's goal hex (at the opponent's end, \
highlighted) or by capturing the opponent's Wizard (only a Dragon-with-Ball can).
**Lions** are chosen at random when the game is set up (never on a starting piece or a goal, \
never cutting the board in two) or, with {_option("lions=symmetric")}, in a fixed agreed \
pattern. Nothing enters a Lion; for a Fireball it is the board's edge."""

PIECES = """\
## Pieces
- **Wizard (W)**: one step to any of the 6 cells sharing a side or the 6 cells touching a \
corner (the text's "adjacent along the sides" and "along the edges"). Never captures. Or, \
instead of moving, shoots a Fireball.
- **Ball** (gold): neutral, never moves. A Dragon capturing it becomes a Dragon-with-Ball.
- **Proto-Dragon (P)**: never moves. Hit by a Fireball it becomes a Dragon of its owner. \
Captured by a Dragon or a Roc.
- **Dragon (D)**: a step to the 6 side cells or a leap 2 out and 1 left or right (12 cells, \
the Glinski knight): 18 cells. Captures Balls and Dragons-with-Ball (then becomes a \
Dragon-with-Ball) and opposing Proto-Dragons, Dragons, Rocs.
- **Dragon-with-Ball** (D with a small gold ball): a step to the 6 side cells. Captures \
opposing Rocs, Proto-Dragons, Dragons, Dragons-with-Ball and the Wizard; capturing a Ball \
puts that Ball out of play.
- **Roc (R)**: leaps 5 out and 1 left or right. Captures opposing Rocs, Dragons, Proto-Dragons.
- **Fireball** (orange, its arrow shows where it flies): neutral. Hitting a Dragon-with-Ball: \
both go, a Ball is left. A Proto-Dragon: both go, a Dragon is left. A Dragon or Roc: both \
go. A Wizard, Fireball, Ball, the edge or a Lion: only the Fireball goes. Otherwise it flies \
on two cells in its direction after every player's turn.
- **Drop**: as a whole turn, put a Proto-Dragon from your hand on an empty cell one Wizard \
step from your Wizard."""

NOTATION = f"""\
## Notation
Cells like `f6`. Case and spaces do not matter.
- {_example("f2-f4")} moves the piece on f2 to f4; a capture is written {_example("f2xf4")} \
({_example("f2-f4")} works too).
- {_example("drop e3")} drops a Proto-Dragon on e3.
- {_example("fire f2-f4")}: the Wizard on f2 shoots towards f4, the cell two steps away in a \
straight line where the Fireball lands ({_example("fire f4")} works too).
Menus group actions by the acting piece's cell, or `drop`.
Turn order: White, Fireballs, Black, Fireballs... The Fireball phase is automatic."""

READINGS = """\
## Readings of the text
- **Straight direction** = the 6 directions through a hex's sides. Only there are "two hexes" \
two touching cells; a corner diagonal skips between cells.
- **Flight**: a Fireball travels cell by cell and stops at the first thing it meets. "Cannot \
be shot at an adjacent hex" means a shot always aims two cells away; a piece on the adjacent \
cell is still in the way. That is how "drop Proto-Dragons near your Wizard and shoot them" \
works. The landing cell must be a real cell.
- **A new Fireball** does not fly again in the phase right after its shot: the shot was its \
two cells ("upon being shot off it moves two hexes"), and the opponent gets one turn to react.
- Fireballs are neutral and hit your own pieces too; several fly oldest first.
- **Leapers jump**: the Dragon's leap and the Roc jump over anything, like chess knights.
- **Nothing moves onto a Fireball**: no piece may capture one.
- **Roc captures**: its sentence says Rocs or Dragons, the Proto-Dragon's adds that a Roc may \
capture it, so a Roc takes all three, but not a Dragon-with-Ball, which the text always names \
on its own.
- **Roc reach**: on the full board every cell but f6 reaches exactly 4 cells, as the text \
says; from f6 a Roc cannot move. Lions can take some of the 4.
- Captures take opposing pieces only (plus neutral Balls). A Dragon-with-Ball taking another \
keeps one Ball; the other leaves play.
- A Dragon that becomes a Dragon-with-Ball on the opponent's goal (taking a Ball there) wins."""

ENDINGS = f"""\
## Stalled games
- A player with **no legal action** loses: the text was written for Zillions of Games, where \
a player who cannot move loses unless the rules say otherwise, and a Wizard boxed in by its own \
Proto-Dragons is its owner's doing.
- The **same position three times** (same pieces, Fireballs, hands and side to move): draw.
- **cap** plies (default 200) with no capture, drop, or Fireball hit that removes or changes \
a piece: draw.

## Options
{_option("lions=random")} (default) or {_option("lions=symmetric")}; `reserve=N` \
Proto-Dragons in hand (default 4, e.g. {_option("reserve=2")}); `cap=N` quiet plies before \
a draw (default 200, e.g. {_option("cap=100")})."""

TIMEOUTS = """\
## If time runs out
The table's turn clock either skips or forfeits a turn that runs out of time.
- **Skip:** the player to move passes: no piece moves, nothing is dropped or shot. The \
Fireball phase after the turn still runs (Fireballs in flight fly on two cells, as after any \
move), then the other player is to move. A pass is not progress for the `cap` quiet-ply draw \
(a Fireball hit in that phase is), and the position after it counts towards the \
three-times draw like any other.
- **Forfeit:** the player gives up and the opponent wins at once; the board stays as it is \
and no Fireball flies."""


AGREEMENT = """\
## Resigning, draws and takebacks
`/game resign` gives up at once: the other side wins, as for a forfeit. The rule text is \
silent on agreed draws; as in chess, `/game draw` offers one and the game is drawn when \
the other player accepts (a computer declines and plays on). `/game undo` asks the other \
player to take back your last move (a computer accepts). Nothing is hidden and nothing is \
left to chance after the set-up, so every move can be taken back while the game runs."""


def rules_help() -> str:
    """The whole rules summary as Markdown, each section short enough for one message."""
    notes = "\n".join(f"- {line}" for line in reconstructed_notes(layout.setup_data()))
    data = "## Reconstructed data (the setup diagram is missing)\n" + notes
    return "\n\n".join([OVERVIEW, PIECES, NOTATION, READINGS, ENDINGS, TIMEOUTS, AGREEMENT, data])
