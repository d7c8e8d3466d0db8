"""The game host through a small toy game: lobby, turns, secrets, versions, replay."""

import asyncio

import pytest

from bot.service.errors import AlreadyDone, UserError
from bot.service.host import GameHost, replay
from bot.service.notices import ChannelPost, PrivateMessage, Reply

GUILD, CHANNEL, ALICE, BOB, CAROL = 1, 10, 101, 102, 103


async def open_game(host, **kw):
    outcome = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice", slug="toy", **kw
    )
    post = next(n for n in outcome.notices if isinstance(n, ChannelPost))
    return post.game_id


async def started(host):
    game = await open_game(host)
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.start(game_id=game, user_id=ALICE)
    return game


def posts(outcome):
    """The channel posts an outcome adds or updates (an offer's post settled is not one,
    nor a passed turn's post losing its controls)."""
    return [
        n for n in outcome.notices
        if isinstance(n, ChannelPost) and n.settles is None and not n.passed
    ]  # fmt: skip


def privates(outcome):
    return [n for n in outcome.notices if isinstance(n, PrivateMessage)]


async def test_new_game_seats_the_host_and_announces_open_seats(host):
    outcome = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice", slug="toy"
    )
    reply = next(n for n in outcome.notices if isinstance(n, Reply))
    assert "You joined Toy Game #1 as Even" in reply.text
    assert "Odd: *open*" in posts(outcome)[0].text


async def test_unknown_game_and_bad_player_count_are_refused(host):
    with pytest.raises(UserError, match="no game called `chess`"):
        await host.lobby.new_game(
            guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="a", slug="chess"
        )
    with pytest.raises(UserError, match="is for exactly 2 players, not 4"):
        await host.lobby.new_game(
            guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="a", slug="toy", players=4
        )
    with pytest.raises(UserError, match="has no options; remove `speed`"):
        await host.lobby.new_game(
            guild_id=GUILD,
            channel_id=CHANNEL,
            user_id=ALICE,
            user_name="a",
            slug="toy",
            options="speed=fast",
        )


async def test_joining_twice_a_taken_role_and_a_full_table_are_refused(host):
    game = await open_game(host)
    with pytest.raises(UserError, match="already in Toy Game #1, as Even"):
        await host.lobby.join(game_id=game, user_id=ALICE, user_name="alice")
    with pytest.raises(UserError, match="Even is taken"):
        await host.lobby.join(game_id=game, user_id=BOB, user_name="bob", role="even")
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob", role="odd")
    with pytest.raises(UserError, match="is full"):
        await host.lobby.join(game_id=game, user_id=CAROL, user_name="carol")


async def test_only_the_host_starts_and_only_with_a_full_table(host):
    game = await open_game(host)
    with pytest.raises(UserError, match="needs 1 more player"):
        await host.lobby.start(game_id=game, user_id=ALICE)
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    with pytest.raises(UserError, match="Only the host"):
        await host.lobby.start(game_id=game, user_id=BOB)
    outcome = await host.lobby.start(game_id=game, user_id=ALICE)
    assert posts(outcome)[0].board is not None
    with pytest.raises(UserError, match="already started"):
        await host.lobby.start(game_id=game, user_id=ALICE)


async def test_secret_prompts_go_privately_to_each_player(host):
    game = await open_game(host)
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    outcome = await host.lobby.start(game_id=game, user_id=ALICE)
    asked = {p.user_id for p in privates(outcome) if p.controls}
    assert asked == {ALICE, BOB}
    assert all(p.controls[0].prompt.secret for p in privates(outcome))


async def test_a_secret_pick_is_told_only_to_its_owner(host):
    game = await started(host)
    outcome = await host.turns.act(game_id=game, user_id=ALICE, action="pick 3")
    assert [r.text for r in outcome.replies if r.private] == ["You picked 3."]  # to the asker
    assert not privates(outcome), "nobody else is told"
    public = posts(outcome)[0]
    assert "1 of 2 picks are in" in public.text
    # The round's post is updated (the prompt still asks Bob to pick "from 1 to 3").
    assert public.edit
    assert "3" not in str(public.text).replace("#1", "").replace("from 1 to 3", "")
    assert public.board is None  # nothing visible changed; no new board


