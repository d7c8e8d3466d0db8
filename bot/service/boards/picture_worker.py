"""One drawing process of :class:`bot.service.boards.pictures.Pictures`.

``python -m bot.service.boards.picture_worker FD [DATA_OVERRIDES] [cold]``: requests come in over
the socket ``FD`` it was given, one at a time, each answered before the next is read: a
length-prefixed pickle of ``(task, args)`` in, of ``("ok", result)`` or ``("error",
exception)`` out. The process ends when the socket closes (its pool closed it, or the
bot's process ended).

Before it reads the first request the worker warms itself (unless told ``cold``): every
registered game's renderer builds its backgrounds, layout and palette and draws a new
game's board at each table size and a few boards of a game under way (:func:`games.warm`),
with the corrected data files it was started with, so the first board of each game is
drawn about as quickly as the hundredth. A game
that fails to warm is logged and drawn cold when asked for; the worker draws on.
"""

from __future__ import annotations

import gc
import logging
import os
import pickle
import signal
import socket
import struct
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    from i18n import Locale

HEADER = struct.Struct(">I")

Answer = tuple[str, object]
"""A worker's answer to a task: ``("ok", what it made)`` or ``("error", the exception)``."""
"""A message's length, before its pickle."""

log = logging.getLogger(__name__)
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
"""The bot's log format (``bot.logs.FORMAT``), for the lines a worker process logs."""


@dataclass(frozen=True)
class Warmed:
    """What a warm-up did: the games whose first board is now warm, those that failed (by
    slug, the error in a line), and how many seconds it took."""

    games: tuple[str, ...] = ()
    failed: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0


def warm(slugs: Iterable[str] | None = None) -> Warmed:
    """Warm the renderers of ``slugs`` (every registered game by default) in this process,
    with the data files loaded now (:func:`games.warm`). A game that fails is logged and
    left to be drawn cold; this never raises."""
    started = time.perf_counter()
    done: list[str] = []
    failed: dict[str, str] = {}
    try:
        import games

        for slug in list(games.SPECS) if slugs is None else slugs:
            try:
                games.warm(slug)
            except Exception as error:  # a board of it is drawn cold, or says why it cannot
                log.exception(
                    "could not warm the pictures of %s; its first board is drawn cold", slug
                )
                failed[slug] = f"{type(error).__name__}: {error}"
            else:
                done.append(slug)
    except Exception as error:
        log.exception("could not warm the pictures; boards are drawn cold")
        failed["*"] = f"{type(error).__name__}: {error}"
    seconds = time.perf_counter() - started
    log.debug("warmed the pictures of %s in %.2f s", ", ".join(done) or "no game", seconds)
    return Warmed(tuple(done), failed, seconds)


_warmed = Warmed()
"""This worker's warm-up, once it is over."""


def warmed() -> Warmed:
    """This worker's warm-up: asked for, it answers once the warm-up is over."""
    return _warmed


def draw(
    slug: str,
    view: dict[str, Any],
    corrections: dict[str, Any] | None = None,
    locale: Locale = "en",
) -> bytes:
    """The PNG of a public view of game ``slug`` with ``corrections`` of its data, its
    words in ``locale``."""
    from engines import data
    from games import render

    with data.corrected(corrections):
        return render(slug, view, locale)


def animate(pictures: list[bytes]) -> bytes:
    from games import animation

    return animation.animate(pictures)


class Collected(TypedDict):
    """What a worker's garbage collector holds (see :func:`collector`)."""

    frozen: int
    pending: list[int]


def collector() -> Collected:
    """What this worker's garbage collector holds: the objects kept out of collections
    (``frozen``) and the allocations counted towards the next collection of each
    generation (``pending``)."""
    return {"frozen": gc.get_freeze_count(), "pending": list(gc.get_count())}


TASKS: dict[str, Callable[..., object]] = {
    "draw": draw, "animate": animate, "warmed": warmed, "collector": collector,
}  # fmt: skip


def receive(connection: socket.socket) -> object:
    """The next message's object; EOFError once the socket is closed."""
    (length,) = HEADER.unpack(_exactly(connection, HEADER.size))
    return pickle.loads(_exactly(connection, length))


def framed(message: object) -> bytes:
    """``message`` as it goes over the socket: its pickle's length, then the pickle."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


def send(connection: socket.socket, message: object) -> None:
    connection.sendall(framed(message))


def _exactly(connection: socket.socket, size: int) -> bytes:
    buffer = bytearray(size)
    view = memoryview(buffer)
    got = 0
    while got < size:
        read = connection.recv_into(view[got:])
        if not read:
            raise EOFError("the pool closed the socket")
        got += read
    return bytes(buffer)


def _answer(request: object) -> Answer:
    """The answer to a request framed by the pool: ``(task, args)``."""
    try:
        match request:
            case (str() as task, tuple() as args):
                return ("ok", TASKS[task](*args))
        raise TypeError(f"not a task and its arguments: {type(request).__name__}")
    except Exception as error:  # told to the caller, who decides
        try:
            pickle.dumps(error)
        except Exception:
            error = RuntimeError(repr(error))
        return ("error", error)


def _settle() -> None:
    """Collect the warm-up's garbage now, and keep what it built (fonts, glyphs, layouts,
    PNG bands) out of later collections. Else a full collection, a pass over all of it,
    may fall on the first board asked for and double its time. Only a worker process does
    this: freezing objects is not the business of a bot that warms in a thread."""
    gc.collect()
    gc.freeze()


def main(argv: list[str]) -> None:
    global _warmed
    import games

    # Ctrl-C at a terminal reaches the whole process group: the bot closes its pool, and a
    # worker ends when its socket does, without a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not logging.getLogger().handlers:  # its lines go to the bot's stderr, as the bot's do
        logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    connection = socket.socket(fileno=int(argv[0]))
    games.use_overrides(argv[1] if len(argv) > 1 and argv[1] else None)
    if "cold" not in argv[2:]:
        # Requests wait in the socket meanwhile; the first of each game is then drawn warm.
        _warmed = warm()
        _settle()
        log.info(
            "picture worker %d warmed %d games in %.2f s",
            os.getpid(), len(_warmed.games), _warmed.seconds,
        )  # fmt: skip
    while True:
        try:
            request = receive(connection)
        except (EOFError, OSError):
            return
        send(connection, _answer(request))


if __name__ == "__main__":
    # Run as this module by name, not as ``__main__``, so what it sends (a Warmed) unpickles
    # in the bot as the same class.
    from bot.service.boards import picture_worker

    picture_worker.main(sys.argv[1:])
