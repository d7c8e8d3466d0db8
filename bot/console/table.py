"""The local table: several players at one keyboard, driving the same :class:`GameHost`.

What each player would see is printed: channel posts, replies (``[to alice]``) and
private messages (``[private to alice]``), every line in the table's one locale (the
players share a screen). Board pictures are written to a folder.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO, TypedDict
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import i18n
import i18n.times
from bot.console.commands import HELP_WORD, Line, ParseError, parse
from bot.console.places import MEMORY
from bot.logs import protect
from bot.service.admission import Busy
from bot.service.delivery.outbox import Delivery
from bot.service.errors import UserError
from bot.service.history.story import File
from bot.service.host import GameHost
from bot.service.notices import Board, ChannelPost, Controls, Outcome, PrivateMessage, Reply
from bot.service.play import destinations
from bot.service.play.turns import group_of
from bot.service.seating.table_controls import KINDS as GATHERING_KINDS
from bot.service.text import (
    BoardLink,
    ChannelRef,
    Mention,
    Moment,
    Part,
    ServerRef,
    Text,
    WebLink,
    as_text,
    said,
)
from bot.service.timekeeping.timing import Timing
from bot.store import StoreBusy, open_store
from bot.web.server import WebServer
from games import SPECS, render
from i18n import Locale

GUILD = 1
CHANNEL = 10
FIRST_USER = 1000
MAX_LISTED = 12
WELCOME = said("Type `help` for the commands, `quit` to leave.")
PROMPT = said("table") + "> "
"""What the table shows where it waits for a line."""
BUSY = said("The game store is busy right now; please try again in a moment.")

# The commands are typed in English at the table, so their lines stay as they are; what
# they do, in parentheses, is said in the table's locale.
HELP = Text("\n").join(
    [
        said("Local table commands (type `name: /command option:value`):"),
        '  alice: /game new game:stgeorge players:2 [role:dragon] [options:"k=v k=v"]',
        "  bob: /game join [game:1] [role:knights]",
        "  alice: /game addbot [level:strong|easy] [role:dragon]   "
        + said("(a computer takes a seat)"),
        "  alice: /game start | /game status | /game cancel | /game leave | /game list"
        " | /game mine",
        "  alice: /game history [page:2] | /game export   "
        + said("(the moves by turn; the record as a file)"),
        "  alice: /game page            "
        + said("(the game's page on the web, when {setting} is set)", setting="WEB_PORT"),
        '  alice: /game note text:"..."  '
        + said("(your private note on the game; {clear} removes it)", clear="clear:yes"),
        "  alice: /move action:roll     " + said("(or just `alice: roll`)"),
        "  alice: B                     "
        + said("(a label from the labelled picture: plays the move to its place)"),
        "  alice: lair ruby game:2      "
        + said("(with several games here, name one: `game:` after the move)"),
        "  alice: /hand                 " + said("(your private choices again)"),
        "  alice: /games                " + said("(your games, those where it is your turn first)"),
        "  alice: /rules game:stgeorge",
        "  alice: /leaderboard game:stgeorge | /stats [user:bob]   "
        + said("(ratings of finished games)"),
        said("Games: {games}.", games=", ".join(SPECS)),
        said(
            "Discord only (no clock runs here): {commands} and {last}.",
            commands="/game settings, pause, resume, resign, draw, undo, replay,\n"
            "watch, unwatch, /notify, /away, /language",
            last="/server defaults",
        ),
        said(
            "The arrow keys edit the line and recall earlier ones (kept between sessions). "
            "`quit` leaves."
        ),
    ]
)


class Asker(TypedDict):
    """Where a line was typed and by whom, as the host's calls take it."""

    guild_id: int
    channel_id: int
    user_id: int


class AskerOfGame(Asker):
    """Where a line was typed, by whom, and the game it named (``None``: the channel's)."""

    game_id: int | None


