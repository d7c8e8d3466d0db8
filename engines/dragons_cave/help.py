"""The rules help of Dragon's Cave: notation, readings of the rule text, board data."""

from __future__ import annotations

from engines import data
from engines.dragons_cave.board import PACKAGE
from engines.dragons_cave.state import LAIR_BONUS, TREASURE
from engines.helptext import Examples

_written = Examples()
EXAMPLES = _written.actions
"""Every action the help writes as an example (tests play them all)."""
OPTION_EXAMPLES = _written.options
"""Every ``key=value`` option example the help writes (tests open a game with each)."""
_example = _written.action
_option = _written.option


PLAYING = f"""\
## Dragon's Cave: playing
Seats are colours in turn order: `red`, `blue`, `green`, `yellow` (2-4 players); the next \
seat is the player "on the left". Option `first_dragon=<seat or colour>` (default the first \
seat, e.g. {_option("first_dragon=blue")} or {_option("first_dragon=1")}) says who plays the \
Dragon first; the rules say the youngest, so the host picks.
Each round every Dwarf player and the Dragon choose **at the same time, in secret**:
- `card <kind>` plays a card ({_example("card ruby")}; a colour works too: \
{_example("card red")}). {_example("card chest")} plays the Treasure Chest card. With 2 \
players name the Dwarf: {_example("card ruby 1")}, {_example("card ruby 2")}.
- `lair <kind>` (the Dragon only) picks the lair square the Dragon sits on, e.g. \
{_example("lair amber")}.
The cards lie face down until all are in, so the Dragon choosing at the same time changes \
nothing. Each answer is confirmed privately; the channel only hears "2 of 4 choices are in".
When a caught player has coins, they answer `split <n>` in secret (n coins in the left hand, \
the rest in the right, e.g. {_example("split 3")}), then the Dragon answers \
`hand <player> left|right` ({_example("hand blue left")}; the seat number works too: \
{_example("hand 1 left")}). The Dragon sees no amounts.
Kinds: Ruby (red, diamond), Emerald (green, leaf), Sapphire (blue, drop), Amber (yellow, \
sun), Crystal (violet, star). Words are case-insensitive.
"""

READINGS = f"""\
## Dragon's Cave: how the rule text is read
- Not caught: the Dwarf moves to the first square of that kind ahead; if none is left on \
the path, to the lair square of that kind. It takes the printed coins from the Treasure \
into its Purse. The card stays face up and cannot be played again until caught or Chest.
- Caught (card kind = the Dragon's square): back to the nearest square of that kind \
behind, or Start; no coins; all played cards return to hand. A caught player with an \
empty Purse has nothing to split. Several caught players each split, and the Dragon picks \
for each once all splits are in.
- Chest: the Dwarf stays and cannot be caught; the **whole** Purse goes into the Chest; \
all cards return to hand.
- A Dwarf in the lair plays no more cards. The game ends after a round in which a Dwarf \
reached the lair (2 players: when both Dwarves of one player are there). Each player with \
a Dwarf in the lair gets {LAIR_BONUS} coins once (counted in the score, not taken from the \
Treasure). Score = Purse + Chest + bonus; a tie goes to the player closest to the lair \
(2 players: both Dwarves added up), then the victory is shared.
- The Treasure starts with {TREASURE} coins. If it cannot pay a round, its coins are shared \
equally among the players owed gold, the remainder is set aside, and the game ends at \
once (caught players then keep their Purse). It also ends at once when the Treasure is \
exactly emptied.
- 2 players: the Dwarf player moves one Dwarf; only that one can be caught. Roles swap \
only when the Dwarf player is caught or plays the Chest card. With 3-4 players the Dragon \
passes to the next seat every round.
- Purses are on the table and shown; Chest totals are shown only at the end.
"""

VIEW = """\
## Dragon's Cave: what the channel sees
The board picture and channel posts show Dwarves, face-up cards, Purses, the Treasure and \
only *how many* answers are in. The Dragon's square appears once revealed; a Chest's \
contents, an unrevealed card and a hand split never appear. Your own hand, Chest and \
locked-in choice are in your private view.
"""

TIMEOUTS = """\
## Dragon's Cave: if time runs out
The host sets what happens when a player's turn clock runs out: skip or forfeit.
**Skip** answers the waiting choice for the player:
- a card: the Treasure Chest card is played (it is always in hand). The Dwarf stays put, \
cannot be caught, the Purse goes into the Chest and all cards return to hand. With 2 \
players likewise.
- the Dragon's square: a lair square is drawn at random (secret until the reveal).
- a split: the Purse is split as evenly as possible, the odd coin in the left hand.
- the Dragon's hand picks: a hand is drawn at random for each caught player still waiting.
**Forfeit**, with 2 players: the other player wins at once. With 3-4 players the player \
leaves the game for good: their Dwarf leaves the board, their Purse goes back to the \
Treasure, their Chest stays sealed and does not count (a player who left cannot win), and \
they are never asked anything again. The Dragon passes over them to the next player still \
in the game. If they were the Dragon, this round's Dragon choices (the lair square, the \
hand picks) are drawn at random. When only one player is left, that player wins.
"""


AGREEMENT = """\
## Dragon's Cave: resigning, draws and takebacks
`/game resign` gives your seat up by the forfeit rule above. There is no draw by agreement: \
the coins decide and the rule text settles ties itself. `/game undo` asks every other player \
to take back your last choice (a computer seat accepts). A choice can be taken back only \
while it is still secret: once the last card, split or pick of a phase is in, the answers \
are shown and nothing before it can be taken back; nor after a lair square or a hand was \
drawn at random.
"""


def rules_help() -> str:
    """The whole help: playing, readings, channel view, timeouts, the reconstructed board."""
    board = data.load(PACKAGE, "path")
    notes = "\n".join(f"- {note}" for note in data.reconstructed_notes(board))
    names = {kind["key"]: kind["name"] for kind in board["kinds"]}
    sections = "\n".join(
        f"Section {number}: "
        + ", ".join(f"{names[k]} {c}" for k, c in zip(kinds, coins, strict=True))
        for number, (kinds, coins) in enumerate(
            zip(board["sections"], board["coins"], strict=True), 1
        )
    )
    reconstructed = (
        "## Dragon's Cave: reconstructed board\n"
        "The rule text gives no board drawing. Reconstructed (a server may load a "
        "corrected `path.json`):\n"
        f"{notes}\n"
        "The path from Start (kind and printed coins):\n"
        f"{sections}\n"
        f"Lair: {', '.join(names[k] for k in board['lair'])} (no coins).\n"
    )
    return "\n".join((PLAYING, READINGS, VIEW, TIMEOUTS, AGREEMENT, reconstructed))
