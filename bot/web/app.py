"""The routes of the game pages: a page, its boards, its live updates, and the page's own
script and style. Nothing else is served; anything else is a plain 404.

A game's page is written in its server's language (:class:`ServerLanguages`, the host's
``languages``), and says so in its ``lang``; an address that shows nothing answers in the
reader's browser language.

Every response carries the security headers (:data:`HEADERS`): a Content-Security-Policy
allowing only this server's own script, style and pictures, and no framing. No cookie is
ever set. Work per request is bounded: a page's story is walked once per version (and
kept), boards come from the host's drawing (its cache, or its picture workers).
"""

from __future__ import annotations

import asyncio
import json
import re
from importlib import resources
from typing import Protocol

from aiohttp import web

import i18n
from bot.service.history.web_pages import GamePage, Pages
from bot.web import html
from bot.web.streams import RETRY_AFTER, NoPlace, StreamLimits, Streams, client_of
from i18n import Locale

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
HEARTBEAT = 20.0
"""Seconds between the comments an idle event stream sends, so proxies keep it open."""
SHUTDOWN_WAIT = 1.0
"""Seconds the event streams get to end when the server stops."""
TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")
"""What a page token may look like; anything else is not looked up."""
COUNT = re.compile(r"[0-9]+")
"""A position or a count in a query: ASCII digits only (``str.isdigit`` also takes "²"
and "①", which ``int`` refuses)."""
COUNT_DIGITS = 9
"""Digits read of a count at most; a longer one is past the end of any game (and ``int``
refuses more than 4,300 digits)."""
PAST_ANY_END = 10**COUNT_DIGITS
STATIC = {
    "page.js": "text/javascript",
    "page.css": "text/css",
    "icon.svg": "image/svg+xml",
}


class ServerLanguages(Protocol):
    """Which language a server's public texts are written in (the host's ``languages``)."""

    async def server(self, guild_id: int | None, *, seen: str | None = None) -> Locale: ...


class _English:
    """Every server's language, where no one was given: English."""

    async def server(self, guild_id: int | None, *, seen: str | None = None) -> Locale:
        return i18n.DEFAULT


PAGES = web.AppKey("pages", Pages)
LANGUAGES = web.AppKey("languages", ServerLanguages)
STREAMS = web.AppKey("streams", Streams)
CLOSING = web.AppKey("closing", asyncio.Event)
SERVER_OPTIONS = {"handler_cancellation": True}
"""How the application is served (``AppRunner``'s options): a request whose reader left
is ended at once, so an event stream gives its place back the moment it is closed."""


def build_app(
    pages: Pages, limits: StreamLimits | None = None, languages: ServerLanguages | None = None
) -> web.Application:
    """The web application serving ``pages``, each in its game's server's language as
    ``languages`` says (without it, in English), with at most ``limits`` event streams
    open at once; serve it with :data:`SERVER_OPTIONS`."""
    app = web.Application()
    app[PAGES] = pages
    app[LANGUAGES] = languages or _English()
    app[STREAMS] = Streams(limits)
    app[CLOSING] = asyncio.Event()
    app.on_response_prepare.append(_secure)
    app.on_shutdown.append(_end_streams)
    app.router.add_get("/g/{token}", _page)
    app.router.add_get("/g/{token}/board/{index:[0-9]{1,6}}.png", _board)
    app.router.add_get("/g/{token}/events", _events, allow_head=False)
    app.router.add_get("/static/{name}", _static)
    return app


def count(text: str | None) -> int | None:
    """The count (a position, how many positions) ``text`` gives in a query: None unless
    it is ASCII digits; a longer one than any game reaches counts as :data:`PAST_ANY_END`."""
    if text is None or not COUNT.fullmatch(text):
        return None
    digits = text.lstrip("0") or "0"
    return PAST_ANY_END if len(digits) > COUNT_DIGITS else int(digits)


