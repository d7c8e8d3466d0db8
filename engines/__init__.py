"""Rules of the hosted games. Pure, deterministic, standard library only.

``GAMES`` maps each game's slug to its engine (see :mod:`engines.base` for the contract).
"""

from __future__ import annotations

from engines.base import Game

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    GAMES[game.slug] = game
    return game


def _load_all() -> None:
    import importlib

    for module in ("stgeorge", "dragons_cave", "lions_dragons", "dragonslayer"):
        try:
            importlib.import_module(f"engines.{module}")
        except ModuleNotFoundError as error:
            if error.name != f"engines.{module}":
                raise


_load_all()
