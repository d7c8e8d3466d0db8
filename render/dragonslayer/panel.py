"""The Dragonslayer map's words: the header (turn, whose turn, the last move) and the
panel under the map with one block per party in two columns (its strengths, loads,
companions, things, King's men and status), drawn over the static map by
:mod:`render.dragonslayer.map`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.dragonslayer.model import load_urland
from render.common import INK
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
    fit,
    initials,
    magician_colour,
    text_width,
    wrap,
)

NAME_TOKEN_R = 23
"""A magician's disc beside its name (header, panel): room for two initials in TEXT."""

PHASES = {
    "place": "{name} places King's men",
    "magician": "{owner} move",
    "kings_men": "{owner} King's men move",
    "answer": "{name} to answer",
}


def draw_header(pen: Pen, view: dict[str, Any]) -> None:
    """Turn, whose turn, phase, days left; under it the last move (or the summary)."""
    seats = {m.get("seat"): m for m in view.get("magicians") or []}
    phase = view.get("phase", "")
    parts = ["Dragonslayer", f"Turn {view.get('turn', '?')}"]
    if phase == "over":
        parts.append("Game over")
    else:
        who = seats.get(view.get("current"))
        if who is not None:
            name = who.get("name", "?")
            owner = name + ("'" if name.endswith("s") else "'s")
            parts.append(PHASES.get(phase, "{name}: " + phase).format(name=name, owner=owner))
        days = view.get("days_left")
        if isinstance(days, int):
            parts.append(f"{days} day{'s' if days != 1 else ''} left")
    title = "  \u2022  ".join(parts)
    title = fit(title, TEXT + 3, WIDTH - 76, True)
    pen.text((16, 24), title, TEXT + 3, bold=True, anchor="lm")
    last = view.get("last") or {}
    line = view.get("summary", "")
    if last.get("text") and phase != "over":
        line = f"Last: {last['text']}"
    pen.text((16, 60), fit(line, TEXT, WIDTH - 32), TEXT, fill=SUBTITLE, anchor="lm")
    if phase != "over":
        who = seats.get(view.get("current"))
        if who is not None:
            x = 16 + text_width(title, TEXT + 3, True) + 30
            colour = magician_colour(who.get("key", ""))
            token(pen, (x, 24), colour, initials(who.get("name", "?")), radius=NAME_TOKEN_R)


@dataclass
class _Line:
    text: str
    size: int = TEXT
    bold: bool = False
    fill: Colour = INK


def _party_lines(
    party: dict[str, Any], magician: dict[str, Any], view: dict[str, Any], width: float
) -> list[_Line]:
    """The detail lines of one party's block, wrapped to ``width`` pixels."""
    raw: list[_Line] = []
    stats = (
        f"Combat {party.get('combat', '?')} \u00b7 Magic {party.get('magic', '?')} \u00b7 "
        f"Pentacles {party.get('pentacles', '?')}"
    )
    raw.append(_Line(stats))
    people, combat = party.get("people"), party.get("party_combat")
    if isinstance(people, int):
        text = f"Party of {people}" + (f", combat {combat}" if combat is not None else "")
        raw.append(_Line(text))
    carry = party.get("carry") or {}
    bits = []
    over = False
    for key, title in (("weapons", "weapons"), ("magic", "magic")):
        pair = carry.get(key)
        if isinstance(pair, list | tuple) and len(pair) == 2:
            bits.append(f"{title} {pair[0]}/{pair[1]}")
            over = over or pair[0] > pair[1]
    if bits:
        text = "Carrying " + ", ".join(bits) + (" (over)" if over else "")
        raw.append(_Line(text, fill=ALERT if over else INK))
    companions = [
        f"{c.get('name', '?')} ({c['strength']})"
        if c.get("strength") is not None
        else c.get("name", "?")
        for c in party.get("companions") or []
    ]
    if companions:
        raw.append(_Line("Companions: " + ", ".join(companions)))
    for key, title in (
        ("weapons", "Weapons"),
        ("spells", "Spells"),
        ("magic_items", "Magic items"),
        ("kept", "Kept"),
    ):
        names = [item.get("name", "?") for item in party.get(key) or []]
        if names:
            raw.append(_Line(f"{title}: " + ", ".join(names)))
    men = [man for man in view.get("kings_men") or [] if man.get("seat") == party.get("seat")]
    if men:
        places = load_urland().places
        words = []
        for man in men:
            where = places[man["at"]].name if man.get("at") in places else "not placed"
            text = f"#{man.get('number', '?')} {where}"
            if man.get("strength") is not None:
                text += f" (str {man['strength']})"
            if man.get("idle"):
                text += " idle"
            words.append(text)
        leader = men[0].get("leader", "")
        raw.append(_Line(f"King's men{' of ' + leader if leader else ''}: " + ", ".join(words)))
    status = magician.get("status") or ""
    if magician.get("out") and "out of the game" not in status:
        status = "out of the game" + (f"; {status}" if status else "")
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


def _where_text(magician: dict[str, Any]) -> str:
    urland = load_urland()
    where = magician.get("where") or {}
    kind, key = where.get("kind"), where.get("key")
    if kind == "abode":
        return "at home"
    if kind == "sea" and key in urland.seas:
        return f"at sea: {urland.seas[key].name}"
    if kind == "road":
        ends = [urland.places[e].name for e in where.get("road") or [] if e in urland.places]
        return "road " + "\u2013".join(ends)
    if key in urland.places:
        return f"in {urland.places[key].name}"
    return ""


LINE_H = 28
HEAD_H = 42
BLOCK_GAP = 10
COLUMNS = 2


PANEL_MIN = 160  # the panel's least height, so a picture never ends in a sliver

Block = tuple[dict[str, Any], dict[str, Any], list[_Line]]
Column = tuple[float, float, list[Block]]


def panel_columns(view: dict[str, Any]) -> list[Column]:
    """The panel's two columns: each one's left and right edges and its parties' blocks
    (the first, third... party on the left)."""
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
            lines = _party_lines(party, magician, view, right - left - 8)
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


def draw_panel(pen: Pen, view: dict[str, Any], columns: list[Column]) -> None:
    """The parties under the map, in the two ``columns`` of :func:`panel_columns`, down to
    the picture's foot; in each column, overflowing blocks lose their last lines."""
    for left, right, blocks in columns:
        _draw_column(pen, view, blocks, left, right)


def _draw_column(
    pen: Pen, view: dict[str, Any], blocks: list[Block], left: float, right: float
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
            text = fit(last.text, last.size, width - 150, last.bold).removesuffix("…")
            shown[-1] = _Line(text.rstrip(" ,") + " … (more)", last.size, last.bold, MUTED)
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
        where = _where_text(magician) if not faded else "out"
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
