"""The local table plays a finished game's record back from the command line
(`python -m bot console --record FILE`) to the same final board it ended on."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "examples" / "dragons-cave-2p.txt"


def console(args, cwd):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", "console", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_an_exported_record_plays_back_to_the_same_final_board(tmp_path):
    script = EXAMPLE.read_text(encoding="utf-8")
    seed = re.search(r"^# seed: (\d+)$", script, re.MULTILINE)[1]
    (tmp_path / "game.txt").write_text(script + "alice: /game export\n", encoding="utf-8")
    played = console(["--script", "game.txt", "--seed", seed, "--out", "out"], tmp_path)
    assert played.returncode == 0, played.stderr
    record = tmp_path / "out" / "dragons-cave-1.txt"
    assert "Record of Dragon's Cave #1. The whole game, with its seed" in played.stdout
    assert '[Seed "' in record.read_text(encoding="utf-8")
    final = sorted((tmp_path / "out").glob("board-*.png"))[-1]

    back = console(["--record", str(record), "--out", "back"], tmp_path)
    assert back.returncode == 0, back.stderr
    assert "**Dragon's Cave #1** played back:" in back.stdout and "🏆" in back.stdout
    assert (tmp_path / "back" / "board-0001.png").read_bytes() == final.read_bytes()


def test_a_record_of_a_game_under_way_is_refused_saying_why(tmp_path):
    script = EXAMPLE.read_text(encoding="utf-8")
    seed = re.search(r"^# seed: (\d+)$", script, re.MULTILINE)[1]
    lines = [*script.splitlines()[:12], "alice: /game export"]
    (tmp_path / "game.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    played = console(["--script", "game.txt", "--seed", seed, "--out", "out"], tmp_path)
    assert "⚠️" not in played.stdout and "secret choices are hidden" in played.stdout
    back = console(["--record", "out/dragons-cave-1.txt", "--out", "back"], tmp_path)
    assert "it is of a game still under way" in back.stdout
    assert not list((tmp_path / "back").glob("board-*.png"))
