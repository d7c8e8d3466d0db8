"""Ratings through the host: each finished game rated by its seats' results, per server
and game, computers rated per level, ``/leaderboard`` and ``/stats``, and every rating
recomputed from the stored results coming out the same.

Real games, ended quickly: Lions and Dragons Chess by resigning or an agreed draw (it has
one), St. George by resigning. Each test runs on every store.
"""

from dataclasses import replace

import pytest

from bot.service.community import ratings
from bot.service.errors import UserError
from bot.service.play import turns as turns_module
from bot.store import GameRecord, RatingRow, ResultRow, SeatRecord
from engines.base import Result
from tests.bot.test_endings import offer_controls
from tests.bot.test_host import ALICE, BOB, CAROL, CHANNEL, GUILD, posts

OTHER_GUILD = 2
GAME = GameRecord(
    id=7, guild_id=GUILD, channel_id=CHANNEL, slug="stgeorge", status="finished", host_id=ALICE,
    players=3, options={}, seed=1, version=9, snapshot=None, result=None, deadline=None,
    remind_at=None, timing={}, status_message_id=None, board_message_id=None, own_thread=False,
    created_at=0.0, updated_at=5.0,
)  # fmt: skip


async def opened(host, slug, first, *, guild=GUILD, role=None):
    outcome = await host.lobby.new_game(
        guild_id=guild, channel_id=CHANNEL, user_id=first, user_name=f"user{first}", slug=slug,
        **({"role": role} if role else {}),
    )  # fmt: skip
    return posts(outcome)[0].game_id


async def resigned(host, slug, winner, loser, *, guild=GUILD, computer=None):
    """A game of ``slug`` that ``winner`` (or a computer at level ``computer``) wins
    because ``loser`` resigns; returns its number."""
    game = await opened(host, slug, loser, guild=guild)
    if computer:
        await host.lobby.add_computer(game_id=game, user_id=loser, level=computer)
    else:
        await host.lobby.join(game_id=game, user_id=winner, user_name=f"user{winner}")
    await host.lobby.start(game_id=game, user_id=loser)
    await host.endings.resign(game_id=game, user_id=loser, confirmed=True)
    assert (await host.desk.table(game)).record.status == "finished"
    return game


async def board(host, user=ALICE, game="lions-dragons", guild=GUILD):
    return (await host.standings.leaderboard(guild_id=guild, user_id=user, game=game)).text.plain()


async def pool(host, game="lions-dragons", guild=GUILD):
    return {r.user_id: r for r in await host.store.ratings(guild_id=guild, slug=game)}


async def test_the_winner_of_a_finished_game_is_rated_above_the_loser(host):
    await resigned(host, "lions-dragons", winner=BOB, loser=ALICE)
    rated = await pool(host)
    assert set(rated) == {ALICE, BOB}
    assert (rated[BOB].games, rated[BOB].wins, rated[ALICE].games, rated[ALICE].wins) == (
        1,
        1,
        1,
        0,
    )
    assert rated[BOB].mu > ratings.MODEL.mu > rated[ALICE].mu
    lines = (await board(host)).splitlines()
    assert "Lions and Dragons Chess: ratings on this server" in lines[0]
    assert lines[1].startswith("1. ") and "1 game, 1 win" in lines[1]
    assert lines[2].startswith("2. ") and "1 game, 0 wins" in lines[2]


async def test_the_leaderboard_is_public_and_names_people_without_calling_them(host):
    await resigned(host, "lions-dragons", winner=BOB, loser=ALICE)
    reply = await host.standings.leaderboard(guild_id=GUILD, user_id=CAROL, game="lions-dragons")
    assert not reply.private and reply.quiet
    assert [p.user_id for p in reply.text.parts] == [BOB, ALICE]


async def test_an_agreed_draw_ranks_both_players_equal(host):
    game = await opened(host, "lions-dragons", ALICE)
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.start(game_id=game, user_id=ALICE)
    offer = offer_controls(await host.endings.offer_draw(game_id=game, user_id=ALICE))
    await host.endings.answer_offer(game_id=game, user_id=BOB, version=offer.version, accept=True)
    rows = await host.store.player_results(guild_id=GUILD, user_id=ALICE)
    assert [(r.rank, r.won) for r in rows] == [(1, False)]
    rated = await pool(host)
    assert rated[ALICE].mu == pytest.approx(rated[BOB].mu) == pytest.approx(ratings.MODEL.mu)
    assert rated[ALICE].sigma < ratings.MODEL.sigma  # a game was played: less uncertain
    assert (rated[ALICE].wins, rated[BOB].wins) == (0, 0)


