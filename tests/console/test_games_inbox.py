"""`/games` at the local table: the typing player's games, those where it is their turn
first, with their notes; no Next button here (moves are typed)."""

import io

from bot.console.table import LocalTable


async def test_games_lists_the_players_games_with_their_turn_first():
    out = io.StringIO()
    table = await LocalTable.open(seed=3, out=out)
    try:
        refused = await table.run_lines([
            "alice: /game new game:stgeorge players:2 role:dragon",
            "bob: /game join game:1",
            "alice: /game start game:1",
            "alice: /game new game:stgeorge players:2 role:knights",
            "bob: /game join game:2",
            "alice: /game start game:2",
            'alice: /game note text:"zq keep left" game:2',
            "carol: /game new game:lions-dragons",
        ])  # fmt: skip
        assert not refused, refused
        start = len(out.getvalue())
        assert not await table.run_lines(["alice: /games", "carol: /games", "dave: /games"])
    finally:
        await table.close()
    shown = out.getvalue()[start:]
    alice = shown.split("[to alice] ")[1].split("> carol")[0]
    lines = alice.splitlines()
    assert "1 waiting for you." in lines[0] and "Next" not in alice
    assert "St. George and the Dragon #2 on **this table**, #table: **your turn**" in lines[1]
    assert "📝 zq keep left" in lines[2]
    assert "St. George and the Dragon #1" in lines[3] and "waiting for" in lines[3]
    assert "choices:" not in alice
    carol = shown.split("[to carol] ")[1].split("> dave")[0]
    assert "Lions and Dragons Chess #3" in carol and "waiting for players" in carol
    assert "not in any open game" in shown.split("[to dave] ")[1]
