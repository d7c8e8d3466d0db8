"""Drawing board pictures in worker processes.

Drawing text with FreeType holds Python's interpreter lock, so pictures drawn in threads of
the bot's own process stall its event loop while they are drawn. :class:`Pictures` draws
them in a pool of worker processes instead, so the bot keeps answering while boards are
drawn, and a process uses every core. Each worker applies the same corrected data files as
the bot (board geometry comes from the engines' data).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def _start_worker(data_overrides: str | None) -> None:
    from engines import data

    data.use_overrides(data_overrides)


def _draw(slug: str, view: dict[str, Any], corrections: dict[str, Any] | None = None) -> bytes:
    from engines import data
    from games import render

    with data.corrected(corrections):
        return render(slug, view)


def _animate(pictures: list[bytes]) -> bytes:
    from games import animation

    return animation.animate(pictures)


class Pictures:
    """A pool of ``workers`` drawing processes (started on first use)."""

    def __init__(self, workers: int, data_overrides: str | None = None) -> None:
        if workers < 1:
            raise ValueError("a pool draws with at least one worker process")
        self.workers = workers
        self._overrides = data_overrides
        self._pool: ProcessPoolExecutor | None = None

    async def draw(
        self, slug: str, view: dict[str, Any], corrections: dict[str, Any] | None = None
    ) -> bytes:
        """The PNG of a public view of game ``slug``, drawn in a worker process (with a
        game's ``corrections`` of its data, if it has some)."""
        return await asyncio.get_running_loop().run_in_executor(
            self._workers(), _draw, slug, view, corrections
        )

    async def animate(self, pictures: list[bytes]) -> bytes:
        """One replay animation of ``pictures`` (board PNGs, in order), put together in a
        worker process (decoding, scaling and encoding every frame)."""
        return await asyncio.get_running_loop().run_in_executor(
            self._workers(), _animate, pictures
        )

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                # A fresh interpreter: forking a process with running threads is unsafe.
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(self._overrides,),
            )
        return self._pool

    def close(self) -> None:
        """Stop the workers (pictures being drawn are finished first)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class RecentBoards:
    """The pictures of the last ``size`` boards one host drew, by what they show.

    One board is often drawn more than once: a turn's post and each watcher's DM, a secret
    answer that edits the post while the public board stays the same, a status asked for
    right after a move. A board whose game, public view and corrected data equal one drawn
    lately (or being drawn now) is that picture, drawn once. A failed drawing is not kept.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._drawn: OrderedDict[str, asyncio.Future[bytes]] = OrderedDict()

    async def get(
        self,
        slug: str,
        view: dict[str, Any],
        data: dict[str, Any],
        draw: Callable[[], Awaitable[bytes]],
    ) -> bytes:
        """The picture of ``view`` of game ``slug`` with ``data``: kept, or ``draw()`` now."""
        key = json.dumps([slug, view, data], sort_keys=True, separators=(",", ":"), default=str)
        drawn = self._drawn.get(key)
        if drawn is None:
            drawn = asyncio.ensure_future(draw())
            self._drawn[key] = drawn
            while len(self._drawn) > self.size:
                self._drawn.popitem(last=False)
        self._drawn.move_to_end(key)
        try:
            return await asyncio.shield(drawn)
        except BaseException:
            if drawn.done() and self._drawn.get(key) is drawn:
                del self._drawn[key]
            raise
