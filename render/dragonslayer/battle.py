"""The Dragonslayer Battle Display picture: one Dragon fight, drawn from ``view["battle"]``.

Top: the Battle Display as a table. Its rows are the six places the Dragon can be (the
fight's row highlighted); its columns are the party's things in the combat boxes (weapons,
then magic items and spells) and in the magic box, each cell the value the Display shows
for that thing there, and beside them the Strength Modifiers Display, row by row. Below: the
party's people and the two sums written out as equations against the Dragon's strength;
below them the Dragon Battle Matrix with the cell the sums lead to (portrait, one section
under another, so a phone shows every word at 11 px or more). Values the rule text does not
show (the scan cuts the tables off) are grey and starred. At the foot: the fight's outcome.

Before the player has placed the things pictured twice the table shows them in both boxes,
marked "choose", and there are no sums and no cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image

from engines.dragonslayer.battle import load_battle
from i18n import Locale, Said, said, said_plural, write
from render.common import INK, PAPER, fit, fitting_size, text_box, widest
from render.dragonslayer.board import token
from render.dragonslayer.style import (
    ALERT,
    DRAGON,
    HIGHLIGHT,
    MORGEN_FILL,
    MUTED,
    PANEL,
    PANEL_EDGE,
    SUBTITLE,
    WHITE,
    Box,
    Colour,
    Pen,
    initials,
    magician_colour,
    shade,
    text_width,
    tint,
    wrap,
)

# Portrait, for phones: the table, then the party and its sums, then the Matrix, then the
# outcome, one under the other, and no word under TEXT px.
WIDTH = 880
TEXT = 25
"""The smallest type: 11.4 px when a phone shows the Display 400 px wide."""
LINE = TEXT + 6  # from one line of small type to the next
MARGIN = 14
HEADER = 96  # the title band

# The Battle Display table.
TABLE_TOP = HEADER + 12
GROUP_TOP = TABLE_TOP + 38  # the band naming the combat and magic boxes
BAND = 34  # the band's height
NAMES_TOP = GROUP_TOP + BAND + 2  # the things' names
TAG_H = 31  # a thing's "choose" or "uncounted" tag, over the rows
ROWS_TOP = NAMES_TOP + 3 * (TEXT + 2) + 8
ROW_H = 38
ROWS_BOTTOM = ROWS_TOP + 6 * ROW_H
ROW_LABEL_W = 204
MODIFIER_W = 136
GROUP_GAP = 6
COLUMN_MAX = 170
GROUP_MIN = 226  # room for a band's words: 'Combat strength'
KEY_Y = ROWS_BOTTOM + 26  # what the table's marks mean

# Under the table: the party and its sums; under them the Matrix.
LOWER_TOP = ROWS_BOTTOM + 26 + 3 * LINE + 20  # room for three lines of the key above
MATRIX_TOP = LOWER_TOP + 340  # room for the people, two sums on two lines each, the cell
MATRIX_LEFT = MARGIN
MATRIX_CORNER_W = 158
MATRIX_HEAD_H = 62
MATRIX_ROW_H = 46
MATRIX_BOTTOM = MATRIX_TOP + 18 + MATRIX_HEAD_H + 6 * MATRIX_ROW_H

OUTCOME_TOP = MATRIX_BOTTOM + 48
HEIGHT = OUTCOME_TOP + 100

COMBAT = (150, 62, 30)  # the combat boxes' colour: rust red, like blood and iron
MAGIC = MORGEN_FILL
FIGHT_ROW = (255, 238, 160)
FADED = (150, 140, 126)
GOOD = (24, 112, 52)
CELL = (255, 252, 244)
HIDDEN_CELL = (236, 232, 224)  # a Matrix cell the rule text does not show

MATRIX_HEADS = (
    said("the same"),
    said("{count} more", count=1),
    said("{count} more", count=2),
    said("{count} more", count=3),
    said("{count} more", count=4),
    said("{count} or more", count=5),
)
"""The Matrix's headings: how far a strength is over the Dragon's."""
CELL_HEADS = (*MATRIX_HEADS[:5], said("at least {count} more", count=5))
"""The same, as the Matrix lookup's words say them."""
TITLE = "Dragonslayer"
"""The game's name, at the head of the picture (a name, the same in every language)."""


def _battle_of(view: dict[str, Any]) -> dict[str, Any]:
    """The view's fight (``view["battle"]``), or an empty one when it has none."""
    battle = view.get("battle")
    return battle if isinstance(battle, dict) else {}


def battle_picture(view: dict[str, Any], locale: Locale = "en") -> Image.Image:
    """The Battle Display picture (RGB, :data:`WIDTH` x :data:`HEIGHT`) of
    ``view["battle"]``, its words in ``locale``; an empty Display if the view has no
    fight."""
    battle = _battle_of(view)
    image = background(locale).copy()
    pen = Pen(image, 1)
    resolved = bool(battle.get("resolved"))
    _draw_header(pen, view, battle, resolved, locale)
    _draw_table(pen, battle, resolved, locale)
    _draw_party(pen, battle, resolved, locale)
    _draw_matrix(pen, battle, resolved, locale)
    _draw_outcome(pen, battle, resolved, locale)
    return image


