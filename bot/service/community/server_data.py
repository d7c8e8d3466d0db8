"""A server's corrected data files (``/game data``) and each game's rules as sections
(``/rules``), with the values this server corrected and who did.

A server's members with Manage Server upload a corrected copy of one of a game's data
files (only the top-level fields they change). It is checked by the engine's own check
before it is kept, so a file that cannot be used is refused naming the field. Games opened
on that server afterwards keep the corrections they were opened with
(:meth:`ServerData.opening_data`, stored with the game), so a later upload or clearing
never changes a game under way, and its history and replay use the same data. The
deployment's own folder (``DATA_OVERRIDES``) stays beneath every server's corrections.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import games
from bot.service.errors import UserError
from bot.service.notices import Outcome, Reply
from bot.service.tables import engine_for
from bot.service.text import Mention, Moment, Text, said, said_plural
from engines import data
from engines.options import clip

if TYPE_CHECKING:
    from bot.store import GuildDataRecord, GuildStore
    from engines.base import Game

UPLOAD_LIMIT = 256 * 1024
"""The largest corrected file accepted, in bytes (the bundled ones are far smaller)."""

SECTION_LIMIT = 1900
"""Characters of one section's text, leaving room for its heading within one message."""

CORRECTIONS_TITLE = said("This server's corrections")
VALUE_LIMIT = 160


@dataclass(frozen=True)
class Section:
    """One section of a game's rules: a short title (for a menu) and its Markdown."""

    title: str | Text
    text: str | Text


def package_of(engine: Game[Any]) -> str:
    """The engine package (``engines/<package>/``) holding the game's data files."""
    return type(engine).__module__.split(".")[1]


class ServerData:
    """A server's corrected data files, the corrections a game opens with, and ``/rules``
    with them."""

    def __init__(self, store: GuildStore, clock: Callable[[], float]) -> None:
        self._store = store
        self._clock = clock

    async def opening_data(self, guild_id: int | None, slug: str) -> data.Corrections:
        """The corrections a game of ``slug`` opened on server ``guild_id`` now is played
        with (:data:`engines.data.NONE` in DMs or without any)."""
        if not guild_id:
            return data.NONE
        package = package_of(engine_for(slug))
        files = {r.name: r.content for r in await self._files(guild_id, package)}
        return data.Corrections({package: files})

    async def _files(self, guild_id: int, package: str | None = None) -> list[GuildDataRecord]:
        rows = await self._store.guild_data(guild_id)
        return [r for r in rows if package is None or r.package == package]

    async def upload_data(
        self,
        *,
        guild_id: int | None,
        user_id: int,
        game: str,
        file_name: str,
        content: bytes,
        is_admin: bool,
        **_: object,
    ) -> Outcome:
        """Keep a corrected data file for ``game`` on this server once it is checked; the
        answer says which values differ from the deployment's."""
        engine = _admin_game(guild_id, game, is_admin, said("upload corrected data"))
        package = package_of(engine)
        name = _file_stem(file_name, package)
        if len(content) > UPLOAD_LIMIT:
            raise UserError(
                said(
                    "`{file}` is {size} KB; a corrected file may be at most {most} KB. Upload "
                    "only the fields you change.",
                    file=clip(file_name),
                    size=len(content) // 1024,
                    most=UPLOAD_LIMIT // 1024,
                )
            )
        assert guild_id is not None
        current = await self.opening_data(guild_id, engine.slug)
        try:
            fields = data.read_correction(content, f"{name}.json")
            # The engine's check builds the game's data (a few milliseconds to a second).
            await asyncio.to_thread(games.check_corrections, package, name, fields, current)
        except data.BadDataFile as error:
            raise UserError(
                said(
                    "That file was not kept: {error}. Fix it and upload it again "
                    "(`/game data action:show game:{game}` lists what this server has).",
                    error=clip(str(error), 1500),
                    game=engine.slug,
                )
            ) from None
        await self._store.set_guild_data(
            guild_id, package, name, fields, user_id=user_id, now=self._clock()
        )
        changed = data.differences(package, name, fields)
        told = (
            said(
                "Differs from the bundled values: {fields}.",
                fields=", ".join(f"`{k}`" for k in changed),
            )
            if changed
            else said("Every value equals the bundled one, so games play as before.")
        )
        kept = said("Kept `{file}.json` for {game} on this server.", file=name, game=engine.title)
        used = said(
            "Games opened here from now on use it; games already open keep the data they "
            "were opened with. `/rules game:{game}` shows the corrections.",
            game=engine.slug,
        )
        return Outcome([Reply(Text.of(kept, " ", told, "\n", used))])

    async def show_data(
        self, *, guild_id: int | None, game: str | None = None, **_: object
    ) -> Outcome:
        """This server's corrected files (of ``game``, or of every game), who uploaded each
        and when, and the fields each corrects."""
        if not guild_id:
            raise UserError(
                said("Corrected data belongs to a server: use this in a server's channel.")
            )
        package = package_of(engine_for(game)) if game else None
        rows = await self._files(guild_id, package)
        if not rows:
            return Outcome([Reply(_no_data(engine_for(game).title if game else None))])
        lines = [said("**Corrected data on this server**")]
        lines += [_file_line(row) for row in rows]
        return Outcome([Reply(_fit(lines))])

    async def clear_data(
        self, *, guild_id: int | None, user_id: int, game: str, is_admin: bool, **_: object
    ) -> Outcome:
        """Remove this server's corrections of ``game``; games already open keep theirs."""
        engine = _admin_game(guild_id, game, is_admin, said("clear corrected data"))
        assert guild_id is not None
        removed = await self._store.clear_guild_data(guild_id, package_of(engine))
        if not removed:
            raise UserError(
                said("This server has no corrected data for {game}.", game=engine.title)
            )
        return Outcome([Reply(
            said_plural(
                "Removed {count} corrected file of {game}. Games opened here from now on use "
                "the bundled data; games already open keep the data they were opened with.",
                "Removed {count} corrected files of {game}. Games opened here from now on use "
                "the bundled data; games already open keep the data they were opened with.",
                removed,
                game=engine.title,
            )
        )])  # fmt: skip

    async def rules_sections(self, slug: str, guild_id: int | None = None) -> list[Section]:
        """The rules of ``slug`` as shown on server ``guild_id``: one section per heading of
        its rules text (long ones split into parts), each within one message, written
        with this server's corrections in effect, and then the corrections themselves."""
        engine = engine_for(slug)
        corrections = await self.opening_data(guild_id, slug)
        with data.corrected(corrections):
            text = engine.rules_help()
        sections = split_sections(text, engine.title)
        if corrections and guild_id:
            sections += _corrections_sections(await self._files(guild_id, package_of(engine)))
        return sections

    @staticmethod
    def game_title(slug: str) -> str:
        """The title of the game registered as ``slug``; UserError names the games."""
        return engine_for(slug).title

    @staticmethod
    def games_overview() -> list[tuple[str, str, int, int]]:
        """Every game: ``(slug, title, fewest players, most players)``, as registered."""
        from games import ENGINES

        return [(s, e.title, e.min_players, e.max_players) for s, e in ENGINES.items()]


