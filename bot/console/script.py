"""Playing a script of table lines: the seed it records, and what to say about the lines
that were refused."""

from __future__ import annotations

import re

SEED_LINE = re.compile(r"^#\s*seed:\s*(\d+)\s*$", re.MULTILINE | re.IGNORECASE)


def recorded_seed(script: str) -> int | None:
    """The seed of a ``# seed: N`` line (the examples record theirs so), or None."""
    match = SEED_LINE.search(script)
    return int(match[1]) if match else None


def refused_report(name: str, refused: list[tuple[int, str]]) -> str:
    """``2 lines of game.txt were refused:`` and each one with its line number."""
    count = f"{len(refused)} line{'s' if len(refused) != 1 else ''}"
    verb = "were" if len(refused) != 1 else "was"
    lines = "\n".join(f"  line {number}: {text}" for number, text in refused)
    return f"{count} of {name} {verb} refused:\n{lines}"
