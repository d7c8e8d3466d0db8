"""A game's posts as cards: Discord's Components V2 layout (a ``LayoutView``).

The turn's post, the game's status message and the lobby are each one card: a container
holding the text, the board (a media gallery with the picture's alt text) and the controls
in action rows. A card has no ``content``; its words are text displays, and its picture is
the message's attachment, referenced by name (``attachment://board.png``) so that an edit
that keeps the attachment keeps showing it.

Discord lets a message become a card but never go back, so a post that is a card is edited
as a card, whole: an edit without a new picture shows the attachment the message has.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.service.notices import ChannelPost
from bot.service.seating.table_controls import INVITE, LOBBY, REMATCH

ACCENT = discord.Colour(0xB8412C)
"""The cards' edge: the dragons' red, which reads on Discord's dark and light themes."""

CARD_CONTROLS = {LOBBY, INVITE, REMATCH}
"""Controls that make a post without a board a card: a lobby's, an invitation's."""

Picture = tuple[str, str | None]
"""A card's picture: the attachment's file name and its alt text."""


def is_card(post: ChannelPost) -> bool:
    """Whether ``post`` goes out as a card: a turn's post (made or updated), a post with a
    board, or a lobby's; an offer (settled by editing its text) and a plain line do not."""
    if post.settles is not None:
        return False
    kinds = {control.prompt.kind for control in post.controls}
    return post.board is not None or post.turn is not None or bool(kinds & CARD_CONTROLS)


def card(
    blocks: Sequence[str],
    picture: Picture | None = None,
    rows: Sequence[discord.ui.ActionRow[discord.ui.LayoutView]] = (),
) -> discord.ui.LayoutView:
    """One card: the first text block, the picture, the other blocks, then the controls.
    Empty blocks are left out (a text display must say something)."""
    first, *rest = [block for block in blocks if block.strip()] or ["…"]
    items: list[discord.ui.Item[discord.ui.LayoutView]] = [discord.ui.TextDisplay(first)]
    if picture is not None:
        name, alt = picture
        item = discord.MediaGalleryItem(f"attachment://{name}", description=alt or None)
        items.append(discord.ui.MediaGallery(item))
    items += [discord.ui.TextDisplay(block) for block in rest]
    items += rows
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*items, accent_colour=ACCENT))
    return view


def split(text: str, story: str) -> list[str]:
    """A turn post's text as the card shows it: what happened (its story) above the
    board, and the calls to act below it, by the buttons. One block when the post's text
    no longer starts with its story (a long turn, cut to fit)."""
    if story and text.startswith(story) and text[len(story) :].strip():
        return [story, text[len(story) :].strip("\n")]
    return [text]


def rows_of(view: discord.ui.View | None) -> list[discord.ui.ActionRow[discord.ui.LayoutView]]:
    """A controls view's items as the action rows of a card, row by row."""
    rows: dict[int, discord.ui.ActionRow[discord.ui.LayoutView]] = {}
    for item in view.children if view is not None else []:
        row = rows.setdefault(item.row or 0, discord.ui.ActionRow())
        item.row = None  # a row's place in a card is its order
        row.add_item(item)
    return [rows[key] for key in sorted(rows)]
