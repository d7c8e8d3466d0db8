"""A game page as HTML: written on the server, every text escaped, so the page reads
without its script; the script only steps the replay and swaps in the parts a live update
sends (:func:`parts`), which are written here too."""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime
from typing import TypedDict

from bot.service.history.web_pages import GamePage, Move, Seat

_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
STATIC = "/static"


def inline(markdown: str) -> str:
    """The little Markdown the host writes (``code``, **bold**) as HTML, all else escaped."""
    text = html.escape(markdown, quote=False)
    text = _CODE.sub(r"<code>\1</code>", text)
    return _BOLD.sub(r"<strong>\1</strong>", text)


def board_src(page: GamePage, index: int) -> str:
    return f"/g/{page.token}/board/{index}.png"


def page_html(page: GamePage, at: int | None = None) -> str:
    """The whole page, showing position ``at`` (by default the newest)."""
    shown = page.latest if at is None or not 0 <= at <= page.latest else at
    title = html.escape(page.title)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{title}</title>
<link rel="stylesheet" href="{STATIC}/page.css">
<link rel="icon" href="{STATIC}/icon.svg" type="image/svg+xml">
<script src="{STATIC}/page.js" defer></script>
</head>
<body data-token="{html.escape(page.token)}" data-latest="{page.latest}" data-at="{shown}">
<header>
<h1>{title}</h1>
<div id="status" aria-live="polite">{status_html(page)}</div>
</header>
<main>
{_board_section(page, shown)}
<section class="info">
<h2>Seats</h2>
<ul id="seats">{seats_html(page)}</ul>
<h2>Moves</h2>
<div id="moves">{moves_html(page, shown)}</div>
</section>
</main>
<script type="application/json" id="positions">{_json_script(positions(page))}</script>
</body>
</html>
"""


def _board_section(page: GamePage, shown: int) -> str:
    if page.latest < 0:
        return (
            '<section class="board"><p class="empty">The game has not started yet: '
            "its board shows here once it does.</p></section>"
        )
    position = page.positions[shown]
    last = page.latest
    return f"""<section class="board" aria-label="Board and replay">
