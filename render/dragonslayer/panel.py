"""The Dragonslayer map's words: the header (turn, whose turn, the last move) and the
panel under the map with one block per party in two columns (its strengths, loads,
companions, things, King's men and status), drawn over the static map by
:mod:`render.dragonslayer.map`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.dragonslayer.model import load_urland
from i18n import Locale, Said, said, said_plural, write
from render.common import INK, fit, fitting_size
from render.dragonslayer.board import token
from render.dragonslayer.layout import HEIGHT, PANEL_TOP, TEXT, WIDTH
from render.dragonslayer.style import (
    ALERT,
    CURRENT_BAND,
    HIGHLIGHT,
    MUTED,
    PANEL_EDGE,
    SUBTITLE,
    Colour,
    Pen,
    initials,
    magician_colour,
    text_width,
    wrap,
)

NAME_TOKEN_R = 23
"""A magician's disc beside its name (header, panel): room for two initials in TEXT."""

TITLE = "Dragonslayer"
"""The game's name, at the head of the picture (a name, the same in every language)."""


def phase_words(phase: str, name: str) -> Said:
    """What the magician ``name`` does in ``phase``, in words (``Galen's move``); a phase
    these do not know is named as the view names it."""
    plain = name.endswith("s")  # "Merridyds' move": the English possessive of such names
    if phase == "place":
        return said("{name} places King's men", name=name)
    if phase == "magician":
        return said("{name}' move", name=name) if plain else said("{name}'s move", name=name)
    if phase == "kings_men":
        if plain:
            return said("{name}' King's men move", name=name)
        return said("{name}'s King's men move", name=name)
    if phase == "answer":
        return said("{name} to answer", name=name)
    return said("{name}: {phase}", name=name, phase=phase)


def draw_header(pen: Pen, view: dict[str, Any], locale: Locale = "en") -> None:
    """Turn, whose turn, phase, days left; under it the last move (or the summary)."""
    seats = {m.get("seat"): m for m in view.get("magicians") or []}
    phase = view.get("phase", "")
    parts = [said("Turn {turn}", turn=str(view.get("turn", "?")))]
    if phase == "over":
        parts.append(said("Game over"))
    else:
        who = seats.get(view.get("current"))
        if who is not None:
            parts.append(phase_words(str(phase), str(who.get("name", "?"))))
        days = view.get("days_left")
        if isinstance(days, int):
            parts.append(said_plural("{count} day left", "{count} days left", days))
    title = "  \u2022  ".join([TITLE, *(write(part, locale) for part in parts)])
    size = fitting_size(title, TEXT + 3, TEXT, WIDTH - 76, True)
    title = fit(title, size, WIDTH - 76, True)
    pen.text((16, 24), title, size, bold=True, anchor="lm")
    last = view.get("last") or {}
    line = str(view.get("summary", ""))
    if last.get("text") and phase != "over":
        line = write(said("Last: {move}", move=str(last["text"])), locale)
    pen.text((16, 60), fit(line, TEXT, WIDTH - 32), TEXT, fill=SUBTITLE, anchor="lm")
    if phase != "over":
        who = seats.get(view.get("current"))
        if who is not None:
            x = 16 + text_width(title, size, True) + 30
            colour = magician_colour(who.get("key", ""))
            token(pen, (x, 24), colour, initials(who.get("name", "?")), radius=NAME_TOKEN_R)


@dataclass
class _Line:
    text: str
    size: int = TEXT
    bold: bool = False
    fill: Colour = INK


def _things(key: str, names: str) -> Said:
    """A party's things of one kind, listed: ``Weapons: Hart Bow, Black Bow``."""
    if key == "weapons":
        return said("Weapons: {names}", names=names)
    if key == "spells":
        return said("Spells: {names}", names=names)
    if key == "magic_items":
        return said("Magic items: {names}", names=names)
    return said("Kept: {names}", names=names)


def _kings_man(man: dict[str, Any], places: dict[str, Any]) -> Said:
    """One King's man of a party: its number, where it is, its strength once revealed,
    whether it is idle (``#2 Kingsgate (str 4) idle``)."""
    number = str(man.get("number", "?"))
    if man.get("at") in places:
        words = said("#{number} {place}", number=number, place=places[man["at"]].name)
    else:
        words = said("#{number} not placed", number=number)
    if man.get("strength") is not None:
        words = said("{man} (str {strength})", man=words, strength=str(man["strength"]))
    if man.get("idle"):
        words = said("{man} idle", man=words)
    return words


