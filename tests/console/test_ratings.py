"""Ratings at the local table: a whole example game, then ``/leaderboard`` and ``/stats``
named by the players' names."""

import io
from pathlib import Path

from bot.console.table import LocalTable
from tests.bot.test_examples import seed_of

EXAMPLE = Path(__file__).parents[2] / "examples" / "dragons-cave-2p.txt"


async def test_a_finished_game_at_the_local_table_is_rated(tmp_path):
    script = EXAMPLE.read_text(encoding="utf-8")
    out = io.StringIO()
    table = await LocalTable.open(seed=seed_of(script), out=out, images=tmp_path)
    try:
        assert await table.run_line("alice: /leaderboard game:dragons-cave")
        assert "Nobody has finished a game of Dragon's Cave" in out.getvalue()
        await table.run_lines(script.splitlines(), echo=False)
        start = len(out.getvalue())
        assert await table.run_line("carol: /leaderboard game:dragons-cave")
        assert await table.run_line("carol: /stats user:bob")
        assert not await table.run_line("carol: /leaderboard game:chess")
    finally:
        await table.close()
    shown = out.getvalue()[start:]
    assert "Dragon's Cave: ratings on this server** (2 rated)" in shown
    assert "1. @alice: " in shown or "1. @bob: " in shown
    assert "📊 @bob on this server" in shown and "1 game, " in shown and "Blue ×1" in shown
    assert "<@" not in shown
