"""Clocks for host tests: one that stands still until the test moves it (``clock.now``),
and one that moves a second at every reading (every write is at a later time)."""


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class TickingClock(Clock):
    def __call__(self) -> float:
        self.now += 1
        return self.now
