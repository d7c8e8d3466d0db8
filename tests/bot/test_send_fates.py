"""What a channel shows stays true when a send's fate is unknown.

Discord answers a send under a nonce it has seen with the message it made then, showing
what that send showed. A send that reached Discord but was never recorded (the process
died after it, or a 5xx's reply was lost) is folded later with what came after it; the
channel must end up showing the newest content, in one message, whatever failed. Each
test runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

import random

import pytest

from bot.service import wire
from bot.service.delivery.outbox import TryLater
from bot.service.host import GameHost
from bot.service.notices import ChannelPost, StatusUpdate
from tests.bot.test_host import ALICE, BOB, CHANNEL, open_game, started
from tests.toy_game import toy_renderer


class Killed(BaseException):
    """The process dies here: nothing after this point happens."""


class Discord:
    """A fake Discord channel that keeps every message and what it shows. A send under a
    nonce it has seen answers with the message made then and changes nothing; an edit of
    a message it has changes what it shows. ``faults`` lists, for the next messages made
    of a kind, what goes wrong once the message is made: ``"lost"`` (a 503 whose reply
    is lost) or ``"kill"`` (the process dies before recording it)."""

    def __init__(self) -> None:
        self.shows: dict[int, object] = {}
        self.made: list[int] = []
        self.by_nonce: dict[str, int] = {}
        self.faults: dict[type, list[str]] = {}

    async def __call__(self, delivery):
        notice = delivery.notice
        if not isinstance(notice, ChannelPost | StatusUpdate):
            return None  # DMs are not what these tests look at
        if isinstance(notice, StatusUpdate):
            target = delivery.status_message_id
        else:
            target = delivery.board_message_id if notice.edit else None
        if target in self.shows:
            self.shows[target] = notice
            return target
        if delivery.nonce in self.by_nonce:
            return self.by_nonce[delivery.nonce]
        message = 5000 + len(self.made)
        self.made.append(message)
        self.shows[message] = notice
        self.by_nonce[delivery.nonce] = message
        faults = self.faults.get(type(notice))
        fault = faults.pop(0) if faults else None
        if fault == "lost":
            raise TryLater("Discord 503 (its reply was lost)")
        if fault == "kill":
            raise Killed
        return message


@pytest.fixture
async def host(store, toy, clock):
    return GameHost(store, renderer=toy_renderer, clock=clock, seeds=random.Random(3))


@pytest.fixture
def discord():
    return Discord()


async def killed_flush(host, discord) -> None:
    """Flush in a process that dies on a fault; what it left is sent by the next one."""
    outbox = host.new_outbox(discord)
    with pytest.raises(Killed):
        await outbox.flush()
    await outbox.stop()


def posts(discord: Discord) -> list[str]:
    return [str(m.text) for m in discord.shows.values() if isinstance(m, ChannelPost)]


def statuses(discord: Discord) -> list[str]:
    return [str(m.text) for m in discord.shows.values() if isinstance(m, StatusUpdate)]


@pytest.mark.parametrize("fault", ["kill", "lost"])
async def test_a_turns_post_sent_unrecorded_then_folded_shows_the_newest_step(
    host, discord, clock, fault
):
    await started(host)
    discord.faults[ChannelPost] = [fault]
    if fault == "kill":
        await killed_flush(host, discord)
    else:
        assert not await host.new_outbox(discord).flush()
    assert "The game begins!" in posts(discord)[0] and len(posts(discord)) == 1

    await host.turns.act(game_id=1, user_id=ALICE, action="pick 3")
    clock.now += 2  # past the pause after a failure
    assert await host.new_outbox(discord).flush()
    [post] = posts(discord)
    assert "1 of 2 picks are in" in post, "the channel shows the step, not the old opening"


async def test_turns_played_after_an_unrecorded_opening_are_all_shown(host, discord):
    await started(host)
    discord.faults[ChannelPost] = ["kill"]
    await killed_flush(host, discord)
    await host.turns.act(game_id=1, user_id=ALICE, action="pick 3")
    await host.turns.act(game_id=1, user_id=BOB, action="pick 1")
    assert await host.new_outbox(discord).flush()
    stored = await host.store.recent_notices(1, f"c{CHANNEL}", 10)
    newest = next(wire.load(b) for b in stored if b["kind"] == "post")
    assert isinstance(newest, ChannelPost) and "Roll the die" in str(newest.text)
    [shown] = posts(discord)
    assert shown.endswith(str(newest.text)), "one post, showing the newest turn"


@pytest.mark.parametrize("fault", ["kill", "lost"])
async def test_a_games_status_message_is_made_once_whatever_fails(host, discord, clock, fault):
    await open_game(host)
    discord.faults[StatusUpdate] = [fault]
    if fault == "kill":
        await killed_flush(host, discord)
    else:
        assert not await host.new_outbox(discord).flush()
    assert len(statuses(discord)) == 1

    await host.lobby.join(game_id=1, user_id=BOB, user_name="bob")
    clock.now += 2
    assert await host.new_outbox(discord).flush()
    [status] = statuses(discord)
    assert "2 of 2" in status or "bob" in status or "Start" in status, status
    assert "1 of 2" not in status, "the status shows the newest state, not the frozen first"


async def test_a_send_and_what_it_folded_are_recorded_together(host, discord, store):
    await started(host)
    real = store.mark_sent
    kills = []

    async def mark_then_die(entry_id, **kwargs):
        marked = await real(entry_id, **kwargs)
        if not kills:
            kills.append(entry_id)
            raise Killed
        return marked

    store.mark_sent = mark_then_die
    outbox = host.new_outbox(discord)
    with pytest.raises(Killed):
        await outbox.flush(lanes=[f"c{CHANNEL}"])
    await outbox.stop()
    store.mark_sent = real
    made = len(discord.made)
    assert await host.new_outbox(discord).flush()
    again = [str(getattr(discord.shows[m], "text", "")) for m in discord.made[made:]]
    assert not any("is open for 2 players" in text for text in again), (
        "the lobby folded into the opening is never posted again after it"
    )
