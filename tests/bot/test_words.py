"""Every message worded right: counts in the right number, each thing said once, the
winner named (a computer is not congratulated), no trophy when nobody wins, plain menu
placeholders, a locked-in card said so, `/game status` with its deadline and its result
once, and the closed-DM button saying whose choice it opens."""

from __future__ import annotations

import copy
import random

import pytest

from bot.discord.controls.play import GroupSelect
from bot.discord.controls.views import controls_view, menu_placeholder
from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.notices import ChannelPost, Controls
from bot.service.play.turn_posts import ending_line
from bot.service.text import Mention, Moment, Text, plural
from bot.service.timekeeping.timing import HOUR
from engines.base import Choice, Prompt, Result
from engines.dragons_cave import prompts as cave_prompts
from games import ENGINES

GUILD, CHANNEL = 1, 10
ALICE, BOB, CAROL = 101, 102, 103


@pytest.fixture
async def host(store, clock):
    return GameHost(store, clock=clock, seeds=random.Random(5))


async def opened(host, slug, players=2, join=(BOB,), start=True):
    made = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice", slug=slug,
        players=players,
    )  # fmt: skip
    game = next(n.game_id for n in made.notices if isinstance(n, ChannelPost))
    for user in join:
        await host.lobby.join(game_id=game, user_id=user, user_name=f"user{user}")
    if start:
        await host.lobby.start(game_id=game, user_id=ALICE)
    return game


def texts(outcome):
    """What an outcome's posts say, but a passed turn's post (its story said again)."""
    return [str(n.text) for n in outcome.notices if isinstance(n, ChannelPost) and not n.passed]


def test_plural_says_one_and_many():
    assert [plural(n, "seat") for n in (0, 1, 2)] == ["0 seats", "1 seat", "2 seats"]
    assert plural(1, "ply", "plies") == "1 ply" and plural(3, "ply", "plies") == "3 plies"


async def test_a_table_short_of_one_seat_says_one_seat(host):
    made = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice", slug="stgeorge",
        players=3,
    )  # fmt: skip
    game = next(n.game_id for n in made.notices if isinstance(n, ChannelPost))
    joined = await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    text = " ".join(texts(joined))
    assert "1 seat still open." in text and "(s)" not in text


async def test_the_first_secret_answer_of_three_is_counted_in_the_singular(host):
    game = await opened(host, "dragons-cave", players=3, join=(BOB, CAROL))
    table = await host.desk.table(game)
    seat = table.prompts()[0].seat
    user = table.record.user_at(seat)
    action = table.engine.legal_actions(table.state, seat)[0].action
    answered = await host.turns.act(game_id=game, user_id=user, action=action)
    assert "1 of 3 choices is in." in " ".join(texts(answered))


async def test_changing_a_locked_in_card_says_it_is_locked_in(host):
    game = await opened(host, "dragons-cave", players=3, join=(BOB, CAROL))
    table = await host.desk.table(game)
    seat = next(p.seat for p in table.prompts() if p.kind == "card")
    user = table.record.user_at(seat)
    first, second = table.engine.legal_actions(table.state, seat)[:2]
    await host.turns.act(game_id=game, user_id=user, action=first.action)
    with pytest.raises(UserError) as refused:
        await host.turns.act(game_id=game, user_id=user, action=second.action)
    assert "Your card is locked in for this round" in str(refused.value)
    assert "not your turn" not in str(refused.value)


def test_a_caught_dwarf_with_one_coin_hides_one_purse_coin():
    engine = ENGINES["dragons-cave"]
    roles = [r.key for r in engine.roles(3, engine.parse_options(""))]
    state = engine.setup(roles, engine.parse_options(""), random.Random(1))
    state = copy.deepcopy(state)
    state["phase"] = "split"
    state["catches"] = [{"seat": 1, "purse": 1, "split": None, "hand": None}]
    [prompt] = cave_prompts.prompts(state)
    assert "Hide your 1 Purse coin in two hands" in prompt.text


