"""Alt text for pictures: what a board shows, in words, for people who cannot see it.

Built from the public view only, like the picture itself, so it tells nothing secret.
A frontend writes it in its reader's language, then cuts it to :data:`LIMIT` with
:func:`clip` (how long it is depends on the language).
"""

from __future__ import annotations

from bot.service.errors import UserError
from bot.service.notices import Board
from bot.service.tables import engine_for
from bot.service.text import Text, said

LIMIT = 1024
"""Discord's longest attachment description."""


def board_alt(board: Board) -> Text:
    """``"St. George and the Dragon board: <the public summary>"``, then the labelled
    places of a picture made for one choice (to be cut with :func:`clip` once written)."""
    try:
        title = engine_for(board.slug).title
    except UserError:
        title = board.slug
    summary = " ".join(str(board.view.get("summary") or "").split())
    marks = [
        said("{label} marks {place}", label=str(m["label"]), place=str(m["at"]))
        for m in board.view.get("marks") or ()
    ]
    if summary:
        text = said("{game} board: {summary}", game=title, summary=summary)
    else:
        text = said("{game} board", game=title)
    if marks:
        text += " " + said("Places you can move to: {marks}.", marks=Text.of("; ").join(marks))
    return text


def file_alt(written: str) -> str:
    """Alt text for a file from the line that goes with it, as written for its reader,
    without its Markdown, at most :data:`LIMIT` characters."""
    plain = written.replace("**", "").replace("`", "").replace("*", "")
    return clip(" ".join(plain.split()).lstrip("🎞️📜 "))


def clip(text: str) -> str:
    """``text`` within :data:`LIMIT` characters (cut with ``…`` where it is longer)."""
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"
