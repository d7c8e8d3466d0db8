"""Every example script in examples/ plays through the local table to a result."""

import io
import re
from pathlib import Path

import pytest

from bot.console.table import LocalTable

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.txt"))


def seed_of(script: str) -> int:
    match = re.search(r"^# seed: (\d+)$", script, re.MULTILINE)
    assert match, "an example script records its seed in a '# seed: N' line"
    return int(match[1])


async def play(path: Path, images: Path) -> str:
    """Everything the local table prints while playing the script at ``path``."""
    script = path.read_text(encoding="utf-8")
    out = io.StringIO()
    table = await LocalTable.open(seed=seed_of(script), out=out, images=images)
    try:
        await table.run_lines(script.splitlines())
    finally:
        await table.close()
    return out.getvalue()


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
async def test_example_plays_to_a_result_without_a_refused_line(path, tmp_path):
    printed = await play(path, tmp_path)
    assert "⚠️" not in printed, printed[printed.index("⚠️") - 300 : printed.index("⚠️") + 200]
    assert "🏆" in printed.splitlines()[-2] or "draw" in printed.splitlines()[-2].lower()
    assert list(tmp_path.glob("board-*.png")), "board pictures were written"
    raw = re.findall(r"<[@#]!?\d+>|<t:\d+(?::\w)?>|discord\.com/channels", printed)
    assert not raw, f"the local table shows Discord markup: {raw[:3]}"


async def test_the_local_table_names_players_channels_and_times_in_plain_words(tmp_path):
    out = io.StringIO()
    table = await LocalTable.open(seed=3, out=out)
    try:
        await table.run_lines([
            "alice: /game new game:stgeorge players:2 role:dragon",
            "bob: /game join",
            "bob: /game start",  # only the host may start: the refusal names her
            "alice: /game start",
            "alice: /game list",
        ])  # fmt: skip
    finally:
        await table.close()
    printed = out.getvalue()
    assert "Only the host, @alice, can start" in printed
    assert "in #table: waiting for" in printed
    assert "turn ends" not in printed, "no clock runs at the local table: no deadline shown"


def test_there_is_an_example_for_every_game():
    names = {p.stem.split("-")[0] for p in EXAMPLES}
    assert {"stgeorge", "lions", "dragons", "dragonslayer"} <= names


async def test_the_dragonslayer_example_ends_with_the_dragon_slain(tmp_path):
    path = Path(__file__).parents[2] / "examples" / "dragonslayer-slain.txt"
    printed = await play(path, tmp_path)
    assert "Aurric fights the Dragon at" in printed and "the Matrix reads" in printed
    assert "🏆 Aurric slew Vermithrax Pejorative and is the Dragonslayer!" in printed
