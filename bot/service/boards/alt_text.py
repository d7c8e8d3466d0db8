"""Alt text for pictures: what a board shows, in words, for people who cannot see it.

Built from the public view only, like the picture itself, so it tells nothing secret.
"""

from __future__ import annotations

from bot.service.errors import UserError
from bot.service.notices import Board
from bot.service.tables import engine_for

LIMIT = 1024
"""Discord's longest attachment description."""


def board_alt(board: Board) -> str:
    """``"St. George and the Dragon board: <the public summary>"``, then the labelled
    places of a picture made for one choice, at most 1024 characters."""
    try:
        title = engine_for(board.slug).title
    except UserError:
        title = board.slug
    summary = " ".join(str(board.view.get("summary") or "").split())
    marks = "; ".join(f"{m['label']} marks {m['at']}" for m in board.view.get("marks") or ())
    text = f"{title} board: {summary}" if summary else f"{title} board"
    return clip(f"{text} Places you can move to: {marks}." if marks else text)


def file_alt(text: str) -> str:
    """Alt text for a file from the line that goes with it, without its Markdown."""
    plain = text.replace("**", "").replace("`", "").replace("*", "")
    return clip(" ".join(plain.split()).lstrip("🎞️📜 "))


def clip(text: str) -> str:
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"
