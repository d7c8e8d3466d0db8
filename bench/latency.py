"""Per-action latency of every game, end to end and stage by stage, and board picture sizes.

Each *table* is one game at one player count: its smallest, and also its largest when that
differs. Fake users play it by choosing random legal actions, as a frontend would:
``GameHost.controls_for`` says who is prompted and with which choices, ``GameHost.act``
plays one. The host runs on a SQLite file and the real renderer, so the wall time of an
action covers loading the game, the engine's ``apply``, the SQLite commit and, when the
turn changes, drawing the board. When a game ends a new one starts, until the requested
number of actions is measured.

After every accepted action the same work is timed again stage by stage, outside ``act``,
to show where the time goes:

* engine apply: ``Game.apply`` on the position the action was played in, with the dice
  the host derived for it;
* store commit: ``SqliteStore.append_action`` of the same snapshot and events into a
  second, scratch database, so the measured game is not disturbed;
* render: the renderer on the new public view, after every action (``act`` itself draws
  only when the turn changes).
"""

from __future__ import annotations

import math
import os
import platform
import random
import sqlite3
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import PIL

import games
from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.notices import ChannelPost, Controls, Outcome
from bot.service.tables import Table
from bot.store.sqlite import SqliteStore
from engines.base import Choice, Event, Result
from engines.replay import action_rng
from games import ENGINES

BUDGET_P95_MS = 50.0
"""Budget: 95% of actions, render included, take at most this long."""
BUDGET_PNG_KB = 300.0
"""Budget: no board picture is larger than this."""

GUILD_ID = 1
CHANNEL_ID = 10
FIRST_USER_ID = 1001

ROWS = (
    ("act", "act() end to end"),
    ("act_drawn", "  turn changed, drew board"),
    ("act_plain", "  no board drawn"),
    ("apply", "engine apply"),
    ("commit", "store commit"),
    ("render", "render public view"),
)
"""Timed stages in printing order: (key, label)."""


@dataclass
class Figures:
    """Everything measured at one table."""

    slug: str
    players: int
    samples: dict[str, list[float]] = field(default_factory=lambda: {key: [] for key, _ in ROWS})
    png_bytes: list[int] = field(default_factory=list)
    games: int = 0
    finished: int = 0
    rejected: int = 0

    @property
    def name(self) -> str:
        return f"{self.slug}, {self.players} players"

    @property
    def measured(self) -> int:
        """Accepted actions measured so far."""
        return len(self.samples["act"])

    def add_act(self, milliseconds: float, images: list[bytes]) -> None:
        """Record one accepted action and the board pictures its notices carried."""
        self.samples["act"].append(milliseconds)
        self.samples["act_drawn" if images else "act_plain"].append(milliseconds)
        self.png_bytes.extend(len(image) for image in images)

    def p95_act(self) -> float:
        return percentile(self.samples["act"], 0.95)

    def max_png_kb(self) -> float | None:
        return max(self.png_bytes) / 1024 if self.png_bytes else None

    def within_budget(self) -> bool:
        png_kb = self.max_png_kb()
        png_ok = png_kb is None or png_kb <= BUDGET_PNG_KB
        return self.p95_act() <= BUDGET_P95_MS and png_ok


class ScratchLog:
    """A second store, where the commit stage is timed without touching the measured game."""

    def __init__(self, store: SqliteStore, game_id: int, version: int) -> None:
        self.store = store
        self.game_id = game_id
        self.version = version

    @classmethod
    async def open(cls, path: Path, slug: str, players: int) -> ScratchLog:
        store = await SqliteStore.open(path)
        game_id = await store.create_game(
            guild_id=GUILD_ID,
            channel_id=CHANNEL_ID,
            slug=slug,
            host_id=FIRST_USER_ID,
            players=players,
            options={},
            seed=0,
            now=time.time(),
        )
        record = await store.get_game(game_id)
        return cls(store, game_id, record.version)

    async def close(self) -> None:
        await self.store.close()

    async def append(
        self,
        seat: int,
        action: str,
        events: list[Event],
        snapshot: dict[str, Any],
        result: Result | None,
    ) -> float:
        """Milliseconds to log one action with its snapshot, the way the host does it."""
        started = time.perf_counter()
        self.version = await self.store.append_action(
            self.game_id,
            self.version,
            seat=seat,
            action=action,
            events=[{"text": e.text, "seat": e.seat, "data": e.data} for e in events],
            now=time.time(),
            snapshot=snapshot,
            status="finished" if result else "running",
            result=result.text if result else None,
        )
        return ms_since(started)


