"""The replay animation as the registry offers it to the application layer: board
pictures of any game (PNG) in, one animated picture out (see :mod:`render.replay`)."""

from __future__ import annotations

from render.replay import LIMIT, animate

__all__ = ["LIMIT", "animate"]
