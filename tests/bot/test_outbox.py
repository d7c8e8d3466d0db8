"""The outbox through the host and a fake sender: what an action tells is stored with it,
sent once and in order per lane, retried after transient failures, and handled as the
host says after lasting ones."""

from __future__ import annotations

import random

import pytest

from bot.service.delivery.outbox import ChannelGone, DmsClosed, NoAccess, TryLater
from bot.service.host import GameHost
from bot.service.notices import ChannelPost, PrivateFallback, PrivateMessage, StatusUpdate
from tests.bot.test_host import ALICE, BOB, CHANNEL, open_game, started
from tests.toy_game import toy_renderer


class Discord:
    """A fake sender: records what arrives; ``fail`` maps a kind of notice to the error
    its next sends raise."""

    def __init__(self):
        self.arrived: list = []
        self.nonces: list[str] = []
        self.fail: dict[type, list[Exception]] = {}
        self.dms_closed: set[int] = set()

    async def __call__(self, delivery):
        errors = self.fail.get(type(delivery.notice))
        if errors:
            raise errors.pop(0)
        notice = delivery.notice
        if isinstance(notice, PrivateMessage) and notice.user_id in self.dms_closed:
            raise DmsClosed(notice.user_id, lasting=True)
        self.arrived.append(delivery.notice)
        self.nonces.append(delivery.nonce)
        return 1000 + len(self.arrived)


@pytest.fixture
async def host(store, toy, clock):
    return GameHost(store, renderer=toy_renderer, clock=clock, seeds=random.Random(3))


@pytest.fixture
def discord():
    return Discord()


@pytest.fixture
def outbox(host, discord):
    return host.new_outbox(discord)


def kinds(notices):
    return [type(n).__name__ for n in notices]


async def test_an_action_is_stored_with_everything_it_tells(host, store):
    game = await started(host)
    before = len(await store.pending_notices())
    outcome = await host.turns.act(game_id=game, user_id=ALICE, action="pick 3")
    stored = await store.pending_notices()
    assert len(stored) - before == len(outcome.outgoing) > 0
    assert (await store.get_game(game)).version == 4  # opened, joined, started, picked


async def test_stored_notices_are_sent_once_and_in_order_per_lane(host, outbox, discord):
    game = await started(host)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 3")
    assert await outbox.flush()
    channel = [n for n in discord.arrived if isinstance(n, ChannelPost | StatusUpdate)]
    texts = [str(n.text) for n in channel if isinstance(n, ChannelPost)]
    # The lobby's posts and the turn's post and its step waited together: one post tells
    # them all, in order.
    [text] = texts
    said = ["is open for 2 players", "bob joined", "The game begins!", "1 of 2 picks are in"]
    assert [text.index(words) for words in said] == sorted(text.index(w) for w in said)
    sent = len(discord.arrived)
    assert await outbox.flush()
    assert len(discord.arrived) == sent, "nothing is sent twice"
    assert len(set(discord.nonces)) == len(discord.nonces)


async def test_a_transient_failure_holds_its_lane_only_and_is_retried(host, outbox, discord, clock):
    game = await started(host)
    discord.fail[ChannelPost] = [TryLater("Discord 503")]
    assert not await outbox.flush()
    assert not any(isinstance(n, ChannelPost | StatusUpdate) for n in discord.arrived)
    assert any(isinstance(n, PrivateMessage) for n in discord.arrived), "DMs went on"
    assert not await outbox.flush(), "not before its pause is over"
    clock.now += 2
    assert await outbox.flush()
    posts = [str(n.text) for n in discord.arrived if isinstance(n, ChannelPost)]
    assert "is open" in posts[0] and "The game begins!" in posts[-1], "order kept"
    assert game


async def test_an_unknown_error_keeps_the_notice(host, outbox, discord, clock):
    await open_game(host)
    discord.fail[ChannelPost] = [RuntimeError("boom")]
    assert not await outbox.flush()
    clock.now += 2
    assert await outbox.flush()
    assert kinds(discord.arrived) == ["ChannelPost", "StatusUpdate"]  # the lobby's status


async def test_closed_dms_are_remembered_and_the_choice_waits_behind_a_button(
    host, outbox, discord
):
    game = await open_game(host)
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    discord.dms_closed.add(BOB)
    await host.lobby.start(game_id=game, user_id=ALICE)
    await outbox.flush()
    await outbox.flush()
    assert await host.dms_closed(BOB)
    fallbacks = [n for n in discord.arrived if isinstance(n, PrivateFallback)]
    assert [(f.user_id, f.channel_id) for f in fallbacks] == [(BOB, CHANNEL)]


async def test_a_channel_that_is_gone_pauses_its_game_and_tells_the_host(
    host, outbox, discord, store
):
    game = await started(host)
    discord.fail[ChannelPost] = [ChannelGone(CHANNEL)]
    await outbox.flush()
    await outbox.flush()
    record = await store.get_game(game)
    assert record.status == "paused"
    told = [n for n in discord.arrived if isinstance(n, PrivateMessage) and n.user_id == ALICE]
    assert any("its channel was deleted" in str(n.text) for n in told)


async def test_a_new_outbox_sends_what_an_old_one_left(host, store, discord):
    game = await started(host)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 3")
    left = await store.pending_notices()
    assert left
    await host.new_outbox(discord).flush()
    assert await store.pending_notices() == []
    # Each secret prompt arrives once; what the channel shows is its newest state.
    private = [n for n in discord.arrived if isinstance(n, PrivateMessage)]
    assert len(private) == sum(e.body["kind"] == "private" for e in left)
    posts = [str(n.text) for n in discord.arrived if isinstance(n, ChannelPost)]
    assert "1 of 2 picks are in" in posts[-1]


def refused():
    return NoAccess(CHANNEL, ("Send Messages",), known=True, how="Grant it.", reason="403")


def warnings(discord, user):
    return [
        str(n.text) for n in discord.arrived
        if isinstance(n, PrivateMessage) and n.user_id == user and "I can" in str(n.text)
    ]  # fmt: skip


async def test_a_single_refusal_whose_retry_goes_through_alarms_nobody(
    host, outbox, discord, clock
):
    await started(host)
    discord.fail[ChannelPost] = [refused()]
    await outbox.flush()
    clock.now += 2
    assert await outbox.flush()
    assert warnings(discord, ALICE) == [], "a 403 its retry got past is no news"


async def test_a_lasting_refusal_is_told_once_and_its_end_too(host, outbox, discord, clock):
    await started(host)
    discord.fail[ChannelPost] = [refused(), refused(), refused()]
    await outbox.flush()
    assert warnings(discord, ALICE) == []
    for _ in range(2):
        clock.now += 10
        await outbox.flush()
    [told] = warnings(discord, ALICE)
    assert "can't post" in told and "Send Messages" in told
    clock.now += 30
    assert await outbox.flush()
    await outbox.flush()
    told, cleared = warnings(discord, ALICE)
    assert "I can post in" in cleared and "again" in cleared
