"""Past its capacity the host should saturate, never collapse: the curve, measured.

``python -m bench.saturation [--games 1000] [--seconds 8] [--start 50] [--before PATH]
[--after PATH] [--unlimited]``

SQLite, one bot process with pictures on (as many picture processes as cores), each step
in a fresh child interpreter on a fresh copy of the same ``--games`` live games. Every
notice goes through the real outbox (started, as the bot runs it, with its default pacer
where the code has one) to a fake Discord that draws each board the notice carries and
enforces Discord's limits: in any 5 s at most 5 requests per channel (or one user's DMs),
in any 1 s at most 50 in all. A request past a limit is refused as Discord refuses it
(``TryLater("429 ...")``) and counted as a breach; where the code has a pacer it is told
the retry-after (``Pacer.slow_down``), as the Discord frontend does with a 429.

1. **Floor**: actions one at a time, nothing else in flight (and spaced so the requests
   stay within Discord's global rate): the CPU of one action's act, send and board drawn
   and encoded (bot process plus picture processes, from ``/proc``); measured at the start
   and again at the end, and both count.
2. **Capacity**: open-loop steps of ``--seconds`` each, from ``--start`` actions/s,
   doubled while p95 <= 250 ms and done >= 95% of offered, then bisected twice: the most
   actions/s done within those bounds. The same rate is offered again after the overload,
   and the peak is the mean of the two: a shared machine's speed drifts over a run (by a
   tenth to a quarter here), as the floor's does.
3. **Overload**: 1.5x, 2x and 3x the peak offered, each printed against the peak and the
   floor: done/s, p95 of the admitted clicks (those still unfinished when cut counted at
   their age then), clicks refused as busy and how fast they were refused, CPU per done
   action, requests to Discord per done action, breaches, how old each channel's view
   was (from a game's newest state stored to its channel showing it, measured when the
   offer ends plus a short grace; a channel not showing it yet counts its age then), and
   how much of the cores the bot process and the picture processes each kept busy while
   the clicks were offered.
4. **Burst**: computers alone play 1,000 moves in one channel as fast as the host takes
   them (once their game's opening posts are out and the channel's window is clear of
   them) while the outbox sends in the background: requests to that channel per second
   (most in any 1 s, and on average) and seconds from the burst's end until the channel
   showed the newest position, and the channel's requests around its end.

An action is a click: a legal move of a prompted seat of a random live game, chosen from
the board as its player last saw it, wrapped with its sending in the host's admission
(``host.admission.click()``) where the code has one; ``Busy`` counts as refused. With
``--before PATH`` every step also runs with the host's code imported from the checkout at
PATH (put first on the child's path), and the two tables print side by side with ratios.
Code without admission control or a pacer runs without them. ``--unlimited`` takes
Discord's limits away (and sets a pacer never to wait): the host's own curve, where the
machine's CPU is what runs out. Every compared figure is a ratio measured in the same run,
since machines differ twofold in speed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import inspect
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
PROJECT = HERE.parents[1]
GUILD = 1
SLUGS = ("stgeorge", "lions-dragons", "dragons-cave", "dragonslayer")
"""The four games, opened in turn (each its own channel)."""

CHANNEL_LIMIT = (5, 5.0)
"""Discord: requests per seconds in one channel (or one user's DMs)."""
GLOBAL_LIMIT = (50, 1.0)
"""Discord: requests per seconds for the whole bot."""
P95_BOUND = 0.25
"""Capacity is the most actions/s done with p95 within this many seconds..."""
DONE_SHARE = 0.95
"""... and at least this share of what was offered done."""
TAIL_SECONDS = 4.0
"""The burst's requests printed: those from this many seconds before its end."""
AGE_GRACE = 2.0
"""Seconds after the offer ends when each channel's view is measured."""
DRAIN = 5.0
"""Seconds after the offer ends that admitted clicks may take to finish before the cut."""
FLOOR_ACTIONS = 150
FLOOR_REQUESTS_PER_S = 40.0
"""The floor's sequential actions are spaced to keep requests under Discord's 50/s."""
BURST_MOVES = 1000
BURST_CHANNEL = 900_000
BURST_WAIT = 30.0
"""Seconds after the burst's end to wait for its channel to show the newest position."""
MULTIPLES = (1.5, 2.0, 3.0)

AIMS = {
    "done": 0.90,  # of the peak, at each overload
    "p95": 1.0,  # seconds, admitted work at each overload
    "refusal": 0.100,  # seconds, every refusal answered within
    "cpu": 1.3,  # CPU per action at capacity, times the floor
    "requests": 3.0,  # requests per done action
    "burst_rate": 1.0,  # requests per second to the burst's channel
    "burst_newest": 5.0,  # seconds from the burst's end to the newest position shown
    "cores": 0.85,  # share of the machine's cores busy past capacity (limits off)
}


# -- the child: one step, with the host's code of one tree --------------------------------


def worker_cpu(pids: list[int]) -> float:
    """CPU seconds used so far by the processes ``pids`` (Linux ``/proc``)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def percentile(values: list[float], p: int) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100)[p - 1]


class FakeDiscord:
    """The outbox's sender: draws each board a notice carries (as a courier attaches the
    picture), then refuses the request with a 429 (``TryLater``) if it would pass
    Discord's limits, else counts it as shown in its lane at this moment. Code that does
    not store a passed turn's post as a notice of its own (no ``ChannelPost.passed``) had
    its Discord frontend edit that post when the next turn's went out: one request more,
    counted here too (in the channel's window and the bot's), so both trees pay for it."""

    def __init__(
        self, host: Any, lane_of: Any, try_later: type[Exception], *, limited: bool = True
    ) -> None:
        """``limited``: enforce Discord's limits (else every request goes through)."""
        self.host = host
        self.limited = limited
        self.lane_of = lane_of
        self.try_later = try_later
        self.requests = 0
        self.accepted = 0
        self.channel_breaches = 0
        self.global_breaches = 0
        self.boards = 0
        self._lanes: dict[str, deque[float]] = {}
        self._all: deque[float] = deque()
        self.shown: dict[str, dict[Any, float]] = {}
        """By lane: each notice's fingerprint and when it was last shown there."""
        self.watched: str | None = None
        self.watched_times: list[float] = []
        self.watched_requests: list[tuple[float, str]] = []
        """Each request to the watched lane: when, and what it was."""
        self.pacer: Any = None
        self._ids = 0

    async def send(self, delivery: Any) -> int:
        notice = delivery.notice
        board = getattr(notice, "board", None)
        if board is not None:
            self.boards += 1
            await self.host.drawing.draw(board)
        now = time.perf_counter()
        lane = self.lane_of(notice)
        self.requests += 1
        if lane == self.watched:
            self.watched_times.append(now)
            self.watched_requests.append((now, describe_request(notice)))
        recent = self._lanes.setdefault(lane, deque())
        while recent and recent[0] <= now - CHANNEL_LIMIT[1]:
            recent.popleft()
        while self._all and self._all[0] <= now - GLOBAL_LIMIT[1]:
            self._all.popleft()
        if self.limited and len(recent) >= CHANNEL_LIMIT[0]:
            self.channel_breaches += 1
            self._slow_down(lane, recent[0] + CHANNEL_LIMIT[1] - now)
            raise self.try_later(f"429 Too Many Requests: {lane} is past 5 requests per 5 s")
        if self.limited and len(self._all) >= GLOBAL_LIMIT[0]:
            self.global_breaches += 1
            self._slow_down(None, self._all[0] + GLOBAL_LIMIT[1] - now)
            raise self.try_later("429 Too Many Requests: global rate of 50 per second")
        recent.append(now)
        self._all.append(now)
        if retired_unstored(notice, delivery):
            self.requests += 1
            recent.append(now)
            self._all.append(now)
        self.accepted += 1
        self.shown.setdefault(lane, {})[fingerprint(notice)] = now
        # An edit keeps the message it edits; anything else makes a new one.
        kind = type(notice).__name__
        if kind == "ChannelPost" and getattr(notice, "edit", False) and delivery.board_message_id:
            return int(delivery.board_message_id)
        if kind == "StatusUpdate" and delivery.status_message_id:
            return int(delivery.status_message_id)
        self._ids += 1
        return self._ids

    def _slow_down(self, lane: str | None, retry_after: float) -> None:
        """What the Discord frontend does with a 429's retry-after, where the code has a
        pacer: the lane (None: every send) keeps to it."""
        if self.pacer is not None:
            self.pacer.slow_down(lane, retry_after)