def test_a_draw_one_ply_away_says_one_ply():
    engine = ENGINES["lions-dragons"]
    roles = [r.key for r in engine.roles(2, engine.parse_options(""))]
    state = engine.setup(roles, engine.parse_options(""), random.Random(1))
    state["quiet"] = state["options"]["cap"] - 1
    summary = engine.view(state, None)["summary"]
    assert "Draw in 1 ply without" in summary, summary


async def test_a_fireball_shot_is_told_once(host):
    game = await opened(host, "lions-dragons")
    shot = await host.turns.act(game_id=game, user_id=ALICE, action="fire f2-d2")
    [text] = texts(shot)
    assert text.count("shot a Fireball") == 1, text


def test_a_won_game_names_the_winner_without_congratulating_a_computer():
    line = ending_line(Result((1,), "The last Knight is eaten."), "The Dragon (🤖 strong)")
    assert str(line) == "🏆 The last Knight is eaten. The Dragon (🤖 strong) wins."
    assert "Congratulations" not in str(line)
    two = ending_line(Result((0, 1), "They share the gold."), Text.of("alice and bob"))
    assert str(two).endswith("alice and bob win.")


def test_a_result_that_says_who_won_names_them_without_saying_it_again():
    line = ending_line(Result((0,), "Red wins with 22 coins."), Text.of("Red (", Mention(7), ")"))
    assert str(line) == "🏆 Red wins with 22 coins. Winner: Red (@7)."
    assert Mention(7) in line.parts


def test_a_game_nobody_wins_has_no_trophy():
    line = ending_line(Result((), "Nobody wins: the Treasure is empty."), "")
    assert str(line) == "Nobody wins: the Treasure is empty."


async def test_a_computer_that_wins_is_named_not_congratulated(host):
    game = await opened(host, "stgeorge", join=(), start=False)
    await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy")
    await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy", role="knights")
    await host.lobby.start(game_id=game, user_id=ALICE)
    final = texts(await host.computers.play_computers(game))[-1]
    assert "Congratulations" not in final
    last = final.splitlines()[-1]
    assert "🤖" in last and (last.endswith(" wins.") or "Winner: " in last), final


def test_a_menu_placeholder_is_plain_words_without_notation_hints():
    prompt = "Alice rolled 3: move one of your Knights exactly 3 points (`from-to`, e.g. `A1-3f`)."
    assert menu_placeholder(prompt) == "Alice rolled 3: move one of your Knights exactly 3 points."
    assert len(menu_placeholder("x" * 400)) <= 150


def test_a_two_step_menu_asks_for_a_piece_in_plain_words():
    moves = [(f"A{i}", f"A{i}-{j}f") for i in range(3) for j in range(10)]
    choices = tuple(Choice(move, move, piece) for piece, move in moves)
    prompt = Prompt(0, "move", "Move a piece (`from-to`, e.g. `A1-3f`).")
    view = controls_view([Controls(1, 5, prompt, choices)])
    [menu] = [item.item for item in view.children if isinstance(item, GroupSelect)]
    assert "`" not in menu.placeholder and ".:" not in menu.placeholder
    assert len(menu.placeholder) <= 150
    assert {o.description for o in menu.options} == {"10 moves"}


async def test_a_timeout_is_said_once(host, clock):
    await opened(host, "stgeorge")
    clock.now += 48 * HOUR
    [text] = texts(await host.turn_clock.fire_due())
    assert text.count("ran out of time") == 1, text


async def test_status_shows_the_deadline_and_the_result_once(host):
    game = await opened(host, "lions-dragons")
    reply = await host.listings.status(game_id=game)
    assert any(isinstance(p, Moment) for p in reply.text.parts), "the turn's deadline"
    await host.endings.resign(game_id=game, user_id=BOB, confirmed=True)
    finished = await host.listings.status(game_id=game)
    result = (await host.store.get_game(game)).result
    assert str(finished.text).count(result) == 1, str(finished.text)


async def test_the_closed_dm_button_tells_anyone_else_whose_choice_it_opens(host):
    game = await opened(host, "dragons-cave", players=3, join=(BOB, CAROL))
    with pytest.raises(UserError) as refused:
        await host.turns.private_controls(game_id=game, user_id=BOB, owner=ALICE)
    assert refused.value.text.parts == (Mention(ALICE),)
    assert "This button is for @101's secret choice" in str(refused.value)
