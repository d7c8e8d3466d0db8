"""``/games`` through the host (both stores): one inbox of a player's games on every
server they can see, those waiting on them first (the nearest deadline first), then the
rest; games on servers they cannot see are left out; Next offers the most urgent choice
with its controls, played like any click."""

from __future__ import annotations

import random

import pytest

from bot.service.community.inbox import NEXT
from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.notices import ChannelPost
from tests.bot.clocks import Clock
from tests.toy_game import toy_renderer

ALICE, BOB = 501, 502
HOUR = 3600.0
SERVERS = {1: "Dragon Club", 2: "Knights Hall", 3: "Lair"}


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def host(store, toy, clock):
    return GameHost(store, renderer=toy_renderer, clock=clock, seeds=random.Random(7))


async def open_toy(host: GameHost, guild: int, *, start: bool = True) -> int:
    """A toy game on server ``guild`` (channel ``guild * 10``): alice hosts, bob joins."""
    opened = await host.lobby.new_game(
        guild_id=guild, channel_id=guild * 10, user_id=ALICE, user_name="alice", slug="toy"
    )
    game_id = next(n.game_id for n in opened.notices if isinstance(n, ChannelPost))
    await host.lobby.join(game_id=game_id, user_id=BOB, user_name="bob")
    if start:
        await host.lobby.start(game_id=game_id, user_id=ALICE)
    return game_id


@pytest.fixture
async def games(host, clock):
    """Games of alice's on four servers: waiting on her on servers 1 and 2 (server 2's turn
    ends first), waiting on bob on server 3 (its turn ends before either), a lobby on
    server 1, and a game waiting on her on server 4, which she cannot see."""
    start = clock.now
    clock.now = start - 2 * HOUR
    third = await open_toy(host, 3)
    await host.turns.act(game_id=third, user_id=ALICE, action="pick 1")
    clock.now = start - HOUR
    second = await open_toy(host, 2)
    clock.now = start
    first = await open_toy(host, 1)
    lobby = await open_toy(host, 1, start=False)
    unseen = await open_toy(host, 4)
    return {"first": first, "second": second, "third": third, "lobby": lobby, "unseen": unseen}


def order_of(text: str, games: dict[str, int]) -> list[str]:
    """The games named in an inbox's text, in the order it lists them."""
    lines = text.splitlines()[1:]
    named = []
    for line in lines:
        for name, game_id in games.items():
            if f"#{game_id} on" in line:
                named.append(name)
    return named


async def test_the_inbox_lists_waiting_games_first_by_deadline_then_the_rest(host, games):
    inbox = await host.inbox.inbox(user_id=ALICE, visible=SERVERS)
    text = inbox.text.plain() if not isinstance(inbox.text, str) else inbox.text
    assert inbox.private
    assert order_of(text, games) == ["second", "first", "third", "lobby"]
    assert "2 waiting for you" in text
    lines = text.splitlines()
    assert "Knights Hall" in lines[1] and "#20" in lines[1] and "**your turn**" in lines[1]
    assert "turn ends at" in lines[1]
    assert "Lair" in lines[3] and "waiting for" in lines[3] and "your turn" not in lines[3]
    assert "waiting for players" in lines[4]
    assert [c.prompt.kind for c in inbox.controls] == [NEXT]


async def test_servers_the_player_cannot_see_are_left_out(host, games):
    assert await host.inbox.servers(user_id=ALICE) == {1, 2, 3, 4}
    inbox = await host.inbox.inbox(user_id=ALICE, visible={1: "Dragon Club", 3: "Lair"})
    text = str(inbox.text)
    assert order_of(text, games) == ["first", "third", "lobby"]
    assert "Knights Hall" not in text and f"#{games['unseen']} " not in text
    nothing = await host.inbox.inbox(user_id=ALICE, visible={})
    assert "not in any open game" in str(nothing.text) and not nothing.controls


async def test_the_inbox_shows_the_players_own_note_only_to_them(host, games):
    await host.notes.note(game_id=games["first"], user_id=ALICE, text="zq: pick low")
    assert "📝 zq: pick low" in str((await host.inbox.inbox(user_id=ALICE, visible=SERVERS)).text)
    assert "zq" not in str((await host.inbox.inbox(user_id=BOB, visible=SERVERS)).text)


async def test_next_offers_the_most_urgent_choice_and_a_move_from_it_is_played(host, games):
    shown = await host.inbox.next_choice(user_id=ALICE, visible=SERVERS)
    assert "Knights Hall" in str(shown.text) and "Pick a number" in str(shown.text)
    assert shown.private and shown.board is not None
    (control,) = shown.controls
    assert control.game_id == games["second"] and control.prompt.secret
    played = await host.turns.act(
        game_id=control.game_id, user_id=ALICE, action=control.choices[0].action,
        issued=control.version,
    )  # fmt: skip
    assert played.notices
    # The same control again is refused as elsewhere: the choice was made.
    with pytest.raises(UserError, match="already made"):
        await host.turns.act(
            game_id=control.game_id, user_id=ALICE, action=control.choices[1].action,
            issued=control.version,
        )  # fmt: skip
    after = await host.inbox.next_choice(user_id=ALICE, visible=SERVERS)
    assert after.controls[0].game_id == games["first"] and "Dragon Club" in str(after.text)
    inbox = await host.inbox.inbox(user_id=ALICE, visible=SERVERS)
    assert order_of(str(inbox.text), games) == ["first", "third", "second", "lobby"]  # by deadline
    await host.turns.act(game_id=games["first"], user_id=ALICE, action="pick 2")
    with pytest.raises(UserError, match="Nothing is waiting for you"):
        await host.inbox.next_choice(user_id=ALICE, visible=SERVERS)
    assert not (await host.inbox.inbox(user_id=ALICE, visible=SERVERS)).controls


async def test_a_game_the_player_left_is_not_theirs_any_more(host, games):
    before = await host.inbox.inbox(user_id=BOB, visible=SERVERS)
    assert "lobby" in order_of(str(before.text), games)
    await host.lobby.leave(game_id=games["lobby"], user_id=BOB, user_name="bob")
    inbox = await host.inbox.inbox(user_id=BOB, visible=SERVERS)
    assert order_of(str(inbox.text), games) == ["third", "second", "first"]
