"""The rules help of Dragonslayer: notation, readings of the rule text, reconstructed data."""

from __future__ import annotations

from engines import data
from engines.dragonslayer.model import PACKAGE, load_parties, load_tiles, load_urland

PLAYING = """\
## Dragonslayer: playing
Seats are magicians in turn order: Aurric, Merridyds, Old Kyvin, Galen. Galen always plays; \
option `magicians=merridyds,galen` picks who else (default: Aurric and Galen for 2, Aurric, \
Merridyds and Galen for 3).
**Setting up:** each player places both King's men face down in castles: `place <castle>`.
**Your magician** spends up to 3 days:
- `go <place or sea>`: by road into a place, from a port to its sea zone or back, into a \
neighbouring sea zone (1 day each; the first move is from the abode to its sea zone). A \
place with King's men in it costs a day more to enter and a day to leave.
- `take <slot>`: take a face-down tile where you stand (1 day); slots are letters `a`, `b`...
- `gain`: use a Gain One Day tile for one more day. `done`: the magician rests.
**Your King's men**, one after the other, up to 3 days each: `k1 <place>`, `k2 <place>` \
(by road, never to sea or the Lair), `done` stops the moving one, or ends the turn.
**Answers:** `return` / `swap <thing>` (a tile you cannot carry, asked privately), \
`lose <tile>`, `drop <thing>`, `castle <castle>`, `challenge <magician>` / `pass`, \
`accept` / `road <place>`, `escape` / `wait`.
Names work with spaces or underscores, in any case: `go ashby fell`, `go West Sea`.
"""

READINGS = """\
## Dragonslayer: how the rule text is read
- A tile you can carry joins the party at once; one you cannot is shown to you alone, and \
you put it back in its slot or swap one of your things for it (a weapon for a weapon, a \
spell or magic item for a spell or magic item; Ulrich's Ashes never). A tile you put back \
stays in your private memory (`/hand`).
- Which companion or thing is lost (Killed, Deserts, Item Stolen, Betrayed) is the \
player's choice. Losing a companion can force dropping a weapon face down where the party \
stands (everyone saw it, so everyone knows it lies there); losing Ulrich can likewise force \
Galen to drop a spell or magic item.
- Captured: the magician and the King's men on top go to a castle of their owner's \
choice; the magician loses the rest of this turn and the next. Betrayed acts only where \
King's men are present (it is a Captured tile) and only if the party has a companion.
- Delayed: no more days this turn, the next turn is lost, and no taking the road until then.
- Gain One Day or Escape from Castle: kept; `gain` during your days, or `escape` when a \
turn would be lost in a castle.
- Taking the road puts the magician on the road between the two places: no day spent; the \
next move enters either end. King's men challenge only in towns and hamlets, and only when \
they move in. The extra days for King's men in a place are the magicians'; King's men pay \
one day a road. A challenge is won by the King's men when their strength is at least the \
party's people's combat strength (weapons do not count).
- The Dragon's Lair: the fight is not hosted yet, so the Lair cannot be entered.
"""

VIEW = """\
## Dragonslayer: what the channel sees
The map shows every magician, every King's men tile (face down: owner and number only, the \
strength once a challenge reveals it), how many face-down tiles lie in each place, every \
party and the Dragon's strength. Your King's men's strengths and the tiles you looked at \
are in `/hand` and your DMs.
"""

TIMEOUTS = """\
## Dragonslayer: if time runs out
**Skip:** a turn ends where it stands (the King's men do not move); a tile you could not \
carry is put back; a challenge is accepted; the owner does not challenge (or, once \
challenging, challenges the next magician); a castle is drawn at random; a loss or drop \
takes the first in the party's order; an escape waits; unplaced King's men go to castles \
drawn at random.
**Forfeit:** the magician leaves the game: the party's tiles leave the game and the King's \
men leave the map. When one magician is left, that player wins.
"""


def rules_help() -> str:
    """The whole help: playing, readings, channel view, timeouts, the reconstructed data."""
    urland, tiles, parties = load_urland(), load_tiles(), load_parties()
    files = ("urland", "tiles", "parties")
    notes = "\n".join(
        f"- {name}.json {note}"
        for name in files
        for note in data.reconstructed_notes(data.load(PACKAGE, name))
    )
    companions = ", ".join(
        f"{t.name} {t.strength} ({urland.places[t.home].name})"
        for t in tiles.tiles
        if t.kind == "companion" and t.home
    )
    magicians = ", ".join(
        f"{m.name} combat {m.combat} magic {m.magic} pentacles {m.pentacles}"
        for m in parties.magicians.values()
    )
    events = ", ".join(f"{t.name} ×{t.count}" for t in tiles.tiles if t.kind == "event")
    kings_men = ", ".join(
        f"{s.leader} ({parties.magicians[s.magician].name}) "
        + "/".join(str(m.strength) for m in s.men)
        for s in parties.kings_men
    )
    reconstructed = (
        "## Dragonslayer: reconstructed data\n"
        "The rule text gives no map and no tile manifest. Reconstructed (a server may load "
        "corrected `urland.json`, `tiles.json`, `parties.json`):\n"
        f"{notes}\n"
        f"Magicians: {magicians}.\n"
        f"Companions (strength, home town): {companions}.\n"
        f"Events: {events}.\n"
        f"King's men (strengths, dealt face down in random order): {kings_men}.\n"
    )
    return "\n".join((PLAYING, READINGS, VIEW, TIMEOUTS, reconstructed))
