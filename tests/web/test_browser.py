"""A game's page in a real browser (headless Chromium), served by the real bot on a
simulated Discord: the game is opened and played with slash commands and clicks, its page
opened from the link in the game's status message, and the move the open page follows is
made through the bot's host (see ``move``). The page shows the board, steps
through the replay with the arrow keys, Home and End, follows the game live without a
reload, and fits a phone's width and a desktop's. Screenshots of both widths are left in
the test's folder.

Without Chromium these tests fail, saying how to get it (see tests/web/browser.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image

from bot.settings import Settings
from tests.bot.leak_checks import everyone_asked
from tests.e2e import conftest as e2e
from tests.e2e.conftest import status_messages, text_of
from tests.e2e.test_stgeorge import open_two_player_game, play_turn
from tests.web.browser import Browser, Tab, chromium

# the end-to-end tests' bot on a simulated Discord, with this module's settings
bots, simcord_bot, simcord_env, world = e2e.bots, e2e.simcord_bot, e2e.simcord_env, e2e.world

WEB_URL = "https://dragons.example.org"
LINK = re.compile(re.escape(WEB_URL) + r"(/g/[A-Za-z0-9_-]+)")
MOVE_LINKS = "document.querySelectorAll('#moves a[data-at]').length"
LOADED = "(() => { const b = document.getElementById('board'); \
return b.complete && b.naturalWidth > 0; })()"


@pytest.fixture(scope="module")
def browser():
    """One Chromium for the module's tests; each test opens its own tabs."""
    opened = Browser(chromium())
    yield opened
    opened.close()


@pytest.fixture
def settings(tmp_path):
    """The bot serving its pages on a free port, its games in SQLite (the stores are the
    other tests' business)."""
    return Settings(
        database=str(tmp_path / "games.sqlite3"), seed=1234, members_intent=True,
        paced=False, web_port=0, web_url=WEB_URL,
    )  # fmt: skip


async def game_page(world, bot, turns: int) -> tuple[str, dict]:
    """A two-player St. George game played ``turns`` turns through Discord; the address
    of its page (from the status message's link, on the port the bot listens on) and
    the players."""
    channel, players = await open_two_player_game(world)
    for _ in range(turns):
        await play_turn(channel, players)
    [status] = status_messages(channel)
    found = LINK.search(text_of(status))
    assert found, text_of(status)
    return f"http://127.0.0.1:{bot.web.port}{found.group(1)}", players


async def shown(tab: Tab) -> tuple[str, str]:
    """The board's address and the replay's "n / last" as the page shows them."""
    src, where = await tab.evaluate(
        "[document.getElementById('board').getAttribute('src'),"
        " document.getElementById('where').textContent]"
    )
    return src, where


async def showing(tab: Tab, at: int, last: int) -> None:
    """Until the page shows position ``at`` of ``last``, its board loaded."""
    await tab.wait_for(
        f"document.getElementById('where').textContent === '{at} / {last}'"
        f" && document.getElementById('board').getAttribute('src').endsWith('/board/{at}.png')"
        f" && {LOADED}"
    )
    src, where = await shown(tab)
    assert where == f"{at} / {last}" and src.endswith(f"/board/{at}.png")


async def latest(tab: Tab) -> int:
    return int(await tab.evaluate("document.body.dataset.latest"))


async def test_the_page_opens_and_the_keys_step_through_the_replay(
    simcord_env, world, simcord_bot, browser
):
    url, _ = await game_page(world, simcord_bot, turns=3)
    tab = await browser.open(url)
    assert "St. George and the Dragon" in await tab.evaluate("document.title")
    last = await latest(tab)
    assert last >= 3
    await showing(tab, last, last)
    assert await tab.evaluate(MOVE_LINKS) == last  # one link per move
    await tab.press("ArrowLeft")
    await showing(tab, last - 1, last)
    assert await tab.evaluate("location.search") == f"?at={last - 1}"
    await tab.press("Home")
    await showing(tab, 0, last)
    await tab.press("ArrowLeft")  # nothing before the first position
    await showing(tab, 0, last)
    await tab.press("ArrowRight")
    await showing(tab, 1, last)
    assert "Position 1 of" in await tab.evaluate("document.getElementById('caption').textContent")
    await tab.press("End")
    await showing(tab, last, last)
    await tab.press("ArrowRight")  # nor after the newest
    await showing(tab, last, last)
    assert await tab.evaluate("location.search") == ""
    await tab.click("#moves a[data-at='2']")  # a move in the list shows its position
    await showing(tab, 2, last)
    assert await tab.evaluate(
        "document.querySelector('#moves a[aria-current=step]').dataset.at"
    ) == "2"  # fmt: skip
    assert tab.errors == []
    await tab.close()


