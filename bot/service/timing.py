"""Turn time limits: what they are, and when a turn's deadline and reminder fall."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from bot.service.errors import UserError

HOUR = 3600.0
ON_TIMEOUT = ("skip", "forfeit")


@dataclass(frozen=True)
class Timing:
    """A game's clock: ``limit`` seconds per turn (0: no limit), a reminder ``reminder``
    seconds before the end (0: none), and what a timeout does (``skip`` or ``forfeit``)."""

    limit: float = 48 * HOUR
    reminder: float = 12 * HOUR
    on_timeout: str = "skip"

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Timing:
        known = {k: v for k, v in (data or {}).items() if k in cls.__dataclass_fields__}
        return cls(**known)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def changed(
        self,
        limit_hours: float | None = None,
        reminder_hours: float | None = None,
        on_timeout: str | None = None,
    ) -> Timing:
        """A copy with the given settings changed; UserError for impossible values."""
        limit = self.limit if limit_hours is None else limit_hours * HOUR
        reminder = self.reminder if reminder_hours is None else reminder_hours * HOUR
        action = self.on_timeout if on_timeout is None else on_timeout.strip().lower()
        if limit < 0 or reminder < 0:
            raise UserError("Times are hours from 0 up; 0 turns the limit or reminder off.")
        if action not in ON_TIMEOUT:
            raise UserError(f"A timeout can `skip` the turn or `forfeit` the seat, not `{action}`.")
        return Timing(limit, reminder, action)

    def deadlines(self, now: float) -> dict[str, float | None]:
        """The ``deadline`` and ``remind_at`` of a turn that starts at ``now``."""
        if not self.limit:
            return {"deadline": None, "remind_at": None}
        deadline = now + self.limit
        remind = deadline - self.reminder if 0 < self.reminder < self.limit else None
        return {"deadline": deadline, "remind_at": remind}

    def describe(self) -> str:
        if not self.limit:
            return "no turn time limit"
        text = f"{_hours(self.limit)} per turn"
        if self.reminder and self.reminder < self.limit:
            text += f", a reminder {_hours(self.reminder)} before the end"
        return (
            f"{text}; a timed-out turn is {'skipped' if self.on_timeout == 'skip' else 'forfeited'}"
        )


NO_DEADLINES = {"deadline": None, "remind_at": None}


def _hours(seconds: float) -> str:
    hours = seconds / HOUR
    return f"{hours:g} hour{'s' if hours != 1 else ''}"
