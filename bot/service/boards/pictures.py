"""Drawing board pictures in worker processes.

Drawing text with FreeType holds Python's interpreter lock, so pictures drawn in threads of
the bot's own process stall its event loop while they are drawn. :class:`Pictures` draws
them in a pool of worker processes instead (:mod:`bot.service.boards.picture_worker`), so the bot
keeps answering while boards are drawn, and a process uses every core. Each worker applies
the same corrected data files as the bot (board geometry comes from the engines' data).

Each worker talks to the event loop over a socket of its own: a request is one write and
its picture one or two reads, with no threads in between (each wake-up of another thread
is a system call, and system calls are most of what sending work elsewhere costs). A
request goes to the worker with the fewest asked of it, and a worker holds the board it
draws and the next (:data:`DEPTH`), so it never waits for the event loop to hand it work.
A worker that dies is replaced at once; each picture asked of it and not yet answered is
asked of another worker, once.

A worker warms itself before it answers (every registered game's backgrounds, layout,
palette and a new game's boards drawn once, :mod:`bot.service.boards.picture_worker`), so the
first board of each game is drawn as quickly as a later one. :meth:`Pictures.start` starts
the workers at once, so they warm while the bot connects; a request that comes sooner
waits for its worker's warm-up.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import pickle
import socket
import subprocess
import sys
from collections import Counter, OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol, TypeVar

from bot.service.boards.picture_worker import HEADER, Answer, Warmed, framed
from i18n import DEFAULT, Locale

log = logging.getLogger(__name__)
_PROJECT = Path(__file__).resolve().parents[2]
_BUFFER = 1 << 20
"""Socket buffer bytes each way: a board's PNG (about 100 KB) goes in one write."""


class PictureWorkerDied(RuntimeError):
    """A drawing process ended while drawing (twice for the same picture)."""


_LOST = (OSError, EOFError, asyncio.IncompleteReadError)

Made = TypeVar("Made")


def _made(kind: type[Made], task: str, value: object) -> Made:
    """What a worker made for ``task``, checked to be of ``kind``."""
    if not isinstance(value, kind):
        raise TypeError(f"a drawing process answered {task} with {type(value).__name__}")
    return value


"""What reading or writing a worker's socket raises once the worker is gone."""

DEPTH = 2
"""Requests a worker holds at once: the board it draws and the next, already waiting in
its socket. Else a worker that sends a board sits idle until the event loop, busy with
clicks, gets round to reading it and writing the next request: at 200 clicks/s, ten boards
waited for a worker on average while the workers sat so."""


class _Process(Protocol):
    """What the pool needs of a drawing process (:class:`subprocess.Popen` has it)."""

    pid: int

    def wait(self) -> int: ...

    def kill(self) -> None: ...


def _spawn(overrides: str | None, warm: bool) -> tuple[_Process, socket.socket]:
    """Start a drawing process; the loop's end of its socket."""
    ours, theirs = socket.socketpair()
    for end in (ours, theirs):
        end.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, _BUFFER)
        end.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, _BUFFER)
    path = os.pathsep.join([str(_PROJECT), *filter(None, [os.environ.get("PYTHONPATH")])])
    with theirs:
        process = subprocess.Popen(
            [sys.executable, "-m", "bot.service.boards.picture_worker", str(theirs.fileno()),
             overrides or "", *([] if warm else ["cold"])],
            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": path},
        )  # fmt: skip
    return process, ours