def _no_data(title: str | None) -> Text:
    """What ``/game data action:show`` says when this server corrected nothing (of the
    game titled ``title``, or of any game)."""
    if title is not None:
        return said(
            "This server has no corrected data for {game}; games use the bundled data files. "
            "Members with Manage Server upload one with `/game data action:upload`.",
            game=title,
        )
    return said(
        "This server has no corrected data for any game; games use the bundled data files. "
        "Members with Manage Server upload one with `/game data action:upload`."
    )


def _admin_game(guild_id: int | None, game: str, is_admin: bool, doing: Text) -> Game[Any]:
    if not guild_id:
        raise UserError(said("Corrected data belongs to a server: use this in a server's channel."))
    if not is_admin:
        raise UserError(
            said("Only members with Manage Server may {doing} on this server.", doing=doing)
        )
    return engine_for(game)


def _file_stem(file_name: str, package: str) -> str:
    names = data.file_names(package)
    listed = ", ".join(f"`{n}.json`" for n in names)
    stem = file_name.rsplit("/", 1)[-1]
    if not stem.lower().endswith(".json"):
        raise UserError(
            said(
                "`{file}` is not a `.json` file. Upload a corrected copy of one of this game's "
                "data files: {files}.",
                file=clip(file_name),
                files=listed,
            )
        )
    stem = stem[: -len(".json")]
    if stem not in names:
        raise UserError(
            said(
                "This game has no data file `{file}`. Its files: {files}.",
                file=clip(file_name),
                files=listed,
            )
        )
    return stem


def _file_line(row: GuildDataRecord) -> Text:
    fields = ", ".join(f"`{k}`" for k in row.content) or said("no fields")
    return "- " + said(
        "{game}, `{file}.json` ({fields}): uploaded by {who} {when}",
        game=_title_of(row.package), file=row.name, fields=fields,
        who=Mention(row.user_id), when=Moment(row.uploaded_at),
    )  # fmt: skip