def location_names() -> dict[str, str]:
    """Each Battle Display row's key and the name of that place (``"the Open"``)."""
    return {key: location.name for key, location in load_battle().locations.items()}


def short_place(name: str) -> str:
    """A row's name as the Display prints it: ``"the Mouth of its Lair"`` is ``"Mouth"``."""
    return name.removeprefix("the ").removesuffix(" of its Lair")


# --- background ------------------------------------------------------------------------------


def background(locale: Locale = "en") -> Image.Image:
    """The Battle Display without a fight, its captions in ``locale``: what every fight's
    picture is drawn on."""
    return _background(WIDTH, HEIGHT, locale)


PARTY_ROOM = WIDTH / 2
"""How wide the party's caption may be (the fighter's disc stands right of it)."""


def _caption(pen: Pen, xy: tuple[float, float], text: str, width: float) -> float:
    """A section's caption at ``xy`` in at most ``width`` pixels (set smaller, down to
    :data:`TEXT`, then cut short); how wide it is drawn."""
    size = fitting_size(text, TEXT + 2, TEXT, width, True)
    text = fit(text, size, width, True)
    pen.text(xy, text, size, bold=True, anchor="lm")
    return text_width(text, size, True)


def _party_caption(locale: Locale) -> tuple[str, int]:
    """The party's caption in ``locale`` and its size, as :func:`_caption` draws it."""
    text = write(said("The party"), locale)
    size = fitting_size(text, TEXT + 2, TEXT, PARTY_ROOM, True)
    return fit(text, size, PARTY_ROOM, True), size


@lru_cache(maxsize=8)
def _background(width: int, height: int, locale: Locale = "en") -> Image.Image:
    """Paper, the header rule and the captions of the sections, which never change."""
    image = Image.new("RGB", (width, height), PAPER)
    pen = Pen(image, 1)
    pen.rect((0, 0, width, HEADER - 1), fill=PANEL)
    pen.line(((0, HEADER - 1), (width, HEADER - 1)), fill=PANEL_EDGE, width=2)
    room = width - 2 * MARGIN
    _caption(pen, (MARGIN, TABLE_TOP + 14), write(said("Battle Display"), locale), room)
    party, size = _party_caption(locale)
    pen.text((MARGIN, LOWER_TOP - 6), party, size, bold=True, anchor="lm")
    # The Matrix's caption and its note share a line: where both do not fit, the caption
    # is set smaller, and the longer of them cut short.
    caption = write(said("Dragon Battle Matrix"), locale)
    note = write(said("things lost / Dragon strength lost"), locale)
    widths = [text_width(caption, TEXT + 2, True), text_width(note, TEXT)]
    if sum(widths) + 12 > room:
        widths[0] = text_width(caption, TEXT, True)
    cap = widest(widths, room - 12)
    drawn = _caption(pen, (MATRIX_LEFT, MATRIX_TOP - 6), caption, cap)
    x = MATRIX_LEFT + drawn + 12
    note = fit(note, TEXT, MATRIX_LEFT + room - x)
    pen.text((x, MATRIX_TOP - 6), note, TEXT, MUTED, anchor="lm")
    return image


# --- header ----------------------------------------------------------------------------------


def _fight(view: dict[str, Any], locale: Locale) -> tuple[str, str | None, str]:
    """The headline's parts in ``locale``: the turn, the place the Dragon raids (None when
    it is no raid), and who fights where."""
    battle = _battle_of(view)
    name = str(battle.get("name") or "?")
    row = str(battle.get("location_name") or "?")
    turn = write(said("Turn {turn}", turn=str(view.get("turn", "?"))), locale)
    if battle.get("raid"):
        place = str(battle.get("raid_place") or "?")
        raid = write(said("The Dragon raids {place}", place=place), locale)
        return turn, raid, write(said("{name} fights at {row}", name=name, row=row), locale)
    return turn, None, write(said("{name} fights the Dragon at {row}", name=name, row=row), locale)


def headline(view: dict[str, Any], locale: Locale = "en") -> str:
    """The Battle Display's title: ``Dragonslayer • Turn 7 • Galen fights the Dragon at the
    Open``, or in a raid ``... • The Dragon raids Glenarrow: Galen fights at High Altitude``
    (its words in ``locale``).

    Every name is the view's (the raided place and the Display row as the engine's data name
    them); one the view lacks is shown as ``?``, never made up."""
    turn, raid, fight = _fight(view, locale)
    fight = fight if raid is None else f"{raid}: {fight}"
    return "  \u2022  ".join((TITLE, turn, fight))