def retired_unstored(notice: Any, delivery: Any) -> bool:
    """Whether sending ``notice`` made the older frontend retire the game's board post: a
    new turn's post, from code that stores no passed turn's post of its own."""
    if type(notice).__name__ != "ChannelPost" or hasattr(notice, "passed") or notice.edit:
        return False
    opens = notice.board is not None or getattr(notice, "turn", None) is not None
    return opens and bool(delivery.board_message_id)


def describe_request(notice: Any) -> str:
    """A request in a few words: the notice's kind, whether it edits, what it carries, and
    the start of its text."""
    kind = type(notice).__name__
    traits = [
        word
        for word, present in (
            ("edit", getattr(notice, "edit", False)),
            ("passed", getattr(notice, "passed", False)),
            ("turn", getattr(notice, "turn", None) is not None),
            ("board", getattr(notice, "board", None) is not None),
        )
        if present
    ]
    text = str(getattr(notice, "text", "")).replace("\n", " / ")
    return kind + (f" ({', '.join(traits)})" if traits else "") + f": {text[:60]}"


def fingerprint(notice: Any) -> tuple[str, Any]:
    """What a notice shows: its kind and its text as plain words (a turn's post changes
    with each step; a text read back from the store may be typed where the host's was a
    string)."""
    return type(notice).__name__, str(getattr(notice, "text", ""))


def shows(shown_as: tuple[str, Any], mark: tuple[str, Any]) -> bool:
    """Whether a notice shown as ``shown_as`` shows ``mark``: its very text, or (a turn's
    post that also told, above it, turns a backlog passed) a text that ends with it."""
    (kind, text), (mark_kind, mark_text) = shown_as, mark
    ends_with = bool(mark_text) and text.endswith(mark_text)
    return kind == mark_kind and (text == mark_text or ends_with)


def shown_when(shown: dict[Any, float], mark: tuple[str, Any] | None) -> float | None:
    """When a notice showing ``mark`` (see :func:`shows`) was last shown, its very text
    first."""
    if mark is None or mark in shown:
        return shown.get(mark)
    times = [at for shown_as, at in shown.items() if shows(shown_as, mark)]
    return max(times) if times else None


def shows_now(shown: dict[Any, float], mark: tuple[str, Any]) -> bool:
    """Whether the lane's message of ``mark``'s kind shown last shows ``mark`` (the same
    words may have been shown before the action that stored them: a secret choice leaves
    the public post as it was)."""
    of_kind = [(at, shown_as) for shown_as, at in shown.items() if shown_as[0] == mark[0]]
    return bool(of_kind) and shows(max(of_kind)[1], mark)


def view_age(shown: dict[Any, float], mark: Any, stored: float, began: float) -> float | None:
    """Seconds from a state stored (at ``stored``, by an action begun at ``began``) until
    its lane showed it, or None while it does not. The outbox may send it between the
    commit and the moment the action returns, so a showing since ``began`` counts (as 0),
    and so does a lane already showing the same words."""
    at = shown_when(shown, mark)
    if at is not None and at >= began:
        return max(0.0, at - stored)
    if shows_now(shown, mark):
        return 0.0
    return None


def newest_of(outgoing: list[Any], lane_of: Any) -> dict[str, Any]:
    """By channel lane, the notice of ``outgoing`` that shows the newest state there: the
    last channel post, else the last notice."""
    posts: dict[str, Any] = {}
    others: dict[str, Any] = {}
    for notice in outgoing:
        lane = lane_of(notice)
        if lane.startswith("c"):
            (posts if type(notice).__name__ == "ChannelPost" else others)[lane] = notice
    return {**others, **posts}


class _Admitted:
    """No admission control (older code): every click is admitted."""

    @contextlib.asynccontextmanager
    async def click(self) -> Any:
        yield


