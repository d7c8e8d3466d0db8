"""Spectators: ``/game watch`` and ``/game unwatch`` through the host.

A watcher gets each new public board by direct message, stored with the action that posts
it; never a secret prompt, a private line or controls; the status message counts them.
With DMs closed the outbox mentions them in the game's channel instead.
"""

from __future__ import annotations

import random

import pytest

from bot.service import wire
from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.notices import Board, ChannelPost, PrivateMessage, StatusUpdate
from bot.service.text import Mention, ServerRef
from tests.bot.test_host import ALICE, BOB, CAROL, CHANNEL, GUILD, open_game, started
from tests.bot.test_outbox import Discord
from tests.toy_game import toy_renderer

DAVE = 104


@pytest.fixture
async def host(store, toy, clock):
    return GameHost(store, renderer=toy_renderer, clock=clock, seeds=random.Random(3))


def dms_to(outcome, user):
    return [n for n in outcome.notices if isinstance(n, PrivateMessage) and n.user_id == user]


def boards(outcome):
    return [n for n in outcome.notices if isinstance(n, ChannelPost) and n.board is not None]


async def watched(host, game, user=CAROL):
    return await host.watchers.watch(game_id=game, user_id=user, guild_id=GUILD, channel_id=CHANNEL)


async def test_a_watcher_gets_each_new_board_by_dm_and_no_secret(host):
    game = await started(host)
    answer = (await watched(host, game)).replies[0]
    assert "You are watching Toy Game #1" in answer.text
    picked = await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    assert dms_to(picked, CAROL) == []  # a secret answered: no new board
    both = await host.turns.act(game_id=game, user_id=BOB, action="pick 2")
    [post] = boards(both)
    [dm] = dms_to(both, CAROL)
    assert dm.boards == (post.board,) and dm.controls == ()
    assert str(post.text) in str(dm.text) and "`/game unwatch game:1`" in dm.text
    assert ServerRef(GUILD) in dm.text.parts and "Watching **Toy Game #1** on" in str(dm.text)
    rolled = await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    [post] = boards(rolled)
    [dm] = dms_to(rolled, CAROL)
    assert dm.boards == (post.board,)
    secret_prompts = [n for n in rolled.notices if isinstance(n, PrivateMessage) and n.controls]
    assert secret_prompts and all(n.user_id in (ALICE, BOB) for n in secret_prompts)


async def test_the_watchers_dm_is_stored_with_the_action(host, store):
    game = await started(host)
    await watched(host, game)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    before = len(await store.pending_notices())
    outcome = await host.turns.act(game_id=game, user_id=BOB, action="pick 2")
    stored = (await store.pending_notices())[before:]
    assert [e.lane for e in stored].count(f"u{CAROL}") == 1
    assert len(stored) == len(outcome.outgoing)


async def test_every_watcher_gets_it_and_one_who_unwatches_stops(host):
    game = await started(host)
    await watched(host, game, CAROL)
    await watched(host, game, DAVE)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    both = await host.turns.act(game_id=game, user_id=BOB, action="pick 2")
    assert {n.user_id for n in both.notices if isinstance(n, PrivateMessage) and n.boards} == {
        CAROL, DAVE,
    }  # fmt: skip
    left = await host.watchers.unwatch(user_id=DAVE, guild_id=GUILD)
    assert "You no longer watch Toy Game #1" in left.replies[0].text
    rolled = await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    assert [n.user_id for n in rolled.notices if isinstance(n, PrivateMessage) and n.boards] == [
        CAROL
    ]


async def test_watching_is_refused_to_players_twice_and_for_ended_games(host, store):
    game = await started(host)
    with pytest.raises(UserError, match="You play in Toy Game #1, so you already see it"):
        await watched(host, game, ALICE)
    await watched(host, game)
    with pytest.raises(UserError, match="already watching Toy Game #1"):
        await watched(host, game)
    with pytest.raises(UserError, match="not watching any game"):
        await host.watchers.unwatch(user_id=DAVE, guild_id=GUILD)
    with pytest.raises(UserError, match="You are not watching Toy Game #1"):
        await host.watchers.unwatch(user_id=DAVE, guild_id=GUILD, game_id=game)
    other = await open_game(host)
    await host.lobby.cancel(game_id=other, user_id=ALICE, is_admin=False)
    with pytest.raises(UserError, match="Toy Game #2 is cancelled"):
        await watched(host, other, DAVE)