class LocalTable:
    """One channel of one server, with players known by name, every line written in
    ``locale``."""

    def __init__(
        self,
        host: GameHost,
        out: TextIO = sys.stdout,
        images: Path | None = None,
        locale: Locale = i18n.DEFAULT,
    ):
        self.host = host
        self.out = out
        self.images = images
        self.locale = locale
        self._ids: dict[str, int] = {}
        self._names: dict[int, str] = {}
        self._pictures = last_picture(images)
        self._posts: dict[int, list[str]] = {}  # each game's turn post, as last shown
        self._labels: dict[int, dict[str, list[str]]] = {}  # each game's places, by label
        self.outbox = host.new_outbox(self._send, one_by_one=True)
        self.web: WebServer | None = None

    @classmethod
    async def open(
        cls,
        *,
        seed: int | None = None,
        database: str = MEMORY,
        out: TextIO = sys.stdout,
        images: Path | None = None,
        web_port: int | None = None,
        web_url: str | None = None,
        locale: Locale = i18n.DEFAULT,
    ) -> LocalTable:
        """The table on ``database``, speaking ``locale``; with ``web_port``, each game's
        page is served on that port of this machine (localhost only), in the same
        locale, and linked at ``web_url``."""
        protect()
        store = await open_store(database)
        seeds = random.Random(seed) if seed is not None else None
        clock: Callable[[], float] = _StepClock() if seed is not None else time.time
        if web_port is not None:
            web_url = web_url or f"http://localhost:{web_port}"
        host = GameHost(
            store, renderer=render, seeds=seeds, clock=clock,
            web_url=web_url if web_port is not None else None,
        )  # fmt: skip
        if images is not None:
            images.mkdir(parents=True, exist_ok=True)
        table = cls(host, out, images, locale)
        await table.stop_clocks()
        await table.recall_players()
        if web_port is not None:
            table.web = WebServer(host.pages, "127.0.0.1", web_port, languages=_OneLanguage(locale))
            await table.web.start()
            table.say(
                said(
                    "(game pages on the web: {address}; `/game page` gives a game's)",
                    address=web_url or "",
                )
            )
        return table

    async def close(self) -> None:
        if self.web is not None:
            await self.web.close()
        await self.host.close()

    def user(self, name: str) -> int:
        if name not in self._ids:
            self._ids[name] = max(self._names, default=FIRST_USER - 1) + 1
            self._names[self._ids[name]] = name
        return self._ids[name]

    async def stop_clocks(self) -> None:
        """No clock runs at a local table: games opened here have no turn limit, and games
        kept from earlier sessions lose theirs, so no deadline is ever shown."""
        await self.host.turn_clock.set_server_timing(guild_id=GUILD, limit_hours=0)
        for number, _ in await self.host.listings.game_choices(guild_id=GUILD, channel_id=CHANNEL):
            try:
                record = (await self.host.desk.table(number)).record
            except UserError:  # a game that cannot be read keeps what it has
                continue
            if record.active and Timing.from_dict(record.timing).limit:
                await self.host.turn_clock.set_timing(
                    user_id=record.host_id, game_id=number, limit_hours=0
                )

    async def recall_players(self) -> None:
        """Know the players seated in this table's games by the names they played under,
        so a table opened again on the same database gives each the same seats."""
        for number, _ in await self.host.listings.story_choices(guild_id=GUILD, channel_id=CHANNEL):
            try:
                seats = (await self.host.desk.table(number)).record.seats
            except UserError:  # a game that cannot be read names nobody
                continue
            for seat in seats:
                if not seat.computer and seat.name not in self._ids:
                    self._ids[seat.name] = seat.user_id
                    self._names[seat.user_id] = seat.name

    async def welcome(self, database: str) -> None:
        """Say where the games are kept and where pictures go, and list the open games."""
        if database != MEMORY:
            self.say(
                said(
                    "Games are kept in {database} (another file: {option}).",
                    database=database,
                    option="--db FILE",
                )
            )
        if self.images is not None:
            first = self.images / picture_name(self._pictures + 1)
            self.say(
                said(
                    "Board pictures are written to {folder}, from {first} on.",
                    folder=f"{self.images}/",
                    first=first.name,
                )
            )
        if not await self.host.listings.game_choices(guild_id=GUILD):
            self.say(said("No games are open yet: `help` shows how to start one."))
            return
        listing = await self.host.listings.list_games(guild_id=GUILD)
        self.say(said("Still open from before:") + "\n" + listing.text)
        # A computer whose turn it was when the last session ended plays now.
        await self._computers_play("you")

    async def run_lines(self, lines: Iterable[str], echo: bool = True) -> list[tuple[int, str]]:
        """Run each line in turn; the refused ones as ``(line number, text)``."""
        refused = []
        for number, text in enumerate(lines, 1):
            if echo and text.strip() and not text.lstrip().startswith("#"):
                self.say(f"> {text.strip()}")
            if not await self.run_line(text):
                refused.append((number, text.strip()))
        return refused

    async def run_line(self, text: str) -> bool:
        """Run one line; False when it was refused (the table says why)."""
        try:
            line = parse(text)
        except ParseError as error:
            self.say("⚠️ " + error.text)
            return False
        if line is None:
            return True
        if line.command == HELP_WORD:
            self.say(HELP)
            return True
        try:
            outcome = await self._dispatch(line)
        except Busy as busy:  # the host is full: nothing was done, the same line may follow
            self.say(to(line.player) + " ⏳ " + busy.text)
            return False
        except UserError as error:
            self.say(to(line.player) + " ⚠️ " + error.text)
            return False
        except StoreBusy:
            self.say(to(line.player) + " ⏳ " + BUSY)
            return False
        try:
            await self.show(outcome, line.player)
            if line.command in ("game start", "move") or line.command.startswith("game leave"):
                await self._computers_play(line.player)
        except StoreBusy:
            # What was done is stored; its notices wait in the outbox for the next line.
            self.say(to(line.player) + " ⏳ " + BUSY)
        return True

    async def _computers_play(self, asker: str) -> None:
        """Computer seats move at once here (no clock runs at a local table)."""
        await self.show(await self.host.computers.play_all_computers(guild_id=GUILD), asker)

    async def _dispatch(self, line: Line) -> Outcome:
        host, user, o = self.host, self.user(line.player), line.options
        wanted = int(o["game"]) if o.get("game", "").isdigit() else None
        where = Asker(guild_id=GUILD, channel_id=CHANNEL, user_id=user)
        game = AskerOfGame(**where, game_id=wanted)

        match line.command:
            case "rules":
                return Outcome([Reply(host.rules(o.get("game", "")))])
            case "leaderboard":
                return Outcome([await host.standings.leaderboard(**where, game=o.get("game", ""))])
            case "stats":
                target = self.user(o["user"].lower()) if o.get("user") else None
                return Outcome([await host.standings.stats(**where, target=target)])
            case "game new":
                players = int(o["players"]) if o.get("players", "").isdigit() else None
                return await host.lobby.new_game(
                    **where,
                    user_name=line.player,
                    slug=o.get("game", ""),
                    players=players,
                    options=o.get("options", ""),
                    role=o.get("role"),
                )
            case "game join":
                return await host.lobby.join(**game, user_name=line.player, role=o.get("role"))
            case "game addbot":
                level = o.get("level", "strong")
                return await host.lobby.add_computer(**game, level=level, role=o.get("role"))
            case "game leave":
                return await host.lobby.leave(**game, user_name=line.player)
            case "game start":
                return await host.lobby.start(**game)
            case "game cancel":
                return await host.lobby.cancel(**game, is_admin=False)
            case "game status":
                return Outcome([await host.listings.status(**game)])
            case "game list":
                return Outcome(
                    [await host.listings.list_games(**where, show=o.get("show", "running"))]
                )
            case "game history":
                page = int(o["page"]) if o.get("page", "").isdigit() else None
                return Outcome([await host.stories.history(**game, page=page)])
            case "game export":
                return Outcome([self._save(await host.stories.export_record(**game))])
            case "game mine":
                return Outcome([await host.listings.mine(**where)])
            case "games":
                here = {GUILD: self.write(said("this table"))}
                inbox = host.inbox.inbox(user_id=user, visible=here, offer_next=False)
                return Outcome([await inbox])
            case "game page":
                return await host.pages.address(**game)
            case "game note":
                clear = o.get("clear", "").lower() in ("yes", "true", "1")
                return Outcome([await host.notes.note(**game, text=o.get("text"), clear=clear)])
            case "hand":
                private = await host.turns.private_text(**game)
                note = await host.notes.kept(**game)
                lines = [as_text(private)] if private else []
                lines += ["📝 " + said("Your note: {note}", note=note)] if note else []
                controls = tuple(await host.turns.controls_for(**game))
                shown = Text("\n").join(lines) or said("Nothing private for you now.")
                return Outcome([Reply(shown, controls=controls)])
            case _:
                action = o.get("action", "").strip()
                if not action:
                    raise UserError(said("Say what to play, e.g. `alice: /move action:roll`."))
                return await host.turns.act(**game, action=self.labelled_action(wanted, action))

    async def play_record(self, path: Path) -> None:
        """Play back the finished game recorded in the file at ``path`` and show its final
        board (a record another table exported, see ``docs/RECORDS.md``)."""
        try:
            reply = await self.host.stories.play_record(path.read_text(encoding="utf-8"))
        except UserError as error:
            self.say("⚠️ " + error.text)
            return
        await self.show(Outcome([reply]), "you")

    def _save(self, file: File) -> Reply:
        """Write a file the host made into the pictures folder; the reply says where."""
        folder = self.images or Path(".")
        path = folder / file.name
        path.write_bytes(file.data)
        return Reply(as_text(file.text) + "\n    " + said("(file: {path})", path=str(path)))

    # -- showing notices ---------------------------------------------------------------

    async def show(self, outcome: Outcome, asker: str) -> None:
        """The replies to ``asker``, then everything the outbox holds, in order."""
        for reply in outcome.replies:
            self.say(to(asker) + " " + reply.text)
            self._choices(reply.controls)
            self._picture(await self.host.drawing.draw(reply.board, self.locale))
        await self.outbox.flush()

    async def _send(self, delivery: Delivery) -> None:
        """The outbox's sender at this table: print what each player would see."""
        match delivery.notice:
            case ChannelPost() as post:
                self._post(post)
                self._picture(await self.host.drawing.draw(post.board, self.locale))
                self._choices(post.controls)
                if post.board is not None or post.controls:
                    self._labels.pop(post.game_id, None)  # a new position: new labels
                await self._places(post.controls, post.board)
            case PrivateMessage() as message:
                name = self._names.get(message.user_id, str(message.user_id))
                self.say(said("[private to {player}]", player=name) + " " + message.text)
                self._choices(message.controls)

    def _post(self, post: ChannelPost) -> None:
        """A new post in full; a turn's post updated in place, by the lines it changed; an
        offer's post settled, by the line it gains."""
        if post.settles is not None:
            self.say(said("[#table, the offer's post]") + " " + post.text)
            return
        lines = self.write(post.text).splitlines()
        before = self._posts.get(post.game_id, []) if post.edit else []
        self._posts[post.game_id] = lines
        if post.passed:
            return  # a passed turn's post only loses its calls and its controls
        same = 0
        while same < min(len(before), len(lines)) and before[same] == lines[same]:
            same += 1
        if post.edit and same:
            self.say(said("[#table, the turn's post goes on]") + " " + "\n".join(lines[same:]))
        else:
            self.say(said("[#table]") + " " + "\n".join(lines))

    def _choices(self, controls: tuple[Controls, ...]) -> None:
        for control in controls:
            if control.prompt.kind in GATHERING_KINDS:
                continue  # Join, Start, Rematch are buttons; here the post's commands are typed
            actions = [c.action for c in control.choices]
            listed = ", ".join(actions[:MAX_LISTED])
            if len(actions) > MAX_LISTED:
                more = len(actions) - MAX_LISTED
                self.say(
                    "    " + said("choices: {choices} (+{more} more)", choices=listed, more=more)
                )
            else:
                self.say("    " + said("choices: {choices}", choices=listed))

    async def _places(self, controls: tuple[Controls, ...], board: Board | None) -> None:
        """Where a piece can go, labelled: each label with its move, and the board with the
        labels on it (a picture for each piece); the label typed then plays its move."""
        for control in controls:
            if control.prompt.secret or not destinations.has_places(control.choices):
                continue
            found = destinations.placed(control.choices, destinations.MANY_LABELS)
            if found is None:
                continue
            choices, marks = found
            label_of = {m["at"]: m["label"] for m in marks}
            self._labels[control.game_id] = {}
            for choice in choices:
                if choice.to:
                    moves = self._labels[control.game_id].setdefault(label_of[choice.to], [])
                    moves.append(choice.action)
            places = Text("; ").join(c.label for c in choices if c.to)
            self.say("    " + said("places: {places}", places=places))
            example = str(marks[0]["label"])
            typing = said("(type a label, e.g. `{label}`, to play its move)", label=example)
            self.say("    " + typing)
            if board is not None:
                for group in dict.fromkeys(group_of(c) for c in choices if c.to):
                    at = {c.to for c in choices if group_of(c) == group}
                    shown = [m for m in marks if m["at"] in at]
                    marked = destinations.marked(board, shown)
                    self._picture(await self.host.drawing.draw(marked, self.locale))

    def labelled_action(self, game_id: int | None, action: str) -> str:
        """The move a typed label stands for (``action`` itself when it is no label);
        UserError when several moves go to the labelled place."""
        games = [game_id] if game_id is not None else list(self._labels)
        for game in games:
            moves = self._labels.get(game, {}).get(action.upper()) if action.isupper() else None
            if moves and len(moves) > 1:
                raise UserError(
                    said(
                        "{label} is reached by {moves}: type the move.",
                        label=action,
                        moves=", ".join(moves),
                    )
                )
            if moves:
                return moves[0]
        return action

    def _picture(self, image: bytes | None) -> None:
        if image is None or self.images is None:
            return
        self._pictures += 1
        path = self.images / picture_name(self._pictures)
        path.write_bytes(image)
        self.say("    " + said("(board picture: {path})", path=str(path)))

    def write(self, text: str | Text) -> str:
        """``text`` as the table shows it, in its locale: players by name, the one
        channel as ``#table``, times in local time."""
        return as_text(text).render(self._part, self.locale)

    def _part(self, part: Part) -> str:
        match part:
            case Mention(user_id):
                if user_id in self._names:
                    return "@" + self._names[user_id]
                return "@" + self.write(said("player {number}", number=user_id))
            case ChannelRef():
                return "#table"
            case Moment(at):
                when = i18n.times.date_time(at, local_zone(), self.locale)
                return self.write(said("on {date}", date=when))
            case BoardLink():
                return self.write(said("the last board above"))
            case WebLink(url):
                return url
            case ServerRef():
                return self.write(said("this table"))
        raise TypeError(f"the local table cannot show {part!r}")

    def say(self, text: str | Text) -> None:
        """Print ``text`` as the table shows it (see :meth:`write`)."""
        print(self.write(text), file=self.out)


