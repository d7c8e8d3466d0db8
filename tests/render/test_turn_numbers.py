"""The turn a board picture names is the game's own number (``Game.turn``), the one its
post's summary and `/game history` show."""

from __future__ import annotations

import random

import render.lions_dragons
from engines.replay import action_rng, setup_rng
from games import ENGINES


def test_a_lions_and_dragons_picture_names_the_turn_its_post_names(monkeypatch):
    game = ENGINES["lions-dragons"]
    options = game.parse_options("")
    roles = [role.key for role in game.roles(2, options)]
    state = game.setup(roles, options, setup_rng(0))
    pick = random.Random(0)
    for step in range(1, 8):
        seat = game.prompts(state)[0].seat
        action = pick.choice(game.legal_actions(state, seat)).action
        state, _ = game.apply(state, seat, action, action_rng(0, step))
    written: list[str] = []
    real = render.lions_dragons._text
    monkeypatch.setattr(
        render.lions_dragons,
        "_text",
        lambda draw, xy, text, *rest, **named: (
            written.append(text) or real(draw, xy, text, *rest, **named)
        ),
    )
    view = game.view(state, None)
    render.lions_dragons.render(view)
    named = [text for text in written if " turn " in text]
    assert len(named) == 1 and named[0].endswith(f"turn {game.turn(state)}"), named
    assert f"(turn {game.turn(state)})" in view["summary"]
