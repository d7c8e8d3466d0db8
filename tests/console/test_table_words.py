"""What the local table shows and accepts: no turn deadline (no clock runs there), and a
game named with ``game:`` in the very forms its own prompts and refusals suggest."""

import io

from bot.console.table import CHANNEL, FIRST_USER, GUILD, LocalTable
from bot.service.host import GameHost
from bot.store import open_store

TWO_CAVES = [
    "alice: /game new game:dragons-cave players:2",
    "bob: /game join game:1",
    "alice: /game start game:1",
    "alice: /game new game:dragons-cave players:2",
    "bob: /game join game:2",
    "alice: /game start game:2",
]


async def played(lines: list[str]) -> tuple[str, list[tuple[int, str]]]:
    """What a seeded local table printed for ``lines``, and the lines it refused."""
    out = io.StringIO()
    table = await LocalTable.open(seed=3, out=out)
    try:
        refused = await table.run_lines(lines)
    finally:
        await table.close()
    return out.getvalue(), refused


async def test_the_local_table_shows_no_turn_deadline_in_status_list_or_mine():
    shown, refused = await played(
        [
            "alice: /game new game:stgeorge players:2 role:knights",
            "bob: /game join",
            "alice: /game start",
            "alice: /game status",
            "alice: /game list",
            "alice: /game mine",
        ]
    )
    assert refused == []
    assert "turn ends" not in shown.lower(), shown


async def test_a_move_names_its_game_after_the_action_in_both_forms_the_table_shows():
    shown, refused = await played(
        [
            *TWO_CAVES,
            "alice: lair ruby",  # two games here: the refusal says how to name one
            "alice: lair ruby game:2",
            "bob: /move action:card ruby 1 game:2",
            'alice: /move action:"lair amber" game:1',
        ]
    )
    assert [text for _, text in refused] == ["alice: lair ruby"], shown
    refusal = shown.split("> alice: lair ruby\n")[1].splitlines()[0]
    assert "add `game:<number>`" in refusal, refusal
    assert "2 of 2 choices are in" in shown


async def test_a_game_kept_with_a_turn_limit_shows_no_deadline_at_the_local_table(tmp_path):
    kept = str(tmp_path / "games.sqlite3")
    store = await open_store(kept)
    host = GameHost(store)
    await host.turn_clock.set_server_timing(guild_id=GUILD, limit_hours=48)  # as a Discord server's
    await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=FIRST_USER, user_name="alice",
        slug="stgeorge", players=2, role="knights",
    )  # fmt: skip
    await host.lobby.join(game_id=1, user_id=FIRST_USER + 1, user_name="bob")
    await host.lobby.start(game_id=1, user_id=FIRST_USER)
    assert (await store.get_game(1)).deadline is not None
    await host.close()

    out = io.StringIO()
    table = await LocalTable.open(seed=3, database=kept, out=out)
    try:
        assert await table.run_lines(["alice: /game status", "alice: /game mine"]) == []
    finally:
        await table.close()
    assert "**your turn**" in out.getvalue() and "turn ends" not in out.getvalue().lower()