<figure>
<img id="board" src="{board_src(page, shown)}" alt="{html.escape(position.alt)}">
<figcaption id="caption">{_caption(page, shown)}</figcaption>
</figure>
<nav class="replay" aria-label="Replay">
<a class="step" id="first" href="?at=0" aria-label="First position">«</a>
<a class="step" id="back" href="?at={max(shown - 1, 0)}" aria-label="Previous position">◀</a>
<span id="where" aria-live="polite">{shown} / {last}</span>
<a class="step" id="forward" href="?at={min(shown + 1, last)}" aria-label="Next position">▶</a>
<a class="step" id="newest" href="?at={last}" aria-label="Newest position">»</a>
</nav>
<p class="keys">Arrow keys ← → step through the game; Home and End jump to its ends.</p>
</section>"""


def _caption(page: GamePage, index: int) -> str:
    """Which position this is (the script writes the same words), then what led to it."""
    where = "Newest position" if index == page.latest else f"Position {index} of {page.latest}"
    return f"{where}. {inline(page.positions[index].caption)}"


def status_html(page: GamePage) -> str:
    """Who is to act and until when, or how the game ended."""
    lines = [f'<p class="state">{html.escape(page.status_words.capitalize())}'
             f"{_turn_of(page)}</p>"]  # fmt: skip
    if page.result:
        lines.append(f'<p class="result">🏆 {inline(page.result)}</p>')
    elif page.status == "running" and page.to_act:
        who = ", ".join(_seat_name(s) for s in page.to_act)
        lines.append(f'<p class="to-act">Waiting for {html.escape(who)}</p>')
    if page.deadline is not None:
        at = datetime.fromtimestamp(page.deadline, UTC)
        lines.append(
            f'<p class="deadline">The turn ends <time datetime="{at.isoformat()}">'
            f"{at:%a %d %b %Y, %H:%M} UTC</time></p>"
        )
    return "".join(lines)


def _turn_of(page: GamePage) -> str:
    if page.turn <= 0:
        return ""
    verb = "ended in" if page.status == "finished" else "on"
    return f", {verb} {html.escape(page.turn_word)} {page.turn}"


def _seat_name(seat: Seat) -> str:
    return f"{seat.role} ({seat.player})" if seat.player else seat.role


def seats_html(page: GamePage) -> str:
    items = []
    for seat in page.seats:
        marks = " ▶ to act" if seat.to_act else ""
        marks += " (left)" if seat.left else ""
        player = html.escape(seat.player) if seat.player else "<em>open</em>"
        css = ' class="to-act"' if seat.to_act else ""
        items.append(f"<li{css}><strong>{html.escape(seat.role)}</strong>: {player}{marks}</li>")
    return "".join(items)


def moves_html(page: GamePage, shown: int) -> str:
    """The moves by turn, each a link to the position it led to."""
    empty = "" if page.moves else '<p class="empty">No moves yet.</p>'
    return f'{empty}<ol class="turns" id="turns">{turn_blocks(page, shown)}</ol>'


def turn_blocks(page: GamePage, shown: int, from_turn: int = 1) -> str:
    """The list items of the turns from ``from_turn`` on, in the order they began (which
    is the order of their numbers: a takeback only adds to a turn already listed)."""
    by_turn: dict[int, list[Move]] = {}
    for move in page.moves:
        by_turn.setdefault(move.turn, []).append(move)
    word = html.escape(page.turn_word.capitalize())
    blocks = []
    for turn, moves in by_turn.items():
        if turn >= from_turn:
            items = "".join(_move_item(m, shown) for m in moves)
            blocks.append(
                f'<li data-turn="{turn}"><h3>{word} {turn}</h3><ol class="turn">{items}</ol></li>'
            )
    return "".join(blocks)


def _move_item(move: Move, shown: int) -> str:
    current = ' aria-current="step"' if move.position == shown else ""
    return (
        f'<li><a href="?at={move.position}" data-at="{move.position}"{current}>'
        f"{html.escape(move.seat)}: {inline(move.said)}</a></li>"
    )


class Position(TypedDict):
    """A position as the page's script shows it: its board's address, alt text and
    caption (HTML)."""

    src: str
    alt: str
    caption: str


Parts = TypedDict(
    "Parts",
    {
        "version": int,
        "status": str,
        "seats": str,
        "from": int,
        "positions": list[Position],
        "moves_from": int | None,
        "moves": str,
    },
)
"""A live update of a page (``from`` is a keyword, so the functional form)."""


def positions(page: GamePage, since: int = 0) -> list[Position]:
    """Each position from ``since`` on: its board's address, its alt text and what led to
    it (as HTML), for the script."""
    return [
        {"src": board_src(page, p.index), "alt": p.alt, "caption": inline(p.caption)}
        for p in page.positions[since:]
    ]


def parts(page: GamePage, since: int) -> Parts:
    """What a live update sends to a page that has the positions before ``since``: the
    version, the status and seats written anew, the positions from ``since`` on (a game's
    log only grows, so earlier ones never change), and the turns of the move list from
    the first that gained a move (``moves_from``; None when none did)."""
    new = page.moves[max(since - 1, 0) :]
    first = min((m.turn for m in new), default=None)
    return {
        "version": page.version,
        "status": status_html(page),
        "seats": seats_html(page),
        "from": since,
        "positions": positions(page, since),
        "moves_from": first,
        "moves": turn_blocks(page, page.latest, first) if first is not None else "",
    }


def _json_script(value: object) -> str:
    """JSON that cannot end the ``<script>`` element it sits in."""
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


NOT_FOUND = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not found</title>
<link rel="icon" href="/static/icon.svg" type="image/svg+xml"></head>
<body><h1>Not found</h1><p>There is no page at this address.</p></body></html>
"""
