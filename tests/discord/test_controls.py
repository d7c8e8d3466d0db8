"""Turning the host's controls into Discord components: ids are whole or refused."""

import pytest

from bot.discord.controls.base import custom_id, unstamp
from bot.discord.controls.play import ActionButton
from bot.discord.controls.views import controls_view
from bot.service.notices import Controls
from engines.base import Choice, Prompt


def controls(*actions: str) -> Controls:
    choices = tuple(Choice(a, a) for a in actions)
    return Controls(7, 12, Prompt(0, "move", "Your move"), choices)


def test_an_id_up_to_100_characters_is_kept_whole():
    text = custom_id("dh:b", 7, "12", "x" * 90)
    assert len(text) == 100 and text.endswith("x" * 90)


def test_an_id_past_100_characters_is_an_error_not_cut():
    with pytest.raises(ValueError, match="101 characters"):
        custom_id("dh:b", 7, "12", "x" * 91)


async def test_buttons_carry_the_game_the_stamp_and_the_action():
    view = controls_view([controls("roll")])
    (button,) = view.children
    assert button.custom_id == "dh:b:7:12:roll"
    assert unstamp("12") == {"version": 12} and unstamp("s12") == {"issued": 12}


async def test_an_action_too_long_for_a_button_or_menu_is_refused():
    with pytest.raises(ValueError):
        ActionButton(7, "12", "y" * 100)
    many = [f"{'z' * 101}{n}" for n in range(12)]
    with pytest.raises(ValueError, match="menu value"):
        controls_view([controls(*many)])


async def test_many_choices_become_a_menu_and_more_a_two_step_pick():
    menu = controls_view([controls(*[f"a{n}" for n in range(20)])])
    assert [c.custom_id for c in menu.children] == ["dh:s:7:12"]
    grouped = [Choice(f"p{n}-{m}", f"p{n}-{m}", group=f"p{n}") for n in range(5) for m in range(8)]
    two_step = controls_view([Controls(7, 12, Prompt(0, "move", "Move"), tuple(grouped))])
    assert [c.custom_id for c in two_step.children] == ["dh:g:7:12"]