async def test_cancelled_games_are_never_rated(host):
    lobby = await opened(host, "lions-dragons", ALICE)
    await host.lobby.join(game_id=lobby, user_id=BOB, user_name="bob")
    await host.lobby.cancel(game_id=lobby, user_id=ALICE, is_admin=False)
    running = await opened(host, "lions-dragons", ALICE)
    await host.lobby.join(game_id=running, user_id=BOB, user_name="bob")
    await host.lobby.start(game_id=running, user_id=ALICE)
    await host.lobby.cancel(game_id=running, user_id=ALICE, is_admin=False)
    assert await host.store.player_results(guild_id=GUILD, user_id=ALICE) == []
    text = await board(host)
    assert "Nobody has finished a game of Lions and Dragons Chess on this server yet" in text


async def test_ratings_are_kept_per_server_and_per_game(host):
    await resigned(host, "lions-dragons", winner=BOB, loser=ALICE)
    await resigned(host, "lions-dragons", winner=ALICE, loser=BOB, guild=OTHER_GUILD)
    await resigned(host, "stgeorge", winner=CAROL, loser=ALICE)
    assert (await pool(host))[BOB].wins == 1
    assert (await pool(host, guild=OTHER_GUILD))[ALICE].wins == 1
    assert set(await pool(host, game="stgeorge")) == {ALICE, CAROL}
    assert set(await pool(host, game="stgeorge", guild=OTHER_GUILD)) == set()


async def test_computers_are_rated_per_level_in_the_same_pool(host):
    await resigned(host, "lions-dragons", winner=None, loser=ALICE, computer="easy")
    await resigned(host, "lions-dragons", winner=None, loser=BOB, computer="easy")
    await resigned(host, "lions-dragons", winner=None, loser=ALICE, computer="strong")
    rated = await pool(host)
    easy, strong = ratings.COMPUTER_KEYS["easy"], ratings.COMPUTER_KEYS["strong"]
    assert (rated[easy].games, rated[easy].wins, rated[strong].games) == (2, 2, 1)
    played = await host.store.player_results(guild_id=GUILD, user_id=easy)
    assert [r.computer for r in played] == ["easy", "easy"]
    text = await board(host)
    assert text.splitlines()[1].startswith("1. 🤖 easy: ")
    assert "🤖 strong" in text


async def test_the_asker_outside_the_top_ten_sees_their_own_place(host):
    # Twelve players: six winners, six losers; the asker lost.
    for n in range(6):
        await resigned(host, "lions-dragons", winner=200 + n, loser=300 + n)
    text = await board(host, user=305)
    lines = text.splitlines()
    assert "(12 rated)" in lines[0]
    places = [line for line in lines if line[:1].isdigit()]
    assert len(places) == 11 and places[-1].startswith("1") and "0 wins" in places[-1]
    assert [
        p.user_id
        for p in (
            await host.standings.leaderboard(guild_id=GUILD, user_id=305, game="lions-dragons")
        ).text.parts
    ][-1] == 305
    inside = (
        await host.standings.leaderboard(guild_id=GUILD, user_id=200, game="lions-dragons")
    ).text
    assert len([line for line in inside.plain().splitlines() if line[:1].isdigit()]) == 10


async def test_stats_tell_games_wins_rating_and_roles_per_game(host):
    await resigned(host, "lions-dragons", winner=BOB, loser=ALICE)  # alice opens: White
    await resigned(host, "lions-dragons", winner=ALICE, loser=BOB)  # alice joins: Black
    await resigned(host, "lions-dragons", winner=BOB, loser=ALICE)
    await resigned(host, "stgeorge", winner=CAROL, loser=ALICE)
    reply = await host.standings.stats(guild_id=GUILD, user_id=BOB, target=ALICE)
    assert not reply.private and reply.quiet
    lines = reply.text.plain().splitlines()
    lions = next(line for line in lines if "Lions and Dragons Chess" in line)
    assert "3 games, 1 win" in lions and "White ×2" in lions and "Black ×1" in lions
    rating = round(ratings.ordinal((await pool(host))[ALICE]))
    assert f"rating **{rating}**" in lions
    george = next(line for line in lines if "St. George" in line)
    assert "1 game, 0 wins" in george
    own = await host.standings.stats(guild_id=GUILD, user_id=CAROL)
    assert "1 game, 1 win" in own.text.plain() and "Lions" not in own.text.plain()


async def test_stats_and_leaderboard_say_so_when_nobody_has_played(host):
    mine = await host.standings.stats(guild_id=GUILD, user_id=ALICE)
    assert "You have not finished a game on this server yet" in mine.text.plain()
    theirs = await host.standings.stats(guild_id=GUILD, user_id=ALICE, target=BOB)
    assert "has not finished a game on this server yet" in theirs.text.plain()
    assert "Nobody has finished a game of St. George" in await board(host, game="stgeorge")
    with pytest.raises(UserError, match="per server"):
        await host.standings.stats(guild_id=None, user_id=ALICE)
    with pytest.raises(UserError):
        await host.standings.leaderboard(guild_id=GUILD, user_id=ALICE, game="chess")


