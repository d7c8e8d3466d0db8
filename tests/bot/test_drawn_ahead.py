"""A board the outbox draws ahead of its send stays drawn until the send: however many other
boards are drawn while the send waits for its turn, its picture is not drawn twice."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

from bot.service.boards.pictures import RecentBoards
from bot.service.host import GameHost
from bot.service.notices import ChannelPost
from tests.bot.test_host import ALICE, BOB, GUILD
from tests.toy_game import toy_renderer

CHANNELS = range(700, 706)


async def _a_game_in(host, channel_id, moves):
    """A toy game in ``channel_id``, ``moves`` moves in (so each game shows its own board)."""
    opened = await host.lobby.new_game(
        guild_id=GUILD, channel_id=channel_id, user_id=ALICE, user_name="alice", slug="toy"
    )
    game = next(n for n in opened.notices if isinstance(n, ChannelPost)).game_id
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.start(game_id=game, user_id=ALICE)
    for _ in range(moves):
        table = await host.desk.table(game)
        seat = table.prompts()[0].seat
        action = table.legal_actions(seat)[-1].action
        await host.turns.act(
            game_id=game, user_id=table.record.user_at(seat), action=action,
            version=table.record.version,
        )  # fmt: skip


async def test_a_board_drawn_ahead_is_drawn_once_however_long_its_send_waits(store, toy):
    drawn: Counter[bytes] = Counter()

    def renderer(slug, view):
        picture = toy_renderer(slug, view)
        drawn[picture] += 1
        return picture

    host = GameHost(store, renderer=renderer, seeds=random.Random(4))
    host.drawing.boards = RecentBoards(size=1)  # every other board drawn drops the last
    for moves, channel_id in enumerate(CHANNELS):
        await _a_game_in(host, channel_id, moves)
    carried: list[bytes] = []

    async def send(delivery):  # as the Discord frontend does: it draws the board it posts
        board = getattr(delivery.notice, "board", None)
        if board is not None:
            carried.append(await host.drawing.draw(board))
        await asyncio.sleep(0)
        return 1000 + len(carried)

    outbox = host.new_outbox(send, concurrency=1)  # each lane's send waits for the others'
    assert await outbox.flush()
    assert len(set(carried)) >= 3, "the games' boards went out, several of them"
    assert drawn == Counter(set(carried)), "each board was drawn once"


async def test_a_kept_board_stays_while_others_come_and_go():
    boards = RecentBoards(size=2)
    drawn: list[int] = []

    def drawing(turn):
        async def draw():
            drawn.append(turn)
            return f"picture {turn}".encode()

        return draw

    with boards.kept("stgeorge", {"turn": 1}, {}):
        await boards.get("stgeorge", {"turn": 1}, {}, drawing(1))
        for turn in (2, 3, 4):
            await boards.get("stgeorge", {"turn": turn}, {}, drawing(turn))
        for turn in (1, 3, 4):  # kept, and the two newest besides
            await boards.get("stgeorge", {"turn": turn}, {}, drawing(turn))
    assert drawn == [1, 2, 3, 4]
    for turn in (5, 6):
        await boards.get("stgeorge", {"turn": turn}, {}, drawing(turn))
    await boards.get("stgeorge", {"turn": 1}, {}, drawing(1))
    assert drawn == [1, 2, 3, 4, 5, 6, 1], "once its send is done it goes as any other"
