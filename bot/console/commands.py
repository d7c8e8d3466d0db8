"""Parsing local-table lines: ``alice: /game new game:stgeorge players:2``."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from bot.service.text import Text, said, visible
from engines.options import clip


class ParseError(ValueError):
    """A line that is not ``name: /command options`` or ``name: action``: :attr:`text`
    says why, in words the table writes in its locale (``str()`` is the English). What it
    quotes of the line shows its control characters visibly."""

    def __init__(self, message: Text) -> None:
        self.text: Text = visible(message)
        super().__init__(self.text.plain())


@dataclass(frozen=True)
class Line:
    """One player's command. ``command`` is e.g. ``"game new"`` or ``"move"``."""

    player: str
    command: str
    options: dict[str, str] = field(default_factory=dict)


COMMANDS = {
    "game new", "game join", "game addbot", "game leave", "game start", "game status",
    "game cancel", "game list", "game mine", "game history", "game export", "move", "hand",
    "rules", "help", "leaderboard", "stats", "game page", "game note", "games",
}  # fmt: skip

DISCORD_ONLY = {
    "game settings", "game pause", "game resume", "game resign", "game draw", "game undo",
    "game replay", "server defaults", "notify", "game invite", "game data",
    "game watch", "game unwatch", "away", "game givetime", "language",
}  # fmt: skip
"""Slash commands of the Discord bot that the local table does not have: a turn clock
(no clock runs here), offers to other players, animations, server settings and data, invitations,
watching by DM, time away and a player's language (the table's is ``--locale``)."""

OPTION_NAMES = frozenset(
    {
        "game",
        "players",
        "role",
        "options",
        "level",
        "page",
        "show",
        "user",
        "action",
        "text",
        "clear",
    }
)
"""The options the table's commands take: a word starting with one of them (and a colon)
starts that option; any other word goes on with the value before it."""

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
            said(
                "Write lines as `name: /command option:value` (e.g. `alice: /game list`); "
                "type `help` for the commands."
            )
        )
    if not rest.startswith("/"):
        return _shorthand(player, rest)
    try:
        words = shlex.split(rest[1:])
    except ValueError as error:
        raise ParseError(said("Could not read that line: {why}.", why=quoted(error))) from None
    command_words: list[str] = []
    while words and ":" not in words[0] and " ".join([*command_words, words[0]]) in _PREFIXES:
        command_words.append(words.pop(0))
    command = " ".join(command_words)
    if command not in COMMANDS:
        raise ParseError(_not_here(player, _typed(rest[1:]), command))
    return Line(player, command, _options(words))


def _shorthand(player: str, rest: str) -> Line:
    """``lair ruby game:2``: a move, with the game named after it as the table's own
    refusals suggest."""
    words = rest.split()
    options = {}
    while len(words) > 1 and words[-1].lower().startswith("game:"):
        options["game"] = words.pop().partition(":")[2]
    return Line(player, "move", {"action": " ".join(words), **options})


def _options(words: list[str]) -> dict[str, str]:
    """The ``name:value`` options of a command. As in Discord's own boxes, a value runs
    on to the next option's name, so ``action:lair ruby game:2`` needs no quotes."""
    options: dict[str, str] = {}
    key = ""
    for word in words:
        name, sep, value = word.partition(":")
        if sep and (name.lower() in OPTION_NAMES or not key):
            key = name.lower()
            options[key] = value
        elif key:
            options[key] = f"{options[key]} {word}".strip()
        else:
            raise ParseError(
                said(
                    "Options are written `name:value` (e.g. `/move action:lair ruby game:2`); "
                    "not `{word}`.",
                    word=quoted(word),
                )
            )
    return options


def _typed(rest: str) -> str:
    """The command words someone typed: up to two words before the first option."""
    words = []
    for word in rest.split()[:2]:
        if ":" in word:
            break
        words.append(word.lower())
    return " ".join(words)


def _not_here(player: str, typed: str, known: str) -> Text:
    """Why the command ``typed`` cannot be run here, and what to type instead."""
    if typed in DISCORD_ONLY:
        return said(
            "`/{command}` is a Discord command; at the local table type `help` for the "
            "commands here.",
            command=typed,
        )
    if typed == known and known in _PREFIXES:
        subcommands = sorted(c for c in COMMANDS if c.startswith(known + " "))
        listed = ", ".join(f"`/{c}`" for c in subcommands)
        return said("`/{command}` needs one more word: {commands}.", command=typed, commands=listed)
    return said(
        "Unknown command `/{command}`. Type `help` for the commands here.",
        command=quoted(typed) or "?",
    )


def quoted(typed: object) -> str:
    """What a player typed, as a refusal quotes it: clipped, its control characters
    written visibly (a message's places are filled as they are given)."""
    return visible(clip(typed)).plain()


_PREFIXES = {" ".join(c.split()[: i + 1]) for c in COMMANDS for i in range(len(c.split()))}
