"""Requests the pages' server cannot read, sent as raw bytes over a real socket: each is
refused with 400, and the log says so at INFO without a traceback, once a minute per client
at most, so nobody can fill the log by sending rubbish."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.web.server import WebServer
from tests.web.test_routes import host  # noqa: F401 (fixture)

MALFORMED = {
    "a bad method": b"BR\x00KEN / HTTP/1.1\r\nHost: x\r\n\r\n",
    "an 8 KB request line": b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    "too many headers": (
        b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: a\r\n" % i for i in range(300)) + b"\r\n"
    ),
    "a huge header": b"GET / HTTP/1.1\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n",
    "bad URL bytes": b"GET /g/\xff\x00ab HTTP/1.1\r\nHost: x\r\n\r\n",
    "a bad method after a good request": (
        b"GET /static/icon.svg HTTP/1.1\r\nHost: x\r\n\r\nBR\x00KEN / HTTP/1.1\r\n\r\n"
    ),
}


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def server(host):  # noqa: F811
    clock = FakeClock()
    server = WebServer(host.pages, "127.0.0.1", 0, clock=clock)
    await server.start()
    server.clock = clock  # type: ignore[attr-defined]
    yield server
    await server.close()


async def _send(port: int, raw: bytes, source: str = "127.0.0.1") -> bytes:
    """The server's whole answer to ``raw``, sent from the address ``source``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        writer.write(raw)
        await writer.drain()
        return await reader.read()  # the server closes the connection after a 400
    finally:
        writer.close()


def _lines(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "aiohttp.server"]


async def test_each_malformed_request_is_refused_and_logged_once_a_minute(server, caplog):
    caplog.set_level(logging.DEBUG)
    for kind, raw in MALFORMED.items():
        answer = await _send(server.port, raw)
        assert b"400 Bad Request" in answer, kind
    lines = _lines(caplog)
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert lines[0].levelno == logging.INFO
    assert lines[0].exc_info is None and not lines[0].exc_text
    assert "127.0.0.1" in lines[0].getMessage()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]

    server.clock.now += 59
    await _send(server.port, MALFORMED["a bad method"])
    assert len(_lines(caplog)) == 1  # still within the minute
    server.clock.now += 1
    await _send(server.port, MALFORMED["an 8 KB request line"])
    later = _lines(caplog)
    assert len(later) == 2 and later[1].levelno == logging.INFO
    assert f"{len(MALFORMED)} more" in later[1].getMessage()  # what went unlogged is told


async def test_each_client_has_a_minute_of_its_own(server, caplog):
    caplog.set_level(logging.DEBUG)
    for source in ("127.0.0.2", "127.0.0.3", "127.0.0.2", "127.0.0.3"):
        answer = await _send(server.port, MALFORMED["too many headers"], source)
        assert b"400 Bad Request" in answer
    said = [r.getMessage() for r in _lines(caplog)]
    assert len(said) == 2, said
    assert "127.0.0.2" in said[0] and "127.0.0.3" in said[1]


async def test_a_malformed_request_is_logged_without_its_bytes(server, caplog, host):  # noqa: F811
    caplog.set_level(logging.DEBUG)
    token = "SecretPageTokenAbcdef12"
    await _send(server.port, b"GET /g/" + token.encode() + b"\x00 HTTP/1.1\r\n\r\n")
    await _send(server.port, b"G\x00T /g/" + token.encode() + b" HTTP/1.1\r\n\r\n", "127.0.0.5")
    assert len(_lines(caplog)) == 2
    assert token not in caplog.text