async def open_games(location: str, count: int, seed: int) -> dict:
    """Open ``count`` running games as ``bench.cluster`` does (the four games in turn, each
    in its own channel), with the measured tree's own code."""
    from bench import cluster

    return {"seconds": await cluster.open_games(location, count, seed)}


def _from_room(module: str, name: str) -> Any:
    """``name`` of the host's ``module`` (``delivery.outbox``), in its room, or where code
    from before the rooms kept it (``bot.service.outbox``)."""
    import importlib

    try:
        found = importlib.import_module(f"bot.service.{module}")
    except ImportError:
        found = importlib.import_module(f"bot.service.{module.rpartition('.')[2]}")
    return getattr(found, name)


class Bot:
    """One bot process's host, outbox, picture processes and fake Discord."""

    def _outbox(self, outbox: Any, **options: Any) -> Any:
        """The host's outbox sending to the fake Discord: built by the host where it builds
        one (``new_outbox``), else given the whole host as older code took it."""
        if hasattr(self.host, "new_outbox"):
            return self.host.new_outbox(self.discord.send, **options)
        return outbox(self.host, self.discord.send, **options)

    async def start(self, options: dict) -> None:
        from bot.service import wire
        from bot.service.host import GameHost
        from bot.store.opening import open_store

        # The host's modules by their rooms, or where older code kept them (flat).
        Pictures = _from_room("boards.pictures", "Pictures")
        Outbox = _from_room("delivery.outbox", "Outbox")
        TryLater = _from_room("delivery.outbox", "TryLater")

        try:
            from bot.service.admission import Busy
        except ImportError:  # older code: no admission control, so nothing is refused
            Busy = None
        self.busy: type[Exception] | None = Busy
        self.store = await open_store(options["location"])
        self.pictures = Pictures(options["workers"])
        self.drawn = 0

        async def drawer(*args: Any, **kwargs: Any) -> bytes:
            self.drawn += 1
            return await self.pictures.draw(*args, **kwargs)

        self.host = GameHost(self.store, drawer=drawer, seeds=random.Random(options["seed"]))
        self.admission = getattr(self.host, "admission", None)
        self.lane_of = wire.lane
        self.wire = wire
        limited = not options.get("unlimited")
        self.discord = FakeDiscord(self.host, wire.lane, TryLater, limited=limited)
        try:  # the bot's pace of sends to Discord, where the code has one
            Pacer = _from_room("delivery.pacing", "Pacer")
        except ImportError:
            Pacer = None
        if Pacer is not None and "pacer" in inspect.signature(Outbox).parameters:
            # With Discord's limits off, a pace no send ever waits for.
            pace = {} if limited else {"per_channel": (10**9, 1.0), "global_rate": (10**9, 1.0)}
            if not limited and "steady" in inspect.signature(Pacer).parameters:
                pace["steady"] = (10**9, 1.0)
            self.outbox = self._outbox(Outbox, pacer=Pacer(**pace))
        else:
            self.outbox = self._outbox(Outbox)
        self.pacer = getattr(self.outbox, "pacer", None)
        self.discord.pacer = self.pacer
        self.pacer_waits: list[float] = []
        if self.pacer is not None:  # how long each send waits for its pace
            wait = self.pacer.wait

            async def timed(lane: str, *args: Any, **kwargs: Any) -> Any:
                began = time.perf_counter()
                try:
                    return await wait(lane, *args, **kwargs)
                finally:
                    self.pacer_waits.append(time.perf_counter() - began)

            self.pacer.wait = timed
        self.outbox.start()
        try:  # the bot process's short garbage collections, where the code has them
            from bot.service.garbage import ShortCollections
        except ImportError:
            self.collections = None
        else:
            admission = self.admission
            self.collections = ShortCollections(
                quiet=lambda: admission is None or admission.in_flight == 0
            )
            self.collections.start()

    @property
    def clicks(self) -> Any:
        return self.admission or _Admitted()

    def pids(self) -> list[int]:
        return list(getattr(self.pictures, "pids", []))

    def cpu(self) -> tuple[float, float]:
        return time.process_time(), worker_cpu(self.pids())

    async def warm(self, game_ids: list[int]) -> None:
        """Start the picture processes (each draws each game's board once) before the
        clock runs."""
        tables = [await self.host.desk.table(g) for g in game_ids[: len(SLUGS)]]
        workers = max(1, len(self.pids()))
        await asyncio.gather(
            *(
                self.pictures.draw(t.engine.slug, t.engine.view(t.state, None))
                for t in tables * 2 * workers
            )
        )

    async def stop(self) -> None:
        if self.collections is not None:
            await self.collections.stop()
        with contextlib.suppress(Exception):
            await self.outbox.stop(grace=1.0)
        await self.pictures.close()
        await self.store.close()

    def code(self) -> dict:
        return {
            "admission": self.admission is not None,
            "pacer": self.pacer is not None,
            "short_collections": self.collections is not None,
        }