async def test_a_move_shows_on_the_open_page_without_a_reload(
    simcord_env, world, simcord_bot, browser
):
    url, players = await game_page(world, simcord_bot, turns=1)
    following = await browser.open(url)
    looking_back = await browser.open(url)
    before = await latest(following)
    await showing(following, before, before)
    await looking_back.press("Home")
    await showing(looking_back, 0, before)
    moves = await following.evaluate(MOVE_LINKS)
    for tab in (following, looking_back):
        await tab.evaluate("window.__marker = 1")
        # the stream is open: the script has the parts of the page it sent first
        await tab.wait_for("document.body.dataset.version !== undefined")
    after = await move(simcord_bot, url, [member.id for member in players.values()])
    await following.wait_for(f"{MOVE_LINKS} > {moves}")
    await showing(following, after, after)  # who watched the newest sees the newest
    assert "Newest position" in await following.evaluate(
        "document.getElementById('caption').textContent"
    )
    await looking_back.wait_for(f"{MOVE_LINKS} > {moves}")
    await showing(looking_back, 0, after)  # who looked back stays where they were
    for tab in (following, looking_back):
        assert await tab.evaluate("window.__marker") == 1  # the same page: not reloaded
        assert tab.errors == []
        await tab.close()


async def move(bot, url: str, users: list[int]) -> int:
    """Whoever is asked acts through the bot's host (as a click would) until the game has
    a new position; that position. (A click on the simulated Discord would wait for all
    the bot's work to end, the open page's event stream included, which never does.)"""
    page = await bot.host.pages.page(url.rsplit("/", 1)[1])
    for _ in range(5):
        user, control = (await everyone_asked(bot.host, page.number, users))[0]
        await bot.host.turns.act(
            game_id=page.number, user_id=user, action=control.choices[0].action
        )
        now = await bot.host.pages.page(page.token)
        if now.latest > page.latest:
            return now.latest
    raise AssertionError("five actions and no new position")


@pytest.mark.parametrize("width", [400, 1280])
async def test_the_page_fits_a_phone_and_a_desktop(
    simcord_env, world, simcord_bot, browser, tmp_path, width
):
    url, _ = await game_page(world, simcord_bot, turns=2)
    tab = await browser.open(url, width=width)
    await tab.wait_for(LOADED)
    shot = tmp_path / f"page-{width}px.png"
    await tab.screenshot(shot)
    layout = await tab.evaluate(
        """(() => {
        const box = (id) => document.getElementById(id).getBoundingClientRect().toJSON();
        return {
            inner: window.innerWidth,
            scroll: document.documentElement.scrollWidth,
            board: box('board'),
            moves: box('moves'),
        };
    })()"""
    )
    assert layout["inner"] == width
    assert layout["scroll"] <= layout["inner"], "the page scrolls sideways"
    board = layout["board"]
    assert board["left"] >= 0 and board["right"] <= layout["inner"], board
    assert board["width"] >= layout["inner"] / 2, board  # the board is not a thumbnail
    moves = layout["moves"]
    if width < 900:  # one column: the moves under the board
        assert moves["top"] >= board["bottom"], (board, moves)
    else:  # the moves beside the board
        assert moves["left"] >= board["right"], (board, moves)
    assert _png_width(shot) == width  # nothing wider was drawn
    assert tab.errors == []
    await tab.close()


def _png_width(path: Path) -> int:
    with Image.open(path) as image:
        assert image.format == "PNG"
        return image.width