class _Worker:
    """One drawing process and the loop's end of its socket. Requests are written as
    they come (up to the pool's :data:`DEPTH`); the worker answers them in order, and one
    reading task hands each answer to its request."""

    def __init__(
        self,
        process: _Process,
        ours: socket.socket,
        freed: Callable[[], None],
        lost: Callable[[_Worker], None],
    ) -> None:
        """``freed`` is called once for each request answered or lost (whether or not
        its caller still waits); ``lost`` once, when the socket ends."""
        self.process = process
        self._socket = ours
        self._freed = freed
        self._lost = lost
        self.load = 0
        """Requests taken and not yet answered or lost."""
        self._answers: deque[asyncio.Future[Answer]] = deque()
        self._writer: asyncio.Future[asyncio.StreamWriter] | None = None
        self._reading: asyncio.Task[None] | None = None
        self._ended = False

    async def ask(self, request: bytes) -> Answer:
        """The answer to ``request`` (a :func:`framed` message), once the worker has
        answered the requests written before it."""
        self.load += 1
        try:
            writer = await self._connected()
        except BaseException:
            self._free()
            raise
        if self._ended:
            self._free()
            raise ConnectionError(f"drawing process {self.process.pid} ended")
        answer: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._answers.append(answer)
        writer.write(request)
        try:
            await writer.drain()
        except _LOST:  # found before its reading task finds it
            self._end()
        except BaseException:
            answer.cancel()  # its caller gave up: the answer is read and dropped
            raise
        return await answer

    def stop(self) -> None:
        """Close the socket (the worker ends when it reads the end); requests not yet
        answered are lost."""
        if self._writer is not None and self._writer.done() and not self._writer.cancelled():
            self._writer.result().close()
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

    async def _connected(self) -> asyncio.StreamWriter:
        if self._writer is None:
            self._writer = asyncio.ensure_future(self._connect())
        return await asyncio.shield(self._writer)

    async def _connect(self) -> asyncio.StreamWriter:
        reader, writer = await asyncio.open_unix_connection(sock=self._socket)
        self._reading = asyncio.create_task(self._read(reader))
        return writer

    async def _read(self, reader: asyncio.StreamReader) -> None:
        try:
            while True:
                (length,) = HEADER.unpack(await reader.readexactly(HEADER.size))
                answer = pickle.loads(await reader.readexactly(length))
                waiting = self._answers.popleft()
                self._free()
                if not waiting.done():  # its caller may have given up
                    waiting.set_result(answer)
        except _LOST:
            self._end()
        except BaseException as error:
            if not isinstance(error, asyncio.CancelledError):
                log.exception("could not read the answers of drawing process %d", self.process.pid)
            self._end()
            raise

    def _end(self) -> None:
        """The socket ended: every request not answered is lost, to be asked again, and
        the pool replaces this worker."""
        if self._ended:
            return
        self._ended = True
        while self._answers:
            waiting = self._answers.popleft()
            self._free()
            if not waiting.done():
                waiting.set_exception(ConnectionError(f"drawing process {self.process.pid} ended"))
        self._lost(self)

    def _free(self) -> None:
        self.load -= 1
        self._freed()


class Pictures:
    """A pool of ``workers`` drawing processes (started by :meth:`start`, or on first use
    as needed), each warmed before it draws unless ``warm`` is false (tests that draw a
    board or two skip the warm-up). Each worker holds up to :data:`DEPTH` requests; a
    request waits for the least busy worker with room."""

    def __init__(
        self, workers: int, data_overrides: str | None = None, *, warm: bool = True
    ) -> None:
        if workers < 1:
            raise ValueError("a pool draws with at least one worker process")
        self.workers = workers
        self.warm = warm
        self._overrides = data_overrides
        self._running: set[_Worker] = set()
        self._room = asyncio.Semaphore(workers * DEPTH)

    def start(self) -> None:
        """Start every worker not yet running now, without waiting: each warms itself
        meanwhile, and the first boards asked for wait for their worker's warm-up."""
        while len(self._running) < self.workers:
            self._start()

    async def warmed(self) -> Warmed:
        """The warm-up of the least busy worker (started if none is), once it is over: the
        games it warmed and those it could not."""
        return _made(Warmed, "warmed", await self._run("warmed"))

    @property
    def pids(self) -> list[int]:
        """The process ids of the workers running now."""
        return [worker.process.pid for worker in self._running]

    async def draw(
        self,
        slug: str,
        view: dict[str, Any],
        corrections: dict[str, Any] | None = None,
        locale: Locale = DEFAULT,
    ) -> bytes:
        """The PNG of a public view of game ``slug``, its words in ``locale``, drawn in a
        worker process (with a game's ``corrections`` of its data, if it has some)."""
        return _made(bytes, "draw", await self._run("draw", slug, view, corrections, locale))

    async def animate(self, pictures: list[bytes]) -> bytes:
        """One replay animation of ``pictures`` (board PNGs, in order), put together in a
        worker process (decoding, scaling and encoding every frame)."""
        return _made(bytes, "animate", await self._run("animate", pictures))

    async def _run(self, task: str, *args: object) -> object:
        request = framed((task, args))
        try:
            outcome, value = await self._ask_any(request)
        except _LOST:  # the worker died: its replacement draws it
            try:
                outcome, value = await self._ask_any(request)
            except _LOST as error:
                raise PictureWorkerDied(f"two drawing processes ended at {task}") from error
        if outcome == "error":
            raise value if isinstance(value, BaseException) else RuntimeError(repr(value))
        return value

    async def _ask_any(self, request: bytes) -> Answer:
        """The answer of the least busy worker, once one has room. A caller that gives up
        leaves the answer to be read: the worker's room comes back when it answers."""
        await self._room.acquire()
        try:
            worker = self._least_busy()
        except BaseException:  # no process could be started
            self._room.release()
            raise
        return await worker.ask(request)

    def _least_busy(self) -> _Worker:
        if len(self._running) < self.workers:
            return self._start()
        return min(self._running, key=lambda worker: worker.load)

    def _start(self) -> _Worker:
        process, ours = _spawn(self._overrides, self.warm)
        worker = _Worker(process, ours, freed=self._room.release, lost=self._replace)
        self._running.add(worker)
        return worker

    def _replace(self, worker: _Worker) -> None:
        """Stop ``worker`` (its socket ended) and start another in its place."""
        worker.stop()
        if worker in self._running:  # not closed meanwhile
            self._running.discard(worker)
            self._start()

    async def close(self) -> None:
        """Stop the workers (a picture being drawn is given up, and asked again of a new
        worker); the next picture asked for starts them again."""
        workers = list(self._running)
        self._running.clear()
        # The room they held comes back as their sockets end: each request lost frees its own.
        for worker in workers:
            worker.stop()
        await asyncio.gather(*(worker.ended(timeout=5) for worker in workers))


