"""One post per turn: the steps of a turn (a roll and the move it allows; a computer's
several steps; secret answers of one round) update the turn's post instead of adding
posts, exactly once and safely after a crash; the local table shows what changed."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from bench import posts as bench_posts
from bot.console.table import LocalTable
from bot.service import wire
from bot.service.delivery.outbox import Delivery
from bot.service.host import GameHost
from bot.service.notices import ChannelPost
from bot.service.play import turn_posts
from bot.service.text import Mention, Text
from tests.bot.clocks import Clock

GUILD, CHANNEL = 1, 10
ALICE, BOB = 101, 102
EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.txt"))


class Channel:
    """A fake Discord channel as the outbox's sender: posts make messages, a turn post's
    update edits the message it names (or, if that one was deleted, posts anew)."""

    def __init__(self):
        self.messages: dict[int, str] = {}
        self.posted = 0
        self.edited = 0

    async def __call__(self, delivery):
        notice = delivery.notice
        if not isinstance(notice, ChannelPost):
            return None
        target = delivery.board_message_id
        if notice.edit and target in self.messages:
            self.messages[target] = str(notice.text)
            self.edited += 1
            return target
        self.posted += 1
        message_id = 5000 + self.posted
        self.messages[message_id] = str(notice.text)
        return message_id


@pytest.fixture
async def host(store):
    return GameHost(store, clock=Clock(), seeds=random.Random(5))


async def stgeorge(host, computer=False):
    opened = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice", slug="stgeorge",
        players=2,
    )  # fmt: skip
    game = next(n.game_id for n in opened.notices if isinstance(n, ChannelPost))
    if computer:
        await host.lobby.add_computer(game_id=game, user_id=ALICE, level="strong")
    else:
        await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.start(game_id=game, user_id=ALICE)
    return game


def posts(outcome):
    """The posts an outcome adds or updates, but a passed turn's post losing its controls."""
    return [n for n in outcome.notices if isinstance(n, ChannelPost) and not n.passed]


async def to_move(host, game, user):
    """Roll for ``user``, then the first legal move; the two outcomes."""
    rolled = await host.turns.act(game_id=game, user_id=user, action="roll")
    while not await host.turns.action_choices(game_id=game, user_id=user):  # no move: rolled again
        rolled = await host.turns.act(game_id=game, user_id=user, action="roll")
    move = (await host.turns.action_choices(game_id=game, user_id=user))[0].action
    return rolled, await host.turns.act(game_id=game, user_id=user, action=move)


async def test_a_roll_updates_the_turns_post_and_the_move_opens_the_next(host):
    game = await stgeorge(host)
    first = await host.store.recent_notices(game, f"c{CHANNEL}")
    turn_post = next(b for b in first if b["kind"] == "post" and b.get("turn") is not None)
    rolled = await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    [update] = posts(rolled)
    assert update.edit and update.turn == turn_post["turn"], "the same turn's post, updated"
    assert "The game begins!" in update.text and "rolled" in update.text, "it grows"
    assert update.mentions == (), "an update pings nobody"
    assert update.controls and update.controls[0].prompt.kind != "roll", "it offers the move"
    move = update.controls[0].choices[0].action
    moved = await host.turns.act(game_id=game, user_id=ALICE, action=move)
    [post] = posts(moved)
    assert not post.edit and post.board is not None and post.turn != update.turn
    assert post.mentions == (BOB,), "the next player is called in a new post"


async def test_the_move_that_passes_the_turn_takes_the_controls_off_its_post(host):
    """Stored with the move, before the next turn's post: the passed turn's post, edited
    to what happened (no call to act, no controls, no new picture)."""
    game = await stgeorge(host)
    rolled, moved = await to_move(host, game, ALICE)
    [update] = posts(rolled)
    passed, post = [n for n in moved.notices if isinstance(n, ChannelPost)]
    assert passed.passed and passed.edit and passed.turn == update.turn
    assert passed.controls == () and passed.board is None and passed.mentions == ()
    assert str(passed.text) == str(update.story) and "➡️" not in str(passed.text)
    assert not post.passed and post.turn != update.turn and post.controls
    stored = await host.store.recent_notices(game, f"c{CHANNEL}")
    kinds = [(b["kind"], b.get("passed", False)) for b in stored[:3]]
    assert kinds[0] == ("status", False) and ("post", True) in kinds, "stored with the move"
    assert wire.load(wire.dump(passed)) == passed