# -- running the bench -----------------------------------------------------------------


async def run(slugs: list[str], *, actions: int, seed: int) -> list[Figures]:
    """Measure every table of the games ``slugs`` and print the figures as they come."""
    print_header(actions, seed)
    results = []
    for slug, players in tables(slugs):
        figures = await measure(slug, players, actions=actions, seed=seed)
        print_figures(figures)
        results.append(figures)
    print_summary(results)
    return results


def tables(slugs: list[str]) -> list[tuple[str, int]]:
    """(slug, players) to measure: each game's smallest table, and its largest if bigger."""
    chosen = []
    for slug in slugs:
        engine = ENGINES[slug]
        chosen.append((slug, engine.min_players))
        if engine.max_players > engine.min_players:
            chosen.append((slug, engine.max_players))
    return chosen


async def measure(slug: str, players: int, *, actions: int, seed: int) -> Figures:
    """Play random games of ``slug`` until ``actions`` accepted actions are measured."""
    figures = Figures(slug, players)
    chooser = random.Random(f"{seed}:moves")
    with tempfile.TemporaryDirectory(prefix="dragon-bench-") as folder:
        store = await SqliteStore.open(Path(folder) / "games.sqlite3")
        scratch = await ScratchLog.open(Path(folder) / "scratch.sqlite3", slug, players)
        host = GameHost(store, renderer=games.render, seeds=random.Random(seed))
        try:
            while figures.measured < actions:
                game_id, users = await open_game(host, slug, players)
                figures.games += 1
                await play_game(host, scratch, figures, game_id, users, chooser, actions)
        finally:
            await scratch.close()
            await store.close()
    return figures


async def open_game(host: GameHost, slug: str, players: int) -> tuple[int, list[int]]:
    """Open a lobby, seat one fake user per seat and start; returns the game id and users."""
    users = [FIRST_USER_ID + index for index in range(players)]
    opened = await host.lobby.new_game(
        guild_id=GUILD_ID,
        channel_id=CHANNEL_ID,
        user_id=users[0],
        user_name=user_name(users[0]),
        slug=slug,
        players=players,
    )
    game_id = next(n.game_id for n in opened.notices if isinstance(n, ChannelPost))
    for user_id in users[1:]:
        await host.lobby.join(game_id=game_id, user_id=user_id, user_name=user_name(user_id))
    await host.lobby.start(game_id=game_id, user_id=users[0])
    return game_id, users


def user_name(user_id: int) -> str:
    return f"player{user_id - FIRST_USER_ID + 1}"


async def play_game(
    host: GameHost,
    scratch: ScratchLog,
    figures: Figures,
    game_id: int,
    users: list[int],
    chooser: random.Random,
    limit: int,
) -> None:
    """Play random legal actions until the game ends or ``limit`` actions are measured."""
    while figures.measured < limit:
        picked = await pick_action(host, game_id, users, chooser)
        if picked is None:
            await check_finished(host, game_id)
            figures.finished += 1
            return
        user_id, controls, choice = picked
        before = await host.desk.table(game_id)
        started = time.perf_counter()
        try:
            outcome = await host.turns.act(
                game_id=game_id, user_id=user_id, action=choice.action, version=controls.version
            )
        except UserError as error:
            note_rejected(figures, choice, error, limit)
            continue
        images = await draw_boards(host, outcome)
        figures.add_act(ms_since(started), images)
        await time_stages(before, controls.prompt.seat, choice.action, scratch, figures)


async def pick_action(
    host: GameHost, game_id: int, users: list[int], chooser: random.Random
) -> tuple[int, Controls, Choice] | None:
    """A random legal action of a random prompted user; ``None`` once nobody is prompted."""
    offers = []
    for user_id in users:
        for controls in await host.turns.controls_for(game_id=game_id, user_id=user_id):
            if controls.choices:
                offers.append((user_id, controls))
    if not offers:
        return None
    user_id, controls = chooser.choice(offers)
    return user_id, controls, chooser.choice(controls.choices)


async def check_finished(host: GameHost, game_id: int) -> None:
    """Nobody is prompted: the game must be over, otherwise it is stuck."""
    record = (await host.desk.table(game_id)).record
    if record.status != "finished":
        raise RuntimeError(f"game #{game_id} ({record.slug}) is {record.status} with no prompt")