class RecentBoards:
    """The pictures of the last ``size`` boards one host drew, by what they show, and of
    the boards kept for a send that drew its board ahead (:meth:`kept`).

    One board is often drawn more than once: a turn's post and each watcher's DM, a secret
    answer that edits the post while the public board stays the same, a status asked for
    right after a move. A board whose game, public view, corrected data and language equal
    one drawn lately (or being drawn now) is that picture, drawn once: a board drawn in
    German is never served to an English reader. A failed drawing is not kept.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._drawn: OrderedDict[str, asyncio.Future[bytes]] = OrderedDict()
        self._kept: Counter[str] = Counter()

    async def get(
        self,
        slug: str,
        view: dict[str, Any],
        data: dict[str, Any],
        draw: Callable[[], Awaitable[bytes]],
        locale: Locale = DEFAULT,
    ) -> bytes:
        """The picture of ``view`` of game ``slug`` with ``data`` in ``locale``: kept, or
        ``draw()`` now."""
        key = _key(slug, view, data, locale)
        drawn = self._drawn.get(key)
        if drawn is None:
            drawn = asyncio.ensure_future(draw())
            self._drawn[key] = drawn
            self._trim()
        self._drawn.move_to_end(key)
        try:
            return await asyncio.shield(drawn)
        except BaseException:
            if drawn.done() and self._drawn.get(key) is drawn:
                del self._drawn[key]
            raise

    @contextmanager
    def kept(
        self, slug: str, view: dict[str, Any], data: dict[str, Any], locale: Locale = DEFAULT
    ) -> Iterator[None]:
        """While the body runs, the picture of this board (once drawn) stays, however many
        others are drawn meanwhile. The outbox draws a board ahead of its send and may then
        wait for a free send: on a busy host more than ``size`` other boards were drawn in
        that wait, and a board dropped from here was drawn a second time for its send."""
        key = _key(slug, view, data, locale)
        self._kept[key] += 1
        try:
            yield
        finally:
            self._kept[key] -= 1
            if not self._kept[key]:
                del self._kept[key]
            self._trim()

    def _trim(self) -> None:
        """Drop the oldest boards not kept, until at most ``size`` of those remain."""
        kept = sum(1 for key in self._kept if key in self._drawn)
        excess = len(self._drawn) - kept - self.size
        dropped: list[str] = []
        for key in self._drawn:  # the oldest first
            if len(dropped) >= excess:
                break
            if key not in self._kept:
                dropped.append(key)
        for key in dropped:
            del self._drawn[key]


def _key(slug: str, view: dict[str, Any], data: dict[str, Any], locale: Locale) -> str:
    return json.dumps(
        [slug, view, data, locale], sort_keys=True, separators=(",", ":"), default=str
    )
