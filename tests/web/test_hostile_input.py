"""The game pages' routes given whatever a reader (or a scanner) puts in an address: no
parameter is trusted to be what it should be, and nothing typed makes the server fail
(5xx) or log an error."""

from __future__ import annotations

import logging
from urllib.parse import quote

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.web.app import STREAMS
from tests.web.events import EventReader
from tests.web.test_routes import client, host, open_game, play, token_of  # noqa: F401

DIGITISH = st.sampled_from(["²", "①", "٣", "߀", "𝟗", "0", "7", "-", "+", " ", "_", "\x00", "."])
HOSTILE = st.one_of(
    st.text(DIGITISH, min_size=1, max_size=12),
    st.text("0123456789", min_size=1, max_size=6000),
    st.text(min_size=1, max_size=40),
)
"""Numbers as ``str.isdigit`` sees them but ``int`` does not, numbers of any length, and
any text at all."""
TOO_LONG = "9" * 4301


def _q(text: str) -> str:
    return quote(text, safe="")


async def _answer(client, path: str) -> int:  # noqa: F811
    """The status of ``path`` (an event stream is read up to its first event)."""
    response = await client.get(path)
    try:
        if response.status == 200 and response.content_type == "text/event-stream":
            await EventReader(response.content).next("page")
        else:
            await response.read()
        return response.status
    finally:
        response.close()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=HOSTILE)
@example(value="²")
@example(value="①")
@example(value=TOO_LONG)
@example(value="1" + "0" * 4400)
@example(value="0" * 5000 + "1")
async def test_no_parameter_of_any_route_makes_the_server_fail(host, client, caplog, value):  # noqa: F811
    caplog.set_level(logging.INFO)
    token = await _token(host)
    streams = client.server.app[STREAMS]
    expected = {
        f"/g/{token}?at={_q(value)}": {200},
        f"/g/{token}/events?from={_q(value)}": {200},
        f"/g/{_q(value)}": {404},
        f"/g/{_q(value)}/events": {404},
        f"/g/{_q(value)}/board/0.png": {404},
        f"/g/{token}/board/{_q(value)}.png": {200, 404},
        f"/g/{token}/board/{_q(value)}": {404},
        f"/static/{_q(value)}": {404},
        f"/{_q(value)}": {404},
    }
    for path, statuses in expected.items():
        status = await _answer(client, path)
        assert status in statuses, (path[:80], status)
    await streams.until(lambda s: s.open == 0)  # each stream read gave its place back
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


async def test_a_position_is_read_only_from_ascii_digits(host, client):  # noqa: F811
    token = await _token(host)
    for at, shown in (
        ("1", 1),
        ("01", 1),
        ("²", 4),
        ("①", 4),
        ("٣", 4),
        (TOO_LONG, 4),
        ("0" * 5000 + "3", 3),
    ):
        page = await (await client.get(f"/g/{token}?at={_q(at)}")).text()
        assert f'src="/g/{token}/board/{shown}.png"' in page, at
    assert (await client.get(f"/g/{token}/board/{_q('٣')}.png")).status == 404
    assert (await client.get(f"/g/{token}/board/3.png")).status == 200


async def test_a_stream_sends_the_positions_the_page_does_not_have(host, client):  # noqa: F811
    token = await _token(host)
    for since, sent in (("2", 3), ("²", 5), ("①", 5), (TOO_LONG, 0), ("", 5), ("99", 0)):
        response = await client.get(f"/g/{token}/events?from={_q(since)}")
        update = await EventReader(response.content).next("page")
        response.close()
        assert len(update["positions"]) == sent, since


async def _token(host) -> str:  # noqa: F811
    """The address of a game four moves in (the same game for every example)."""
    games = await host.store.games(guild_id=1, active_only=False, limit=5)
    if games:
        return await token_of(host, games[0].id)
    game_id = await open_game(host)
    await play(host, game_id, 4)
    return await token_of(host, game_id)
