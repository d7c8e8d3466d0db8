"""One drawing process of :class:`bot.service.pictures.Pictures`.

``python -m bot.service.picture_worker FD [DATA_OVERRIDES]``: requests come in over the
socket ``FD`` it was given, one at a time, each answered before the next is read: a
length-prefixed pickle of ``(task, args)`` in, of ``("ok", result)`` or ``("error",
exception)`` out. The process ends when the socket closes (its pool closed it, or the
bot's process ended).
"""

from __future__ import annotations

import pickle
import signal
import socket
import struct
import sys
from collections.abc import Callable
from typing import Any

HEADER = struct.Struct(">I")
"""A message's length, before its pickle."""


def draw(slug: str, view: dict[str, Any], corrections: dict[str, Any] | None = None) -> bytes:
    from engines import data
    from games import render

    with data.corrected(corrections):
        return render(slug, view)


def animate(pictures: list[bytes]) -> bytes:
    from games import animation

    return animation.animate(pictures)


TASKS: dict[str, Callable[..., bytes]] = {"draw": draw, "animate": animate}


def receive(connection: socket.socket) -> Any:
    """The next message's object; EOFError once the socket is closed."""
    (length,) = HEADER.unpack(_exactly(connection, HEADER.size))
    return pickle.loads(_exactly(connection, length))


def framed(message: Any) -> bytes:
    """``message`` as it goes over the socket: its pickle's length, then the pickle."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


def send(connection: socket.socket, message: Any) -> None:
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


def _answer(task: str, args: tuple[Any, ...]) -> tuple[str, Any]:
    try:
        return ("ok", TASKS[task](*args))
    except Exception as error:  # told to the caller, who decides
        try:
            pickle.dumps(error)
        except Exception:
            error = RuntimeError(repr(error))
        return ("error", error)


def main(argv: list[str]) -> None:
    from engines import data

    # Ctrl-C at a terminal reaches the whole process group: the bot closes its pool, and a
    # worker ends when its socket does, without a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    connection = socket.socket(fileno=int(argv[0]))
    data.use_overrides(argv[1] if len(argv) > 1 and argv[1] else None)
    while True:
        try:
            task, args = receive(connection)
        except (EOFError, OSError):
            return
        send(connection, _answer(task, args))


if __name__ == "__main__":
    main(sys.argv[1:])