def _draw_header(
    pen: Pen, view: dict[str, Any], battle: dict[str, Any], resolved: bool, locale: Locale
) -> None:
    """The title; under it the Dragon's strength and the view's summary. A title too long
    loses the game's name, then a raid's fight (who fights where) goes to the line under it."""
    width = WIDTH - 2 * MARGIN - 50
    title, fighter = headline(view, locale), ""
    turn, raid, fight = _fight(view, locale)
    if text_width(title, TEXT + 2, True) > width:
        title = "  \u2022  ".join((turn, fight if raid is None else f"{raid}: {fight}"))
    if text_width(title, TEXT + 2, True) > width and raid is not None:
        title, fighter = f"{turn}  \u2022  {raid}", fight
    title = fit(title, TEXT + 2, width, True)
    pen.text((MARGIN, 26), title, TEXT + 2, bold=True, anchor="lm")
    colour = magician_colour(battle.get("magician") or "")
    x = MARGIN + text_width(title, TEXT + 2, True) + 28
    token(pen, (x, 26), colour, initials(battle.get("name") or "?"), radius=18)
    parts = [fighter] if fighter else []
    strength = str(battle.get("dragon", "?"))
    parts.append(write(said("Dragon strength {strength}", strength=strength), locale))
    if not resolved:
        name = str(battle.get("name") or "?")
        parts.append(write(said("waiting for {name} to place things", name=name), locale))
    elif view.get("summary"):
        parts.append(str(view["summary"]))
    line = "  \u00b7  ".join(parts)
    pen.text((MARGIN, 70), fit(line, TEXT, WIDTH - 2 * MARGIN), TEXT, SUBTITLE, anchor="lm")


# --- the Battle Display table ----------------------------------------------------------------


@dataclass(frozen=True)
class _Column:
    """One thing on the Display: where its column is and how to draw it."""

    name: str
    box: str  # "combat" or "magic"
    values: dict[str, Any]
    legible: frozenset[str]
    counted: bool
    choose: bool  # pictured twice and not placed yet
    left: float
    right: float


def _things(battle: dict[str, Any], box: str) -> list[dict[str, Any]]:
    things = battle.get(f"{box}_items")
    return (
        [thing for thing in things if isinstance(thing, dict)] if isinstance(things, list) else []
    )


def _columns(battle: dict[str, Any], resolved: bool) -> tuple[list[_Column], dict[str, Box]]:
    """Every thing's column, combat box first, and the span of each box: ``"combat"``,
    ``"magic"`` and right after them the Strength Modifiers' ``"modifier"``.

    An empty box keeps one blank column so both boxes are always shown; a box of one or two
    things is widened so its band's words fit; a crowd of things shares the room."""
    groups = {box: _things(battle, box) for box in ("combat", "magic")}
    left = MARGIN + ROW_LABEL_W
    room = WIDTH - MARGIN - left - MODIFIER_W - 2 * GROUP_GAP
    slots = {box: max(1, len(things)) for box, things in groups.items()}
    step = min(COLUMN_MAX, room / sum(slots.values()))
    widths = {box: max(count * step, GROUP_MIN) for box, count in slots.items()}
    if sum(widths.values()) > room:
        widths = {box: count * step for box, count in slots.items()}
    columns: list[_Column] = []
    spans: dict[str, Box] = {}
    x: float = left
    for box, things in groups.items():
        each = widths[box] / slots[box]
        for index, thing in enumerate(things):
            values = thing.get("values")
            choose = bool(thing.get("twice")) and not resolved
            columns.append(
                _Column(
                    name=str(thing.get("name") or thing.get("key") or "?"),
                    box=box,
                    values=values if isinstance(values, dict) else {},
                    legible=frozenset(thing.get("legible") or ()),
                    # Whether a thing still to be placed counts depends on where it goes.
                    counted=choose or thing.get("counted", True) is not False,
                    choose=choose,
                    left=x + index * each,
                    right=x + (index + 1) * each,
                )
            )
        spans[box] = (x, GROUP_TOP, x + widths[box], ROWS_BOTTOM)
        x += widths[box] + GROUP_GAP
    spans["modifier"] = (x, GROUP_TOP, x + MODIFIER_W, ROWS_BOTTOM)
    return columns, spans


def _rows(battle: dict[str, Any]) -> list[dict[str, Any]]:
    """The six Display rows of the view, or the data file's when the view has none."""
    rows = [row for row in battle.get("rows") or [] if isinstance(row, dict)]
    if rows:
        return rows
    return [
        {"key": key, "name": location.name, "modifier": location.modifier}
        for key, location in load_battle().locations.items()
    ]


def _number(number: Any) -> str:
    """``12``, ``0``, ``−1`` (a true minus sign)."""
    if not isinstance(number, int):
        return "?"
    return f"\u2212{-number}" if number < 0 else str(number)


def _signed(number: Any) -> str:
    """``+1``, ``0``, ``−2`` (a true minus sign)."""
    if not isinstance(number, int):
        return "?"
    return f"+{number}" if number > 0 else f"\u2212{-number}" if number < 0 else "0"