def _party_lines(
    party: dict[str, Any],
    magician: dict[str, Any],
    view: dict[str, Any],
    width: float,
    locale: Locale = "en",
) -> list[_Line]:
    """The detail lines of one party's block, in ``locale``, wrapped to ``width`` pixels."""
    raw: list[_Line] = []

    def add(words: Said, **style: Any) -> None:
        raw.append(_Line(write(words, locale), **style))

    stats = {key: str(party.get(key, "?")) for key in ("combat", "magic", "pentacles")}
    add(said("Combat {combat} \u00b7 Magic {magic} \u00b7 Pentacles {pentacles}", **stats))
    people, combat = party.get("people"), party.get("party_combat")
    if isinstance(people, int):
        if combat is not None:
            add(said("Party of {people}, combat {combat}", people=people, combat=str(combat)))
        else:
            add(said("Party of {people}", people=people))
    carry = party.get("carry") or {}
    loads = []
    over = False
    for key in ("weapons", "magic"):
        pair = carry.get(key)
        if isinstance(pair, list | tuple) and len(pair) == 2:
            held, most = str(pair[0]), str(pair[1])
            if key == "weapons":
                loads.append(said("weapons {held}/{most}", held=held, most=most))
            else:
                loads.append(said("magic {held}/{most}", held=held, most=most))
            over = over or pair[0] > pair[1]
    if loads:
        listed = ", ".join(write(load, locale) for load in loads)
        if over:
            add(said("Carrying {loads} (over)", loads=listed), fill=ALERT)
        else:
            add(said("Carrying {loads}", loads=listed))
    companions = [
        f"{c.get('name', '?')} ({c['strength']})"
        if c.get("strength") is not None
        else str(c.get("name", "?"))
        for c in party.get("companions") or []
    ]
    if companions:
        add(said("Companions: {names}", names=", ".join(companions)))
    for key in ("weapons", "spells", "magic_items", "kept"):
        names = [str(item.get("name", "?")) for item in party.get(key) or []]
        if names:
            add(_things(key, ", ".join(names)))
    men = [man for man in view.get("kings_men") or [] if man.get("seat") == party.get("seat")]
    if men:
        places = load_urland().places
        listed = ", ".join(write(_kings_man(man, places), locale) for man in men)
        leader = str(men[0].get("leader", ""))
        if leader:
            add(said("King's men of {leader}: {men}", leader=leader, men=listed))
        else:
            add(said("King's men: {men}", men=listed))
    status = str(magician.get("status") or "")
    if magician.get("out"):
        # The engine's own status may already say so, in its words.
        out = write(said("out of the game"), locale)
        if "out of the game" not in status and out not in status:
            status = (
                write(said("out of the game; {status}", status=status), locale) if status else out
            )
    if status:
        raw.append(_Line(status[:1].upper() + status[1:], bold=True, fill=ALERT))
    lines: list[_Line] = []
    for line in raw:
        for index, text in enumerate(_indented(line, width)):
            lines.append(_Line(("   " if index else "") + text, line.size, line.bold, line.fill))
    return lines


def _indented(line: _Line, width: float) -> list[str]:
    """``line`` broken into lines of ``width`` pixels, the second and later ones narrower
    by the indent they are printed with."""
    first, *rest = wrap(line.text, line.size, width, line.bold)
    if not rest:
        return [first]
    indent = text_width("   ", line.size, line.bold)
    left = line.text[len(first) :].strip()
    return [first, *wrap(left, line.size, width - indent, line.bold)]


def _where_text(magician: dict[str, Any], locale: Locale = "en") -> str:
    """Where a magician is, in a few words (in ``locale``; places by their names)."""
    urland = load_urland()
    where = magician.get("where") or {}
    kind, key = where.get("kind"), where.get("key")
    if kind == "abode":
        return write(said("at home"), locale)
    if kind == "sea" and key in urland.seas:
        return write(said("at sea: {sea}", sea=urland.seas[key].name), locale)
    if kind == "road":
        ends = [urland.places[e].name for e in where.get("road") or [] if e in urland.places]
        return write(said("road {ends}", ends="\u2013".join(ends)), locale)
    if key in urland.places:
        return write(said("in {place}", place=urland.places[key].name), locale)
    return ""


LINE_H = 28
HEAD_H = 42
BLOCK_GAP = 10
COLUMNS = 2


PANEL_MIN = 160  # the panel's least height, so a picture never ends in a sliver

