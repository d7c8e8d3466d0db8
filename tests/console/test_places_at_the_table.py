"""Places at the local table: a move to a place is listed by label, the board is written
with the labels on it, and typing a label plays its move."""

import io
import re

from bot.console.table import LocalTable


async def test_lions_and_dragons_moves_are_typed_by_their_labels(tmp_path):
    out = io.StringIO()
    table = await LocalTable.open(seed=3, out=out, images=tmp_path)
    try:
        assert not await table.run_lines([
            "alice: /game new game:lions-dragons",
            "bob: /game join game:1",
            "alice: /game start game:1",
        ])  # fmt: skip
        shown = out.getvalue()
        places = next(line for line in shown.splitlines() if "places: " in line)
        labelled = re.findall(r"([A-Z]{1,2}) · ([^;]+)", places)
        assert len({label for label, _ in labelled}) >= 10
        label = next(k for k, v in labelled if v == "Roc d1-c6")
        assert [k for k, _ in labelled].count(label) == 1
        # One picture for each piece's places, after the board itself.
        assert len(list(tmp_path.glob("*.png"))) >= 1 + 4
        start = len(out.getvalue())
        assert not await table.run_lines([f"alice: {label}"])
        assert "White Roc d1-c6." in out.getvalue()[start:]
        game = await table.host.desk.table(1)
        assert game.record.version > 1
    finally:
        await table.close()


async def test_a_label_for_two_moves_asks_for_the_move():
    out = io.StringIO()
    table = await LocalTable.open(seed=3, out=out)
    try:
        await table.run_lines([
            "alice: /game new game:lions-dragons",
            "bob: /game join game:1",
            "alice: /game start game:1",
        ])  # fmt: skip
        places = next(line for line in out.getvalue().splitlines() if "places: " in line)
        shared = re.findall(r"([A-Z]{1,2}) · [^;]+", places)
        twice = next(label for label in shared if shared.count(label) > 1)
        refused = await table.run_lines([f"alice: {twice}"])
        assert refused and "type the move" in out.getvalue().splitlines()[-1]
    finally:
        await table.close()
