"""Computer seats at the game host: seating them, their turns as short deadlines, games of
computers only, and the computer playing a late person's turn."""

import random

import pytest

from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.notices import ChannelPost, PrivateMessage
from bot.service.play import computers
from bot.service.text import Mention
from bot.service.timekeeping.timing import HOUR
from games import SPECS, GameSpec
from players import Decision

GUILD, CHANNEL = 1, 10
ALICE, BOB = 101, 102


@pytest.fixture
async def host(store, clock):
    return GameHost(store, clock=clock, seeds=random.Random(5))


async def lobby(host, slug="lions-dragons", players=2, role=None):
    opened = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice", slug=slug,
        players=players, role=role,
    )  # fmt: skip
    return next(n.game_id for n in opened.notices if isinstance(n, ChannelPost))


def posts(outcome):
    """The posts an outcome adds or updates, but a passed turn's post losing its controls."""
    return [n for n in outcome.notices if isinstance(n, ChannelPost) and not n.passed]


async def test_the_host_seats_a_computer_in_the_next_open_seat(host):
    game = await lobby(host)
    outcome = await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy")
    assert outcome.notices[0].text == "An easy computer plays Black."
    assert "🤖" in posts(outcome)[0].text and "Black: Computer (easy)" in posts(outcome)[0].text
    record = await host.store.get_game(game)
    assert record.computer_at(1) == "easy" and record.user_at(1) is None


@pytest.mark.parametrize(
    ("who", "level", "complaint"),
    [(BOB, "strong", "Only the host"), (ALICE, "genius", "`easy`"), (ALICE, "easy", "full")],
)
async def test_a_computer_seat_is_refused_with_a_reason(host, who, level, complaint):
    game = await lobby(host)
    if complaint == "full":
        await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    with pytest.raises(UserError, match=complaint):
        await host.lobby.add_computer(game_id=game, user_id=who, level=level)


async def test_a_computer_turn_is_played_when_its_short_deadline_comes(host, clock):
    game = await lobby(host, role="black")
    await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy", role="white")
    started = await host.lobby.start(game_id=game, user_id=ALICE)
    post = posts(started)[0]
    assert "the computer is thinking" in post.text
    assert not post.text.parts, "nobody is mentioned for a computer's turn"
    assert post.controls == (), "nobody is offered the computer's buttons"
    record = await host.store.get_game(game)
    before = record.version
    assert record.deadline == clock.now + computers.COMPUTER_DELAY
    assert (await host.turn_clock.fire_due()).notices == []
    clock.now += computers.COMPUTER_DELAY
    played = await host.turn_clock.fire_due()
    assert "White (🤖 easy)" in posts(played)[0].text
    assert Mention(ALICE) in posts(played)[0].text, "the person is called next"
    record = await host.store.get_game(game)
    assert record.version == before + 1 and record.deadline == clock.now + 48 * HOUR


async def test_a_computer_turn_due_during_a_restart_is_played_once(host, store, clock):
    game = await lobby(host, role="black")
    await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy", role="white")
    await host.lobby.start(game_id=game, user_id=ALICE)
    before = (await store.get_game(game)).version
    clock.now += 3600
    again = GameHost(store, clock=clock, seeds=random.Random(5))
    assert len(posts(await again.turn_clock.fire_due())) == 1
    assert (await again.turn_clock.fire_due()).notices == []
    assert (await store.get_game(game)).version == before + 1


async def test_a_game_of_computers_only_runs_to_the_end(host):
    game = await lobby(host, "stgeorge")
    await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy")
    handed = await host.lobby.add_computer(
        game_id=game, user_id=ALICE, level="easy", role="knights"
    )
    assert handed.notices[0].text == "An easy computer plays All four Knights."
    await host.lobby.start(game_id=game, user_id=ALICE)
    played = await host.computers.play_computers(game)
    record = await host.store.get_game(game)
    assert record.status == "finished" and record.result
    assert "🏆" in posts(played)[-1].text or "draw" in posts(played)[-1].text.lower()
    assert not [n for n in played.notices if isinstance(n, PrivateMessage)]


async def test_a_late_persons_turn_is_played_by_the_computer(host, clock):
    game = await lobby(host)
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.turn_clock.set_timing(game_id=game, user_id=ALICE, on_timeout="computer")
    await host.lobby.start(game_id=game, user_id=ALICE)
    before = (await host.store.get_game(game)).version
    clock.now += 48 * HOUR
    outcome = await host.turn_clock.fire_due()
    assert "ran out of time: the computer plays" in posts(outcome)[0].text
    assert (await host.store.get_game(game)).version == before + 1


async def test_a_failing_computer_player_falls_back_to_a_legal_random_move(host, monkeypatch):
    class Broken:
        def choose(self, game, state, seat, rng):
            raise RuntimeError("no idea")

    class Cheater:
        def choose(self, game, state, seat, rng):
            return Decision("a1-a11")

    game = await lobby(host, role="black")
    await host.lobby.add_computer(game_id=game, user_id=ALICE, level="strong", role="white")
    await host.lobby.start(game_id=game, user_id=ALICE)
    table = await host.desk.table(game)
    legal = {c.action for c in table.engine.legal_actions(table.state, 0)}
    for player in (Broken(), Cheater()):
        spec = SPECS[table.engine.slug]
        monkeypatch.setitem(SPECS, spec.slug, GameSpec(spec.engine, spec.renderer, player))
        decision = computers.decide(table.engine, table.state, 0, "strong", random.Random(1))
        assert decision.action in legal