async def load(options: dict) -> dict:
    """Offer clicks open-loop at ``rate`` for ``seconds`` (or, ``sequential``, one at a
    time), and measure what became of them."""
    from bot.service.errors import UserError
    from bot.service.tables import Table

    bot = Bot()
    await bot.start(options)
    host, discord, store = bot.host, bot.discord, bot.store
    records = sorted(
        (g for g in await store.games(guild_id=GUILD, limit=10**6) if g.status == "running"),
        key=lambda g: g.id,
    )
    live = [g.id for g in records]
    await bot.warm(live)
    seen: dict[int, Any] = {game_id: await host.desk.table(game_id) for game_id in live}

    def see_move(game_id: int, table: Any) -> None:
        version = table.record.version + 1
        kept = host.desk.states.get(game_id, version)
        if kept is None:
            seen.pop(game_id, None)
            return
        record = dataclasses.replace(table.record, version=version)
        seen[game_id] = Table(record, table.engine, kept[0], kept[1])

    chooser = random.Random(f"{options['seed']}:saturation")
    latencies: list[float] = []
    acting: list[float] = []  # act() alone
    sending: list[float] = []  # flush_outcome() alone
    refusals: list[float] = []  # seconds from the offer to the Busy refusal
    completions: list[float] = []
    admitted_at: dict[int, float] = {}  # clicks admitted and not done: when offered
    newest: dict[str, tuple[Any, float, float]] = {}  # by lane: newest state, stored, begun
    stale = failed = 0
    failures: dict[str, int] = {}  # what the failed clicks raised
    busy = bot.busy

    async def one(scheduled: float, key: int) -> None:
        nonlocal stale, failed
        for _ in range(5):
            if not live:
                return
            game_id = chooser.choice(live)
            table = seen.get(game_id)
            if table is None:
                # A player sees the board they click on: the bench's own reading of it is
                # no part of the click's time.
                reading = time.perf_counter()
                table = await host.desk.table(game_id)
                scheduled += time.perf_counter() - reading
            if table.record.status != "running" or not table.prompts():
                with contextlib.suppress(ValueError):
                    live.remove(game_id)
                continue
            seat = chooser.choice(table.prompts()).seat
            user = table.record.user_at(seat)
            action = chooser.choice(table.legal_actions(seat)).action
            try:
                async with bot.clicks.click():
                    admitted_at[key] = scheduled
                    began = time.perf_counter()
                    outcome = await host.turns.act(
                        game_id=game_id, user_id=user, action=action, version=table.record.version
                    )
                    stored = time.perf_counter()
                    for lane, notice in newest_of(outcome.outgoing, bot.lane_of).items():
                        newest[lane] = (fingerprint(notice), stored, began)
                    see_move(game_id, table)
                    await bot.outbox.flush_outcome(outcome)
                    sent = time.perf_counter()
            except UserError as error:
                admitted_at.pop(key, None)
                if busy is not None and isinstance(error, busy):
                    refusals.append(time.perf_counter() - scheduled)
                else:  # another action on this game came first
                    stale += 1
                    seen.pop(game_id, None)
                return
            except Exception as error:
                admitted_at.pop(key, None)
                failed += 1
                why = f"{type(error).__name__}: {str(error)[:200]}"
                failures[why] = failures.get(why, 0) + 1
                seen.pop(game_id, None)
                return
            finished = time.perf_counter()
            admitted_at.pop(key, None)
            acting.append(stored - began)
            sending.append(sent - stored)
            latencies.append(finished - scheduled)
            completions.append(finished - started)
            return

    lags: list[float] = []
    beating = True

    async def heartbeat() -> None:
        while beating:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - before - 0.01)

    beat = asyncio.create_task(heartbeat())
    bot.pacer_waits.clear()
    in_flight: set[asyncio.Task] = set()
    own_before, workers_before = bot.cpu()
    requests_before = discord.requests
    drawn_before = bot.drawn
    started = time.perf_counter()
    if options["sequential"]:
        for index in range(options["actions"]):
            await one(time.perf_counter(), index)
            # Stay within Discord's global rate, so the floor pays for no refused request.
            ahead = discord.requests / FLOOR_REQUESTS_PER_S - (time.perf_counter() - started)
            if ahead > 0:
                await asyncio.sleep(ahead)
        offered = options["actions"]
    else:
        rate, seconds = options["rate"], options["seconds"]
        offered = int(rate * seconds)
        for index in range(offered):
            scheduled = started + index / rate
            delay = scheduled - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            task = asyncio.create_task(one(scheduled, index))
            in_flight.add(task)
            task.add_done_callback(in_flight.discard)
    offered_for = time.perf_counter() - started
    own_offered, workers_offered = bot.cpu()
    backlog = len(in_flight)
    # Each channel's view, a short grace after the offer ended.
    await asyncio.sleep(max(0.0, started + offered_for + AGE_GRACE - time.perf_counter()))
    measured = time.perf_counter()
    ages: list[float] = []
    unshown = 0
    for lane, (mark, stored, began) in newest.items():
        age = view_age(discord.shown.get(lane, {}), mark, stored, began)
        if age is not None:
            ages.append(age)
        else:
            unshown += 1
            ages.append(measured - stored)
    if in_flight:
        await asyncio.wait(
            set(in_flight), timeout=max(0.0, started + offered_for + DRAIN - measured)
        )
    cut = time.perf_counter()
    unfinished = [cut - t for t in admitted_at.values()]
    for task in list(in_flight):
        task.cancel()
    await asyncio.gather(*in_flight, return_exceptions=True)
    own_after, workers_after = bot.cpu()
    beating = False
    await beat
    requests = discord.requests - requests_before
    admitted = latencies + unfinished
    report = {
        **bot.code(),
        "offered": offered,
        "offered_for": offered_for,
        "offered_rate": offered / offered_for,
        "done": len(latencies),
        "done_per_s": sum(1 for t in completions if t <= offered_for) / offered_for,
        "p50": statistics.median(latencies) if latencies else float("nan"),
        "p95": percentile(admitted, 95),
        "act_p50": statistics.median(acting) if acting else float("nan"),
        "send_p50": statistics.median(sending) if sending else float("nan"),
        "send_p95": percentile(sending, 95),
        "lag_p99": percentile(lags, 99),
        "lag_max": max(lags, default=float("nan")),
        "paced": len(bot.pacer_waits),
        "pace_p95": percentile(bot.pacer_waits, 95),
        "pace_max": max(bot.pacer_waits, default=float("nan")),
        "refused": len(refusals),
        "refusal_p95": percentile(refusals, 95),
        "refusal_max": max(refusals, default=float("nan")),
        "stale": stale,
        "failed": failed,
        "failures": failures,
        "backlog": backlog,
        "unfinished": len(unfinished),
        "cpu_bot": own_after - own_before,
        "measured_for": cut - started,
        "cpu_workers": workers_after - workers_before,
        "busy_bot": (own_offered - own_before) / offered_for,
        "busy_workers": (workers_offered - workers_before) / offered_for,
        "requests": requests,
        "accepted": discord.accepted,
        "breaches_channel": discord.channel_breaches,
        "breaches_global": discord.global_breaches,
        "drawn": bot.drawn - drawn_before,
        "boards_sent": discord.boards,
        "age_p95": percentile(ages, 95),
        "age_max": max(ages, default=float("nan")),
        "channels": len(ages),
        "unshown": unshown,
    }
    await bot.stop()
    return report


