"""Ratings through the real bot on a simulated Discord: a few games of Lions and Dragons
Chess ended by resigning (one against a computer), then ``/leaderboard`` and ``/stats``,
and the ratings recomputed from the stored results by ``python -m bot ratings
--recompute`` coming out the same after a restart."""

import os
import subprocess
import sys
from pathlib import Path

from tests.e2e.conftest import text_of, texts

ROOT = Path(__file__).parents[2]


async def resign_game(channel, opener, loser, *, other=None, computer=None):
    """A game of Lions and Dragons opened by ``opener`` against ``other`` (or a computer
    at level ``computer``), ended by ``loser`` resigning."""
    await opener.slash(channel, "game new", game="lions-dragons")
    if computer:
        await opener.slash(channel, "game addbot", level=computer)
    else:
        await other.slash(channel, "game join")
    await opener.slash(channel, "game start")
    asked = await loser.slash(channel, "game resign")
    confirm = asked.response or asked.followups[0]
    done = await loser.click(confirm, label="Yes, resign")
    assert any("You resigned" in t for t in texts([done]))


def shown(result):
    """The one public message a command answered with."""
    [message] = [m for m in [result.response, *result.followups] if m is not None]
    assert not message.ephemeral, "ratings are shown to the channel"
    return message


def told_privately(result):
    """The one message a command answered with, nothing to show: for the asker alone."""
    [message] = [m for m in [result.response, *result.followups] if m is not None]
    assert message.ephemeral, "nothing to show is told to the asker alone"
    return message


def places(text):
    return [line for line in text.splitlines() if line[:1].isdigit()]


async def test_ratings_after_a_few_games_and_recomputed_from_the_results(
    simcord_env, world, database, restart, tmp_path
):
    _, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    empty = told_privately(await carol.slash(channel, "leaderboard", game="lions-dragons"))
    assert "Nobody has finished a game of Lions and Dragons Chess on this server yet" in (
        text_of(empty)
    )

    await resign_game(channel, alice, loser=bob, other=bob)  # alice wins as White
    await resign_game(channel, bob, loser=alice, other=alice)  # bob wins as White
    await resign_game(channel, alice, loser=bob, other=bob)  # alice wins again
    await resign_game(channel, carol, loser=carol, computer="easy")  # the computer wins

    board = shown(await carol.slash(channel, "leaderboard", game="lions-dragons"))
    lines = places(text_of(board))
    assert "Lions and Dragons Chess: ratings on this server" in text_of(board)
    assert "(4 rated)" in text_of(board) and len(lines) == 4
    assert lines[0].startswith(f"1. <@{alice.id}>: ") and "3 games, 2 wins" in lines[0]
    assert "🤖 easy" in text_of(board) and "1 game, 1 win" in text_of(board)
    assert f"<@{bob.id}>" in lines[2] or f"<@{bob.id}>" in lines[3]
    assert board._message.ping_user_ids == [], "a leaderboard calls nobody"

    stats = shown(await bob.slash(channel, "stats", user=alice))
    assert f"📊 <@{alice.id}> on this server" in text_of(stats)
    assert "**Lions and Dragons Chess**: 3 games, 2 wins" in text_of(stats)
    assert "White ×2" in text_of(stats) and "Black ×1" in text_of(stats)
    own = told_privately(await users["dave"].slash(channel, "stats"))
    assert "You have not finished a game on this server yet" in text_of(own)

    recomputed = subprocess.run(
        [sys.executable, "-m", "bot", "ratings", "--recompute", "--db", database],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert recomputed.returncode == 0, recomputed.stderr
    assert "Rated 4 finished games again" in recomputed.stdout
    await restart()
    again = shown(await carol.slash(channel, "leaderboard", game="lions-dragons"))
    assert text_of(again) == text_of(board)  # the same numbers, from the results alone
    assert text_of(shown(await bob.slash(channel, "stats", user=alice))) == text_of(stats)
