"""Results and ratings in the store: each finished game's seats written by the action that
ends it, the pool's ratings kept in step in the same transaction, and every rating rebuilt
from the results in end order giving the same numbers.

Each test runs against every store in ``conftest.STORES``. The rater here is a toy one
whose numbers depend on the order games are rated in, so an order mistake shows.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.store import RatingRow, ResultRow, StaleVersion
from tests.store.test_contract import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    NOW,
    OTHER_GUILD,
    game,
    new_game,
    running,
    seat,
    set_fields,
)  # fmt: skip

DAVE = 4


def toy_rater(current, rows):
    """Halves every player's mu and adds 10 for a win: rating in another order gives other
    numbers. Each player is rated once per game."""
    rated = {}
    for row in rows:
        old = current.get(row.user_id) or RatingRow(
            row.guild_id, row.slug, row.user_id, 8.0, 1.0, 0, 0
        )
        rated[row.user_id] = RatingRow(
            row.guild_id, row.slug, row.user_id, old.mu / 2 + (10 if row.won else 0),
            old.sigma * 0.9, old.games + 1, old.wins + int(row.won),
        )  # fmt: skip
    return list(rated.values())


def results_for(record, winners, ended_at, *, slug=None):
    return [
        ResultRow(
            game_id=record.id, seat=s.seat, guild_id=record.guild_id, slug=slug or record.slug,
            user_id=s.user_id, role=s.role, rank=1 if s.seat in winners else 2,
            won=s.seat in winners, ended_at=ended_at,
        )
        for s in record.seats
    ]  # fmt: skip


async def finish(store, game_id, winners=(0,), *, ended_at=NOW, rater=toy_rater, **given):
    """End the game with the action that gives its result, as the host does."""
    record = await game(store, game_id)
    return await store.append_action(
        game_id, record.version, seat=0, action="win", events=[], now=ended_at,
        status="finished", result="Alice wins", results=results_for(record, winners, ended_at),
        rater=rater, **given,
    )  # fmt: skip


async def running_in(store, guild_id):
    game_id = await new_game(store, guild_id=guild_id)
    await seat(store, game_id, 0, ALICE)
    await seat(store, game_id, 1, BOB)
    await set_fields(store, game_id, status="running", snapshot={"turn": 0})
    return game_id


def by_player(ratings):
    return {r.user_id: (r.mu, r.sigma, r.games, r.wins) for r in ratings}


async def test_the_ending_action_stores_each_seats_result_and_rates_them(store):
    game_id = await running(store)
    await finish(store, game_id, winners=(1,), ended_at=NOW + 5)
    assert (await game(store, game_id)).status == "finished"
    [alice] = await store.player_results(guild_id=GUILD, user_id=ALICE)
    assert (alice.game_id, alice.seat, alice.slug, alice.role, alice.rank, alice.won) == (
        game_id, 0, "stgeorge", "r0", 2, False,
    )  # fmt: skip
    assert alice.ended_at == NOW + 5 and alice.computer is None
    assert by_player(await store.ratings(guild_id=GUILD, slug="stgeorge")) == {
        ALICE: (4.0, 0.9, 1, 0),
        BOB: (14.0, 0.9, 1, 1),
    }


async def test_a_stale_ending_stores_no_result_and_no_rating(store):
    game_id = await running(store)
    record = await game(store, game_id)
    with pytest.raises(StaleVersion):
        await store.append_action(
            game_id, record.version - 1, seat=0, action="win", events=[], now=NOW,
            status="finished", results=results_for(record, (0,), NOW), rater=toy_rater,
        )  # fmt: skip
    assert await store.player_results(guild_id=GUILD, user_id=ALICE) == []
    assert await store.ratings(guild_id=GUILD, slug="stgeorge") == []
    assert (await game(store, game_id)).status == "running"


async def test_results_without_a_rater_are_refused_and_nothing_is_written(store):
    game_id = await running(store)
    record = await game(store, game_id)
    with pytest.raises(ValueError):
        await store.append_action(
            game_id, record.version, seat=0, action="win", events=[], now=NOW,
            status="finished", results=results_for(record, (0,), NOW),
        )  # fmt: skip
    assert (await game(store, game_id)).version == record.version
    assert await store.player_results(guild_id=GUILD, user_id=ALICE) == []


async def test_ratings_accumulate_per_server_and_game(store):
    first, second = await running(store), await running(store)
    elsewhere = await running_in(store, OTHER_GUILD)
    await finish(store, first, winners=(0,), ended_at=NOW + 1)
    await finish(store, second, winners=(0,), ended_at=NOW + 2)
    await finish(store, elsewhere, winners=(1,), ended_at=NOW + 3)
    assert by_player(await store.ratings(guild_id=GUILD, slug="stgeorge")) == {
        ALICE: (17.0, pytest.approx(0.81), 2, 2),  # (8/2+10)/2+10
        BOB: (2.0, pytest.approx(0.81), 2, 0),
    }
    assert by_player(await store.ratings(guild_id=OTHER_GUILD, slug="stgeorge")) == {
        ALICE: (4.0, 0.9, 1, 0),
        BOB: (14.0, 0.9, 1, 1),
    }
    assert await store.ratings(guild_id=GUILD, slug="lions-dragons") == []
    [mine] = await store.player_ratings(guild_id=OTHER_GUILD, user_id=BOB)
    assert (mine.slug, mine.wins) == ("stgeorge", 1)


async def test_a_game_that_ended_earlier_but_commits_later_is_rated_in_end_order(store):
    early, late = await running(store), await running(store)
    await finish(store, late, winners=(1,), ended_at=NOW + 20)
    await finish(store, early, winners=(0,), ended_at=NOW + 10)  # its commit came second
    kept = by_player(await store.ratings(guild_id=GUILD, slug="stgeorge"))
    assert kept[ALICE][0] == (8 / 2 + 10) / 2  # won first, then lost
    await store.rebuild_ratings(toy_rater)
    assert by_player(await store.ratings(guild_id=GUILD, slug="stgeorge")) == kept


async def test_rebuilding_from_the_results_gives_exactly_the_kept_ratings(store):
    for n, winner in enumerate((0, 1, 1, 0, 0)):
        await finish(store, await running(store), winners=(winner,), ended_at=NOW + n)
    kept = await store.ratings(guild_id=GUILD, slug="stgeorge")
    assert await store.rebuild_ratings(toy_rater) == 5
    rebuilt = await store.ratings(guild_id=GUILD, slug="stgeorge")
    assert sorted(rebuilt, key=lambda r: r.user_id) == sorted(kept, key=lambda r: r.user_id)
    assert await store.rebuild_ratings(toy_rater) == 5
    assert sorted(
        await store.ratings(guild_id=GUILD, slug="stgeorge"), key=lambda r: r.user_id
    ) == (sorted(kept, key=lambda r: r.user_id))


async def test_games_finished_before_results_were_kept_are_listed_and_can_be_added(store):
    old = await running(store)
    record = await game(store, old)
    await store.append_action(
        old, record.version, seat=0, action="win", events=[], now=NOW, status="finished",
        result="Alice wins",
    )  # fmt: skip
    rated = await running(store)
    await finish(store, rated, ended_at=NOW + 1)
    await running(store)  # still running: not listed
    assert [g.id for g in await store.finished_without_results()] == [old]
    assert await store.finished_without_results(after_id=old) == []
    backfill = results_for(await game(store, old), (0,), NOW)
    assert await store.rebuild_ratings(toy_rater, add=backfill) == 2
    assert await store.finished_without_results() == []
    assert by_player(await store.ratings(guild_id=GUILD, slug="stgeorge"))[ALICE] == (
        17.0, pytest.approx(0.81), 2, 2,
    )  # fmt: skip
    # Adding the same rows again keeps the ones stored.
    assert await store.rebuild_ratings(toy_rater, add=backfill) == 2


async def test_a_players_results_come_in_end_order_with_their_roles(store):
    later, sooner = await running(store), await running(store)
    await finish(store, later, winners=(0,), ended_at=NOW + 9)
    await finish(store, sooner, winners=(1,), ended_at=NOW + 3)
    rows = await store.player_results(guild_id=GUILD, user_id=BOB)
    assert [(r.game_id, r.role, r.won) for r in rows] == [
        (sooner, "r1", True),
        (later, "r1", False),
    ]
    assert await store.player_results(guild_id=GUILD, user_id=CAROL) == []
    assert await store.player_results(guild_id=OTHER_GUILD, user_id=BOB) == []


async def test_results_and_ratings_survive_reopening(open_store):
    store = await open_store()
    await finish(store, await running(store), winners=(0,), ended_at=NOW)
    kept = by_player(await store.ratings(guild_id=GUILD, slug="stgeorge"))
    await store.close()
    again = await open_store()
    assert by_player(await again.ratings(guild_id=GUILD, slug="stgeorge")) == kept
    assert len(await again.player_results(guild_id=GUILD, user_id=DAVE)) == 0


async def test_games_of_one_pool_ending_at_once_through_two_stores_are_rated_in_end_order(
    open_store,
):
    first, second = await open_store(), await open_store()  # two processes, one database
    games = [await running(first) for _ in range(4)]
    await asyncio.gather(
        *(
            finish(store, game_id, winners=(n % 2,), ended_at=NOW + 10 - n)
            for n, (store, game_id) in enumerate(zip([first, second] * 2, games, strict=True))
        )
    )
    kept = by_player(await first.ratings(guild_id=GUILD, slug="stgeorge"))
    assert kept[ALICE][2] == 4
    await first.rebuild_ratings(toy_rater)
    assert by_player(await second.ratings(guild_id=GUILD, slug="stgeorge")) == kept