def _band_words(box: str, room: float, locale: Locale) -> str:
    """The words on a box's band: ``Combat strength``, or in a narrow box ``Combat``."""
    combat = box == "combat"
    label = write(said("Combat strength") if combat else said("Magic strength"), locale)
    if text_width(label, TEXT, True) > room - 8:
        label = write(said("Combat") if combat else said("Magic"), locale)
    return fit(label, TEXT, room - 6, True)


def _draw_table(pen: Pen, battle: dict[str, Any], resolved: bool, locale: Locale) -> None:
    """The Display: row names, the fight's row highlighted, a column per thing, the Strength
    Modifiers beside it; a key to the marks on the caption's line."""
    rows = _rows(battle)
    fight = battle.get("location")
    columns, spans = _columns(battle, resolved)
    modifier_left, _, modifier_right, _ = spans.pop("modifier")
    for index, row in enumerate(rows[:6]):
        row_top = ROWS_TOP + index * ROW_H
        if row.get("key") == fight:
            pen.rect((MARGIN - 6, row_top, modifier_right + 6, row_top + ROW_H), fill=FIGHT_ROW)
            pen.rect((MARGIN - 6, row_top, MARGIN - 1, row_top + ROW_H), fill=HIGHLIGHT)
        elif index % 2:
            pen.rect((MARGIN, row_top, modifier_right, row_top + ROW_H), fill=tint(PANEL, 0.45))
    for box, (left, top, right, bottom) in spans.items():
        colour = COMBAT if box == "combat" else MAGIC
        pen.rect((left, top, right, top + BAND), fill=colour, radius=4)
        label = _band_words(box, right - left, locale)
        pen.text(((left + right) / 2, top + BAND / 2), label, TEXT, WHITE, True)
        pen.rect((left, top, right, bottom), outline=colour, width=2, radius=4)
    pen.rect((modifier_left, GROUP_TOP, modifier_right, GROUP_TOP + BAND), fill=DRAGON, radius=4)
    middle = modifier_left + MODIFIER_W / 2
    modifier = fit(write(said("Modifier"), locale), TEXT, MODIFIER_W - 6, True)
    pen.text((middle, GROUP_TOP + BAND / 2), modifier, TEXT, WHITE, True)
    pen.rect(
        (modifier_left, GROUP_TOP, modifier_right, ROWS_BOTTOM), outline=DRAGON, width=2, radius=4
    )
    words = write(said("Strength Modifiers, both sums"), locale)
    for y, text in _stacked(words, MODIFIER_W - 4, NAMES_TOP + 2, ROWS_TOP - 4):
        pen.text((middle, y), text, TEXT, MUTED)
    for index, row in enumerate(rows[:6]):
        middle = ROWS_TOP + index * ROW_H + ROW_H / 2
        here = row.get("key") == fight
        name = short_place(str(row.get("name") or row.get("key") or "?"))
        name = fit(("\u25b6 " if here else "") + name, TEXT, ROW_LABEL_W - 6, here)
        pen.text((MARGIN + 2, middle), name, TEXT, bold=here, anchor="lm")
        pen.text(
            (modifier_left + MODIFIER_W / 2, middle),
            _signed(row.get("modifier")),
            TEXT + 2 if here else TEXT,
            bold=here,
        )
    for column in columns:
        _draw_column(pen, column, rows[:6], fight, locale)
    for box, (left, _, right, _) in spans.items():
        if not any(column.box == box for column in columns):
            none = fit(write(said("none"), locale), TEXT, right - left - 6)
            pen.text(((left + right) / 2, NAMES_TOP + 30), none, TEXT, MUTED)
    _draw_key(pen, columns, locale)