async def burst(options: dict) -> dict:
    """Computers alone commit ``moves`` moves in one channel as fast as the host takes
    them (a new game there when one ends), while the outbox sends in the background."""
    bot = Bot()
    await bot.start(options)
    host, discord = bot.host, bot.discord
    lane = f"c{BURST_CHANNEL}"
    discord.watched = lane
    user = 7

    async def open_game() -> int:
        opened = await host.lobby.new_game(
            guild_id=GUILD, channel_id=BURST_CHANNEL, user_id=user, user_name="host",
            slug="lions-dragons", players=2,
        )  # fmt: skip
        game_id = opened.outgoing[0].game_id
        table = await host.desk.table(game_id)
        await host.lobby.add_computer(game_id=game_id, user_id=user, level="easy")
        await host.lobby.add_computer(
            game_id=game_id, user_id=user, level="easy", role=table.roles()[0].key
        )
        await host.lobby.start(game_id=game_id, user_id=user)
        return game_id

    game_id = await open_game()
    await bot.warm([game_id])
    # The opening's posts sent, and the channel's window clear of them: the burst starts
    # with the channel's whole allowance, as a game some time under way does.
    quiet = time.perf_counter() + 60.0
    while await host.store.pending_notices(lanes=[lane], limit=1):
        if time.perf_counter() > quiet:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(CHANNEL_LIMIT[1])
    discord.watched_times.clear()
    discord.watched_requests.clear()
    requests_before = discord.requests
    own_before, workers_before = bot.cpu()
    started = time.perf_counter()
    moves = games = 0
    mark: Any = None
    while moves < options["moves"]:
        before = (await host.store.get_game(game_id)).version
        outcome = await host.computers.play_computers(game_id, limit=1)
        record = await host.store.get_game(game_id)
        moves += record.version - before
        if (notice := newest_of(outcome.outgoing, bot.lane_of).get(lane)) is not None:
            mark = fingerprint(notice)
        if record.status != "running" or record.version == before:
            games += 1
            game_id = await open_game()
    ended = time.perf_counter()
    shown_at: float | None = None
    while time.perf_counter() < ended + options["wait"]:
        shown = shown_when(discord.shown.get(lane, {}), mark)
        if shown is not None and shown >= ended - 1e-9:
            shown_at = shown
            break
        await asyncio.sleep(0.05)
    # A position sent during the burst that stayed the newest counts as shown then.
    shown = shown_when(discord.shown.get(lane, {}), mark)
    if shown_at is None and shown is not None:
        shown_at = shown
    until = shown_at if shown_at is not None else time.perf_counter()
    left = await host.store.pending_notices(lanes=[lane], limit=10**6)
    kinds: dict[str, int] = {}
    for entry in left:
        notice = bot.wire.load(entry.body)
        kind = type(notice).__name__
        if getattr(notice, "turn", None) is not None:
            kind += " (a turn's)"
        kinds[kind] = kinds.get(kind, 0) + 1
    times = discord.watched_times
    most = 0
    first = 0
    for last, at in enumerate(times):
        while at - times[first] >= 1.0:
            first += 1
        most = max(most, last - first + 1)
    own_after, workers_after = bot.cpu()
    report = {
        **bot.code(),
        "moves": moves,
        "games": games + 1,
        "burst_seconds": ended - started,
        "requests": discord.requests - requests_before,
        "channel_requests": len(times),
        "per_s_max": most,
        "per_s_mean": len(times) / max(1e-9, until - started),
        "newest_after": (shown_at - ended) if shown_at is not None else None,
        "waiting": len(left),
        "wait": options["wait"],
        "waiting_kinds": kinds,
        "breaches_channel": discord.channel_breaches,
        "breaches_global": discord.global_breaches,
        "cpu": own_after - own_before + workers_after - workers_before,
        "drawn": bot.drawn,
        "requests_seen": [(round(at - ended, 2), what) for at, what in discord.watched_requests],
    }
    await bot.stop()
    return report


async def child(options: dict) -> dict:
    if options["kind"] == "open":
        return await open_games(options["location"], options["games"], options["seed"])
    if options["kind"] == "burst":
        return await burst(options)
    return await load(options)


# -- this process: the steps, for each tree, and the figures -------------------------------


@dataclasses.dataclass
class Tree:
    """A checkout whose host code the children import."""

    name: str
    path: Path
    commit: str = ""
    template: Path | None = None
    results: dict[str, Any] = dataclasses.field(default_factory=dict)