def note_rejected(figures: Figures, choice: Choice, error: UserError, limit: int) -> None:
    """Count a listed choice the host refused; give up if that keeps happening."""
    figures.rejected += 1
    print(f"  refused {choice.action!r}: {error}")
    if figures.rejected > limit:
        raise RuntimeError(f"{figures.name}: more than {limit} listed choices were refused")


async def draw_boards(host: GameHost, outcome: Outcome) -> list[bytes]:
    """The board pictures of an action's notices, drawn as delivering them draws them."""
    boards = [board for n in outcome.notices if (board := getattr(n, "board", None))]
    return [image for board in boards if (image := await host.drawing.draw(board))]


async def time_stages(
    before: Table, seat: int, action: str, scratch: ScratchLog, figures: Figures
) -> None:
    """Time apply, commit and render of one action separately, outside the host."""
    engine = before.engine
    dice = action_rng(before.record.seed, before.record.version + 1)
    started = time.perf_counter()
    state, events = engine.apply(before.state, seat, action, dice)
    figures.samples["apply"].append(ms_since(started))

    snapshot = engine.dump(state)
    commit_ms = await scratch.append(seat, action, events, snapshot, engine.result(state))
    figures.samples["commit"].append(commit_ms)

    view = engine.view(state, None)
    started = time.perf_counter()
    games.render(engine.slug, view)
    figures.samples["render"].append(ms_since(started))


def ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile: the smallest value with at least ``share`` of all at or below."""
    ordered = sorted(values)
    rank = math.ceil(share * len(ordered))
    return ordered[max(rank, 1) - 1]


# -- printing ----------------------------------------------------------------------------


def print_header(actions: int, seed: int) -> None:
    print("Dragon host latency bench: random legal play through GameHost.act")
    print(
        f"Budget: p95 <= {BUDGET_P95_MS:.0f} ms per action including render; "
        f"PNG <= {BUDGET_PNG_KB:.0f} KB. Shown as information only, never asserted."
    )
    print(
        f"Machine: {platform.platform()}, {os.cpu_count()} CPUs, "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}, Pillow {PIL.__version__}"
    )
    print(f"Run: {actions} accepted actions per table, seed {seed}; 1 KB = 1024 bytes.")
    print(
        "act() covers loading the game, engine apply, SQLite commit and, when the turn "
        "changes, drawing the board.\nThe stage rows time the same work separately; "
        "'render public view' draws after every action."
    )
    print()


def print_figures(figures: Figures) -> None:
    drawn = len(figures.samples["act_drawn"])
    share = drawn / figures.measured
    print(
        f"{figures.name}: {figures.measured} actions in {figures.games} game(s), "
        f"{figures.finished} finished; {drawn} actions ({share:.0%}) drew the board"
    )
    if figures.rejected:
        print(f"  {figures.rejected} listed choice(s) were refused by the host")
    print(f"  {'stage':<28}{'count':>7}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}")
    for key, label in ROWS:
        print("  " + stage_row(label, figures.samples[key]))
    print("  " + png_line(figures.png_bytes))
    print("  " + verdict_line(figures))
    print()


def stage_row(label: str, values: list[float]) -> str:
    if not values:
        return f"{label:<28}{0:>7}{'-':>10}{'-':>10}{'-':>10}"
    return (
        f"{label:<28}{len(values):>7}{percentile(values, 0.50):>10.2f}"
        f"{percentile(values, 0.95):>10.2f}{max(values):>10.2f}"
    )


def png_line(sizes: list[int]) -> str:
    if not sizes:
        return "PNG size: no board drawn"
    kb = [size / 1024 for size in sizes]
    return (
        f"PNG size ({len(kb)} pictures): min {min(kb):.1f} KB, "
        f"median {statistics.median(kb):.1f} KB, max {max(kb):.1f} KB"
    )


def verdict_line(figures: Figures) -> str:
    png_kb = figures.max_png_kb()
    png = "no PNG" if png_kb is None else f"PNG max {png_kb:.1f}/{BUDGET_PNG_KB:.0f} KB"
    verdict = "PASS" if figures.within_budget() else "OVER"
    return f"Budget: {verdict} (act p95 {figures.p95_act():.1f}/{BUDGET_P95_MS:.0f} ms, {png})"


def print_summary(results: list[Figures]) -> None:
    print("Summary against the budget (information only):")
    for figures in results:
        print(f"  {figures.name:<32}{verdict_line(figures)}")