async def test_unwatching_without_a_game_lists_the_watched_ones(host):
    first = await started(host)
    second = await open_game(host)
    await watched(host, first)
    await watched(host, second)
    with pytest.raises(UserError, match=r"several games \(#2 Toy Game, #1 Toy Game\)"):
        await host.watchers.unwatch(user_id=CAROL, guild_id=GUILD)
    await host.watchers.unwatch(user_id=CAROL, guild_id=GUILD, game_id=second)
    assert (await host.watchers.watched_choices(user_id=CAROL)) == [(first, "#1 Toy Game")]


async def test_the_status_counts_the_watchers(host):
    game = await started(host)
    assert "watching" not in (await host.listings.status(game_id=game)).text
    one = await watched(host, game)
    [update] = [n for n in one.notices if isinstance(n, StatusUpdate)]
    assert "👀 1 person watching" in update.text and "waiting for" in update.text
    await watched(host, game, DAVE)
    assert "👀 2 people watching" in (await host.listings.status(game_id=game)).text
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    both = await host.turns.act(game_id=game, user_id=BOB, action="pick 2")
    [update] = [n for n in both.notices if isinstance(n, StatusUpdate)]
    assert "👀 2 people watching" in update.text


async def test_a_watcher_gets_the_final_board_and_nothing_after(host, store):
    game = await started(host)
    await watched(host, game)
    finals = []
    for _ in range(200):
        if (await store.get_game(game)).status != "running":
            break
        for user in (ALICE, BOB):
            for control in await host.turns.controls_for(game_id=game, user_id=user):
                outcome = await host.turns.act(
                    game_id=game, user_id=user, action=control.choices[0].action
                )
                finals += [n for n in boards(outcome) if n.final]
                if finals:
                    assert [dm.boards for dm in dms_to(outcome, CAROL)] == [(finals[0].board,)]
    assert finals, "the game did not end"
    with pytest.raises(UserError, match="is finished"):
        await watched(host, game, DAVE)
    with pytest.raises(UserError, match="not watching any game"):
        await host.watchers.unwatch(user_id=CAROL, guild_id=GUILD)


async def test_a_watcher_who_joins_the_game_is_sent_no_copy(host):
    game = await open_game(host)
    await watched(host, game, BOB)
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    started_ = await host.lobby.start(game_id=game, user_id=ALICE)
    assert [n for n in started_.notices if isinstance(n, PrivateMessage) and n.boards] == []


async def test_closed_dms_get_a_mention_in_the_games_channel(host, store):
    discord = Discord()
    outbox = host.new_outbox(discord)
    game = await started(host)
    await watched(host, game)
    discord.dms_closed.add(CAROL)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    await host.turns.act(game_id=game, user_id=BOB, action="pick 2")
    assert await outbox.flush()
    assert await outbox.flush()
    mentions = [n for n in discord.arrived if isinstance(n, ChannelPost) and CAROL in n.mentions]
    [mention] = mentions
    assert mention.channel_id == CHANNEL and Mention(CAROL) in mention.text
    assert "new board of game #1 you watch" in mention.text and mention.board is None
    assert await store.dm_closed(CAROL)


def test_a_private_message_with_boards_survives_the_outbox():
    boards = (Board("toy", {"n": 1}), Board("toy", {"n": 2}))
    message = PrivateMessage(3, CAROL, "👀 boards", channel_id=CHANNEL, boards=boards)
    assert wire.load(wire.dump(message)) == message
    older = wire.dump(PrivateMessage(3, CAROL, "hi", channel_id=CHANNEL))
    del older["boards"]  # stored before boards went with private messages
    assert wire.load(older) == PrivateMessage(3, CAROL, "hi", channel_id=CHANNEL)
    older["board"] = {"slug": "toy", "view": {"n": 1}}  # stored with one board
    assert wire.load(older).boards == (Board("toy", {"n": 1}),)


# -- a watcher never learns a secret (differential, as the leak tests) -----------------

WATCHER = 999