def describe(path: Path) -> str:
    """The tree's commit, marked when its host code has changes not committed."""
    try:
        commit = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        dirty = subprocess.run(
            ["git", "-C", str(path), "status", "--porcelain", "--", "bot", "engines", "games",
             "players", "render"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "(not a git checkout)"
    return f"{commit} + uncommitted changes" if dirty else commit


def run_child(tree: Tree, options: dict) -> dict:
    """Run one step in a fresh interpreter importing the host's code from ``tree``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tree.path), *filter(None, [env.get("PYTHONPATH")])])
    command = [sys.executable, str(HERE), "--child", json.dumps(options)]
    done = subprocess.run(command, cwd=tree.path, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr[-4000:])
        raise SystemExit(f"a bot process of {tree.name} failed (exit {done.returncode})")
    return json.loads(done.stdout.strip().splitlines()[-1])


def fresh_copy(tree: Tree, folder: Path, name: str) -> str:
    """A fresh copy of the tree's opened games, for one step."""
    assert tree.template is not None
    target = folder / f"{tree.name}-{name}.sqlite3"
    for source in tree.template.parent.glob(tree.template.name + "*"):
        shutil.copyfile(source, folder / (target.name + source.name[len(tree.template.name) :]))
    return str(target)


def passes(step: dict) -> bool:
    return step["p95"] <= P95_BOUND and step["done_per_s"] >= DONE_SHARE * step["offered_rate"]


def measure(tree: Tree, args: argparse.Namespace, folder: Path) -> None:
    base = {"workers": args.workers, "seed": args.seed, "unlimited": args.unlimited}
    tree.results["unlimited"] = args.unlimited
    tree.template = folder / f"{tree.name}-template.sqlite3"
    opened = run_child(
        tree, {"kind": "open", "location": str(tree.template), "games": args.games, **base}
    )
    say(f"  [{tree.name}] {args.games} games opened in {opened['seconds']:.0f} s")
    counter = iter(range(10**6))

    def step(**options: Any) -> dict:
        location = fresh_copy(tree, folder, str(next(counter)))
        try:
            return run_child(tree, {"kind": "load", "location": location, **base, **options})
        finally:
            for path in folder.glob(Path(location).name + "*"):
                path.unlink()

    floor = step(sequential=True, actions=args.floor_actions)
    tree.results["floor"] = floor
    say(f"  [{tree.name}] floor: {cpu_ms(floor):.1f} ms CPU per action")

    def offered(rate: float) -> dict:
        result = step(sequential=False, rate=rate, seconds=args.seconds)
        say(f"  [{tree.name}] {short(result)}")
        return result

    steps: list[dict] = []
    best: dict | None = None
    failed: dict | None = None
    rate = args.start
    while rate <= args.most:
        result = offered(rate)
        steps.append(result)
        if not passes(result):
            failed = result
            break
        best = result
        rate *= 2
    while best is None and rate > 2:  # even the first step was too much: halve
        rate /= 2
        result = offered(rate)
        steps.append(result)
        if passes(result):
            best = result
        else:
            failed = result
    for _ in range(args.bisect):
        if best is None or failed is None:
            break
        result = offered((best["offered_rate"] + failed["offered_rate"]) / 2)
        steps.append(result)
        if passes(result):
            best = result
        else:
            failed = result
    if best is None:
        raise SystemExit(f"{tree.name}: no offered rate met p95 <= 250 ms")
    tree.results["steps"] = steps
    tree.results["capacity"] = best
    peak = best["done_per_s"]
    tree.results["overload"] = [offered(multiple * peak) for multiple in MULTIPLES]
    # The peak again after the overload: the machine may have changed meanwhile (both count).
    tree.results["capacity_again"] = offered(best["offered_rate"])
    location = fresh_copy(tree, folder, "burst")
    tree.results["burst"] = run_child(
        tree,
        {"kind": "burst", "location": location, "moves": args.burst_moves,
         "wait": args.burst_wait, **base},
    )  # fmt: skip
    # The floor again at the end: the machine may have changed meanwhile (both count).
    again = step(sequential=True, actions=args.floor_actions)
    say(f"  [{tree.name}] floor again: {cpu_ms(again):.1f} ms CPU per action")
    tree.results["floor"] = both_floors(floor, again)


def peak_of(results: dict) -> float:
    """Actions/s done at capacity: the mean of the step found by the search and the same
    rate offered again after the overload, so a machine that slows or speeds up during the
    run (as shared machines do) moves the reference with it."""
    again = results.get("capacity_again")
    runs = [results["capacity"], *([again] if again else [])]
    return statistics.mean(step["done_per_s"] for step in runs)


def both_floors(first: dict, again: dict) -> dict:
    """The two floors as one (their actions and CPU summed), each remembered."""
    floor = dict(first)
    for key in ("cpu_bot", "cpu_workers", "done", "requests"):
        floor[key] = first[key] + again[key]
    floor["p50"] = statistics.mean([first["p50"], again["p50"]])
    floor["runs"] = [cpu_ms(first), cpu_ms(again)]
    return floor


def say(text: str) -> None:
    print(text, flush=True)


def cpu_ms(step: dict) -> float:
    return 1000 * (step["cpu_bot"] + step["cpu_workers"]) / max(1, step["done"])


def cores(step: dict) -> str:
    """How much of the machine's cores the step kept busy while clicks were offered (the
    grace after the offer, mostly idle, left out), the bot's process and the picture
    processes each."""
    if "busy_bot" not in step:
        return "cores busy: not measured"
    return (
        f"cores busy: bot {step['busy_bot']:.2f} + drawing {step['busy_workers']:.2f}"
        f" of {os.cpu_count()}"
    )


def short(step: dict) -> str:
    return (
        f"offered {step['offered_rate']:6.1f}/s: done {step['done_per_s']:6.1f}/s,"
        f" p95 {ms(step['p95'])}, refused {step['refused']}, CPU {cpu_ms(step):.1f} ms/action,"
        f" {step['requests'] / max(1, step['done']):.2f} requests/action,"
        f" breaches {step['breaches_channel'] + step['breaches_global']}"
        f", {cores(step)}"
        + "".join(f"; FAILED {n}x {why}" for why, n in step.get("failures", {}).items())
    )


def ms(seconds: float | None) -> str:
    if seconds is None or seconds != seconds:
        return "—"
    if seconds >= 10:
        return f"{seconds:.0f} s"
    if seconds >= 1:
        return f"{seconds:.1f} s"
    return f"{1000 * seconds:.0f} ms"


def again(results: dict) -> str:
    """The two measures of the peak, when it was measured again after the overload."""
    if "capacity_again" not in results:
        return ""
    first, last = results["capacity"], results["capacity_again"]
    return (
        f" (the mean of {first['done_per_s']:.1f} found by the search and"
        f" {last['done_per_s']:.1f} at the same rate after the overload, p95 {ms(last['p95'])})"
    )


def rows(tree: Tree) -> list[tuple[str, dict]]:
    r = tree.results
    return [("capacity", r["capacity"])] + [
        (f"{m:g}x", s) for m, s in zip(MULTIPLES, r["overload"], strict=True)
    ]


def table(tree: Tree) -> list[str]:
    r = tree.results
    floor = cpu_ms(r["floor"])
    peak = peak_of(r)
    code = r["floor"]
    alone = r["floor"]["done"] or 1
    out = [
        f"{tree.name}: {tree.commit} at {tree.path}"
        f" (admission control: {'yes' if code['admission'] else 'none'},"
        f" pacer: {'yes' if code['pacer'] else 'none'})",
        f"  floor: {floor:.1f} ms CPU per action alone"
        f" ({r['floor']['runs'][0]:.1f} at the start, {r['floor']['runs'][1]:.1f} at the end;"
        f" {1000 * r['floor']['cpu_bot'] / alone:.1f} in the bot process"
        f" + {1000 * r['floor']['cpu_workers'] / alone:.1f} drawing; {alone} actions one at a"
        f" time, p50 {ms(r['floor']['p50'])}, {r['floor']['requests'] / alone:.2f} requests"
        " each)",
        "  capacity search: "
        + "; ".join(
            f"{s['offered_rate']:.0f}/s {'ok' if passes(s) else 'no'}"
            f" (done {s['done_per_s']:.0f}/s, p95 {ms(s['p95'])})"
            for s in r["steps"]
        ),
        f"  peak: {peak:.1f} actions/s done with p95 <= 250 ms" + again(r),
        "",
        f"  {'offered':>14} {'done/s':>7} {'of peak':>7} {'p95 adm.':>9} {'refused':>13}"
        f" {'refusal p95/max':>16} {'CPU/action':>15} {'req/action':>10} {'breaches':>9}"
        f" {'channel view age p95/max':>25} {'unshown':>8}",
    ]
    for name, s in rows(tree):
        refused = f"{s['refused']} ({s['refused'] / max(1, s['offered']):.0%})"
        refusal = f"{ms(s['refusal_p95'])}/{ms(s['refusal_max'])}" if s["refused"] else "—"
        if not s["admission"]:
            refused = "n/a"
        cpu = f"{cpu_ms(s):.1f} ms {cpu_ms(s) / floor:.2f}x"
        out.append(
            f"  {name:>5} {s['offered_rate']:6.0f}/s {s['done_per_s']:7.1f}"
            f" {s['done_per_s'] / peak:7.0%} {ms(s['p95']):>9} {refused:>13} {refusal:>16}"
            f" {cpu:>15} {s['requests'] / max(1, s['done']):10.2f}"
            f" {s['breaches_channel'] + s['breaches_global']:9d}"
            f" {ms(s['age_p95']) + '/' + ms(s['age_max']):>25}"
            f" {s['unshown']:>4}/{s['channels']}"
        )
    out.append(
        "  (p95 of the admitted clicks counts those unfinished at the cut at their age then;"
        " a channel's view age is from its game's newest state stored to the channel"
        f" showing it, measured {AGE_GRACE:g} s after the offer ended; unshown: channels"
        " not showing their newest state by then)"
    )
    for name, s in rows(tree):
        out.append(
            f"  {name:>5}: act p50 {ms(s['act_p50'])}, done {s['done']} of {s['offered']},"
            f" {s['stale']} stale, {s['failed']} failed, in flight at the offer's end"
            f" {s['backlog']}, unfinished at the cut {s['unfinished']};"
            f" {s['requests']} requests ({s['breaches_channel']} past a channel's limit,"
            f" {s['breaches_global']} past the global rate); boards {s['drawn']} drawn,"
            f" {s['boards_sent']} carried ({s['drawn'] / max(1, s['done']):.2f} drawn per"
            f" action); CPU {1000 * s['cpu_bot'] / max(1, s['done']):.1f} ms bot +"
            f" {1000 * s['cpu_workers'] / max(1, s['done']):.1f} ms drawing per action"
            f" ({cores(s)});"
            f" sending a click's notices p50 {ms(s['send_p50'])}, p95 {ms(s['send_p95'])};"
            + (
                f" {s['paced']} sends paced, waiting p95 {ms(s['pace_p95'])}, most"
                f" {ms(s['pace_max'])};"
                if s["paced"]
                else ""
            )
            + f" event loop late p99 {ms(s['lag_p99'])}, most {ms(s['lag_max'])}"
            + "".join(f"; FAILED {n}x {why}" for why, n in s.get("failures", {}).items())
        )
    b = r["burst"]
    newest = b["newest_after"]
    out.append(
        f"  burst: {b['moves']} computer moves ({b['games']} game(s)) committed in"
        f" {b['burst_seconds']:.1f} s; to its channel {b['channel_requests']} requests, at"
        f" most {b['per_s_max']} in any 1 s, {b['per_s_mean']:.2f}/s on average;"
        " newest position shown "
        + (
            f"{newest:.1f} s after the burst's end"
            if newest is not None
            else f"not within {b['wait']:g} s of the burst's end"
        )
        + (
            f" ({b['waiting']} notices still waiting in its lane then"
            + "".join(f", {n} {kind}" for kind, n in b["waiting_kinds"].items())
            + "; "
            if newest is None
            else " ("
        )
        + f"{b['breaches_channel']} requests past the channel's limit,"
        f" {b['breaches_global']} past the global rate)"
    )
    tail = [(at, what) for at, what in b.get("requests_seen", []) if at >= -TAIL_SECONDS]
    out.append(f"  burst: its channel's requests from {TAIL_SECONDS:g} s before its end:")
    out += [f"    {at:+6.2f} s  {what}" for at, what in tail]
    return out


def aims(tree: Tree) -> list[str]:
    r = tree.results
    peak = peak_of(r)
    floor = cpu_ms(r["floor"])
    over = r["overload"]

    def mark(ok: bool) -> str:
        return "✓" if ok else "✗"

    def each(test: Any) -> str:
        return " ".join(f"{m:g}x {mark(test(s))}" for m, s in zip(MULTIPLES, over, strict=True))

    b = r["burst"]
    newest = b["newest_after"]
    return [
        f"  aims ({tree.name}):",
        "    done >= 90% of the peak:            "
        + each(lambda s: s["done_per_s"] >= AIMS["done"] * peak),
        "    p95 of admitted <= 1 s:             " + each(lambda s: s["p95"] <= AIMS["p95"]),
        "    every refusal within 100 ms:        "
        + (
            each(lambda s: not s["refused"] or s["refusal_max"] <= AIMS["refusal"])
            if r["floor"]["admission"]
            else "— (no admission control: nothing refused)"
        ),
        "    requests per done action <= 3:      "
        + each(lambda s: s["requests"] <= AIMS["requests"] * max(1, s["done"])),
        "    at capacity CPU/action <= 1.3x floor: "
        + mark(cpu_ms(r["capacity"]) <= AIMS["cpu"] * floor)
        + f" ({cpu_ms(r['capacity']) / floor:.2f}x)",
        "    burst <= 1 request/s to its channel: "
        + (
            "— (no limits to keep: see the run with them)"
            if r.get("unlimited")
            else mark(b["per_s_mean"] <= AIMS["burst_rate"])
        )
        + f" ({b['per_s_mean']:.2f}/s on average, {b['per_s_max']} at most in 1 s)",
        "    burst's newest position within 5 s:  "
        + mark(newest is not None and newest <= AIMS["burst_newest"]),
        "    both cores used past capacity:      "
        + (
            each(both_cores_used) + f" (busy >= {AIMS['cores']:.0%} of the cores, drawing too)"
            if tree.results.get("unlimited")
            else "— (Discord's limits, not the cores, set this peak: see --unlimited)"
        ),
    ]


def both_cores_used(step: dict) -> bool:
    """Whether the step kept the machine's cores busy: together at least the aimed share,
    and the picture processes a quarter of a core or more (not the bot's alone)."""
    cores = os.cpu_count() or 1
    together = step.get("busy_bot", 0.0) + step.get("busy_workers", 0.0)
    return together >= AIMS["cores"] * cores and step.get("busy_workers", 0.0) >= 0.25


def side_by_side(after: Tree, before: Tree) -> list[str]:
    """Each figure after and before, and their ratio (measured in this one run)."""

    def ratio(a: float, b: float) -> str:
        if not b or a != a or b != b:
            return "—"
        return f"{a / b:.2f}x"

    def busy(step: dict) -> str:
        if "busy_bot" not in step:
            return "—"
        return f"{step['busy_bot']:.2f}+{step['busy_workers']:.2f}"

    out = [f"side by side: after ({after.commit}) / before ({before.commit})"]
    fa, fb = cpu_ms(after.results["floor"]), cpu_ms(before.results["floor"])
    out.append(f"  floor CPU/action {fa:.1f} / {fb:.1f} ms = {ratio(fa, fb)}")
    pa, pb = peak_of(after.results), peak_of(before.results)
    out.append(f"  peak {pa:.1f} / {pb:.1f} actions/s = {ratio(pa, pb)}")
    for (name, a), (_, b) in zip(rows(after), rows(before), strict=True):
        share_a, share_b = a["done_per_s"] / pa, b["done_per_s"] / pb
        ra = a["requests"] / max(1, a["done"])
        rb = b["requests"] / max(1, b["done"])
        out.append(
            f"  {name:>8}: done of peak {share_a:.0%} / {share_b:.0%};"
            f" p95 {ms(a['p95'])} / {ms(b['p95'])} = {ratio(a['p95'], b['p95'])};"
            f" CPU/action of floor {cpu_ms(a) / fa:.2f}x / {cpu_ms(b) / fb:.2f}x;"
            f" requests/action {ra:.2f} / {rb:.2f};"
            f" cores busy {busy(a)} / {busy(b)}; view age p95"
            f" {ms(a['age_p95'])} / {ms(b['age_p95'])}; breaches"
            f" {a['breaches_channel'] + a['breaches_global']}"
            f" / {b['breaches_channel'] + b['breaches_global']}"
        )
    ba, bb = after.results["burst"], before.results["burst"]
    out.append(
        f"     burst: requests/s to its channel {ba['per_s_mean']:.2f} / {bb['per_s_mean']:.2f};"
        f" newest shown after {ms(ba['newest_after'])} / {ms(bb['newest_after'])}"
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=8.0, help="offered per step")
    parser.add_argument("--start", type=float, default=50.0, help="first offered rate")
    parser.add_argument("--most", type=float, default=3200.0, help="highest rate tried")
    parser.add_argument("--bisect", type=int, default=2, help="bisecting steps")
    parser.add_argument("--floor-actions", type=int, default=FLOOR_ACTIONS)
    parser.add_argument("--burst-moves", type=int, default=BURST_MOVES)
    parser.add_argument(
        "--burst-wait",
        type=float,
        default=BURST_WAIT,
        help="seconds after the burst to wait for its newest position (default: %(default)s)",
    )
    parser.add_argument("--workers", type=int, default=max(1, os.cpu_count() or 1))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", type=Path, help="another checkout, measured too")
    parser.add_argument("--after", type=Path, default=PROJECT, help="the checkout measured")
    parser.add_argument(
        "--unlimited",
        action="store_true",
        help="a fake Discord without limits, and no pace: the host's own curve",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        report = asyncio.run(child(json.loads(args.child)))
        print(json.dumps(report))
        return
    trees = [Tree("after", args.after.resolve())]
    if args.before is not None:
        trees.append(Tree("before", args.before.resolve()))
    for tree in trees:
        if not (tree.path / "bot" / "service" / "host.py").exists():
            parser.error(f"{tree.path} holds no host code (bot/service/host.py)")
        tree.commit = describe(tree.path)
    say(
        f"Saturation: SQLite, one bot process, {args.workers} picture processes,"
        f" {args.games} live games, steps of {args.seconds:g} s; "
        + (
            "a fake Discord without limits (--unlimited: the host's own curve; a pacer, where"
            " the code has one, set never to wait)"
            if args.unlimited
            else "a fake Discord refusing (429) past 5 requests in any 5 s in a channel (or"
            " one user's DMs) and past 50 in any 1 s in all"
        )
    )
    folder = Path(tempfile.mkdtemp(prefix="dragon-saturation-"))
    try:
        for tree in trees:
            say(f"measuring {tree.name}: {tree.commit} at {tree.path}")
            measure(tree, args, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    say("")
    for tree in trees:
        for text in table(tree):
            say(text)
        say("")
    if len(trees) == 2:
        for text in side_by_side(trees[0], trees[1]):
            say(text)
        say("")
    say(
        "aims at 1.5x, 2x, 3x the peak: done >= 90% of the peak; p95 of admitted <= 1 s;"
        " every refusal answered within 100 ms; at capacity CPU per action <= 1.3x the"
        " floor; requests per action <= 3; a burst <= 1 request/s to its channel and its"
        " newest position shown within 5 s of the burst's end"
    )
    for tree in trees:
        for text in aims(tree):
            say(text)


if __name__ == "__main__":
    if sys.path and Path(sys.path[0]).resolve() == HERE.parent:
        sys.path.pop(0)  # run as a file: bench/ is no package root
    main()
