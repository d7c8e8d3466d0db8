"""`--script FILE`: the seed its `# seed:` line records, and an exit status and a list
naming the lines that were refused."""

from pathlib import Path

from tests.console.terminal import console

EXAMPLES = Path(__file__).parents[2] / "examples"


def test_a_script_plays_with_the_seed_it_records_when_none_is_given(tmp_path):
    played = console(["--script", str(EXAMPLES / "dragonslayer-slain.txt")], tmp_path)
    assert played.returncode == 0, played.stderr
    assert "(seed 100, from the script's `# seed:` line)" in played.stdout
    assert "⚠️" not in played.stdout
    assert "🏆 Aurric slew Vermithrax Pejorative and is the Dragonslayer!" in played.stdout


def test_a_seed_given_wins_over_the_recorded_one(tmp_path):
    played = console(
        ["--script", str(EXAMPLES / "dragonslayer-slain.txt"), "--seed", "1"], tmp_path
    )
    assert "from the script's" not in played.stdout
    assert played.returncode == 1 and "were refused" in played.stderr  # other dice, other game


def test_refused_lines_make_the_run_fail_and_are_named_with_their_numbers(tmp_path):
    script = tmp_path / "game.txt"
    script.write_text(
        "# seed: 7\n"
        "alice: /game new game:stgeorge players:2 role:knights\n"
        "bob: /game join\n"
        "bob: /game start\n"  # only the host may start
        "alice: /game start\n"
        "alice: /game settings hours:2\n",  # a Discord command
        encoding="utf-8",
    )
    played = console(["--script", "game.txt"], tmp_path)
    assert played.returncode == 1
    assert played.stderr.splitlines() == [
        "2 lines of game.txt were refused:",
        "  line 4: bob: /game start",
        "  line 6: alice: /game settings hours:2",
    ]


def test_a_script_with_every_line_accepted_exits_0(tmp_path):
    played = console(["--script", str(EXAMPLES / "stgeorge-3p.txt")], tmp_path)
    assert played.returncode == 0 and not played.stderr
