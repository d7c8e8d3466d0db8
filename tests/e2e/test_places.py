"""A board you can point at, on a simulated Discord: in every game a move with many places
is played by picking the piece, then a label from a picture made for the chooser alone, in
at most two clicks; the labels on the picture (the renderer's own layout data) and in the
menu are the same, and the picture sent is the one the renderer draws for them."""

from __future__ import annotations

import re

import pytest

from bot.service.notices import Board
from bot.service.play.turns import board_of
from games import SPECS
from render.common import collect_text
from tests.e2e.conftest import answered, bot_posts, controls_in, part, text_of
from tests.e2e.test_stgeorge import choose
from tests.games_tables import registered, tuned, unlisted
from tests.render.test_legible_on_a_phone import fresh_caches

MARKS = re.compile(r"([A-Z]{1,2}) marks ([^;]+?)(?:;|\.$)")
OPENERS = ("dh:p:", "dh:g:")
"""The ids of a first step: one piece's places (a button), or a menu of pieces."""

GAMES = {
    "stgeorge": (2, 12),
    "lions-dragons": (2, 5),
    "dragonslayer": (2, 3),
}
"""Each game: players, and the fewest places a move must have to be the one tried."""
NO_PLACES = {"dragons-cave": "its actions are cards and hands, not places on a board"}
"""The games whose moves go to no place, and why."""


def opener(message):
    """The first step of a pick on ``message``: (kind, custom id, value), or None."""
    for item in controls_in(message):
        custom_id = part(item, "custom_id") or ""
        if custom_id.startswith("dh:g:"):
            return "select", custom_id, part(part(item, "options")[0], "value")
        if custom_id.startswith("dh:p:"):
            return "button", custom_id, None
    return None


def opened_group(post) -> tuple[int, str]:
    """The game and the piece (group) the first step on ``post`` opened."""
    kind, custom_id, value = opener(post)
    parts = custom_id.split(":", 4)
    return int(parts[2]), value if kind == "select" else parts[4]


def labels_of(message) -> dict[str, str]:
    """The labels a step's controls lead with, each with its control's value or id."""
    found = {}
    for item in controls_in(message):
        for option in part(item, "options") or []:
            found[part(option, "label").split(" · ")[0]] = part(option, "value")
        label = part(item, "label")
        if label and " · " in label:
            found[label.split(" · ")[0]] = part(item, "custom_id")
    return found


async def first_step(player, post, step):
    kind, custom_id, value = step
    if kind == "select":
        return await player.select(post, [value], custom_id=custom_id)
    return await player.click(post, custom_id=custom_id)


def drawn_marks(slug: str, board: Board) -> tuple[set[str], bytes]:
    """The labels the renderer draws for ``board`` and its PNG, freshly drawn."""
    fresh_caches()
    with collect_text() as found:
        data = SPECS[slug].render(board.view)
    return {d.text for d in found}, data


async def a_move_with_places(channel, players, fewest):
    """Play on until the mover's first step opens at least ``fewest`` labelled places:
    the mover, the turn's post, and the private second step."""
    for _ in range(400):
        post = [m for m in bot_posts(channel) if controls_in(m)][-1]
        mover = next(p for p in players if p.mention in text_of(post))
        step = opener(post)
        if step is None:
            await choose(mover, post)
            continue
        opened = await first_step(mover, post, step)
        second = answered(opened)[-1]
        if len(labels_of(second)) >= fewest:
            return mover, post, second
        await choose(mover, opened.response.message)
    raise AssertionError("no move with enough places came up")


@pytest.mark.parametrize("slug", [slug for slug in registered() if slug not in NO_PLACES])
async def test_a_move_is_a_piece_then_a_label_from_the_picture(simcord_env, world, bots, slug):
    _, channel, users = world
    players_count, fewest = tuned(GAMES, slug, "GAMES")
    alice, bob = users["alice"], users["bob"]
    await alice.slash(channel, "game new", game=slug, players=players_count)
    await bob.slash(channel, "game join")
    await alice.slash(channel, "game start")
    mover, post, second = await a_move_with_places(channel, [alice, bob], fewest)

    # The second step is the mover's alone, with one picture whose alt text names the marks.
    assert second.ephemeral and len(second.attachments) == 1
    [picture] = second.attachments
    marks = dict(MARKS.findall(picture.description.split("Places you can move to: ")[1]))
    labels = labels_of(second)
    assert set(labels) == set(marks) and len(labels) >= fewest
    # The picture is the renderer's own drawing of the host's board for this step, and
    # the labels it draws (its layout data) are the menu's.
    host = bots[-1].host
    game_id, group = opened_group(post)
    table = await host.desk.table(game_id)
    assert "marks" not in board_of(table).view  # the public board carries none
    reply = await host.turns.group_controls(game_id=game_id, user_id=mover.id, group=group)
    texts, data = drawn_marks(slug, reply.board)
    assert set(labels) == {m["label"] for m in reply.board.view["marks"]}
    assert set(labels) <= texts
    assert await picture.read() == data

    # A label plays its move: the second click.
    target = labels[sorted(labels)[0]]
    if target.startswith("dh:"):
        await mover.click(second, custom_id=target)
    else:
        menu = next(i for i in controls_in(second) if part(i, "options"))
        await mover.select(second, [target], custom_id=part(menu, "custom_id"))
    assert (await host.desk.table(game_id)).record.version > table.record.version


async def test_a_step_offers_places_by_label_only(simcord_env, world):
    _, channel, users = world
    alice, bob = users["alice"], users["bob"]
    await alice.slash(channel, "game new", game="lions-dragons")
    await bob.slash(channel, "game join")
    await alice.slash(channel, "game start")
    _, _, second = await a_move_with_places(channel, [alice, bob], 2)
    labels = labels_of(second)
    assert len(labels) >= 2 and all(re.fullmatch(r"[A-Z]{1,2}", label) for label in labels)
    assert all(not value.startswith("dh:p:") for value in labels.values())


async def test_a_dwarf_card_is_chosen_by_its_label_on_a_private_picture(simcord_env, world):
    from tests.e2e.test_dragons_cave import button_labels, dm_prompt, open_game

    _, players = await open_game(world)
    bob = players[1]
    prompt = dm_prompt(bob, "Round 1:")
    [picture] = prompt.attachments  # the board, with the places of bob's cards marked
    marks = dict(MARKS.findall(picture.description.split("Places you can move to: ")[1]))
    leading = {label.split(" · ")[0] for label in button_labels(prompt) if " · " in label}
    assert leading == set(marks) and len(marks) >= 3
    assert any(label.startswith("Chest") for label in button_labels(prompt))  # no place
    first = next(label for label in button_labels(prompt) if label.startswith("A · "))
    answer = await bob.user.click(prompt, label=first)
    assert "Your card is locked in" in " ".join(text_of(m) for m in answered(answer))


def test_every_registered_game_says_whether_its_moves_go_to_places():
    assert unlisted(GAMES, NO_PLACES) == [], "add the game to GAMES or NO_PLACES"
