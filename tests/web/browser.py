"""A real browser for the page tests: the system's headless Chromium, driven by Playwright.

Playwright runs on an event loop of its own, in a thread of its own, so one browser serves
a whole test module (its loop outlives each test's) and waiting on the browser never holds
up the loop the bot runs on: a test awaits what it asks of a tab on its own loop while the
bot goes on serving the page.

Playwright is never allowed to fetch a browser of its own: it launches the Chromium of
``CHROMIUM`` (a path), else ``/usr/bin/chromium``, else ``chromium`` on ``PATH``; without
one the tests fail, saying how to get it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

import pytest

T = TypeVar("T")

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Chromium's switches for a machine without a display, a GPU or a network."""

WAIT_MS = 30_000
"""How long a condition waited for in the browser may take before the test fails (each
wait ends as soon as its condition holds; this only bounds a page that never gets there)."""

HOW_TO_GET_IT = (
    "The browser tests need Chromium: install Debian's package (as root: "
    "`apt-get install chromium`; `make test` does it when run as root), or set CHROMIUM "
    "to the path of a Chromium binary."
)


def chromium() -> str:
    """The path of the Chromium to drive; fails the test (never skips it) without one."""
    chosen = os.environ.get("CHROMIUM", "").strip()
    if chosen:
        if not (Path(chosen).is_file() and os.access(chosen, os.X_OK)):
            pytest.fail(f"CHROMIUM={chosen!r} is not an executable file. {HOW_TO_GET_IT}")
        return chosen
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    found = shutil.which("chromium")
    if found is None:
        pytest.fail(f"No Chromium found (/usr/bin/chromium, or chromium on PATH). {HOW_TO_GET_IT}")
    return found


class Browser:
    """One headless Chromium, on Playwright's own loop in a thread of its own."""

    def __init__(self, executable: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._playwright: Any = None
        self._browser: Any = None
        try:
            self._wait(self._launch(executable))
        except BaseException:
            self.close()
            raise

    async def _launch(self, executable: str) -> None:
        try:
            from playwright.async_api import async_playwright
        except ImportError:
            pytest.fail("Playwright is missing: `make test` installs it (pyproject's test extras).")
        self._playwright = await async_playwright().start()
        self._browser = await self._playwright.chromium.launch(
            executable_path=executable, args=FLAGS, headless=True
        )

    def _wait(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result()

    async def run(self, work: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """``work()`` run on the browser's loop, awaited on the caller's."""
        future: Future[T] = asyncio.run_coroutine_threadsafe(work(), self._loop)
        return await asyncio.wrap_future(future)

    async def open(self, url: str, width: int = 1280, height: int = 900) -> Tab:
        """A new tab (with a fresh context: no cookies, no cache) showing ``url``."""

        async def opening() -> Any:
            context = await self._browser.new_context(viewport={"width": width, "height": height})
            context.set_default_timeout(WAIT_MS)
            page = await context.new_page()
            tab = Tab(self, page)
            page.on("pageerror", lambda error: tab.errors.append(f"page error: {error}"))
            page.on("console", tab._console)
            await page.goto(url, wait_until="load")
            return tab

        return await self.run(opening)

    def close(self) -> None:
        async def closing() -> None:
            if self._browser is not None:
                await self._browser.close()
            if self._playwright is not None:
                await self._playwright.stop()

        try:
            if self._thread.is_alive():
                self._wait(closing())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()


class Tab:
    """One page in the browser; every method runs there and is awaited here."""

    def __init__(self, browser: Browser, page: Any) -> None:
        self._browser = browser
        self.page = page
        self.errors: list[str] = []
        """What the page's script threw and what the browser logged as an error (a
        refused script or style, a failed load)."""

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text} ({message.location.get('url', '')})")

    async def _on_page(self, work: Callable[[Any], Awaitable[T]]) -> T:
        async def run() -> T:
            return await work(self.page)

        return await self._browser.run(run)

    async def evaluate(self, script: str) -> Any:
        return await self._on_page(lambda page: page.evaluate(script))

    async def wait_for(self, condition: str) -> None:
        """Until the JavaScript expression ``condition`` is true in the page. (Given as a
        function: an expression would be polled with ``eval``, which the page's Content
        Security Policy rightly refuses.)"""
        check = f"() => ({condition})"
        await self._on_page(lambda page: page.wait_for_function(check, timeout=WAIT_MS))

    async def press(self, key: str) -> None:
        await self._on_page(lambda page: page.keyboard.press(key))

    async def click(self, selector: str) -> None:
        await self._on_page(lambda page: page.click(selector))

    async def resize(self, width: int, height: int = 900) -> None:
        await self._on_page(lambda page: page.set_viewport_size({"width": width, "height": height}))

    async def screenshot(self, path: Path) -> None:
        await self._on_page(lambda page: page.screenshot(path=str(path), full_page=True))

    async def close(self) -> None:
        await self._on_page(lambda page: page.context.close())