def _stacked(text: str, width: float, top: float, bottom: float) -> list[tuple[float, str]]:
    """``text`` in lines of ``width`` pixels at :data:`TEXT` stacked down from ``top``, each
    with the middle height it is drawn at: as many as fit above ``bottom`` (the last one
    cut short where words are left over), further apart where tall letters (accents over
    capitals) need it."""
    lines = wrap(text, TEXT, width)
    boxes = [text_box(line, TEXT, False, "mm") for line in lines]
    tallest = max((low - high for _, high, _, low in boxes), default=0)
    step = max(TEXT + 2, tallest + 2)
    most = max(1, int((bottom - top) // step))
    if len(lines) > most:
        lines = [*lines[: most - 1], fit(" ".join(lines[most - 1 :]), TEXT, width)]
    return [(top + step * (index + 0.5), line) for index, line in enumerate(lines)]


def _name_lines(name: str, width: float, most: int) -> tuple[list[str], int]:
    """A thing's name in at most ``most`` lines of ``width`` pixels at :data:`TEXT`, and
    that size; a word wider than a line is hyphenated, a name too long has its last line cut
    short."""
    words: list[str] = []
    for word in name.split(" "):
        while text_width(word, TEXT) > width and len(word) > 3:
            cut = len(word) - 2
            while cut > 2 and text_width(word[:cut] + "-", TEXT) > width:
                cut -= 1
            words.append(word[:cut] + "-")
            word = word[cut:]
        words.append(word)
    lines = wrap(" ".join(words), TEXT, width)
    if len(lines) > most:
        lines = [*lines[: most - 1], fit(" ".join(lines[most - 1 :]), TEXT, width)]
    return lines, TEXT


def _strike(pen: Pen, centre: tuple[float, float], text: str, size: int, bold: bool) -> None:
    """A red line through ``text`` drawn centred on ``centre``."""
    half = text_width(text, size, bold) / 2 + 3
    x, y = centre
    pen.line(((x - half, y), (x + half, y)), fill=ALERT, width=2)


def _draw_column(
    pen: Pen, column: _Column, rows: list[dict[str, Any]], fight: Any, locale: Locale
) -> None:
    """A thing's name (struck through if it does not count, tagged if it is still to be
    placed) and its value in each row; reconstructed values grey with a star."""
    middle = (column.left + column.right) / 2
    width = column.right - column.left - 6
    tagged = column.choose or not column.counted
    # Three lines of name, or two above the tag; centred in the room they have.
    lines, size = _name_lines(column.name, width, 2 if tagged else 3)
    colour = FADED if not column.counted else INK
    room = (ROWS_TOP - TAG_H - 3 if tagged else ROWS_TOP - 2) - NAMES_TOP
    step = size + 2
    top = NAMES_TOP + (room - len(lines) * step) / 2
    for index, line in enumerate(lines):
        y = top + index * step + step / 2
        pen.text((middle, y), line, size, colour, bold=False)
        if not column.counted:
            _strike(pen, (middle, y), line, size, False)
    tag = ""
    if column.choose:
        tag = write(said("choose"), locale)
    elif not column.counted:
        tag = write(said("uncounted"), locale)
        if text_width(tag, TEXT) > width:
            tag = "\u2717"  # a narrow column: a cross
    if tag:
        box = (column.left + 3, ROWS_TOP - TAG_H - 2, column.right - 3, ROWS_TOP - 2)
        pen.rect(box, fill=ALERT if column.choose else MUTED, radius=3)
        pen.text((middle, ROWS_TOP - 2 - TAG_H / 2), fit(tag, TEXT, width), TEXT, WHITE)
    if column.left > MARGIN + ROW_LABEL_W + 1:
        pen.line(
            ((column.left, NAMES_TOP + 2), (column.left, ROWS_BOTTOM - 2)), fill=PANEL_EDGE, width=1
        )
    for index, row in enumerate(rows):
        key = row.get("key")
        value = None if key is None else column.values.get(key)
        if not isinstance(value, int):
            continue
        here = key == fight
        legible = key in column.legible
        text = str(value) if legible else f"{value}*"
        size = TEXT + 2 if here else TEXT
        fill = INK if legible else FADED
        if not column.counted:
            fill = FADED
        elif here:
            fill = COMBAT if column.box == "combat" else MAGIC
            fill = shade(fill, 0.15) if legible else tint(fill, 0.25)
        y = ROWS_TOP + index * ROW_H + ROW_H / 2
        pen.text((middle, y), text, size, fill, bold=here)
        if not column.counted:
            _strike(pen, (middle, y), text, size, here)


def _draw_key(pen: Pen, columns: list[_Column], locale: Locale) -> None:
    """What the marks mean, under the table: only the marks this picture uses."""
    notes: list[tuple[Said, Colour]] = []
    if any(not column.counted for column in columns):
        notes.append((said("uncounted (\u2717): one weapon-bound tile per weapon"), ALERT))
    if any(column.choose for column in columns):
        notes.append((said("choose: pictured twice, goes in one box or the other"), ALERT))
    notes.append((said("* reconstructed"), MUTED))
    y = KEY_Y
    for note, colour in notes:
        text = fit(write(note, locale), TEXT, WIDTH - 2 * MARGIN)
        pen.text((MARGIN, y), text, TEXT, colour, anchor="lm")
        y += LINE


# --- the party and its sums ------------------------------------------------------------------


def _people_lines(battle: dict[str, Any], width: float, locale: Locale = "en") -> list[str]:
    """``Combat: Galen 1 · Hodge 1 · ...`` wrapped to ``width``, then the magician's magic
    strength (in ``locale``)."""
    people = [p for p in battle.get("people") or [] if isinstance(p, dict)]
    words = [f"{p.get('name', '?')} {p.get('strength', '?')}" for p in people]
    if words:
        lines = wrap(
            write(said("Combat: {people}", people=" \u00b7 ".join(words)), locale), TEXT, width
        )
    else:
        lines = [fit(write(said("Combat: nobody"), locale), TEXT, width)]
    magician = str(people[0].get("name", "?") if people else battle.get("name") or "?")
    magic = said(
        "Magic: {magician} {magic}", magician=magician, magic=str(battle.get("magician_magic", "?"))
    )
    lines.append(fit(write(magic, locale), TEXT, width))
    return lines


@dataclass(frozen=True)
class _Bit:
    """A run of an equation: plain words, or a bold number."""

    text: str
    bold: bool = False
    fill: Colour = INK


def _over_text(over: Any, locale: Locale) -> tuple[str, Colour]:
    """How far a strength is over the Dragon's, in the Matrix's words."""
    if not isinstance(over, int):
        return "?", INK
    if over < 0:
        return write(said("{count} less: the party loses", count=-over), locale), ALERT
    if over == 0:
        return write(said("the same"), locale), GOOD
    return write(said("{count} more", count=over), locale), GOOD


def _slot(name: str) -> str:
    """What a message's place ``name`` is filled with to find it again in the written text
    (see :func:`_runs`)."""
    return f"\x00{name}\x00"


def _runs(written: str, places: dict[str, _Bit]) -> list[_Bit]:
    """A message written with its places filled by :func:`_slot` as runs: its own words
    plain, each place the bit ``places`` gives it (a bold number, a coloured word), in the
    order the message's language puts them."""
    runs = []
    for index, part in enumerate(written.split("\x00")):
        if index % 2:
            runs.append(places[part])
        elif part:
            runs.append(_Bit(part))
    return runs


def _equation(
    kind: str, sums: dict[str, Any], dragon: Any, locale: Locale = "en"
) -> tuple[list[_Bit], list[_Bit]]:
    """``Combat: people 5 + things 6 + modifier −1 = 10`` and ``Dragon 5 → 5 more``, as
    runs of words and bold numbers (in ``locale``)."""
    magic = kind == "Magic"
    colour = MAGIC if magic else COMBAT
    over, over_colour = _over_text(sums.get("over"), locale)
    first = "magician" if magic else "people"
    places = {
        "kind": _Bit(write(said("Magic:") if magic else said("Combat:"), locale), True, colour),
        first: _Bit(_number(sums.get(first)), True),
        "things": _Bit(_number(sums.get("things")), True),
        "modifier": _Bit(_signed(sums.get("modifier")), True),
        "total": _Bit(_number(sums.get("total")), True, colour),
        "dragon": _Bit(str(dragon), True, DRAGON),
        "over": _Bit(over, True, over_colour),
    }
    slots = {name: _slot(name) for name in places}
    if magic:
        message = said(
            "{kind} magician {magician} + things {things} + modifier {modifier} = {total}",
            kind=slots["kind"],
            magician=slots["magician"],
            things=slots["things"],
            modifier=slots["modifier"],
            total=slots["total"],
        )
    else:
        message = said(
            "{kind} people {people} + things {things} + modifier {modifier} = {total}",
            kind=slots["kind"],
            people=slots["people"],
            things=slots["things"],
            modifier=slots["modifier"],
            total=slots["total"],
        )
    against = said("Dragon {dragon} \u2192 {over}", dragon=slots["dragon"], over=slots["over"])
    return _runs(write(message, locale), places), _runs(write(against, locale), places)


def _bits_width(bits: list[_Bit], size: int) -> float:
    """How wide ``bits`` are when drawn in a row at ``size``."""
    return sum(text_width(bit.text, size, bit.bold) for bit in bits)


def _draw_bits(
    pen: Pen, xy: tuple[float, float], bits: list[_Bit], size: int, width: float = 0
) -> None:
    """``bits`` in a row from ``xy`` (its left end, middle height); with ``width``, set
    smaller (down to :data:`TEXT`) where they are wider, and cut short past it."""
    x, y = xy
    if width:
        while size > TEXT and _bits_width(bits, size) > width:
            size -= 1
    end = x + width if width else float("inf")
    for bit in bits:
        text = bit.text
        if x + text_width(text, size, bit.bold) > end:
            text = fit(text, size, end - x, bit.bold)
        pen.text((x, y), text, size, bit.fill, bit.bold, anchor="lm")
        x += text_width(text, size, bit.bold)
        if x >= end - 1 or text != bit.text:
            return


def _draw_party(pen: Pen, battle: dict[str, Any], resolved: bool, locale: Locale) -> None:
    """The people and their strengths, then both sums as equations (or, before the things
    pictured twice are placed, what the fight waits for)."""
    width = WIDTH - 2 * MARGIN
    key = battle.get("magician") or ""
    name = str(battle.get("name") or "?")
    caption, size = _party_caption(locale)
    x = MARGIN + text_width(caption, size, True) + 30
    token(pen, (x, LOWER_TOP - 6), magician_colour(key), initials(name), radius=18)
    y = LOWER_TOP + 30
    lines = _people_lines(battle, width, locale)
    for line in [*lines[:2], lines[-1]] if len(lines) > 3 else lines:
        pen.text((MARGIN, y), line, TEXT, anchor="lm")
        y += LINE
    y += 12
    sums = {
        kind: total for kind in ("combat", "magic") if isinstance(total := battle.get(kind), dict)
    }
    if not resolved or len(sums) < 2:
        choose = list(
            dict.fromkeys(
                str(thing.get("name", "?"))
                for box in ("combat", "magic")
                for thing in _things(battle, box)
                if thing.get("twice")
            )
        )
        if choose:
            waits = said(
                "Waiting for {name} to place things pictured twice (combat or magic box): {things}",
                name=name,
                things=", ".join(choose),
            )
        else:
            waits = said("Waiting for {name} to place things", name=name)
        for line in wrap(write(waits, locale), TEXT, width, True)[:4]:
            pen.text((MARGIN, y), line, TEXT, ALERT, True, anchor="lm")
            y += LINE
        return
    dragon = battle.get("dragon", "?")
    for kind in ("combat", "magic"):
        left, right = _equation(kind.capitalize(), sums[kind], dragon, locale)
        size = TEXT + 1
        if _bits_width(left, size) + _bits_width(right, size) + 24 <= width:
            _draw_bits(pen, (MARGIN, y), [*left, _Bit(", "), *right], size)
            y += LINE + 6
        else:
            _draw_bits(pen, (MARGIN, y), left, size, width)
            _draw_bits(pen, (MARGIN + 24, y + LINE), right, size, width - 24)
            y += 2 * LINE + 6
    cell = battle.get("cell")
    if isinstance(cell, dict):
        _draw_cell_line(pen, cell, y + 4, width, locale)


def _counted(written: str, count: int, bit: _Bit) -> list[_Bit]:
    """``written`` (a message saying ``count``) as runs, the number ``bit``."""
    before, found, after = written.partition(str(count))
    if not found:
        return [_Bit(written)]
    return [*([_Bit(before)] if before else []), bit, *([_Bit(after)] if after else [])]


def _draw_cell_line(
    pen: Pen, cell: dict[str, Any], y: float, width: float, locale: Locale = "en"
) -> None:
    """The Matrix lookup in words: which cell, and what it says (what is lost, when the
    view says it in numbers)."""
    magic, combat = cell.get("magic"), cell.get("combat")
    if not (isinstance(magic, int) and isinstance(combat, int)):
        return
    magic, combat = max(0, min(magic, 5)), max(0, min(combat, 5))
    where = said(
        "Matrix: magic {magic}, combat {combat}", magic=CELL_HEADS[magic], combat=CELL_HEADS[combat]
    )
    pen.text((MARGIN, y), fit(write(where, locale), TEXT, width), TEXT, MUTED, anchor="lm")
    lost, levels = cell.get("lost"), cell.get("levels")
    if not (isinstance(lost, int) and isinstance(levels, int)):
        return
    loses = said_plural("\u2192 lose {count} thing", "\u2192 lose {count} things", lost)
    dragon = said_plural(
        "the Dragon loses {count} strength level",
        "the Dragon loses {count} strength levels",
        levels,
    )
    bits = [
        *_counted(write(loses, locale), lost, _Bit(str(lost), True, ALERT)),
        _Bit(", "),
        *_counted(write(dragon, locale), levels, _Bit(str(levels), True, GOOD if levels else INK)),
    ]
    _draw_bits(pen, (MARGIN, y + LINE + 2), bits, TEXT + 1, width)


# --- the Battle Matrix -----------------------------------------------------------------------


def _matrix(battle: dict[str, Any]) -> list[list[tuple[int, int] | None]]:
    """The 6 x 6 cells of the view (rows by magic over, columns by combat over)."""
    grid: list[list[tuple[int, int] | None]] = [[None] * 6 for _ in range(6)]
    for r, row in enumerate((battle.get("matrix") or [])[:6]):
        for c, cell in enumerate(row[:6] if isinstance(row, list) else []):
            if isinstance(cell, list | tuple) and len(cell) == 2:
                grid[r][c] = (cell[0], cell[1])
    return grid


def matrix_cell_box(magic: int, combat: int) -> Box:
    """Where Matrix cell (magic over, combat over), each 0 to 5, is drawn."""
    step = (WIDTH - MARGIN - MATRIX_LEFT - MATRIX_CORNER_W) / 6
    left = MATRIX_LEFT + MATRIX_CORNER_W + combat * step
    top = MATRIX_TOP + 18 + MATRIX_HEAD_H + magic * MATRIX_ROW_H
    return (left, top, left + step, top + MATRIX_ROW_H)


def _draw_matrix(pen: Pen, battle: dict[str, Any], resolved: bool, locale: Locale) -> None:
    """The Matrix with its headings; the cell used filled yellow with its row and column
    headings tinted; cells the rule text does not show grey and starred."""
    grid = _matrix(battle)
    legible = {
        (pair[0], pair[1])
        for pair in battle.get("matrix_legible") or []
        if isinstance(pair, list | tuple) and len(pair) == 2
    }
    cell = battle.get("cell") if resolved and isinstance(battle.get("cell"), dict) else None
    used = (cell.get("magic"), cell.get("combat")) if cell else None
    top = MATRIX_TOP + 18
    corner = (MATRIX_LEFT, top, MATRIX_LEFT + MATRIX_CORNER_W, top + MATRIX_HEAD_H)
    pen.rect(corner, fill=PANEL)
    room = MATRIX_CORNER_W - 12
    magic_word = fit(write(said("Magic"), locale), TEXT, room - 24, True) + " \u2193"
    combat_word = fit(write(said("Combat"), locale), TEXT, room - 30, True) + " \u2192"
    pen.text((corner[0] + 6, top + 17), magic_word, TEXT, MAGIC, True, anchor="lm")
    pen.text((corner[2] - 6, top + 45), combat_word, TEXT, COMBAT, True, anchor="rm")
    heads = [write(head, locale) for head in MATRIX_HEADS]
    for c, head in enumerate(heads):
        left, _, right, _ = matrix_cell_box(0, c)
        lit = used is not None and used[1] == c
        pen.rect(
            (left, top, right, top + MATRIX_HEAD_H), fill=HIGHLIGHT if lit else tint(COMBAT, 0.8)
        )
        # Two lines: the first word over the rest, each cut to the column.
        words = [fit(word, TEXT, right - left - 2, True) for word in head.split(" ", 1)]
        for index, word in enumerate(words):
            y = top + MATRIX_HEAD_H / 2 + (index - (len(words) - 1) / 2) * (TEXT + 3)
            pen.text(((left + right) / 2, y), word, TEXT, shade(COMBAT, 0.3), True)
    for r in range(6):
        _, row_top, _, row_bottom = matrix_cell_box(r, 0)
        lit = used is not None and used[0] == r
        pen.rect(
            (MATRIX_LEFT, row_top, MATRIX_LEFT + MATRIX_CORNER_W, row_bottom),
            fill=HIGHLIGHT if lit else tint(MAGIC, 0.8),
        )
        pen.text(
            (MATRIX_LEFT + 8, (row_top + row_bottom) / 2),
            fit(heads[r], TEXT, MATRIX_CORNER_W - 12, True),
            TEXT,
            shade(MAGIC, 0.3),
            True,
            anchor="lm",
        )
        for c in range(6):
            box = matrix_cell_box(r, c)
            value = grid[r][c]
            here = used == (r, c)
            shown = (r, c) in legible
            pen.rect(
                box,
                fill=HIGHLIGHT if here else CELL if shown else HIDDEN_CELL,
                outline=PANEL_EDGE,
            )
            if value is None:
                continue
            text = f"{value[0]}/{value[1]}" + ("" if shown else "*")
            fill = INK if shown or here else FADED
            pen.text(
                ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
                text,
                TEXT + 2,
                fill,
                here or shown,
            )
    if used is not None and all(isinstance(v, int) and 0 <= v < 6 for v in used):
        box = matrix_cell_box(*used)
        pen.rect((box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2), outline=INK, width=4)
    bottom = matrix_cell_box(5, 0)[3]
    pen.rect((MATRIX_LEFT, top, WIDTH - MARGIN, bottom), outline=shade(PANEL_EDGE, 0.2), width=2)
    note = write(said("* reconstructed: the scan cuts the table off"), locale)
    note = fit(note, TEXT, WIDTH - 2 * MARGIN)
    pen.text((WIDTH - MARGIN, bottom + 20), note, TEXT, MUTED, anchor="rm")


# --- the outcome ------------------------------------------------------------------------------


def _draw_outcome(pen: Pen, battle: dict[str, Any], resolved: bool, locale: Locale) -> None:
    """The fight's outcome (the engine's words) in a band across the foot, at most two
    lines."""
    text = str(battle.get("outcome") or "")
    if not resolved:
        name = str(battle.get("name") or "?")
        waits = write(said("Waiting for {name} to place things.", name=name), locale)
        text = waits + (f" {text}" if text else "")
    if not text:
        return
    box = (MARGIN - 4, OUTCOME_TOP, WIDTH - MARGIN + 4, HEIGHT - 10)
    pen.rect(box, fill=tint(DRAGON, 0.88), outline=DRAGON, width=2, radius=6)
    lines = wrap(text, TEXT + 1, WIDTH - 2 * MARGIN - 24, True)
    if len(lines) > 2:
        lines = [lines[0], fit(" ".join(lines[1:]), TEXT + 1, WIDTH - 2 * MARGIN - 24, True)]
    middle = (box[1] + box[3]) / 2
    for index, line in enumerate(lines):
        y = middle + (index - (len(lines) - 1) / 2) * (LINE + 2)
        pen.text((MARGIN + 8, y), line, TEXT + 1, shade(DRAGON, 0.2), True, anchor="lm")