async def test_picks_are_revealed_together_and_the_board_is_reposted(host):
    game = await started(host)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 3")
    outcome = await host.turns.act(game_id=game, user_id=BOB, action="pick 1")
    public = posts(outcome)[0]
    assert "Picks revealed: Even 3, Odd 1." in public.text
    assert public.board is not None
    assert public.controls and public.controls[0].choices[0].action == "roll"
    assert ALICE in public.mentions


async def test_acting_out_of_turn_or_illegally_changes_nothing(host, store):
    game = await started(host)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 2")
    await host.turns.act(game_id=game, user_id=BOB, action="pick 2")
    version = (await store.get_game(game)).version
    with pytest.raises(UserError, match="not your turn"):
        await host.turns.act(game_id=game, user_id=BOB, action="roll")
    with pytest.raises(UserError, match="not possible"):
        await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    with pytest.raises(UserError, match="not playing"):
        await host.turns.act(game_id=game, user_id=CAROL, action="roll")
    assert (await store.get_game(game)).version == version


async def test_a_second_click_on_the_same_control_is_told_it_was_already_played(host, store):
    game = await started(host)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 2")
    await host.turns.act(game_id=game, user_id=BOB, action="pick 2")
    version = (await store.get_game(game)).version
    first = await host.turns.act(game_id=game, user_id=ALICE, action="roll", version=version)
    assert posts(first)
    with pytest.raises(AlreadyDone, match="already played"):
        await host.turns.act(game_id=game, user_id=ALICE, action="roll", version=version)
    assert len(await store.actions(game)) == 3


async def test_two_clicks_arriving_together_apply_once(host, store):
    game = await started(host)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 2")
    await host.turns.act(game_id=game, user_id=BOB, action="pick 2")
    version = (await store.get_game(game)).version
    results = await asyncio.gather(
        host.turns.act(game_id=game, user_id=ALICE, action="roll", version=version),
        host.turns.act(game_id=game, user_id=ALICE, action="roll", version=version),
        return_exceptions=True,
    )
    assert sum(isinstance(r, AlreadyDone) for r in results) == 1
    assert [a.action for a in await store.actions(game)] == ["pick 2", "pick 2", "roll"]


async def test_a_double_secret_answer_is_refused_and_the_first_stands(host, store):
    game = await started(host)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    with pytest.raises(UserError, match=r"is not possible now\. Waiting for"):
        await host.turns.act(game_id=game, user_id=ALICE, action="pick 3")
    assert "Your pick: 1." in await host.turns.private_text(game_id=game, user_id=ALICE)


async def test_the_game_replays_exactly_from_its_log(host, store, toy):
    game = await started(host)
    for _ in range(12):
        record = await store.get_game(game)
        if record.status != "running":
            break
        controls = await host.turns.controls_for(game_id=game, user_id=ALICE) or []
        if controls:
            await host.turns.act(game_id=game, user_id=ALICE, action=controls[0].choices[-1].action)
        controls = await host.turns.controls_for(game_id=game, user_id=BOB)
        if controls:
            await host.turns.act(game_id=game, user_id=BOB, action=controls[0].choices[0].action)
    record = await store.get_game(game)
    log = [(a.seq, a.seat, a.action) for a in await store.actions(game)]
    assert toy.dump(replay(record, log)) == record.snapshot


async def test_everything_survives_closing_and_reopening_the_database(open_store, toy):
    first = GameHost(await open_store())
    game = await started(first)
    await first.turns.act(game_id=game, user_id=BOB, action="pick 2")
    await first.store.close()
    second = GameHost(await open_store())
    outcome = await second.turns.act(game_id=game, user_id=ALICE, action="pick 2")
    assert "Picks revealed: Even 2, Odd 2." in posts(outcome)[0].text


