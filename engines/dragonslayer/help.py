"""The rules help of Dragonslayer: notation, readings of the rule text, reconstructed data."""

from __future__ import annotations

from engines import data
from engines.dragonslayer.battle import load_battle
from engines.dragonslayer.model import PACKAGE, TileSet, load_parties, load_tiles, load_urland
from engines.helptext import Examples

_written = Examples()
EXAMPLES = _written.actions
"""Every action the help writes as an example (tests play them all)."""
OPTION_EXAMPLES = _written.options
"""Every ``key=value`` option example the help writes (tests open a game with each)."""
_example = _written.action
_option = _written.option


PLAYING = f"""\
## Dragonslayer: playing
Seats are magicians in turn order: Aurric, Merridyds, Old Kyvin, Galen. Galen always plays; option \
{_option("magicians=merridyds,galen")} picks who else (default: Aurric and Galen for 2, Aurric, \
Merridyds and Galen for 3).
**Setting up:** each player places both King's men face down in castles: `place <castle>`.
**Your magician** spends up to 3 days:
- `go <place or sea>`: by road into a place, from a port to its sea zone or back, into a \
neighbouring sea zone (1 day each; the first move is from the abode to its sea zone). A place with \
King's men in it costs a day more to enter and a day to leave.
- `take <slot>`: take a face-down tile where you stand (1 day); slots are letters `a`, `b`...
- {_example("gain")}: use a Gain One Day tile for one more day. {_example("done")}: the magician \
rests.
**Your King's men**, one after the other, up to 3 days each: `k1 <place>`, `k2 <place>` (by road, \
never to sea or the Lair), {_example("done")} stops the moving one, or ends the turn.
**Answers:** {_example("return")} / `swap <thing>` (a tile you cannot carry, asked privately), \
`lose <tile>`, `drop <thing>`, `castle <castle>`, `challenge <magician>` / {_example("pass")}, \
{_example("accept")} / `road <place>`, {_example("escape")} / {_example("wait")}.
Names work with spaces or underscores, in any case: {_example("go ashby fell")}, \
{_example("go West Sea")}.
"""

READINGS = f"""\
## Dragonslayer: how the rule text is read
- A tile you can carry joins the party at once; one you cannot is shown to you alone, and you put \
it back in its slot or swap one of your things for it (a weapon for a weapon, a spell or magic \
item for a spell or magic item; Ulrich's Ashes never). A tile you put back stays in your private \
memory (`/hand`).
- Which companion or thing is lost (Killed, Deserts, Item Stolen, Betrayed) is the player's \
choice. Losing a companion can force dropping a weapon face down where the party stands (everyone \
saw it, so everyone knows it lies there); losing Ulrich can likewise force Galen to drop a spell \
or magic item.
- Captured: the magician and the King's men on top go to a castle of their owner's choice; the \
magician loses the rest of this turn and the next. Betrayed acts only where King's men are present \
(it is a Captured tile) and only if the party has a companion.
- Delayed: no more days this turn, the next turn is lost, and no taking the road until then. Lost \
turns add up: a delayed magician who then loses a challenge owes two turns.
- Tiles are taken in towns and hamlets only; a thing put down elsewhere lies there face down (the \
Dragon may raid it).
- Gain One Day or Escape from Castle: kept; {_example("gain")} during your days, or \
{_example("escape")} when a turn would be lost in a castle.
- Taking the road puts the magician on the road between the two places: no day spent; the next \
move enters either end. King's men challenge only in towns and hamlets, and only when they move \
in. The extra days for King's men in a place are the magicians'; King's men pay one day a road. A \
challenge is won by the King's men when their strength is at least the party's people's combat \
strength (weapons do not count).
"""

FIGHT = f"""\
## Dragonslayer: the Dragon
{_example("go dragons_lair")} enters the Lair (a day, like any place); then {_example("draw")} \
draws a Dragon Location tile at random, before anything else is said. The tile drawn says what \
the party may do, and you are asked only when it allows more than one thing:
- The Dragon is there (any tile but The Dragon is Away): {_example("fight")}.
- {_example("recover")} as well, when abandoned weapons lie on the Display or Galen holds \
Ulrich's Ashes, and the tile matches no box holding weapons (nor, for the Ashes, is the Lake of \
Fire). A tile that matches means a fight: the party cannot recover.
- The Dragon is Away: no fight and no raid; {_example("done")} goes to Morgenthorme and the days \
end (that happens by itself when there is nothing to recover).
- With a Silver Ewer, Orb of Vision or Far Mirror, the first tile of the turn may be discarded: \
{_example("redraw")} draws again from the other six, and the second tile stands.
A fight: {_example("fight")} places things pictured twice (Amulet of Power, Dragon Shield, \
Anti-Fire Spell, Spell of Agility) where you say by key, e.g. \
{_example("fight amulet_of_power=magic")}; the buttons show each placement's strengths and Matrix \
result, and a bare {_example("fight")} takes the best. Then `lose <tile>` once per thing the \
Matrix takes.
Readings:
- Either strength below the Dragon's: the party is wiped out (the magician is out). So is a party \
that must lose more than it has (it loses all it has); killing the Dragon that way is a draw with \
the Dragon.
- The Dragon Shield joins the first fight of a party with Valerian, by itself; it is removed after \
that fight.
- Enchant Weapon, Killing and Charm of Weaponry: only as many count as the party has weapons, the \
strongest first.
- After a Lair fight the magician rests in Morgenthorme for the rest of the turn; the Dragon raids \
the nearest place with face-down tiles by road from the Lair (a tie goes to the place listed first \
in the map data). Magicians there fight in turn order at High Altitude until the Dragon dies; \
weapons lost in a raid leave the game. A weapon a shrunken party puts down in a raided place lies \
face down there, so the place can be raided again.
- The rule text draws the tile first and then says what a party may do, so the party chooses \
after the draw, never before: with weapons abandoned in one box, any other tile lets a party \
that came to fight recover instead, or fight. Weapons in several boxes: a tile matching any of \
them means a fight.
- Recovering: Ulrich joins in place of the Ashes, the party takes weapons one by one \
(`recover <weapon>`, {_example("done")}) as many as it can carry, and the magician goes to \
Morgenthorme; the Dragon does not raid.
- Winning: the Dragon at 0. Every magician out: nobody wins.
"""

