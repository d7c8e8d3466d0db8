"""A game page as HTML: written on the server, every text escaped, so the page reads
without its script; the script only steps the replay and swaps in the parts a live update
sends (:func:`parts`), which are written here too.

A page is written in one locale (its game's server's language, chosen by the caller):
its own words are catalog messages, and the few the script writes itself (which position
is shown, an address gone) are handed to it in the page (:func:`script_words`).
"""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime
from typing import TypedDict

import i18n
import i18n.times
from bot.service.history.web_pages import GamePage, Move, Seat
from bot.service.text import Part, Text, as_text, said
from i18n import Locale

_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
STATIC = "/static"


def words(text: str | Text, locale: Locale) -> str:
    """``text`` written in ``locale``, not yet escaped (its messages in the reader's
    words; any other part as the host's plain text writes it)."""
    return as_text(text).render(_plain_part, locale)


def _plain_part(part: Part) -> str:
    return Text((part,)).plain()


def escaped(text: str | Text, locale: Locale, *, quote: bool = False) -> str:
    """``text`` written in ``locale`` and escaped (``quote``: for an attribute)."""
    return html.escape(words(text, locale), quote=quote)


def _mark(name: str) -> str:
    """What fills the place ``name`` of a message until :func:`_with_markup` puts HTML
    there (a control character never met in a message, kept by escaping)."""
    return f"\x00{name}\x00"


def _with_markup(message: Text, locale: Locale, **markup: str) -> str:
    """``message`` (its places filled with :func:`_mark`) written in ``locale`` and
    escaped, then each place named in ``markup`` filled with that HTML as it is."""
    written = escaped(message, locale)
    for name, value in markup.items():
        written = written.replace(_mark(name), value)
    return written


def _capitalised(text: str) -> str:
    """``text`` with its first letter upper-case (the rest as it is)."""
    for index, char in enumerate(text):
        if char.isalpha():
            return text[:index] + char.upper() + text[index + 1 :]
    return text


def inline(markdown: str | Text, locale: Locale = i18n.DEFAULT) -> str:
    """The little Markdown the host writes (``code``, **bold**) as HTML, all else escaped."""
    text = escaped(markdown, locale)
    text = _CODE.sub(r"<code>\1</code>", text)
    return _BOLD.sub(r"<strong>\1</strong>", text)


def board_src(page: GamePage, index: int) -> str:
    return f"/g/{page.token}/board/{index}.png"


def page_html(page: GamePage, at: int | None = None, locale: Locale = i18n.DEFAULT) -> str:
    """The whole page, showing position ``at`` (by default the newest), in ``locale``."""
    shown = page.latest if at is None or not 0 <= at <= page.latest else at
    title = escaped(page.title, locale)
    # (Messages stay outside the f-string, where the catalog's extractor reads them.)
    seats, moves = escaped(said("Seats"), locale), escaped(said("Moves"), locale)
    return f"""<!doctype html>
<html lang="{html.escape(locale)}">
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
<div id="status" aria-live="polite">{status_html(page, locale)}</div>
</header>
<main>
{_board_section(page, shown, locale)}
<section class="info">
<h2>{seats}</h2>
<ul id="seats">{seats_html(page, locale)}</ul>
<h2>{moves}</h2>
<div id="moves">{moves_html(page, shown, locale)}</div>
</section>
</main>
<script type="application/json" id="positions">{_json_script(positions(page, 0, locale))}</script>
<script type="application/json" id="words">{_json_script(script_words(locale))}</script>
</body>
</html>
"""


def script_words(locale: Locale) -> dict[str, str]:
    """The words the page's script writes itself, in ``locale``; ``position`` keeps its
    places (``{index}``, ``{last}``) for the script to fill."""
    return {
        "newest": words(said("Newest position."), locale),
        "position": words(
            said("Position {index} of {last}.", index="{index}", last="{last}"), locale
        ),
        "gone": words(said("This address no longer shows the game."), locale),
    }


