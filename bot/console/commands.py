"""Parsing local-table lines: ``alice: /game new game:stgeorge players:2``."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from engines.options import clip


class ParseError(ValueError):
    """A line that is not ``name: /command options`` or ``name: action``."""


@dataclass(frozen=True)
class Line:
    """One player's command. ``command`` is e.g. ``"game new"`` or ``"move"``."""

    player: str
    command: str
    options: dict[str, str] = field(default_factory=dict)


COMMANDS = {
    "game new", "game join", "game addbot", "game leave", "game start", "game status",
    "game cancel", "game list", "game mine", "game history", "game export", "move", "hand",
    "rules", "help",
}  # fmt: skip


def parse(text: str) -> Line | None:
    """The command on a line, or ``None`` for blank lines and ``#`` comments.

    A line without a slash is shorthand for ``/move action:<text>``.
    """
    text = text.strip()
    if not text or text.startswith("#"):
        return None
    player, sep, rest = text.partition(":")
    player, rest = player.strip().lower(), rest.strip()
    if not sep or not player or " " in player:
        raise ParseError("Write lines as `name: /command option:value` (e.g. `alice: /game list`).")
    if not rest.startswith("/"):
        return Line(player, "move", {"action": rest})
    try:
        words = shlex.split(rest[1:])
    except ValueError as error:
        raise ParseError(f"Could not read that line: {error}.") from None
    command_words = []
    while words and ":" not in words[0] and " ".join([*command_words, words[0]]) in _PREFIXES:
        command_words.append(words.pop(0))
    command = " ".join(command_words)
    if command not in COMMANDS:
        raise ParseError(f"Unknown command `/{command or rest[1:]}`. Try `{player}: /help`.")
    options = {}
    for word in words:
        key, sep, value = word.partition(":")
        if not sep:
            raise ParseError(f"Options are written `name:value`; not `{clip(word)}`.")
        options[key.lower()] = value
    return Line(player, command, options)


_PREFIXES = {" ".join(c.split()[: i + 1]) for c in COMMANDS for i in range(len(c.split()))}
