"""A game's page is written in its server's language, on both stores: in the pseudo-locale
``en-XA`` every word of the page's own goes through the catalog (bracketed ⟦…⟧), and the
page says which language it is in (``<html lang>``), its live updates too. An address
that shows nothing answers in the reader's browser language."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

from aiohttp.test_utils import TestClient, TestServer

from bot.service.host import GameHost
from bot.web.app import build_app
from bot.web.html import words
from games import render
from i18n.pseudo import CLOSE, OPEN
from tests.bot.clocks import TickingClock
from tests.bot.leak_checks import USERS
from tests.web.events import EventReader
from tests.web.test_routes import GUILD, WEB_URL, open_game, play, token_of

WORDS = re.compile(r"[^\W\d_]{2,}")


class PageWords(HTMLParser):
    """A page's words outside the catalog's brackets (in its text and in the attributes a
    reader hears: ``alt``, ``aria-label``), each where it was met, with the page's
    language; the JSON of its scripts is read apart."""

    def __init__(self) -> None:
        super().__init__()
        self.outside: list[str] = []
        self.lang: str | None = None
        self.scripts: list[str] = []
        self._depth = 0
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "html":
            self.lang = found.get("lang")
        self._in_script = tag == "script"
        for name in ("alt", "aria-label"):
            if found.get(name):
                self._read(found[name] or "", alone=True)

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)
        else:
            self._read(data)

    def _read(self, text: str, alone: bool = False) -> None:
        depth = 0 if alone else self._depth
        outside = ""
        for char in text:
            if char == OPEN:
                depth += 1
            elif char == CLOSE:
                depth -= 1
            elif depth == 0:
                outside += char
        if not alone:
            self._depth = depth
        if WORDS.search(outside):
            self.outside.append(outside.strip())


def read(page: str) -> PageWords:
    parser = PageWords()
    parser.feed(page)
    return parser


async def test_a_server_in_the_pseudo_locale_serves_its_pages_in_it(store):
    host = GameHost(
        store, renderer=render, clock=TickingClock(), seeds=random.Random(5), web_url=WEB_URL
    )
    await host.languages.set_server(GUILD, USERS[0], "en-XA", is_admin=True)
    game_id = await open_game(host)
    await play(host, game_id, 3)
    token = await token_of(host, game_id)
    async with TestClient(TestServer(build_app(host.pages, languages=host.languages))) as client:
        newest = await (await client.get(f"/g/{token}")).text()
        earlier = await (await client.get(f"/g/{token}?at=1")).text()
        stream = await client.get(f"/g/{token}/events?from=1")
        update = await EventReader(stream.content).next("page")
        stream.close()
    shown = await host.pages.page(token)
    assert shown is not None
    # The game's own words: its title, roles and players, and what the engine tells of
    # each move (the engines' texts are not catalog messages yet).
    game = [shown.title, *(s.role for s in shown.seats), *(s.player for s in shown.seats)]
    game += [m.said for m in shown.moves]
    game_words = {word for text in game for word in WORDS.findall(words(text, "en"))}
    for page in (newest, earlier):
        found = read(page)
        assert found.lang == "en-XA"
        assert "⟦Ṁöṽéš ~~⟧" in page and "⟦Šéáţš ~~⟧" in page
        # Every other word of the page is the page's own, and went through the catalog.
        left = {word for text in found.outside for word in WORDS.findall(text)}
        assert left and left <= game_words, found.outside
    assert "⟦Þöšîţîöñ 1 öƒ 3. ~~~~~~~~⟧" in earlier
    assert '"position": "⟦Þöšîţîöñ {index} öƒ {last}. ~~~~~~~~⟧"' in newest  # for the script
    assert "⟦Ŵáîţîñĝ ƒöŕ" in update["status"]


async def test_an_english_server_serves_its_pages_in_english(store):
    host = GameHost(store, renderer=render, clock=TickingClock(), web_url=WEB_URL)
    game_id = await open_game(host, start=False)
    token = await token_of(host, game_id)
    async with TestClient(TestServer(build_app(host.pages, languages=host.languages))) as client:
        page = await (await client.get(f"/g/{token}")).text()
    assert read(page).lang == "en" and OPEN not in page
    assert "The game has not started yet" in page


async def test_an_address_that_shows_nothing_answers_in_the_readers_language(store):
    host = GameHost(store, renderer=render, clock=TickingClock(), web_url=WEB_URL)
    async with TestClient(TestServer(build_app(host.pages))) as client:
        wanted = {"Accept-Language": "xx, en-XA;q=0.8, de;q=0.5"}
        pseudo = await client.get("/g/" + "x" * 24, headers=wanted)
        plain = await client.get("/g/" + "x" * 24)
        assert pseudo.status == plain.status == 404
        assert read(await pseudo.text()).lang == "en-XA"
        assert "⟦Ñöţ ƒöûñð ~~~⟧" in await pseudo.text()
        assert "<h1>Not found</h1>" in await plain.text()