async def test_recomputing_from_the_results_gives_the_same_ratings(host):
    pairs = [(BOB, ALICE), (ALICE, CAROL), (CAROL, BOB), (ALICE, BOB), (BOB, CAROL)]
    for winner, loser in pairs:
        await resigned(host, "lions-dragons", winner=winner, loser=loser)
    await resigned(host, "lions-dragons", winner=None, loser=CAROL, computer="strong")
    kept = await pool(host)
    done = await host.standings.recompute_ratings()
    assert (done.games, done.added, done.unreadable) == (6, 0, ())
    assert await pool(host) == kept  # exactly: the same floats


async def test_games_that_ended_before_results_were_kept_are_added_by_recomputing(
    host, monkeypatch
):
    games = [(BOB, ALICE), (ALICE, CAROL)]
    for winner, loser in games:  # rated as they end, on another server, for comparison
        await resigned(host, "lions-dragons", winner=winner, loser=loser, guild=OTHER_GUILD)
    with monkeypatch.context() as patched:  # these end as before results were kept
        patched.setattr(turns_module, "results_of", lambda *_: [])
        for winner, loser in games:
            await resigned(host, "lions-dragons", winner=winner, loser=loser)
    assert await pool(host) == {}
    done = await host.standings.recompute_ratings()
    assert (done.games, done.added) == (4, 2)

    def numbers(rated):
        return {k: (r.mu, r.sigma, r.games, r.wins) for k, r in rated.items()}

    assert numbers(await pool(host)) == numbers(await pool(host, guild=OTHER_GUILD))
    assert (await host.standings.recompute_ratings()).added == 0


def row(user_id, seat, rank, won=False):
    return ResultRow(1, seat, GUILD, "dragons-cave", user_id, "red", rank, won, 0.0)


def test_a_player_seated_twice_is_not_rated_by_that_game_but_counts_as_an_opponent():
    strong = ratings.COMPUTER_KEYS["strong"]
    rows = [row(ALICE, 0, 1, True), row(strong, 1, 2), row(strong, 2, 2)]
    [alice] = ratings.rate({}, rows)
    assert alice.user_id == ALICE and alice.mu > ratings.MODEL.mu
    alone = ratings.rate({}, [row(ALICE, 0, 1, True), row(strong, 1, 2)])
    assert {r.user_id for r in alone} == {ALICE, strong}
    assert ratings.rate({}, [row(ALICE, 0, 1, True), row(ALICE, 1, 2)]) == []


def test_rating_starts_at_zero_and_winners_share_the_best_rank():
    assert ratings.ordinal(ratings.new_rating(GUILD, "stgeorge", ALICE)) == pytest.approx(0)
    rows = [row(ALICE, 0, 1, True), row(BOB, 1, 1, True), row(CAROL, 2, 2)]
    rated = {r.user_id: r for r in ratings.rate({}, rows)}
    assert rated[ALICE].mu == pytest.approx(rated[BOB].mu)
    assert rated[BOB].mu > rated[CAROL].mu
    before = RatingRow(GUILD, "dragons-cave", CAROL, 30.0, 3.0, 5, 4)
    again = {r.user_id: r for r in ratings.rate({CAROL: before}, rows)}
    assert (again[CAROL].games, again[CAROL].wins) == (6, 4) and again[CAROL].mu < 30.0


def test_a_finished_games_rows_rank_its_winners_first_and_key_computers_by_level():
    seats = (
        SeatRecord(7, 0, "andrew-george", ALICE, "alice"),
        SeatRecord(7, 1, "david-patrick", -2, "strong", computer="strong"),
        SeatRecord(7, 2, "dragon", BOB, "bob", left=True),
    )
    record = replace(GAME, seats=seats)
    rows = ratings.results_of(record, Result((0,), "St. Andrew & St. George win"), 5.0)
    assert [(r.seat, r.user_id, r.role, r.rank, r.won) for r in rows] == [
        (0, ALICE, "andrew-george", 1, True),
        (1, ratings.COMPUTER_KEYS["strong"], "david-patrick", 2, False),
        (2, BOB, "dragon", 2, False),
    ]
    assert {(r.game_id, r.guild_id, r.slug, r.ended_at) for r in rows} == {
        (7, GUILD, "stgeorge", 5.0)
    }
    drawn = ratings.results_of(record, Result((), "Draw"), 5.0)
    assert [(r.rank, r.won) for r in drawn] == [(1, False)] * 3
