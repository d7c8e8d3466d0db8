"""A local table whose host is full says so to the player, changes nothing, and plays the
same line once there is room."""

import io

from bot.console.table import LocalTable
from tests.bot.clicks import others_clicking

OPEN = [
    "alice: /game new game:stgeorge players:2 role:knights",
    "bob: /game join",
    "alice: /game start",
]


async def test_a_full_host_refuses_a_line_at_the_table_and_says_to_try_again():
    out = io.StringIO()
    table = await LocalTable.open(seed=3, out=out)
    try:
        assert await table.run_lines(OPEN) == []
        before = await table.host.store.get_game(1)
        shown = len(out.getvalue())
        async with others_clicking(table.host.admission, table.host.admission.limit):
            assert not await table.run_line("alice: /move action:roll")
        said = out.getvalue()[shown:]
        assert "[to alice] ⏳" in said and "busy" in said and "try again" in said, said
        after = await table.host.store.get_game(1)
        assert (after.version, after.snapshot) == (before.version, before.snapshot)

        assert await table.run_line("alice: /move action:roll"), out.getvalue()[shown:]
        assert (await table.host.store.get_game(1)).version > before.version
    finally:
        await table.close()
