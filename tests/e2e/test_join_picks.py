"""``/game join`` without a game number joins the one open table in the channel, whatever
else runs there; with several open tables it names them and asks for ``game:``."""

from tests.e2e.conftest import bot_posts, text_of, texts


def said(result):
    return "\n".join(t or "" for t in texts([result]))


async def test_join_without_a_number_takes_the_open_table_not_a_running_game(simcord_env, world):
    _, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    await alice.slash(channel, "game new", game="lions-dragons")
    await bob.slash(channel, "game join")
    await alice.slash(channel, "game start")  # #1 runs, with bob seated
    await carol.slash(channel, "game new", game="lions-dragons")  # #2 waits for a player

    joined = await bob.slash(channel, "game join")
    assert "You joined Lions and Dragons Chess #2" in said(joined)
    assert "has already started" not in said(joined)
    assert "bob joined **Lions and Dragons Chess #2**" in text_of(bot_posts(channel)[-1])


async def test_join_with_several_open_tables_names_them_and_asks_for_a_number(simcord_env, world):
    _, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    await alice.slash(channel, "game new", game="lions-dragons")
    await carol.slash(channel, "game new", game="stgeorge")

    asked = await bob.slash(channel, "game join")
    assert asked.ephemeral
    text = said(asked)
    assert "#1 Lions and Dragons Chess" in text and "#2 St. George and the Dragon" in text
    assert "game:" in text
    assert not any("bob joined" in text_of(m) for m in bot_posts(channel))


async def test_the_role_autocomplete_of_join_offers_the_open_tables_seats(simcord_env, world):
    _, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    await alice.slash(channel, "game new", game="lions-dragons")
    await bob.slash(channel, "game join")
    await alice.slash(channel, "game start")  # #1 runs, with bob seated
    await carol.slash(channel, "game new", game="stgeorge", role="dragon")  # #2 is open

    offered = await bob.autocomplete(channel, "game join", "role", "")
    assert [c["name"] for c in offered] == ["All four Knights"]
