"""A lane that fell behind sends what is still true: superseded notices fold into newer
ones, a board left out is never drawn, and nothing that must be told is dropped."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.service import wire
from bot.service.delivery.outbox import TAKE
from bot.service.delivery.pacing import Pacer
from bot.service.delivery.superseded import plan
from bot.service.host import GameHost
from bot.service.notices import Board, ChannelPost, Controls, PrivateMessage, StatusUpdate
from bot.service.play.turn_posts import retired
from bot.store import OutboxEntry
from engines.base import Prompt
from tests.bot.clocks import Clock
from tests.bot.test_computers import ALICE, lobby

GAME, CHANNEL = 7, 70


def entry(number: int, notice) -> tuple[OutboxEntry, object]:
    body = wire.dump(notice)
    lane = wire.lane(notice)
    return (OutboxEntry(number, GAME, lane, body, 0.0), notice)


def turn_post(turn: int, text: str, *, edit=False, board=False, mentions=(), final=False):
    return ChannelPost(
        GAME, CHANNEL, text, Board("toy", {"turn": turn, "text": text}) if board else None,
        mentions, (), final, turn=turn, edit=edit, story=text,
    )  # fmt: skip


def test_only_a_games_newest_status_is_sent():
    waiting = [entry(i, StatusUpdate(GAME, CHANNEL, f"status {i}")) for i in range(1, 6)]
    (send,) = plan(waiting)
    assert str(send.notice.text) == "status 5"
    assert [e.id for e in send.covers] == [1, 2, 3, 4]


def test_a_turns_steps_fold_into_its_post_sent_once_with_the_newest_board():
    waiting = [
        entry(1, turn_post(3, "opened", board=True, mentions=(ALICE,))),
        entry(2, turn_post(3, "opened\nrolled 4", edit=True, board=True)),
        entry(3, turn_post(3, "opened\nrolled 4\nmoved", edit=True)),
    ]
    (send,) = plan(waiting)
    post = send.notice
    assert str(post.text) == "opened\nrolled 4\nmoved"
    assert not post.edit, "the turn's post is not out yet: it is posted, not edited"
    assert post.mentions == (ALICE,), "whom the opening called is still called"
    assert post.board is not None and post.board.view["text"] == "opened\nrolled 4"
    assert send.entry.id == 1 and [e.id for e in send.covers] == [2, 3]


def test_turns_that_passed_are_told_above_the_newest_turn_whose_board_alone_is_sent():
    waiting = [
        entry(1, turn_post(1, "turn one", board=True, mentions=(ALICE,))),
        entry(2, turn_post(1, "turn one\nits step", edit=True)),
        entry(3, PrivateMessage(GAME, ALICE, "your secret card")),
        entry(4, turn_post(2, "turn two", board=True)),
        entry(5, turn_post(3, "turn three", board=True, final=True)),
    ]
    sends = plan(waiting)
    newest, secret = (s.notice for s in sends)
    assert str(newest.text) == "turn one\nits step\nturn two\nturn three"
    assert newest.board and newest.board.view["text"] == "turn three" and newest.final
    assert newest.mentions == (), "nobody is called to a turn that has passed"
    assert str(newest.story) == "turn three", "its next step goes on from its own story"
    assert isinstance(secret, PrivateMessage), "a secret prompt is never folded away"
    covered = {e.id for s in sends for e in (s.entry, *s.covers)}
    assert covered == {1, 2, 3, 4, 5}, "every waiting notice is sent or covered"


def test_a_passed_turn_whose_post_is_out_is_edited_to_its_story_without_controls():
    controls = (Controls(GAME, 4, Prompt(0, "move", "Move"), ()),)
    step = ChannelPost(
        GAME, CHANNEL, "step\n➡️ move", None, (), controls, turn=1, edit=True, story="step"
    )
    waiting = [entry(1, step), entry(2, turn_post(2, "turn two", board=True))]
    edited, newest = (s.notice for s in plan(waiting))
    assert edited.edit and str(edited.text) == "step" and edited.controls == ()
    assert newest.board is not None
    # The edit finds its message as the game's turn post, which the next post becomes.
    stored = retired(replace(step, text="step"))  # as the move passing the turn stores it
    waiting = [entry(1, stored), entry(2, turn_post(2, "turn two", board=True))]
    assert [s.entry.id for s in plan(waiting)] == [1, 2], "the retirement goes first"


def test_many_passed_turns_are_told_in_brief_with_where_every_move_is():
    waiting = [entry(i, turn_post(i, f"turn {i}: " + "x" * 500, board=True)) for i in range(1, 10)]
    (send,) = plan(waiting)
    text = str(send.notice.text)
    assert len(text) <= 2000 and "turn 8:" in text and text.endswith("turn 9: " + "x" * 500)
    assert "8 turns were played meanwhile" in text and "/game history game:7" in text
    assert send.notice.turn == 9 and send.entry.id == 1


# -- through the outbox ----------------------------------------------------------------------


class Channel:
    """A fake Discord that keeps each message as the channel shows it, and counts the
    requests and the boards drawn."""

    def __init__(self, host: GameHost, clock: Clock | None = None):
        self.host = host
        self.clock = clock
        self.messages: dict[int, str] = {}
        self.requests: list[float] = []
        self.drawn = 0
        self.private: list[PrivateMessage] = []

    async def __call__(self, delivery):
        notice = delivery.notice
        self.requests.append(self.clock() if self.clock else 0.0)
        if getattr(notice, "board", None) is not None:
            await self.host.drawing.draw(notice.board)
            self.drawn += 1
        if isinstance(notice, PrivateMessage):
            self.private.append(notice)
            return None
        if isinstance(notice, ChannelPost) and notice.edit and delivery.board_message_id:
            self.messages[delivery.board_message_id] = str(notice.text)
            return delivery.board_message_id
        if isinstance(notice, StatusUpdate) and delivery.status_message_id:
            self.messages[delivery.status_message_id] = str(notice.text)
            return delivery.status_message_id
        message_id = 1000 + len(self.messages)
        self.messages[message_id] = str(notice.text)
        return message_id


async def computers_game(host: GameHost) -> int:
    """A St. George game of two computers, started."""
    game = await lobby(host, "stgeorge")
    await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy")
    await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy", role="knights")
    await host.lobby.start(game_id=game, user_id=ALICE)
    return game


def sleeping_clock() -> tuple[Clock, object]:
    """A fake clock and a sleep that moves it on (the pacer's waits take no time)."""
    clock = Clock()

    async def sleep(seconds):
        clock.now += seconds

    return clock, sleep


@pytest.fixture
async def burst(store, clock):
    """A St. George game of two computers, played to its end before anything is sent."""
    drawn: list[str] = []

    def renderer(slug, view):
        drawn.append(slug)
        return b"png"

    host = GameHost(store, renderer=renderer, clock=clock, seeds=random.Random(5))
    game = await computers_game(host)
    await host.computers.play_computers(game)
    return host, game, drawn


async def test_a_burst_of_computer_moves_reaches_the_channel_as_its_newest_state(burst):
    host, game, drawn = burst
    stored = await host.store.pending_notices(limit=10**6)
    channel = Channel(host)
    assert await host.new_outbox(channel).flush()
    assert await host.store.pending_notices() == [], "every notice is sent or covered"
    assert len(channel.requests) * 4 < len(stored), (len(channel.requests), len(stored))
    # One board for each read of the lane's backlog: those superseded are never drawn.
    assert len(drawn) <= 1 + len(stored) // TAKE, (len(drawn), len(stored))
    record = await host.store.get_game(game)
    shown = "\n".join(channel.messages.values())
    assert record.result and record.result in shown, "the channel shows how it ended"
    assert "/game history" in shown, "the turns in between are told in brief, with where"
    moves = [a for a in await host.store.actions(game) if not a.action.startswith("!")]
    assert len(moves) > 50, "and every move is in the game's history"


async def test_a_paced_burst_asks_a_channel_at_most_its_pace(store, clock):
    """Computers play on while the outbox sends: the channel is asked at Discord's pace,
    and shows the game's end once the burst is over."""
    host = GameHost(store, clock=clock, seeds=random.Random(5))
    game = await computers_game(host)
    pace, sleep = sleeping_clock()
    channel = Channel(host, pace)
    outbox = host.new_outbox(channel, pacer=Pacer(per_channel=(5, 5.0), clock=pace, sleep=sleep))
    while (await host.store.get_game(game)).status == "running":
        await host.computers.play_computers(game, limit=2)  # a few moves...
        await outbox.flush()  # ...and what may be sent of them now
        pace.now += 0.5
    while not await outbox.flush():
        pace.now += 0.5
    times = channel.requests
    assert len(times) > 10
    for start in times:
        assert sum(start <= t < start + 5.0 for t in times) <= 5, "5 requests per 5 s"
    record = await host.store.get_game(game)
    assert record.result in "\n".join(channel.messages.values())
    assert await host.store.pending_notices() == []


async def test_the_pacer_keeps_a_lane_and_the_bot_within_their_rates():
    clock, sleep = sleeping_clock()
    pacer = Pacer(
        per_channel=(5, 5.0), steady=(5, 5.0), global_rate=(4, 1.0), clock=clock, sleep=sleep
    )
    for _ in range(5):
        assert await pacer.wait("c1", at_most=0)
        clock.now += 0.5
    # the sixth waits until the first is 5 s old, and half a second more to spare
    assert pacer.ready("c1") == pytest.approx(3.0)
    assert not await pacer.wait("c1", at_most=1.0), "a lane gives up a wait too long"
    assert pacer.ready("c2") == 0, "another channel is not held up"
    for lane in ("c2", "c3", "c4"):
        await pacer.wait(lane)
    assert pacer.ready("c5") > 0, "the bot's own rate holds every channel"
    clock.now += 1.0
    pacer.slow_down(None, 3.0)
    assert pacer.ready("c5") == pytest.approx(3.0), "Discord's word holds every lane"


async def test_a_busy_lane_is_asked_at_most_once_a_second_what_a_move_tells_at_once():
    clock, sleep = sleeping_clock()
    pacer = Pacer(clock=clock, sleep=sleep)  # the defaults the bot runs with
    for _ in range(3):  # the passed turn's post retired, the new post, the status edit
        assert await pacer.wait("c1", at_most=0), "what a move tells goes at once"
    assert not await pacer.wait("c1", at_most=0), "a fourth waits its turn"
    sent, began = [0.0, 0.0, 0.0], clock.now
    while clock.now < began + 60:  # a channel with always something to send
        await pacer.wait("c1")
        sent.append(clock.now)
    for span in (5.0, 7.0, 10.0, 60.0):  # the first move's three sends counted too
        assert sum(t < span for t in sent) <= span, f"at most once a second over {span:g} s"
    for start in sent:
        assert sum(start <= t < start + 5.0 for t in sent) <= 5, "and 5 in any 5 s at most"
        assert sum(start <= t < start + 4.0 for t in sent) <= 3


def test_a_games_plain_posts_waiting_together_go_as_one_post():
    waiting = [
        entry(1, ChannelPost(GAME, CHANNEL, "alice is away.")),
        entry(2, ChannelPost(GAME, CHANNEL, "bob gave 1 h.", mentions=(ALICE,))),
        entry(3, StatusUpdate(GAME, CHANNEL, "status")),
        entry(4, ChannelPost(GAME, CHANNEL, "carol is away.")),
        entry(5, turn_post(9, "turn nine", board=True)),
        entry(6, ChannelPost(GAME, CHANNEL, "A note after the turn.")),
        entry(7, StatusUpdate(GAME, CHANNEL, "newest status")),
    ]
    sends = plan(waiting)
    joined, turn, note, status = (s.notice for s in sends)
    # (the older status is folded into the newest, so the plain posts meet)
    assert str(joined.text) == "alice is away.\nbob gave 1 h.\ncarol is away."
    assert joined.mentions == (ALICE,) and [e.id for e in sends[0].covers] == [2, 4]
    assert str(turn.text) == "turn nine", "a post is never moved past a turn's"
    assert str(note.text) == "A note after the turn." and str(status.text) == "newest status"


def test_a_lobby_waiting_with_its_first_turn_goes_on_top_of_that_turns_post():
    from bot.service.seating.table_controls import lobby_controls

    lobby = (lobby_controls(GAME),)
    waiting = [
        entry(1, ChannelPost(GAME, CHANNEL, "Game #7 is open.", controls=lobby)),
        entry(2, ChannelPost(GAME, CHANNEL, "bob joined.", mentions=(ALICE,), controls=lobby)),
        entry(3, turn_post(9, "The game begins!", board=True, mentions=(ALICE,))),
        entry(4, StatusUpdate(GAME, CHANNEL, "status")),
    ]
    sends = plan(waiting)
    turn, status = (s.notice for s in sends)
    assert str(turn.text) == "Game #7 is open.\nbob joined.\nThe game begins!"
    assert str(turn.story) == "The game begins!", "its next step goes on from its own story"
    assert turn.board is not None and turn.controls == () and turn.mentions == (ALICE,)
    assert sends[0].entry.id == 3 and [e.id for e in sends[0].covers] == [1, 2]
    assert isinstance(status, StatusUpdate)
    alone = [entry(1, ChannelPost(GAME, CHANNEL, "Game #7 is open.", controls=lobby))]
    other = replace(turn_post(9, "another game's", board=True), game_id=GAME + 1)
    assert plan([*alone, entry(2, other)])[0].covers == (), "only its own game's turn"


def test_posts_of_other_games_offers_and_long_runs_are_not_joined():
    from bot.service.play.endings import OFFER

    offer = (Controls(GAME, 3, Prompt(0, OFFER, "Draw?"), ()),)
    long = "x" * 1000
    waiting = [
        entry(1, ChannelPost(GAME, CHANNEL, long)),
        entry(2, ChannelPost(GAME, CHANNEL, long)),  # two would pass a post's length
        entry(3, ChannelPost(GAME + 1, CHANNEL, "another game")),
        entry(4, ChannelPost(GAME + 1, CHANNEL, "bob offers a draw", controls=offer)),
        entry(5, ChannelPost(GAME + 1, CHANNEL, "settled", settles=3)),
    ]
    assert len(plan(waiting)) == 5


def test_a_status_edit_waits_behind_the_lanes_posts_and_a_new_status_message_does_not():
    """Editing a status message already out changes nothing of the channel's order, so the
    posts (the newest position) go first; a status message not yet out keeps its place."""
    status, turn = StatusUpdate(GAME, CHANNEL, "status"), turn_post(9, "turn nine")
    first, post = entry(1, status), entry(2, turn)
    assert [type(s.notice) for s in plan([first, post])] == [StatusUpdate, ChannelPost]
    out = (replace(first[0], status_message_id=555), status)
    sends = plan([out, post, entry(3, ChannelPost(GAME, CHANNEL, "a note"))])
    assert [type(s.notice) for s in sends] == [ChannelPost, ChannelPost, StatusUpdate]
    assert sends[-1].entry.id == 1


def test_a_lobby_goes_on_top_of_a_first_turn_post_that_told_many_turns_in_brief():
    from bot.service.play.turn_posts import TURN_POST_LIMIT
    from bot.service.seating.table_controls import lobby_controls

    lobby = (lobby_controls(GAME),)
    waiting = [entry(1, ChannelPost(GAME, CHANNEL, "Game #7 is open.", controls=lobby))]
    waiting += [
        entry(2 + t, turn_post(t, f"turn {t}: " + "m" * 40, board=True)) for t in range(200)
    ]
    sends = plan(waiting)
    assert len(sends) == 1, "the lobby is not a post of its own"
    lines = str(sends[0].notice.text).split("\n")
    assert lines[0] == "Game #7 is open." and lines[-1].startswith("turn 199:")
    assert "200 turns" not in lines[1] and "/game history" in lines[1]
    assert len(sends[0].notice.text.plain()) <= TURN_POST_LIMIT
    assert {e.id for e in sends[0].covers} == {1, *range(3, 202)}


class ArrivingChannel(Channel):
    """A channel that counts a request when it arrives: after its board is drawn."""

    async def __call__(self, delivery):
        board = getattr(delivery.notice, "board", None)
        if board is not None:
            await self.host.drawing.draw(board)
        return await super().__call__(delivery)


async def test_a_board_slow_to_draw_never_brings_requests_past_the_channels_pace(store, clock):
    """The pace is taken once a request's board is drawn, so a slow drawing (a busy host)
    never lets requests reach the channel closer together than Discord allows."""
    pace, sleep = sleeping_clock()

    def slow(slug, view):
        pace.now += 0.8  # more than the tenth of a window the pacer keeps to spare
        return b"png"

    host = GameHost(store, renderer=slow, clock=clock, seeds=random.Random(5))
    game = await computers_game(host)
    channel = ArrivingChannel(host, pace)
    outbox = host.new_outbox(channel, pacer=Pacer(clock=pace, sleep=sleep))
    while (await host.store.get_game(game)).status == "running":
        await host.computers.play_computers(game, limit=1)
        await outbox.flush()
        pace.now += 0.3
    times = channel.requests
    assert len(times) > 10
    for start in times:
        assert sum(start <= t < start + 5.0 for t in times) <= 5, "5 requests per 5 s"
