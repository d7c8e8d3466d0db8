"""The table sizes each game is played at, and how a refusal names them."""

from __future__ import annotations

from typing import Any

from bot.service.text import Text, said, said_plural
from engines.base import BadOptions, Game


def table_sizes(engine: Game[Any]) -> list[int]:
    """The numbers of players ``engine`` seats with its default options: those its
    ``roles`` accepts, from its fewest to its most."""
    defaults = engine.parse_options("")
    sizes = []
    for players in range(engine.min_players, engine.max_players + 1):
        try:
            engine.roles(players, defaults)
        except BadOptions:
            continue
        sizes.append(players)
    return sizes


def sizes_text(engine: Game[Any]) -> Text:
    """``"2–5 players"``, ``"exactly 2 players"`` or ``"2, 3 or 5 players"``."""
    sizes = table_sizes(engine) or [engine.min_players]
    if len(sizes) == 1:
        return said_plural("exactly {count} player", "exactly {count} players", sizes[0])
    if sizes == list(range(sizes[0], sizes[-1] + 1)):
        return said("{fewest}–{most} players", fewest=sizes[0], most=sizes[-1])
    others = ", ".join(map(str, sizes[:-1]))
    return said("{sizes} or {last} players", sizes=others, last=sizes[-1])


def refusal(engine: Game[Any], players: int) -> Text | None:
    """What to tell someone asking for ``players`` seats, or None if the game has them."""
    if players in table_sizes(engine):
        return None
    return said(
        "{game} is for {sizes}, not {players}.",
        game=engine.title, sizes=sizes_text(engine), players=players,
    )  # fmt: skip
