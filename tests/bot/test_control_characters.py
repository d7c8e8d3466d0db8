"""A refusal quoting typed text shows its control characters as control pictures, in the
host's refusals and in the local table's own."""

import unicodedata

import pytest

from bot.console.commands import ParseError, parse
from bot.service.errors import UserError
from bot.service.text import Mention, Text, said, visible
from tests.bot import leak_checks
from tests.bot.leak_checks import CHANNEL, GUILD, USERS, Stores

STORES = Stores()


@pytest.fixture(autouse=True)
async def close_stores():
    yield
    await STORES.close_all()


def raw_controls(text: str) -> list[str]:
    return [c for c in text if unicodedata.category(c) == "Cc" and c != "\n"]


def test_control_characters_become_their_pictures_and_parts_stay():
    shown = visible(Text.of("not `a\x00b\x1b\t\x7f\x85`\nnext ", Mention(7)))
    assert shown.pieces == ("not `a␀b␛␉␡`\nnext ", Mention(7))


def test_typed_text_filling_a_messages_place_shows_its_control_characters():
    quoted = said("A computer plays `easy` or `strong`, not `{level}`.", level="x\x00\x1b")
    assert visible(quoted).plain() == "A computer plays `easy` or `strong`, not `x␀␛`."
    assert UserError(quoted).text.plain().endswith("not `x␀␛`.")


async def test_the_hosts_refusal_of_an_option_shows_a_nul_as_a_picture():
    host = leak_checks.new_host(await STORES.new(), "lions-dragons")
    with pytest.raises(UserError) as refused:
        await host.lobby.new_game(
            guild_id=GUILD, channel_id=CHANNEL, user_id=USERS[0], user_name="alice",
            slug="lions-dragons", players=2, options="lions\x00=random",
        )  # fmt: skip
    said = refused.value.text.plain()
    assert "lions␀=random" in said and raw_controls(said) == []


def test_the_local_tables_refusal_of_a_line_shows_a_nul_as_a_picture():
    with pytest.raises(ParseError) as refused:
        parse("alice: /game new \x00")
    said = str(refused.value)
    assert "␀" in said and raw_controls(said) == []
