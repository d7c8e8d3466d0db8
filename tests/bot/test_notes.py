"""Private notes through the host (both stores): a player keeps, sees, replaces and
removes their own note on a game, `/hand` shows it to them, and it never reaches anything
anyone else can see: no post, status, direct message, listing, history, record, web page,
autocomplete list or log line, at any level."""

from __future__ import annotations

import logging
import random

import pytest

from bot import logs
from bot.service.community.notes import NOTE_CHARS
from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.text import as_text
from bot.service.wire import dump
from bot.web import html
from games import render
from tests.bot.clocks import TickingClock
from tests.web.test_routes import GUILD, open_game, play, token_of

NOTE = "zq-note: the Dragon always runs for spoke 7"
SECRET_WORD = "zq-note"


@pytest.fixture
async def host(store):
    return GameHost(
        store, renderer=render, clock=TickingClock(), seeds=random.Random(5),
        web_url="https://dragons.example.org",
    )  # fmt: skip


async def test_a_note_is_kept_shown_replaced_and_removed_for_its_author(host):
    game_id = await open_game(host)
    alice = (await host.store.get_game(game_id)).host_id
    shown = await host.notes.note(game_id=game_id, user_id=alice)
    assert "no note" in _plain(shown.text) and shown.private
    kept = await host.notes.note(game_id=game_id, user_id=alice, text=f"  {NOTE}  ")
    assert kept.private and NOTE in _plain(kept.text)
    assert NOTE in _plain((await host.notes.note(game_id=game_id, user_id=alice)).text)
    await host.notes.note(game_id=game_id, user_id=alice, text="second thoughts")
    again = await host.notes.note(game_id=game_id, user_id=alice)
    assert "second thoughts" in _plain(again.text) and NOTE not in _plain(again.text)
    gone = await host.notes.note(game_id=game_id, user_id=alice, clear=True)
    assert "gone" in _plain(gone.text)
    assert "no note" in _plain((await host.notes.note(game_id=game_id, user_id=alice)).text)


async def test_a_note_too_long_is_refused_and_the_old_one_kept(host):
    game_id = await open_game(host)
    alice = (await host.store.get_game(game_id)).host_id
    await host.notes.note(game_id=game_id, user_id=alice, text=NOTE)
    with pytest.raises(UserError, match=f"at most {NOTE_CHARS} characters"):
        await host.notes.note(game_id=game_id, user_id=alice, text="x" * (NOTE_CHARS + 1))
    assert NOTE in _plain((await host.notes.note(game_id=game_id, user_id=alice)).text)


async def test_hand_shows_the_note_to_its_author_only(host):
    game_id = await open_game(host)
    record = await host.store.get_game(game_id)
    alice, bob = (s.user_id for s in record.seats)
    await host.notes.note(game_id=game_id, user_id=alice, text=NOTE)
    hand = await host.turns.hand(guild_id=GUILD, user_id=alice)
    assert hand.private and f"📝 Your note: {NOTE}" in _plain(hand.text)
    with pytest.raises(UserError, match="Nothing private"):
        await host.turns.hand(guild_id=GUILD, user_id=bob)
    assert (await host.notes.note(game_id=game_id, user_id=bob)).text != hand.text


async def test_a_note_reaches_nothing_anyone_else_sees(host, caplog):
    logs.protect()
    caplog.set_level(logging.DEBUG)
    game_id = await open_game(host)
    record = await host.store.get_game(game_id)
    alice, bob = (s.user_id for s in record.seats)
    await host.notes.note(game_id=game_id, user_id=alice, text=NOTE)
    await host.notes.note(game_id=game_id, user_id=bob, text=NOTE)
    seen: list[str] = []
    for _ in range(6):
        outcome = await _moved(host, game_id)
        seen += [str(dump(n)) for n in outcome.outgoing]
        seen += [_plain(n.text) for n in outcome.notices if hasattr(n, "text")]
    where = {"guild_id": GUILD, "channel_id": record.channel_id}
    for user in (alice, bob, 999):
        seen.append(_plain((await host.listings.status(game_id=game_id, user_id=user)).text))
        seen.append(_plain((await host.listings.mine(guild_id=GUILD, user_id=user)).text))
        seen.append(_plain((await host.stories.history(game_id=game_id, user_id=user)).text))
        seen.append((await host.stories.export_record(game_id=game_id, user_id=user)).data.decode())
        seen.append(str(await host.listings.game_choices(**where)))
        seen.append(str(await host.listings.story_choices(**where)))
    seen.append(_plain((await host.listings.list_games(guild_id=GUILD)).text))
    page = await host.pages.page(await token_of(host, game_id))
    assert page is not None
    seen.append(html.page_html(page))
    seen += [str(m) for m in (await host.store.recent_notices(game_id, f"c{record.channel_id}"))]
    seen += [r.getMessage() for r in caplog.records]
    leaked = [text for text in seen if SECRET_WORD in text]
    assert not leaked, leaked[:3]


def _plain(text) -> str:
    """A notice's text with its parts written out."""
    return as_text(text).render(repr)


async def _moved(host: GameHost, game_id: int):
    """One action by whoever is asked; its outcome."""
    from tests.bot.leak_checks import USERS, everyone_asked

    user, control = (await everyone_asked(host, game_id, list(USERS[:2])))[0]
    return await host.turns.act(game_id=game_id, user_id=user, action=control.choices[0].action)


async def test_a_note_changes_no_version(host):
    game_id = await open_game(host)
    await play(host, game_id, 1)
    before = (await host.store.get_game(game_id)).version
    alice = (await host.store.get_game(game_id)).host_id
    await host.notes.note(game_id=game_id, user_id=alice, text=NOTE)
    assert (await host.store.get_game(game_id)).version == before
