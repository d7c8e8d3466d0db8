"""What a player types comes back visibly: a control character typed into an option or a
move is shown as its control picture (``␀`` for NUL) in every reply that quotes it, never
as the raw character a client may swallow or garble."""

import unicodedata

from tests.e2e.conftest import texts
from tests.e2e.test_endings import open_game


def raw_controls(text: str) -> list[str]:
    """The control characters a message holds as they are (a line break is a line break)."""
    return [c for c in text if unicodedata.category(c) == "Cc" and c != "\n"]


async def test_a_command_option_with_a_nul_is_refused_showing_it_visibly(simcord_env, world):
    _, channel, users = world
    refused = await users["alice"].slash(
        channel, "game new", game="lions-dragons", options="lions\x00=random"
    )
    said = " ".join(texts([refused]))
    assert "`key=value`" in said  # says what to type instead
    assert "lions␀=random" in said
    assert raw_controls(said) == []


async def test_a_move_with_a_bell_is_answered_showing_it_visibly(simcord_env, world):
    # Dragonslayer reads a castle's name past a stray control character, and the answer
    # repeats the move as it was typed. (A NUL cannot be kept in PostgreSQL's text.)
    channel, alice, bob = await open_game(world, "dragonslayer")
    played = []
    for who in (alice, bob):
        played.append(await who.slash(channel, "move", action="place castle_dour\x07"))
    said = " ".join(texts(played))
    assert "place castle_dour␇" in said
    assert raw_controls(said) == []


async def test_a_move_with_an_escape_is_refused_showing_it_visibly(simcord_env, world):
    channel, alice, bob = await open_game(world, "dragonslayer")
    refused = [await who.slash(channel, "move", action="\x1b[2J") for who in (alice, bob)]
    said = " ".join(texts(refused))
    assert raw_controls(said) == []