async def test_a_roll_is_said_once_in_the_updated_post(host):
    game = await stgeorge(host)
    rolled = await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    text = str(posts(rolled)[0].text)
    roll = text.split("rolled ")[1][0]
    assert text.count(f"rolled {roll}") == 1, text


async def test_a_moves_summary_does_not_repeat_the_move(host):
    game = await stgeorge(host)
    _, moved = await to_move(host, game, ALICE)
    text = str(posts(moved)[0].text)
    assert "Last:" not in text, text


async def test_a_computers_turn_of_several_steps_is_one_post(host):
    game = await stgeorge(host, computer=True)
    await to_move(host, game, ALICE)
    played = await host.computers.play_computers(game)
    new = [p for p in posts(played) if not p.edit]
    updates = [p for p in posts(played) if p.edit]
    assert len(new) == 1 and updates, "its roll updates its post; its move opens the next"
    assert "🤖" in updates[0].text


async def test_each_update_is_sent_once_to_the_turns_post(host):
    channel = Channel()
    outbox = host.new_outbox(channel)
    game = await stgeorge(host)
    await outbox.flush()
    posted = channel.posted
    await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    await outbox.flush()
    await outbox.flush()
    assert (channel.posted, channel.edited) == (posted, 1), "the roll edits, once"
    turn_post = (await host.store.get_game(game)).board_message_id
    assert "The game begins!" in channel.messages[turn_post]
    assert "rolled" in channel.messages[turn_post]


async def test_an_update_whose_post_was_deleted_becomes_the_turns_post(host):
    channel = Channel()
    outbox = host.new_outbox(channel)
    game = await stgeorge(host)
    await outbox.flush()
    channel.messages.clear()  # the turn's post is gone
    await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    await outbox.flush()
    record = await host.store.get_game(game)
    assert channel.edited == 0 and record.board_message_id in channel.messages
    assert "rolled" in channel.messages[record.board_message_id], "posted anew, in full"


async def test_the_local_table_shows_only_what_the_update_adds(tmp_path):
    out = io.StringIO()
    table = await LocalTable.open(seed=3, out=out)
    try:
        await table.run_lines([
            "alice: /game new game:stgeorge players:2",
            "bob: /game join",
            "alice: /game start",
            "alice: roll",
        ])  # fmt: skip
    finally:
        await table.close()
    after_roll = out.getvalue().split("> alice: roll")[1]
    assert "[#table, the turn's post goes on]" in after_roll
    assert "The game begins!" not in after_roll, "what it showed before is not shown again"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
async def test_every_example_game_posts_about_once_a_turn(path):
    made, _, turns = await bench_posts.example(path)
    assert made <= turns * 1.2 + 5, f"{made} posts for {turns} turns"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
async def test_once_a_game_runs_every_new_post_is_a_turns_post_with_its_board(path):
    """A step within a turn (a roll, a march, a secret answer) adds no post of its own."""
    script = path.read_text(encoding="utf-8")
    table = await LocalTable.open(seed=seed_of(script), out=io.StringIO())
    bare: list[str] = []
    send = table.outbox.send
    numbers = iter(range(1, 10**6))

    async def watching(delivery):
        notice = delivery.notice
        updates = getattr(notice, "edit", False) and delivery.board_message_id
        told = isinstance(notice, ChannelPost) and str(notice.text).startswith("**")
        if told and notice.board is None and not updates:
            record = await table.host.store.get_game(notice.game_id)
            if record.version > len(record.seats):  # the game runs: a step of a turn
                bare.append(str(notice.text))
        await send(delivery)
        return next(numbers)

    table.outbox.send = watching
    try:
        await table.run_lines(script.splitlines())
    finally:
        await table.close()
    assert bare == [], bare[:3]


def seed_of(script: str) -> int:
    return int(re.search(r"^# seed: (\d+)$", script, re.MULTILINE)[1])


