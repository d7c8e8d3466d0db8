"""The local table serves its games' pages on localhost when asked to (``WEB_PORT``):
`/game page` prints the address, the page shows the game, and the status links it."""

import io
import re

import aiohttp

from bot.console.table import LocalTable

LINES = [
    "alice: /game new game:stgeorge players:2 role:knights",
    "bob: /game join",
    "alice: /game start",
    "alice: /game page",
]


async def test_the_local_table_serves_and_prints_each_game_s_page():
    out = io.StringIO()
    table = await LocalTable.open(seed=3, out=out, web_port=0)
    try:
        assert table.web is not None
        url = f"http://127.0.0.1:{table.web.port}"
        table.host.desk.web_url = url  # port 0: the address is known once it listens
        assert not await table.run_lines(LINES)
        shown = out.getvalue()
        [token] = set(re.findall(re.escape(url) + r"/g/([A-Za-z0-9_-]+)", shown))
        async with aiohttp.ClientSession() as session, session.get(f"{url}/g/{token}") as page:
            assert page.status == 200
            text = await page.text()
        assert "St. George and the Dragon #1" in text and "alice" in text and "bob" in text
    finally:
        await table.close()


async def test_without_a_port_the_table_serves_no_pages_and_says_so():
    out = io.StringIO()
    table = await LocalTable.open(seed=3, out=out)
    try:
        assert table.web is None
        await table.run_lines(LINES)
    finally:
        await table.close()
    assert "serves no web pages" in out.getvalue()
    assert "/g/" not in out.getvalue()


async def test_a_note_at_the_table_is_told_to_its_author_and_shown_with_hand():
    out = io.StringIO()
    table = await LocalTable.open(seed=3, out=out)
    try:
        refused = await table.run_lines([
            *LINES[:3],
            'alice: /game note text:"watch the Dragon"',
            "alice: /hand",
            "bob: /game note",
            "alice: /game note clear:yes",
        ])  # fmt: skip
    finally:
        await table.close()
    shown = out.getvalue()
    assert not refused, refused
    assert "Kept your note on St. George and the Dragon #1" in shown
    assert "📝 Your note: watch the Dragon" in shown
    assert "You have no note on St. George and the Dragon #1" in shown
    assert "Your note on St. George and the Dragon #1 is gone" in shown