def _board_section(page: GamePage, shown: int, locale: Locale) -> str:
    if page.latest < 0:
        empty = said("The game has not started yet: its board shows here once it does.")
        return f'<section class="board"><p class="empty">{escaped(empty, locale)}</p></section>'
    position = page.positions[shown]
    last = page.latest

    def label(text: Text) -> str:
        return escaped(text, locale, quote=True)

    section, replay = label(said("Board and replay")), label(said("Replay"))
    first, back = label(said("First position")), label(said("Previous position"))
    forward, newest = label(said("Next position")), label(said("Newest position"))
    keys = said("Arrow keys ← → step through the game; Home and End jump to its ends.")
    return f"""<section class="board" aria-label="{section}">
<figure>
<img id="board" src="{board_src(page, shown)}" alt="{escaped(position.alt, locale, quote=True)}">
<figcaption id="caption">{_caption(page, shown, locale)}</figcaption>
</figure>
<nav class="replay" aria-label="{replay}">
<a class="step" id="first" href="?at=0" aria-label="{first}">«</a>
<a class="step" id="back" href="?at={max(shown - 1, 0)}" aria-label="{back}">◀</a>
<span id="where" aria-live="polite">{shown} / {last}</span>
<a class="step" id="forward" href="?at={min(shown + 1, last)}" aria-label="{forward}">▶</a>
<a class="step" id="newest" href="?at={last}" aria-label="{newest}">»</a>
</nav>
<p class="keys">{escaped(keys, locale)}</p>
</section>"""


def _caption(page: GamePage, index: int, locale: Locale) -> str:
    """Which position this is (the script writes the same words), then what led to it."""
    if index == page.latest:
        where = said("Newest position.")
    else:
        where = said("Position {index} of {last}.", index=index, last=page.latest)
    return f"{escaped(where, locale)} {inline(page.positions[index].caption, locale)}"


def status_html(page: GamePage, locale: Locale = i18n.DEFAULT) -> str:
    """Who is to act and until when, or how the game ended."""
    lines = [f'<p class="state">{escaped(_state(page, locale), locale)}</p>']
    if page.result:
        lines.append(f'<p class="result">🏆 {inline(page.result, locale)}</p>')
    elif page.status == "running" and page.to_act:
        who = ", ".join(_seat_name(s, locale) for s in page.to_act)
        waiting = escaped(said("Waiting for {players}", players=who), locale)
        lines.append(f'<p class="to-act">{waiting}</p>')
    if page.deadline is not None:
        at = datetime.fromtimestamp(page.deadline, UTC)
        written = i18n.times.date_time(page.deadline, None, locale)  # the script writes local
        ends = _with_markup(
            said("The turn ends {time}", time=_mark("time")),
            locale,
            time=f'<time datetime="{at.isoformat()}">{html.escape(written)} UTC</time>',
        )
        lines.append(f'<p class="deadline">{ends}</p>')
    return "".join(lines)


def _state(page: GamePage, locale: Locale) -> Text:
    """The game's state, and the turn it is on or ended in: ``Running, on turn 3``."""
    state = _capitalised(words(page.status_words, locale))
    if page.turn <= 0:
        return Text.of(state)
    turn = words(page.turn_word, locale)
    if page.status == "finished":
        return said("{state}, ended in {turn} {number}", state=state, turn=turn, number=page.turn)
    return said("{state}, on {turn} {number}", state=state, turn=turn, number=page.turn)


def _seat_name(seat: Seat, locale: Locale) -> str:
    role = words(seat.role, locale)
    return f"{role} ({words(seat.player, locale)})" if seat.player else role


