"""Logging for the bot and the local table, with no secret in any log line.

The bot's own log lines never name a secret (a card played face down, the Dragon's lair
square, a coin split, King's men strengths, face-down tiles). Libraries do at DEBUG:
aiosqlite logs every call with its SQL parameters (the stored game states and actions), and
discord.py logs request and response bodies, gateway events and component ids. :func:`protect`
installs a filter on those loggers that keeps each record but replaces the arguments that
carry data with a short description, so a log at any level shows what happened, never what
was stored or sent.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
HIDDEN = "<hidden>"


def _call_name(value: object) -> str:
    """``Connection.execute()`` for an aiosqlite call, never its arguments."""
    func = value.func if isinstance(value, functools.partial) else value
    name = getattr(func, "__qualname__", None) or getattr(func, "__name__", None)
    return f"{name}()" if name else HIDDEN


def _gateway_event(value: object) -> object:
    """A gateway payload as its opcode and event name only."""
    if isinstance(value, dict):
        return {key: value[key] for key in ("op", "t", "s") if key in value}
    return value if isinstance(value, int | float | type(None)) else HIDDEN


def _plain(value: object) -> object:
    """Numbers (ids, status codes, shard numbers) stay; anything else is hidden."""
    return value if isinstance(value, bool | int | float | type(None)) else HIDDEN


def _http(value: object) -> object:
    """Methods, URLs and numbers stay; bodies (request data, responses) are hidden."""
    if isinstance(value, str) and (value.isupper() or value.startswith(("http://", "https://"))):
        return value
    return _plain(value)


def _aiosqlite(value: object) -> object:
    if isinstance(value, BaseException):
        return value
    return _call_name(value)


Rule = Callable[[object], object]
"""How one argument of a log record is shown: as it is, described, or hidden."""

RULES: dict[str, Rule] = {
    "aiosqlite": _aiosqlite,
    "discord.http": _http,
    "discord.webhook.async_": _http,
    "discord.gateway": _gateway_event,
    "discord.ui.view": _plain,
    "discord.ui.modal": _plain,
}
"""Logger name -> how each argument of its records is shown."""


class SecretFilter(logging.Filter):
    """Keeps every record, with each argument shown by ``rule`` (data replaced)."""

    def __init__(self, rule: Rule) -> None:
        super().__init__()
        self.rule = rule

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, dict):
            record.args = {key: self.rule(value) for key, value in record.args.items()}
        elif record.args:
            record.args = tuple(self.rule(value) for value in record.args)
        if not isinstance(record.msg, str):
            record.msg = HIDDEN
        return True


def protect() -> None:
    """Install the filters on every logger that would carry data (once)."""
    for name, rule in RULES.items():
        logger = logging.getLogger(name)
        if not any(isinstance(f, SecretFilter) for f in logger.filters):
            logger.addFilter(SecretFilter(rule))


def setup(level: int = logging.INFO) -> None:
    """Log to stderr at ``level`` (if nothing is set up yet), with the filters installed."""
    protect()
    logging.basicConfig(level=level, format=FORMAT)