Block = tuple[dict[str, Any], dict[str, Any], list[_Line]]
Column = tuple[float, float, list[Block]]


def panel_columns(view: dict[str, Any], locale: Locale = "en") -> list[Column]:
    """The panel's two columns: each one's left and right edges and its parties' blocks
    (the first, third... party on the left), their words in ``locale``."""
    parties = view.get("parties") or []
    magicians = {m.get("seat"): m for m in view.get("magicians") or []}
    column_w = (WIDTH - 12) / COLUMNS
    columns = []
    for column in range(COLUMNS):
        left = 12 + column * column_w
        right = left + column_w - 12
        blocks = []
        for party in parties[column::COLUMNS]:
            magician = magicians.get(party.get("seat"), {})
            lines = _party_lines(party, magician, view, right - left - 8, locale)
            blocks.append((party, magician, lines))
        columns.append((left, right, blocks))
    return columns


def picture_height(columns: list[Column]) -> int:
    """How tall the map picture is: the panel as tall as its longest column needs (fewer
    pixels to encode early in a game), at most :data:`HEIGHT`."""
    needed = max(
        (
            sum(HEAD_H + len(lines) * LINE_H + 4 + BLOCK_GAP for _, _, lines in blocks)
            for _, _, blocks in columns
        ),
        default=0,
    )
    return min(HEIGHT, PANEL_TOP + 10 + max(PANEL_MIN, round(needed)) + 8)


def draw_panel(
    pen: Pen, view: dict[str, Any], columns: list[Column], locale: Locale = "en"
) -> None:
    """The parties under the map, in the two ``columns`` of :func:`panel_columns`, down to
    the picture's foot; in each column, overflowing blocks lose their last lines."""
    for left, right, blocks in columns:
        _draw_column(pen, view, blocks, left, right, locale)


def _draw_column(
    pen: Pen,
    view: dict[str, Any],
    blocks: list[Block],
    left: float,
    right: float,
    locale: Locale = "en",
) -> None:
    """One column of party blocks between ``left`` and ``right``."""
    width = right - left
    top = PANEL_TOP + 10
    bottom = pen.image.height - 8
    room = bottom - top - len(blocks) * (HEAD_H + BLOCK_GAP)
    counts = [len(lines) for _, _, lines in blocks]
    while counts and sum(counts) * LINE_H > room and max(counts) > 1:
        counts[counts.index(max(counts))] -= 1
    y = top
    current = view.get("current")
    over = view.get("phase") == "over"
    for (party, magician, lines), count in zip(blocks, counts, strict=True):
        shown = lines[:count]
        if count < len(lines) and shown:
            last = shown[-1]
            more = write(said("… (more)"), locale)
            keep = width - max(150, text_width(more, last.size, last.bold) + 30)
            text = fit(last.text, last.size, keep, last.bold).removesuffix("…")
            shown[-1] = _Line(text.rstrip(" ,") + " " + more, last.size, last.bold, MUTED)
        height = HEAD_H + count * LINE_H + 4
        key = party.get("magician") or magician.get("key", "")
        colour = magician_colour(key)
        if party.get("seat") == current and not over:
            pen.rect((left - 6, y - 2, right + 6, y + height), fill=CURRENT_BAND, radius=6)
            pen.rect((left - 6, y - 2, left - 1, y + height), fill=HIGHLIGHT)
        name = party.get("name") or magician.get("name") or "?"
        token(pen, (left + 20, y + 20), colour, initials(name), radius=NAME_TOKEN_R)
        faded = bool(magician.get("out"))
        pen.text(
            (left + 48, y + 20),
            name,
            TEXT + 2,
            fill=MUTED if faded else INK,
            bold=True,
            anchor="lm",
        )
        where = _where_text(magician, locale) if not faded else write(said("out"), locale)
        name_w = text_width(name, TEXT + 2, True)
        pen.text(
            (right, y + 20), fit(where, TEXT, width - name_w - 66), TEXT, fill=MUTED, anchor="rm"
        )
        ly = y + HEAD_H
        for line in shown:
            pen.text(
                (left + 4, ly + LINE_H / 2),
                line.text,
                line.size,
                fill=MUTED if faded and line.fill == INK else line.fill,
                bold=line.bold,
                anchor="lm",
            )
            ly += LINE_H
        y += height + BLOCK_GAP
        pen.line(
            ((left, y - BLOCK_GAP / 2 - 1), (right, y - BLOCK_GAP / 2 - 1)),
            fill=PANEL_EDGE,
            width=1,
        )