async def test_an_update_sent_twice_after_a_crash_leaves_the_same_message(host):
    channel = Channel()
    outbox = host.new_outbox(channel)
    game = await stgeorge(host)
    await outbox.flush()
    await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    [entry] = [e for e in await host.store.pending_notices() if e.body["kind"] == "post"]
    record = await host.store.get_game(game)
    delivery = Delivery(wire.load(entry.body), f"dh{entry.id}", None, record.board_message_id)
    posted = channel.posted
    await channel(delivery)  # sent, then the process died before recording it
    once = dict(channel.messages)
    await outbox.flush()  # the next process sends it again
    assert channel.messages == once and channel.posted == posted, "no second message"


def test_a_turn_posts_update_survives_the_outbox_as_it_was_stored():
    update = ChannelPost(
        1, 10, Text.of("**Game**\nrolled 4\n➡️ ", Mention(7), ": move"),
        turn=12, edit=True, story=Text.of("**Game**\nrolled 4"),
    )  # fmt: skip
    assert wire.load(wire.dump(update)) == update


def test_a_turn_of_many_steps_keeps_a_story_no_longer_than_its_post():
    """Computers playing on alone make hundreds of steps in one turn: the story each step
    stores stays within one post, with the turn's first line and its newest step."""
    post = ChannelPost(1, CHANNEL, "", turn=1, story="Turn 7: Galen's move.")
    for step in range(500):
        story = turn_posts.step_story(post, "", [f"Merridyd marches to castle {step}."], [])
        post = ChannelPost(1, CHANNEL, "", turn=1, story=story)
    kept = str(post.story).splitlines()
    assert len(str(post.story)) <= turn_posts.TURN_POST_LIMIT
    assert kept[0] == "Turn 7: Galen's move." and kept[1] == "…"
    assert kept[-1] == "Merridyd marches to castle 499."


async def test_a_step_another_host_played_stays_in_the_turns_post(store):
    """A host keeps the turn post it stored last; a game another process moved on since
    (sharing the database) is read back, so no step goes missing from the post."""
    here = GameHost(store, clock=Clock(), seeds=random.Random(5))
    there = GameHost(store, clock=Clock(), seeds=random.Random(6))
    opened = await here.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice",
        slug="dragons-cave", players=4,
    )  # fmt: skip
    game = next(n.game_id for n in opened.notices if isinstance(n, ChannelPost))
    for user, name in ((BOB, "bob"), (103, "carol"), (104, "dave")):
        await here.lobby.join(game_id=game, user_id=user, user_name=name)
    await here.lobby.start(game_id=game, user_id=ALICE)

    async def answer(host, user):
        choice = (await host.turns.action_choices(game_id=game, user_id=user))[0].action
        [post] = posts(await host.turns.act(game_id=game, user_id=user, action=choice))
        return post

    await answer(here, ALICE)
    by_bob = await answer(there, BOB)
    by_carol = await answer(here, 103)
    assert by_carol.edit and by_carol.turn == by_bob.turn
    assert str(by_bob.story) in str(by_carol.story), "bob's step, played elsewhere, stays"


class NewestNotices:
    """A store holding one game's channel notices, newest first."""

    def __init__(self, notices):
        self.bodies = [wire.dump(n) for n in notices]
        self.asked: list[int] = []

    async def recent_notices(self, game_id, lane, limit=10):
        self.asked.append(limit)
        return self.bodies[:limit]


GAME = SimpleNamespace(id=1, channel_id=CHANNEL)


@pytest.mark.parametrize("newer", [0, 2, 5, 9])
async def test_the_turns_post_is_found_behind_newer_notices_in_its_channel(newer):
    post = ChannelPost(1, CHANNEL, "Turn 3: Galen's move.", turn=3, story="Turn 3")
    plain = [ChannelPost(1, CHANNEL, f"Bob joined the watchers ({n}).") for n in range(newer)]
    store = NewestNotices([*plain, post])
    assert await turn_posts.current(store, GAME) == post
    assert store.asked == ([3] if newer < 3 else [3, 10]), "the newest few are read first"


async def test_a_game_whose_few_notices_hold_no_turn_post_has_none_after_one_read():
    store = NewestNotices([ChannelPost(1, CHANNEL, "Lobby open.")])
    assert await turn_posts.current(store, GAME) is None
    assert store.asked == [3]