def to(player: str) -> Text:
    """The mark of a reply only ``player`` sees: ``[to alice]``."""
    return said("[to {player}]", player=player)


class _OneLanguage:
    """The table's locale as every game's server language, for the pages it serves."""

    def __init__(self, locale: Locale) -> None:
        self.locale = locale

    async def server(self, guild_id: int | None, *, seen: str | None = None) -> Locale:
        return self.locale


def local_zone() -> str | None:
    """This machine's time zone by its IANA name (``$TZ``, else the zone
    ``/etc/localtime`` links to), or None (UTC) where it has none that names one."""
    named = os.environ.get("TZ", "").lstrip(":")
    if not named:
        link = Path("/etc/localtime")
        target = str(link.resolve()) if link.is_symlink() else ""
        named = target.partition("zoneinfo/")[2]
    try:
        ZoneInfo(named)
    except (ValueError, ZoneInfoNotFoundError):
        return None
    return named


def picture_name(number: int) -> str:
    return f"board-{number:04d}.png"


def last_picture(folder: Path | None) -> int:
    """The highest number of a board picture already in ``folder`` (0 for none), so a new
    session adds pictures after those of earlier ones instead of writing over them."""
    if folder is None or not folder.is_dir():
        return 0
    numbers = [int(p.stem[6:]) for p in folder.glob("board-*.png") if p.stem[6:].isdigit()]
    return max(numbers, default=0)


class _StepClock:
    """A clock that ticks one second per reading, so seeded runs are repeatable."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        self.now += 1
        return self.now