async def test_cancel_needs_the_host_or_a_server_manager(host, store):
    game = await open_game(host)
    with pytest.raises(UserError, match="Only the host"):
        await host.lobby.cancel(game_id=game, user_id=BOB, is_admin=False)
    await host.lobby.cancel(game_id=game, user_id=BOB, is_admin=True)
    assert (await store.get_game(game)).status == "cancelled"
    with pytest.raises(UserError, match="cancelled"):
        await host.lobby.join(game_id=game, user_id=CAROL, user_name="carol")


async def test_a_channel_with_two_games_asks_which_one(host):
    await open_game(host)
    await open_game(host)
    with pytest.raises(UserError, match="several games"):
        await host.desk.find(guild_id=GUILD, channel_id=CHANNEL, user_id=CAROL, game_id=None)
    table = await host.desk.find(guild_id=GUILD, channel_id=CHANNEL, user_id=CAROL, game_id=2)
    assert table.record.id == 2


async def test_mine_says_where_it_is_your_turn(host):
    game = await started(host)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    assert "waiting for Odd" in (await host.listings.mine(guild_id=GUILD, user_id=ALICE)).text
    assert "**your turn**" in (await host.listings.mine(guild_id=GUILD, user_id=BOB)).text


async def test_board_pictures_are_drawn_from_the_public_view_only(host):
    game = await started(host)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 3")
    outcome = await host.turns.act(game_id=game, user_id=BOB, action="pick 1")
    picture = (await host.drawing.draw(posts(outcome)[0].board)).decode()
    assert "'waiting'" in picture  # the toy renderer echoes the view it was given
    assert "private" not in picture


async def test_a_secret_control_from_an_earlier_round_is_refused(host, store):
    game = await started(host)
    round_one = (await store.get_game(game)).version
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 1", issued=round_one)
    await host.turns.act(game_id=game, user_id=BOB, action="pick 2", issued=round_one)
    await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    with pytest.raises(AlreadyDone, match="earlier round"):
        await host.turns.act(game_id=game, user_id=ALICE, action="pick 3", issued=round_one)
    round_two = (await store.get_game(game)).version
    await host.turns.act(game_id=game, user_id=BOB, action="pick 3", issued=round_two)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 3", issued=round_two)
    assert [a.action for a in await store.actions(game)][-2:] == ["pick 3", "pick 3"]


async def test_the_same_typed_move_sent_twice_at_once_lands_once(host, store):
    """The second copy meets the position after the first: it is refused as already
    played, not re-checked and applied again for the seat that is to act next."""
    game = await open_game(host)
    version = (await store.get_game(game)).version
    await store.add_seat(game, version, seat=1, role="odd", user_id=ALICE, name="alice", now=1.0)
    await host.lobby.start(game_id=game, user_id=ALICE)
    # "At once": both copies read the position before either is stored.
    both_read = asyncio.Barrier(2)
    find = host.desk.find

    async def find_together(**where):
        table = await find(**where)
        await both_read.wait()
        return table

    host.desk.find = find_together
    results = await asyncio.gather(
        host.turns.act(game_id=game, user_id=ALICE, action="pick 2"),
        host.turns.act(game_id=game, user_id=ALICE, action="pick 2"),
        return_exceptions=True,
    )
    assert sum(isinstance(r, AlreadyDone) for r in results) == 1, results
    assert [(a.seat, a.action) for a in await store.actions(game)] == [(0, "pick 2")]


async def test_a_typed_move_meeting_another_players_move_is_checked_again(host, store):
    game = await started(host)
    results = await asyncio.gather(
        host.turns.act(game_id=game, user_id=ALICE, action="pick 2"),
        host.turns.act(game_id=game, user_id=BOB, action="pick 3"),
    )
    assert all(posts(r) for r in results)
    assert sorted(a.action for a in await store.actions(game)) == ["pick 2", "pick 3"]