def _title_of(package: str) -> str:
    from games import ENGINES

    found = [e for e in ENGINES.values() if package_of(e) == package]
    return found[0].title if found else package


def _corrections_sections(rows: list[GuildDataRecord]) -> list[Section]:
    lines = [said(
        "These values differ from the bundled data files here; games opened on this server "
        "use them (games opened before an upload keep the data they were opened with)."
    )]  # fmt: skip
    for row in rows:
        bundled = data.bundled_fields(row.package, row.name)
        lines.append(said(
            "**`{file}.json`**, uploaded by {who} {when}:",
            file=row.name, who=Mention(row.user_id), when=Moment(row.uploaded_at),
        ))  # fmt: skip
        for key, value in row.content.items():
            lines.append("- " + said(
                "`{field}`: {value} (bundled: {bundled})",
                field=key, value=_shown(value), bundled=_shown(bundled.get(key)),
            ))  # fmt: skip
    return _pack(CORRECTIONS_TITLE, lines)


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return f"`{clip(text, VALUE_LIMIT)}`"


def _fit(lines: list[Text]) -> Text:
    """Lines joined, as many as fit in one message."""
    kept: list[Text] = []
    size = 0
    for line in lines:
        size += _size(line) + 1
        if size > SECTION_LIMIT:
            kept.append(Text.of("…"))
            break
        kept.append(line)
    return Text.of("\n").join(kept)


def _size(text: Text) -> int:
    # A part is written longer by a frontend than in plain text (a mention is ``<@id>``).
    return len(text.plain()) + 8 * len(text.parts)


def _pack(title: str | Text, lines: list[Text]) -> list[Section]:
    """Sections titled ``title`` (numbered when there are several) holding ``lines``."""
    pages: list[list[Text]] = [[]]
    size = 0
    for line in lines:
        if pages[-1] and size + _size(line) + 1 > SECTION_LIMIT:
            pages.append([])
            size = 0
        pages[-1].append(line)
        size += _size(line) + 1
    return _numbered(title, [Text.of("\n").join(page) for page in pages])


def _numbered(title: str | Text, parts: list[Any]) -> list[Section]:
    if len(parts) == 1:
        return [Section(title, parts[0])]
    return [Section(title + f" ({n}/{len(parts)})", part) for n, part in enumerate(parts, 1)]


HEADING = re.compile(r"^#{1,3} +(.+?)\s*$")
FENCE = "```"


def split_sections(text: str, game_title: str) -> list[Section]:
    """The rules text cut at its headings (``#``, ``##``, ``###``), each section's text
    under :data:`SECTION_LIMIT` (split at lines into numbered parts). Text before the
    first heading below the game's title is its first section, named after the game."""
    found: list[tuple[str, list[str]]] = []
    title = game_title
    lines: list[str] = []
    for line in text.splitlines():
        heading = HEADING.match(line)
        if heading and not _fenced(lines):
            if "".join(lines).strip():
                found.append((title, lines))
            title, lines = _short_title(heading[1], game_title), []
            continue
        lines.append(line)
    if "".join(lines).strip():
        found.append((title, lines))
    sections: list[Section] = []
    for name, body in found:
        sections += _numbered(name, pages("\n".join(body).strip("\n"), SECTION_LIMIT))
    return sections


def _fenced(lines: list[str]) -> bool:
    return sum(line.strip().startswith(FENCE) for line in lines) % 2 == 1


def _short_title(heading: str, game_title: str) -> str:
    """``Dragon's Cave: playing`` in Dragon's Cave's own rules is ``Playing``."""
    for prefix in (f"{game_title}: ", f"{game_title} - "):
        if heading.startswith(prefix):
            heading = heading[len(prefix) :]
            return heading[:1].upper() + heading[1:]
    return heading


def pages(text: str, limit: int) -> list[str]:
    """Markdown split into parts of at most ``limit`` characters at line boundaries; a code
    block cut by a break is closed at the end of one part and opened again in the next."""
    result, page, fenced = [], "", False
    room = limit - len(FENCE) - 1
    for block in text.split("\n"):
        while len(block) > room:
            result.append(block[:room])
            block = block[room:]
        if len(page) + len(block) + 1 > room:
            result.append(page + (f"\n{FENCE}" if fenced else ""))
            page = FENCE if fenced else ""
        page = f"{page}\n{block}" if page else block
        if block.strip().startswith(FENCE):
            fenced = not fenced
    if page.strip():
        result.append(page)
    return result
