"""A rate limit Discord sets longer than discord.py waits out: the notice waits, and its
lane keeps to the pace Discord asked for."""

from types import SimpleNamespace

import discord
import pytest

from bot.discord.delivery import Courier
from bot.service.delivery.outbox import Delivery, TryLater
from bot.service.delivery.pacing import Pacer
from bot.service.notices import ChannelPost
from tests.bot.clocks import Clock


class LimitedChannel(discord.PartialMessageable):
    async def send(self, *args, **kwargs):
        raise discord.RateLimited(42.0)


async def test_a_long_rate_limit_keeps_the_notice_and_slows_its_lane():
    clock = Clock()
    pacer = Pacer(clock=clock)
    channel = LimitedChannel(state=None, id=5)
    bot = SimpleNamespace(
        get_channel=lambda channel_id: channel,
        outbox=SimpleNamespace(pacer=pacer),
        host=SimpleNamespace(draw=_no_picture),
    )
    post = ChannelPost(1, 5, "The Dragon moves.")
    with pytest.raises(TryLater, match="429"):
        await Courier(bot).__call__(Delivery(post, nonce="dh1"))  # type: ignore[arg-type]
    assert pacer.ready("c5") == pytest.approx(42.0), "the channel waits as Discord asked"
    assert pacer.ready("c6") == 0, "other channels go on"


async def _no_picture(board):
    return None
