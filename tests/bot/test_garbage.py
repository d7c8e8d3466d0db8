"""The bot process's garbage collections stay short: a full collection walks only what
was made since the one before, and what dies among the long-lived is still collected."""

import asyncio
import gc
import weakref

import pytest

from bot.service import garbage
from bot.service.garbage import ShortCollections


class Node:
    """An object the collector tracks, that can be part of a cycle."""

    def __init__(self) -> None:
        self.other: object = None


def tracked(objects: list) -> set[int]:
    """Which of ``objects`` a full collection would walk now."""
    ids = {id(o) for o in objects}
    return {id(o) for o in gc.get_objects() if id(o) in ids}


@pytest.fixture
async def started():
    """Collections kept short, with a thaw that never comes due by itself."""
    collections = ShortCollections(quiet=lambda: True, every=10**9)
    collections.start()
    try:
        yield collections
    finally:
        await collections.stop()


async def test_a_full_collection_leaves_the_next_one_only_what_came_after_it(started):
    kept = [Node() for _ in range(2_000)]
    gc.collect()
    assert tracked(kept) == set()  # frozen: the next full collection does not walk them
    newer = [Node() for _ in range(10)]
    assert tracked(newer) == {id(o) for o in newer}
    gc.collect()
    assert tracked(newer) == set()


async def test_a_cycle_dying_among_frozen_objects_is_collected_when_everything_is(started):
    first, second = Node(), Node()
    first.other, second.other = second, first
    gone = weakref.ref(first)
    gc.collect()  # the cycle is alive: frozen with the other survivors
    del first, second
    gc.collect()
    assert gone() is not None  # frozen, it is not looked at
    assert garbage.thaw() >= 2
    assert gone() is None


async def test_stopping_leaves_nothing_frozen_and_full_collections_as_they_were():
    collections = ShortCollections(quiet=lambda: True, every=10**9)
    collections.start()
    gc.collect()
    assert gc.get_freeze_count() > 0
    await collections.stop()
    assert gc.get_freeze_count() == 0
    kept = [Node() for _ in range(10)]
    gc.collect()
    assert tracked(kept) == {id(o) for o in kept}


async def test_collections_stay_short_until_the_last_one_started_stops():
    first = ShortCollections(quiet=lambda: True, every=10**9)
    second = ShortCollections(quiet=lambda: True, every=10**9)
    first.start()
    second.start()
    await first.stop()
    kept = [Node() for _ in range(10)]
    gc.collect()
    assert tracked(kept) == set()
    await second.stop()
    assert tracked(kept) == {id(o) for o in kept}


HANG = 60.0
"""Seconds a test waits for a thaw before it fails as hung."""


class Moments:
    """A fake clock that the fake sleep moves on; ``quiet_from`` is when the host falls
    quiet."""

    def __init__(self, quiet_from: float) -> None:
        self.now = 0.0
        self.quiet_from = quiet_from
        self.thaws: list[float] = []
        self.thawed = asyncio.Event()

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)

    def quiet(self) -> bool:
        return self.now >= self.quiet_from

    def thaw(self) -> int:
        self.thaws.append(self.now)
        self.thawed.set()
        return 0


async def first_thaw(moments: Moments, monkeypatch, every: float, patience: float) -> float:
    """When everything is first collected, on ``moments``' clock."""
    monkeypatch.setattr(garbage, "thaw", moments.thaw)
    collections = ShortCollections(
        quiet=moments.quiet, every=every, patience=patience, sleep=moments.sleep,
        clock=moments.clock,
    )  # fmt: skip
    collections.start()
    try:
        # Bounded only so that a thaw that never comes fails the test instead of hanging it.
        await asyncio.wait_for(moments.thawed.wait(), HANG)
    finally:
        await collections.stop()
    return moments.thaws[0]


async def test_everything_is_collected_at_the_first_quiet_moment_once_due(monkeypatch):
    moments = Moments(quiet_from=700.0)
    assert await first_thaw(moments, monkeypatch, every=600.0, patience=300.0) == 700.0


async def test_a_host_never_quiet_has_everything_collected_after_the_wait(monkeypatch):
    moments = Moments(quiet_from=float("inf"))
    assert await first_thaw(moments, monkeypatch, every=600.0, patience=300.0) == 900.0


async def test_a_quiet_host_has_everything_collected_as_soon_as_it_is_due(monkeypatch):
    moments = Moments(quiet_from=0.0)
    assert await first_thaw(moments, monkeypatch, every=600.0, patience=300.0) == 600.0
