"""Playing a script of table lines: the seed it records, and what to say about the lines
that were refused."""

from __future__ import annotations

import re

from bot.service.text import Text, said, said_plural

SEED_LINE = re.compile(r"^#\s*seed:\s*(\d+)\s*$", re.MULTILINE | re.IGNORECASE)


def recorded_seed(script: str) -> int | None:
    """The seed of a ``# seed: N`` line (the examples record theirs so), or None."""
    match = SEED_LINE.search(script)
    return int(match[1]) if match else None


def seed_note(seed: int) -> Text:
    """Where the seed a script is played with came from: ``(seed 7, from the script's
    `# seed:` line)``."""
    return said("(seed {seed}, from the script's `# seed:` line)", seed=seed)


def refused_report(name: str, refused: list[tuple[int, str]]) -> Text:
    """``2 lines of game.txt were refused:`` and each one with its line number."""
    count = len(refused)
    head = said_plural(
        "{count} line of {script} was refused:",
        "{count} lines of {script} were refused:",
        count,
        script=name,
    )
    lines = [
        "  " + said("line {number}: {line}", number=number, line=text) for number, text in refused
    ]
    return Text("\n").join([head, *lines])