def seats_html(page: GamePage, locale: Locale = i18n.DEFAULT) -> str:
    items = []
    for seat in page.seats:
        marks = " ▶ " + escaped(said("to act"), locale) if seat.to_act else ""
        marks += " " + escaped(said("(left)"), locale) if seat.left else ""
        if seat.player:
            player = escaped(seat.player, locale)
        else:
            player = "<em>" + escaped(said("open"), locale) + "</em>"
        css = ' class="to-act"' if seat.to_act else ""
        role = escaped(seat.role, locale)
        items.append(f"<li{css}><strong>{role}</strong>: {player}{marks}</li>")
    return "".join(items)


def moves_html(page: GamePage, shown: int, locale: Locale = i18n.DEFAULT) -> str:
    """The moves by turn, each a link to the position it led to."""
    none = escaped(said("No moves yet."), locale)
    empty = "" if page.moves else f'<p class="empty">{none}</p>'
    return f'{empty}<ol class="turns" id="turns">{turn_blocks(page, shown, 1, locale)}</ol>'


def turn_blocks(
    page: GamePage, shown: int, from_turn: int = 1, locale: Locale = i18n.DEFAULT
) -> str:
    """The list items of the turns from ``from_turn`` on, in the order they began (which
    is the order of their numbers: a takeback only adds to a turn already listed)."""
    by_turn: dict[int, list[Move]] = {}
    for move in page.moves:
        by_turn.setdefault(move.turn, []).append(move)
    word = html.escape(_capitalised(words(page.turn_word, locale)))
    blocks = []
    for turn, moves in by_turn.items():
        if turn >= from_turn:
            items = "".join(_move_item(m, shown, locale) for m in moves)
            blocks.append(
                f'<li data-turn="{turn}"><h3>{word} {turn}</h3><ol class="turn">{items}</ol></li>'
            )
    return "".join(blocks)


def _move_item(move: Move, shown: int, locale: Locale) -> str:
    current = ' aria-current="step"' if move.position == shown else ""
    return (
        f'<li><a href="?at={move.position}" data-at="{move.position}"{current}>'
        f"{escaped(move.seat, locale)}: {inline(move.said, locale)}</a></li>"
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


def positions(page: GamePage, since: int = 0, locale: Locale = i18n.DEFAULT) -> list[Position]:
    """Each position from ``since`` on: its board's address, its alt text and what led to
    it (as HTML), for the script."""
    return [
        {
            "src": board_src(page, p.index),
            "alt": words(p.alt, locale),
            "caption": inline(p.caption, locale),
        }
        for p in page.positions[since:]
    ]


def parts(page: GamePage, since: int, locale: Locale = i18n.DEFAULT) -> Parts:
    """What a live update sends to a page that has the positions before ``since``: the
    version, the status and seats written anew, the positions from ``since`` on (a game's
    log only grows, so earlier ones never change), and the turns of the move list from
    the first that gained a move (``moves_from``; None when none did)."""
    new = page.moves[max(since - 1, 0) :]
    first = min((m.turn for m in new), default=None)
    return {
        "version": page.version,
        "status": status_html(page, locale),
        "seats": seats_html(page, locale),
        "from": since,
        "positions": positions(page, since, locale),
        "moves_from": first,
        "moves": turn_blocks(page, page.latest, first, locale) if first is not None else "",
    }


def _json_script(value: object) -> str:
    """JSON that cannot end the ``<script>`` element it sits in."""
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def not_found_html(locale: Locale = i18n.DEFAULT) -> str:
    """The page of an address that shows nothing, in ``locale`` (the reader's browser
    language: there is no game, so no server to take it from)."""
    title = escaped(said("Not found"), locale)
    text = escaped(said("There is no page at this address."), locale)
    return f"""<!doctype html>
<html lang="{html.escape(locale)}"><head><meta charset="utf-8"><title>{title}</title>
<link rel="icon" href="/static/icon.svg" type="image/svg+xml"></head>
<body><h1>{title}</h1><p>{text}</p></body></html>
"""


NOT_FOUND = not_found_html()
"""The page of an address that shows nothing, in English."""
