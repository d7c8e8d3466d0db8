"""Drawing boards and replays: in this process's threads, or in picture workers."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager, nullcontext

from bot.service.admission import Admission
from bot.service.boards import picture_worker
from bot.service.boards.picture_worker import Warmed
from bot.service.boards.pictures import RecentBoards
from bot.service.notices import Board
from engines import data as engine_data
from games import animation
from i18n import DEFAULT, Locale

Renderer = Callable[..., bytes]
"""``(slug, view)`` draws a board in English; ``(slug, view, locale=...)`` in another
language (:func:`games.render`)."""
Drawer = Callable[..., Awaitable[bytes]]
"""``(slug, view)``, or ``(slug, view, corrections)`` for a game with corrected data;
``locale=...`` after them for a board in another language than English."""
Animator = Callable[[list[bytes]], Awaitable[bytes]]


class Drawing:
    """Draws a board's picture once however many notices carry it (the recent ones kept),
    and puts a replay's pictures together."""

    def __init__(
        self,
        renderer: Renderer | None = None,
        drawer: Drawer | None = None,
        animator: Animator | None = None,
        admission: Admission | None = None,
    ) -> None:
        """``renderer`` draws boards in a thread of this process; ``drawer`` (which wins)
        draws them elsewhere (:class:`bot.service.boards.pictures.Pictures`). With neither, no
        picture is drawn. ``animator`` puts a replay's boards together elsewhere too;
        without it, a thread of this process does. ``admission``: each board drawn is
        work it counts as owed (:meth:`Admission.owed`), so pictures falling behind make
        the host refuse new clicks."""
        self._renderer = renderer
        self._drawer = drawer
        self._animator = animator
        self.boards = RecentBoards()
        self._admission = admission

    @property
    def draws_pictures(self) -> bool:
        return self._drawer is not None or self._renderer is not None

    async def draw(self, board: Board | None, locale: Locale = DEFAULT) -> bytes | None:
        """The PNG of ``board``, its words in ``locale``; None without a board or when this
        host draws no pictures."""
        if board is None or not self.draws_pictures:
            return None
        return await self.boards.get(
            board.slug,
            board.view,
            board.data,
            lambda: self._picture_of(board, locale),
            locale,
        )

    def kept(self, board: Board | None, locale: Locale = DEFAULT) -> AbstractContextManager[None]:
        """While the body runs, ``board``'s picture in ``locale``, once drawn, stays for
        whoever draws it next (:meth:`RecentBoards.kept`): a send that drew its board
        ahead finds it."""
        if board is None or not self.draws_pictures:
            return nullcontext()
        return self.boards.kept(board.slug, board.view, board.data, locale)

    async def warm(self) -> Warmed | None:
        """When this host draws in threads of its own process, warm the registered games'
        renderers in a thread (once a process: their caches serve the whole process), so
        the first board of each game is as quick as a later one; the event loop runs on
        meanwhile. None when boards are drawn elsewhere (picture workers warm themselves)
        or not at all. Never raises: a game that fails is logged and drawn cold."""
        if self._drawer is not None or self._renderer is None:
            return None
        return await asyncio.to_thread(_warm_once)

    async def animate(self, pictures: list[bytes]) -> bytes:
        """A replay's pictures as one animation. Decoding, scaling and encoding each one
        happens in a picture worker when there are some, else in a thread; never on the
        event loop."""
        if self._animator is not None:
            return await self._animator(pictures)
        return await asyncio.to_thread(animation.animate, pictures)

    async def _picture_of(self, board: Board, locale: Locale) -> bytes:
        if self._admission is None:
            return await self._drawn(board, locale)
        async with self._admission.owed():
            return await self._drawn(board, locale)

    async def _drawn(self, board: Board, locale: Locale) -> bytes:
        # An English board is asked for as it always was, so a renderer or drawer that
        # draws English alone (a test's stand-in) needs no word of locales.
        language = {} if locale == DEFAULT else {"locale": locale}
        if self._drawer is not None:
            if board.data:  # the game's corrected data travels to the drawing process
                return await self._drawer(board.slug, board.view, board.data, **language)
            return await self._drawer(board.slug, board.view, **language)
        assert self._renderer is not None
        # Drawing takes tens of milliseconds: keep it off the event loop. The thread gets a
        # copy of this context, so it draws with the game's corrected data.
        with engine_data.corrected(board.data):
            return await asyncio.to_thread(self._renderer, board.slug, board.view, **language)


_warming = threading.Lock()
_warmed: Warmed | None = None


def _warm_once() -> Warmed:
    """:func:`picture_worker.warm` the first time it is called in this process, its report
    after that."""
    global _warmed
    with _warming:
        if _warmed is None:
            _warmed = picture_worker.warm()
        return _warmed