async def watcher_saw(host, game_id, outcome) -> list:
    """Everything sent to the watcher by an action: texts, boards, controls and pictures."""
    sent = [
        n for n in outcome.notices
        if getattr(n, "user_id", None) == WATCHER or WATCHER in getattr(n, "mentions", ())
    ]  # fmt: skip
    return [
        (str(n.text), _boards(n), n.controls, [await host.drawing.draw(b) for b in _boards(n)])
        for n in sent
    ]


def _boards(notice) -> tuple:
    """A notice's boards: a post's one, or a direct message's."""
    if isinstance(notice, PrivateMessage):
        return notice.boards
    return () if notice.board is None else (notice.board,)


@pytest.fixture
async def stores():
    from tests.bot.leak_checks import Stores

    opened = Stores()
    yield opened
    await opened.close_all()


async def watched_cave(stores, players: int):
    from tests.bot import leak_checks

    host, game_id = await leak_checks.open_game(stores, "dragons-cave", players)
    await host.watchers.watch(game_id=game_id, user_id=WATCHER)
    return host, game_id


async def test_two_caves_differing_in_the_lair_look_alike_to_a_watcher_until_it_shows(stores):
    from tests.bot import leak_checks
    from tests.bot.leak_checks import USERS

    host, game_id = await watched_cave(stores, 3)
    twin = await leak_checks.fork(stores, host, "dragons-cave")
    seen = []
    for target, lair in ((host, "lair amber"), (twin, "lair ruby")):
        steps = []
        for user, action in ((USERS[0], lair), (USERS[1], "card ruby"), (USERS[2], "card yellow")):
            outcome = await target.turns.act(game_id=game_id, user_id=user, action=action)
            steps.append(await watcher_saw(target, game_id, outcome))
        seen.append(steps)
    assert seen[0][:2] == seen[1][:2]
    assert seen[0][2] and seen[0][2] != seen[1][2]  # the round is revealed: boards differ
    assert "sits on the Amber square" in seen[0][2][0][0]


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2)])
async def test_a_watcher_is_sent_the_same_in_games_differing_in_a_secret(stores, players, seed):
    """Copies of a game differing in one secret: a card or lair square answered
    differently (until its round is revealed), or a Chest holding 7 coins more (until the
    final count). The watcher gets exactly the same DMs and pictures from each copy."""
    from tests.bot import leak_checks
    from tests.bot.leak_checks import USERS, edit_snapshot, everyone_asked, state_of

    host, game_id = await watched_cave(stores, players)
    users = list(USERS[:players])
    chooser = random.Random(f"watch:{players}:{seed}")
    chest = await leak_checks.fork(stores, host, "dragons-cave")
    seat = chooser.randrange(players)
    await edit_snapshot(chest, game_id, lambda snapshot: snapshot["chests"].__setitem__(
        seat, snapshot["chests"][seat] + 7))  # fmt: skip
    branches: list[list] = [[chest, None, None]]  # [host, the round its secret is in, ...]
    boards_compared = 0
    for _ in range(600):
        if (await host.store.get_game(game_id)).status != "running":
            break
        before = await state_of(host, game_id)
        user, control = chooser.choice(await everyone_asked(host, game_id, users))
        action = chooser.choice(control.choices).action
        others = [c.action for c in control.choices if c.action != action]
        if control.prompt.kind in ("card", "lair") and others:
            copy = await leak_checks.fork(stores, host, "dragons-cave")
            first = await copy.turns.act(
                game_id=game_id, user_id=user, action=chooser.choice(others)
            )
            branches.append([copy, before["round"], first])
        outcome = await host.turns.act(game_id=game_id, user_id=user, action=action)
        after = await state_of(host, game_id)
        mine = await watcher_saw(host, game_id, outcome)
        kept = []
        for branch in branches:
            copy, round_, first = branch
            if after["phase"] == "over" or (
                round_ is not None and (after["round"] != round_ or after["phase"] != "choose")
            ):
                await stores.close(copy)
                continue
            theirs = first or await copy.turns.act(game_id=game_id, user_id=user, action=action)
            branch[2] = None
            assert await watcher_saw(copy, game_id, theirs) == mine, f"{user}: {action}"
            boards_compared += len(mine)
            kept.append(branch)
        branches = kept
    assert (await host.store.get_game(game_id)).status == "finished"
    assert boards_compared >= 10
