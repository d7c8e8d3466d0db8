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
    "rules", "help", "leaderboard", "stats",
}  # fmt: skip

DISCORD_ONLY = {
    "game settings", "game pause", "game resume", "game resign", "game draw", "game undo",
    "game replay", "server defaults", "notify", "game invite", "game data",
    "game watch", "game unwatch", "away",
}  # fmt: skip
"""Slash commands of the Discord bot that the local table does not have: a turn clock
(no clock runs here), offers to other players, animations, server settings and data, invitations,
watching by DM and time away."""

HELP_WORD = "help"
"""A line of just this word (or ``/help``) shows the table's commands, without a name."""


def parse(text: str) -> Line | None:
    """The command on a line, or ``None`` for blank lines and ``#`` comments.

    A line without a slash is shorthand for ``/move action:<text>``.
    """
    text = text.strip()
    if not text or text.startswith("#"):
        return None
    if text.lower() in (HELP_WORD, "/" + HELP_WORD):
        return Line("you", HELP_WORD)
    player, sep, rest = text.partition(":")
    player, rest = player.strip().lower(), rest.strip()
    if not sep or not player or " " in player:
        raise ParseError(
            "Write lines as `name: /command option:value` (e.g. `alice: /game list`); "
            "type `help` for the commands."
        )
    if not rest.startswith("/"):
        return Line(player, "move", {"action": rest})
    try:
        words = shlex.split(rest[1:])
    except ValueError as error:
        raise ParseError(f"Could not read that line: {error}.") from None
    command_words: list[str] = []
    while words and ":" not in words[0] and " ".join([*command_words, words[0]]) in _PREFIXES:
        command_words.append(words.pop(0))
    command = " ".join(command_words)
    if command not in COMMANDS:
        raise ParseError(_not_here(player, _typed(rest[1:]), command))
    options = {}
    for word in words:
        key, sep, value = word.partition(":")
        if not sep:
            raise ParseError(f"Options are written `name:value`; not `{clip(word)}`.")
        options[key.lower()] = value
    return Line(player, command, options)


def _typed(rest: str) -> str:
    """The command words someone typed: up to two words before the first option."""
    words = []
    for word in rest.split()[:2]:
        if ":" in word:
            break
        words.append(word.lower())
    return " ".join(words)


def _not_here(player: str, typed: str, known: str) -> str:
    """Why the command ``typed`` cannot be run here, and what to type instead."""
    if typed in DISCORD_ONLY:
        return (
            f"`/{typed}` is a Discord command; at the local table type `help` for the "
            "commands here."
        )
    if typed == known and known in _PREFIXES:
        subcommands = sorted(c for c in COMMANDS if c.startswith(known + " "))
        listed = ", ".join(f"`/{c}`" for c in subcommands)
        return f"`/{typed}` needs one more word: {listed}."
    return f"Unknown command `/{clip(typed) or '?'}`. Type `help` for the commands here."


_PREFIXES = {" ".join(c.split()[: i + 1]) for c in COMMANDS for i in range(len(c.split()))}