async def _secure(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(HEADERS)


def _not_found(request: web.Request) -> web.Response:
    text = html.not_found_html(reader_locale(request.headers.get("Accept-Language")))
    response = web.Response(status=404, text=text, content_type="text/html")
    response.headers["Vary"] = "Accept-Language"
    return response


def reader_locale(accepted: str | None) -> Locale:
    """The first language of an ``Accept-Language`` header that the host speaks (in the
    reader's order, their weights aside), else English."""
    for item in (accepted or "").split(",")[:MAX_LANGUAGES]:
        found = i18n.normalise(item.partition(";")[0].strip()[:MAX_TAG])
        if found is not None:
            return found
    return i18n.DEFAULT


MAX_LANGUAGES = 16
"""Languages of a header read at most (a header is free text)."""
MAX_TAG = 35
"""Characters of a language tag read at most (BCP 47's longest useful tags fit)."""


async def page_locale(request: web.Request, page: GamePage) -> Locale:
    """The language ``page`` is written in: its game's server's."""
    return await request.app[LANGUAGES].server(page.guild_id)


async def _found(request: web.Request) -> GamePage | None:
    token = request.match_info["token"]
    if not TOKEN.fullmatch(token):
        return None
    return await request.app[PAGES].page(token)


async def _page(request: web.Request) -> web.StreamResponse:
    page = await _found(request)
    if page is None:
        return _not_found(request)
    shown = count(request.query.get("at"))
    written = html.page_html(page, shown, await page_locale(request, page))
    response = web.Response(text=written, content_type="text/html")
    response.headers["Cache-Control"] = "no-store"
    response.enable_compression()  # a long game's page is mostly its moves: text
    return response


async def _board(request: web.Request) -> web.StreamResponse:
    token = request.match_info["token"]
    if not TOKEN.fullmatch(token):
        return _not_found(request)
    picture = await request.app[PAGES].picture(token, int(request.match_info["index"]))
    if picture is None:
        return _not_found(request)
    response = web.Response(body=picture, content_type="image/png")
    # A position never changes (the log only grows); a renewed address ends it anyway.
    response.headers["Cache-Control"] = "private, max-age=86400, immutable"
    return response


async def _static(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    kind = STATIC.get(name)
    if kind is None:
        return _not_found(request)
    body = resources.files("bot.web").joinpath("static", name).read_bytes()
    charset = "utf-8" if kind.startswith("text/") else None
    response = web.Response(body=body, content_type=kind, charset=charset)
    response.headers["Cache-Control"] = "public, max-age=3600"
    response.enable_compression()
    return response


async def _events(request: web.Request) -> web.StreamResponse:
    """Server-Sent Events: ``page`` with the parts of the page now (positions from the
    ``from`` the script already has), again each time the game moves on; ``gone`` when
    the address stops finding the game. A stream holds a place (:class:`Streams`) from
    its first byte to its end; with no place for it, the answer is 503."""
    pages = request.app[PAGES]
    page = await _found(request)
    if page is None:
        return _not_found(request)
    since = count(request.query.get("from")) or 0
    sent = min(since, len(page.positions))
    try:
        with request.app[STREAMS].place(client_of(request), page.number):
            return await _stream(request, pages, page, sent)
    except NoPlace as refused:
        return web.Response(
            status=503, text=str(refused), headers={"Retry-After": str(RETRY_AFTER)}
        )


async def _stream(
    request: web.Request, pages: Pages, first: GamePage, sent: int
) -> web.StreamResponse:
    """Send ``page`` (from position ``sent``) and each newer version of it, until the
    reader leaves, the address changes or the server stops."""
    response = web.StreamResponse(headers={
        "Content-Type": "text/event-stream", "Cache-Control": "no-store",
        "X-Accel-Buffering": "no",  # nginx: pass each event on at once
    })  # fmt: skip
    await response.prepare(request)
    try:
        await response.write(b"retry: 3000\n\n")
        page: GamePage | None = first
        locale = await page_locale(request, first)
        while page is not None:
            await _send(response, "page", html.parts(page, sent, locale))
            sent = len(page.positions)
            page = await _next(pages, page, response, request.app[CLOSING])
            if page is not None and page.token != first.token:
                page = None
        if not request.app[CLOSING].is_set():
            await _send(response, "gone", {})
    except ConnectionResetError:
        pass  # the reader went away
    return response


async def _next(
    pages: Pages, page: GamePage, response: web.StreamResponse, closing: asyncio.Event
) -> GamePage | None:
    """The page once the game has moved on (None: the address no longer finds it, or the
    server is stopping), keeping the stream open with a comment while it waits."""
    while not closing.is_set():
        moved = asyncio.ensure_future(pages.follows.moved(page.number, page.version))
        stopping = asyncio.ensure_future(closing.wait())
        try:
            done, _ = await asyncio.wait(
                {moved, stopping}, timeout=HEARTBEAT, return_when="FIRST_COMPLETED"
            )
        finally:
            # Also when the reader left (this task is cancelled): the game is no longer
            # followed for it once the stream's place is given back.
            for waiting in (moved, stopping):
                waiting.cancel()
            await asyncio.gather(moved, stopping, return_exceptions=True)
        if moved in done:
            return await pages.page(page.token)
        if not done:
            await response.write(b": still here\n\n")
    return None


async def _send(response: web.StreamResponse, event: str, data: object) -> None:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    await response.write(f"event: {event}\ndata: {text}\n\n".encode())


async def _end_streams(app: web.Application) -> None:
    """End every event stream when the server stops, each properly closed (a browser's
    EventSource connects again after ``retry``, to this server or the next)."""
    app[CLOSING].set()
    tasks = app[STREAMS].tasks
    if tasks:
        await asyncio.wait(tasks, timeout=SHUTDOWN_WAIT)
