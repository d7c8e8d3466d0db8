"""Languages in the end-to-end tests: what Discord tells the bot of its readers' locales,
and made-up catalogs read in place of the shipped ones.

SimCord sends ``en-US`` as every interaction's ``locale`` and ``guild_locale``;
:func:`speak` sets them per user and per server. :func:`made_from_shipped` writes a
catalog holding every message of a shipped one, each entry as a test needs it (tagged
with its language, or made longer), for :func:`i18n.catalogs.reading`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import simcord.interactions
from babel.messages.pofile import read_po, write_po

from i18n import Locale, catalogs
from tests.e2e.conftest import bot_posts, status_messages, text_of


def speak(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """``{user or server id: Discord locale code}``: what their interactions tell the bot
    from now on (``locale`` for a user, ``guild_locale`` for a server); en-US for anyone
    not named."""
    spoken: dict[int, str] = {}
    made = simcord.interactions.base_payload

    def base_payload(backend: Any, *, user_id: int, guild_id: int | None, **given: Any) -> Any:
        record, payload = made(backend, user_id=user_id, guild_id=guild_id, **given)
        payload["locale"] = spoken.get(user_id, "en-US")
        if guild_id is not None:
            payload["guild_locale"] = spoken.get(guild_id, "en-US")
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    return spoken


def made_from_shipped(
    folder: Path, locale: Locale, fill: Callable[[str], str], *, keep: bool
) -> None:
    """A catalog of ``locale`` in ``folder`` (laid out as the shipped ones) holding every
    message of the shipped catalog: its translation where it has one and ``keep`` says so,
    else its English text as ``fill`` writes it (each plural form from the English form
    it stands for). Entries with a context (commands' and options' names, which must stay
    valid names) are kept as shipped."""
    shipped = catalogs.path_of(locale, catalogs.FOLDER)
    with shipped.open("rb") as file:
        made = read_po(file, locale=locale.replace("-", "_"))
    for message in made:
        if not message.id or message.context:
            continue
        forms = message.string if isinstance(message.string, list | tuple) else [message.string]
        if keep and not message.fuzzy and all(forms):
            continue
        if isinstance(message.id, list | tuple):
            singular, plural = message.id[0], message.id[1]
            message.string = (fill(singular), *[fill(plural)] * (made.num_plurals - 1))
        else:
            message.string = fill(message.id)
        message.flags.discard("fuzzy")
    path = catalogs.path_of(locale, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, made)


def channel_lines(channel: Any) -> list[str]:
    """Everything the bot shows in ``channel``: its posts and cards, the status message."""
    shown = [*bot_posts(channel), *status_messages(channel)]  # type: ignore[no-untyped-call]
    return [text_of(m) for m in shown]
