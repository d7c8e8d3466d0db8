"""Computer players: one decision at a time, from what their own seat may know.

A computer player is asked ``choose(game, state, seat, rng)`` with ``state`` already passed
through :meth:`engines.base.Game.observe` for its seat, so a secret the seat could not see
is simply not there to peek at. ``easy`` picks a random legal action; ``strong`` is each
game's best effort within a time budget. Players never write anything and never touch the
host: the host asks, then plays the answer like a person's click.
"""

from __future__ import annotations

from players.base import EASY, LEVELS, Decision, Player

__all__ = ["EASY", "LEVELS", "Decision", "Player"]
