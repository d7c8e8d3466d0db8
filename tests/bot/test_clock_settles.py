"""A fired deadline always leaves its game settled, in every registered game.

Seeded random playouts through the host with the real engines: players act at random,
and at random moments the clock jumps to (or past) the next deadline and fires. After
every firing each game is settled: its next deadline and reminder are in the future, or
it is over, or paused. A timeout that leaves the same seat to act gives it a fresh turn.
"""

import contextlib
import random

import pytest

from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.notices import ChannelPost
from bot.service.timekeeping.timing import HOUR
from engines.dragonslayer.fight import wipe_out
from engines.replay import action_rng
from games import ENGINES
from tests.bot.clocks import Clock

GUILD, CHANNEL, HOST = 1, 10, 100


def unsettled(record, now):
    """Why ``record`` is not settled at ``now`` (empty if it is)."""
    if record.status != "running":
        return ""
    if record.deadline is not None and record.deadline <= now:
        return f"game {record.id}: deadline {record.deadline} not after {now}"
    if record.remind_at is not None and record.remind_at <= now:
        return f"game {record.id}: reminder {record.remind_at} not after {now}"
    return ""


async def open_game(host, slug, players, mode, computers=0):
    """A started game of ``players`` seats, the last ``computers`` of them computers."""
    opened = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=HOST, user_name="host", slug=slug,
        players=players,
    )  # fmt: skip
    game = opened.notices[-1].game_id
    for index in range(1, players - computers):
        await host.lobby.join(game_id=game, user_id=HOST + index, user_name=f"p{index}")
    for _ in range(computers):
        await host.lobby.add_computer(game_id=game, user_id=HOST, level="easy")
    await host.turn_clock.set_timing(
        game_id=game, user_id=HOST, limit_hours=1, reminder_hours=0.25, on_timeout=mode
    )
    await host.lobby.start(game_id=game, user_id=HOST)
    return game


def magician_out(engine, state, seed):
    """Dragonslayer for two, in the first magician's turn, with the second one slain: a
    skipped turn comes back to the same magician."""
    step = 0
    while state["phase"] == "place":
        state, _ = engine.skip(state, engine.prompts(state)[0].seat, action_rng(seed, step))
        step += 1
    wipe_out(state, 1, [])
    return state


async def slay_second_magician(host, game):
    table = await host.desk.table(game)
    state = magician_out(table.engine, table.state, table.record.seed)
    await host.store.update_game(
        game, table.record.version, now=host.clock(), snapshot=table.engine.dump(state)
    )


async def playout(host, clock, game, chooser, steps):
    fired = 0
    for _ in range(steps):
        table = await host.desk.table(game)
        if table.record.status != "running":
            break
        people = [p for p in table.prompts() if table.record.user_at(p.seat) is not None]
        if people and chooser.random() < 0.5:
            prompt = chooser.choice(people)
            choices = table.engine.legal_actions(table.state, prompt.seat)
            action = chooser.choice(choices).action
            user = table.record.user_at(prompt.seat)
            with contextlib.suppress(UserError):  # another seat's action may come first
                await host.turns.act(game_id=game, user_id=user, action=action)
            continue
        wakeup = await host.turn_clock.next_wakeup()
        if wakeup is None:
            break
        clock.now = max(clock.now, wakeup) + chooser.choice([0, 0, 1, 600, 2 * HOUR])
        await host.turn_clock.fire_due()
        fired += 1
        for record in await host.store.games(guild_id=GUILD):
            assert not unsettled(record, clock.now), unsettled(record, clock.now)
    return fired


@pytest.mark.parametrize("slug", list(ENGINES))
@pytest.mark.parametrize("seed", range(3))
async def test_every_fired_deadline_leaves_the_game_settled(store, slug, seed):
    clock = Clock()
    host = GameHost(store, clock=clock, seeds=random.Random(seed))
    chooser = random.Random(f"{slug}:{seed}")
    engine = ENGINES[slug]
    players = chooser.randint(engine.min_players, engine.max_players)
    mode = ("skip", "forfeit", "computer")[seed % 3]
    computers = chooser.choice([0, 0, 1]) if players > 2 else 0
    game = await open_game(host, slug, players, mode, computers)
    if slug == "dragonslayer" and players == 2 and mode != "forfeit":
        await slay_second_magician(host, game)
    fired = await playout(host, clock, game, chooser, steps=60)
    assert fired, "the clock fired at least once"


@pytest.mark.parametrize("mode", ["skip", "computer"])
async def test_a_timeout_that_keeps_the_same_seat_to_act_gives_it_a_fresh_turn(store, mode):
    clock = Clock()
    host = GameHost(store, clock=clock, seeds=random.Random(1))
    game = await open_game(host, "dragonslayer", 2, mode)
    await slay_second_magician(host, game)
    before = await store.get_game(game)
    clock.now = before.deadline + 1
    outcome = await host.turn_clock.fire_due()
    after = await store.get_game(game)
    assert after.version == before.version + 1, "one action, not a loop"
    assert after.deadline == clock.now + HOUR and after.remind_at == clock.now + 0.75 * HOUR
    assert await host.turn_clock.next_wakeup() > clock.now
    assert (await host.turn_clock.fire_due()).notices == []
    post = next(n for n in outcome.notices if isinstance(n, ChannelPost) and not n.passed)
    assert "ran out of time" in post.text and post.mentions == (HOST,), "called for the new turn"
    assert post.board is not None, "a new turn shows the board"
