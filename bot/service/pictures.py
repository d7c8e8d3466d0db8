"""Drawing board pictures in worker processes.

Drawing text with FreeType holds Python's interpreter lock, so pictures drawn in threads of
the bot's own process stall its event loop while they are drawn. :class:`Pictures` draws
them in a pool of worker processes instead (:mod:`bot.service.picture_worker`), so the bot
keeps answering while boards are drawn, and a process uses every core. Each worker applies
the same corrected data files as the bot (board geometry comes from the engines' data).

Each worker talks to the event loop over a socket of its own: a request is one write and
its picture one or two reads, with no threads in between (each wake-up of another thread
is a system call, and system calls are most of what sending work elsewhere costs). A
worker that dies is replaced; the picture it was drawing is asked of another worker once.

A worker warms itself before it answers (every registered game's backgrounds, layout,
palette and a new game's boards drawn once, :mod:`bot.service.picture_worker`), so the
first board of each game is drawn as quickly as a later one. :meth:`Pictures.start` starts
the workers at once, so they warm while the bot connects; a request that comes sooner
waits for its worker's warm-up.
"""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import socket
import subprocess
import sys
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.service.picture_worker import HEADER, Warmed, framed

_PROJECT = Path(__file__).resolve().parents[2]
_BUFFER = 1 << 20
"""Socket buffer bytes each way: a board's PNG (about 100 KB) goes in one write."""


class PictureWorkerDied(RuntimeError):
    """A drawing process ended while drawing (twice for the same picture)."""


_LOST = (OSError, EOFError, asyncio.IncompleteReadError)
"""What reading or writing a worker's socket raises once the worker is gone."""


class _Worker:
    """One drawing process and the loop's end of its socket."""

    def __init__(self, overrides: str | None, warm: bool) -> None:
        ours, theirs = socket.socketpair()
        for end in (ours, theirs):
            end.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, _BUFFER)
            end.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, _BUFFER)
        path = os.pathsep.join([str(_PROJECT), *filter(None, [os.environ.get("PYTHONPATH")])])
        with theirs:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot.service.picture_worker", str(theirs.fileno()),
                 overrides or "", *([] if warm else ["cold"])],
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
                env={**os.environ, "PYTHONPATH": path},
            )  # fmt: skip
        self._socket = ours
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def ask(self, task: str, args: tuple[Any, ...]) -> tuple[str, Any]:
        if self._streams is None:
            self._streams = await asyncio.open_unix_connection(sock=self._socket)
        reader, writer = self._streams
        writer.write(framed((task, args)))
        await writer.drain()
        (length,) = HEADER.unpack(await reader.readexactly(HEADER.size))
        return pickle.loads(await reader.readexactly(length))

    def stop(self) -> None:
        """Close the socket (the worker ends when it reads the end) and stop waiting."""
        if self._streams is not None:
            self._streams[1].close()
        else:
            self._socket.close()

    async def ended(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for the process to end, then kill it."""
        loop = asyncio.get_running_loop()
        try:
            await asyncio.wait_for(loop.run_in_executor(None, self.process.wait), timeout)
        except TimeoutError:
            self.process.kill()
            await loop.run_in_executor(None, self.process.wait)


class Pictures:
    """A pool of ``workers`` drawing processes (started by :meth:`start`, or on first use
    as needed), each warmed before it draws unless ``warm`` is false (tests that draw a
    board or two skip the warm-up)."""

    def __init__(
        self, workers: int, data_overrides: str | None = None, *, warm: bool = True
    ) -> None:
        if workers < 1:
            raise ValueError("a pool draws with at least one worker process")
        self.workers = workers
        self.warm = warm
        self._overrides = data_overrides
        self._running: set[_Worker] = set()
        self._idle: asyncio.Queue[_Worker] = asyncio.Queue()

    def start(self) -> None:
        """Start every worker not yet running now, without waiting: each warms itself
        meanwhile, and the first boards asked for wait for their worker's warm-up."""
        while len(self._running) < self.workers:
            self._idle.put_nowait(self._start())

    async def warmed(self) -> Warmed:
        """The warm-up of the next free worker (started if none is), once it is over: the
        games it warmed and those it could not."""
        return await self._run("warmed")

    @property
    def pids(self) -> list[int]:
        """The process ids of the workers running now."""
        return [worker.process.pid for worker in self._running]

    async def draw(
        self, slug: str, view: dict[str, Any], corrections: dict[str, Any] | None = None
    ) -> bytes:
        """The PNG of a public view of game ``slug``, drawn in a worker process (with a
        game's ``corrections`` of its data, if it has some)."""
        return await self._run("draw", slug, view, corrections)

    async def animate(self, pictures: list[bytes]) -> bytes:
        """One replay animation of ``pictures`` (board PNGs, in order), put together in a
        worker process (decoding, scaling and encoding every frame)."""
        return await self._run("animate", pictures)

    async def _run(self, task: str, *args: Any) -> Any:
        try:
            outcome, value = await self._ask_any(task, args)
        except _LOST:  # the worker died: its replacement draws it
            try:
                outcome, value = await self._ask_any(task, args)
            except _LOST as error:
                raise PictureWorkerDied(f"two drawing processes ended at {task}") from error
        if outcome == "error":
            raise value
        return value

    async def _ask_any(self, task: str, args: tuple[Any, ...]) -> tuple[str, Any]:
        """The answer of the next free worker. A caller that gives up leaves the answer to
        be read, so the worker is free again."""
        worker = await self._take()
        return await asyncio.shield(asyncio.ensure_future(self._ask(worker, task, args)))

    async def _ask(self, worker: _Worker, task: str, args: tuple[Any, ...]) -> tuple[str, Any]:
        try:
            answer = await worker.ask(task, args)
        except BaseException:
            self._replace(worker)
            raise
        if worker in self._running:  # not closed meanwhile
            self._idle.put_nowait(worker)
        return answer

    async def _take(self) -> _Worker:
        if self._idle.empty() and len(self._running) < self.workers:
            return self._start()
        return await self._idle.get()

    def _start(self) -> _Worker:
        worker = _Worker(self._overrides, self.warm)
        self._running.add(worker)
        return worker

    def _replace(self, worker: _Worker) -> None:
        """Stop ``worker`` (it died, or its answer was lost) and start another in its place."""
        worker.stop()
        if worker in self._running:  # not closed meanwhile
            self._running.discard(worker)
            self._idle.put_nowait(self._start())

    async def close(self) -> None:
        """Stop the workers (a picture being drawn is given up); the next picture asked
        for starts them again."""
        workers = list(self._running)
        self._running.clear()
        self._idle = asyncio.Queue()
        for worker in workers:
            worker.stop()
        await asyncio.gather(*(worker.ended(timeout=5) for worker in workers))


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