VIEW = """\
## Dragonslayer: what the channel sees
The map shows every magician, every King's men tile (face down: owner and number only, the \
strength once a challenge reveals it), how many face-down tiles lie in each place, every \
party and the Dragon's strength. Your King's men's strengths and the tiles you looked at \
are in `/hand` and your DMs.
"""

TIMEOUTS = f"""\
## Dragonslayer: if time runs out
**Skip:** a turn ends where it stands (the King's men do not move); a tile you could not carry is \
put back; a challenge is accepted; the owner does not challenge (or, once challenging, challenges \
the next magician); a castle is drawn at random; a loss or drop takes the first in the party's \
order; an escape waits; unplaced King's men go to castles drawn at random.
In the Lair, skip means: {_example("draw")}; after the draw, {_example("recover")} where the tile \
allows it, else {_example("done")} (the Dragon away), else {_example("fight")} (never a redraw); \
the best placement, the first loss in the party's order, {_example("done")} recovering.
**Forfeit:** the magician leaves the game: the party's tiles leave the game and the King's men \
leave the map. When one magician is left, that player wins.
"""


AGREEMENT = """\
## Dragonslayer: resigning, draws and takebacks
`/game resign` gives your seat up by the forfeit rule above. The rule text says "It is \
possible that no one will kill the Dragon, in which case no one wins": `/game draw` offers \
to end the game that way, and it ends with no winner when every other player accepts (a \
computer seat declines and plays on). `/game undo` asks every other player to take back \
your last action (a computer seat accepts); it is refused once a tile or a Dragon Location \
tile was drawn, a face-down tile was looked at, or a King's man's strength was shown since.
"""


def rules_help() -> str:
    """The whole help: playing, readings, channel view, timeouts, the reconstructed data."""
    urland, tiles, parties = load_urland(), load_tiles(), load_parties()
    files = ("urland", "tiles", "parties", "battle")
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
    return "\n".join((PLAYING, READINGS, FIGHT, VIEW, TIMEOUTS, AGREEMENT, reconstructed, tables()))


def tables() -> str:
    """The Battle Display, the Strength Modifiers and the Matrix, reconstructed values
    marked with *."""
    battle = load_battle()
    tiles = load_tiles()
    heads = " ".join(f"{r:>5}" for r in ("High", "Low", "Open", "Mouth", "Pass.", "Lake"))

    def table(title: str, kind: str, values: dict[str, dict[str, int]]) -> str:
        lines = [f"{'':22}{heads}"]
        for key, rows in values.items():
            cells = " ".join(
                f"{rows[row]:>4}{' ' if battle.is_legible(kind, key, row) else '*'}"
                for row in battle.locations
            )
            lines.append(f"{_short(key, tiles):22}{cells}")
        return f"**{title}**\n```\n" + "\n".join(lines) + "\n```"

    modifiers = ", ".join(f"{loc.name} {loc.modifier:+d}" for loc in battle.locations.values())
    legible = {tuple(rc) for rc in battle.legible.get("matrix", [])}
    heads_m = " ".join(f"{h:>6}" for h in ("same", "+1", "+2", "+3", "+4", "+5"))
    matrix = [f"{'magic/combat':13}{heads_m}"]
    for r, row in enumerate(battle.matrix):
        label = ("same", "+1", "+2", "+3", "+4", "+5 or more")[r]
        cells = " ".join(
            f"{lost:>3}/{levels}{' ' if (r, c) in legible else '*'}"
            for c, (lost, levels) in enumerate(row)
        )
        matrix.append(f"{label:13}{cells}")
    return (
        "## Dragonslayer: Battle Display, modifiers, Matrix\n"
        "Values marked * are reconstructed (the scan cuts the sheet off); a server may load "
        "a corrected `battle.json`.\n"
        + table("Combat strength", "combat", battle.combat)
        + "\n"
        + table("Magic strength", "magic", battle.magic)
        + f"\nStrength modifiers: {modifiers}.\n"
        + "**Battle Matrix** (things lost / Dragon strength lost)\n```\n"
        + "\n".join(matrix)
        + "\n```\n"
    )


def _short(key: str, tiles: TileSet) -> str:
    """A thing's name cut to fit a table row."""
    try:
        found: str = tiles.tile(key).name
    except KeyError:
        found = next(t.name for t in load_parties().galen_tiles if t.key == key)
    return found if len(found) <= 21 else found[:20] + "."
