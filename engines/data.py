"""Game data files (boards, setups, tables), with server-supplied corrections.

Each game keeps its data as JSON under ``engines/<package>/data/``. Every value that the rule
text does not give is listed in the file's ``"reconstructed"`` section with a reason, and
each game's rules help shows those reasons.

A server operator can correct reconstructed values without a code change: put a file of
the same name in ``<override dir>/<package>/`` and call :func:`use_overrides` at start-up
(the bot does this from its ``DATA_OVERRIDES`` setting). Keys in the override replace the
bundled ones at the top level. Games started afterwards use the corrected data.

Corrected files are checked when :func:`use_overrides` reads them: each engine registers,
with :func:`register_check`, a check that reads its files completely, and a file that cannot
be used raises :class:`BadDataFile` naming the file and the field, so a broken correction
stops the start instead of failing in a game.
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

_BUNDLED = Path(__file__).parent
_override_dir: Path | None = None
_checks: dict[str, Callable[[], object]] = {}


class BadDataFile(ValueError):
    """A data file that cannot be used; ``str(error)`` names the file and the field."""


def register_check(package: str, check: Callable[[], object]) -> None:
    """Run ``check`` (which loads and checks the files of engine package ``package``,
    raising :class:`BadDataFile`) whenever corrected files of that package are taken up."""
    _checks[package] = check


def packages() -> list[str]:
    """The engine packages that have data files."""
    return sorted(p.parent.name for p in _BUNDLED.glob("*/data") if p.is_dir())


def use_overrides(directory: str | Path | None, *, check: bool = True) -> None:
    """Read corrected data files from ``directory`` from now on (``None``: bundled only).

    Every corrected file is checked first: a file that cannot be used raises
    :class:`BadDataFile` naming it and the field, and the data in use does not change.
    ``check=False`` leaves the checks to the engines' loaders (for testing those).
    """
    global _override_dir
    previous = _override_dir
    _override_dir = Path(directory) if directory else None
    load.cache_clear()
    try:
        if _override_dir is not None and check:
            _check_overrides(_override_dir)
    except BaseException:
        _override_dir = previous
        load.cache_clear()
        raise


def _check_overrides(folder: Path) -> None:
    if not folder.is_dir():
        raise BadDataFile(f"{folder}: the corrected data files must be in a folder")
    known = packages()
    corrected: list[str] = []
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if not entry.is_dir() or entry.name not in known:
            raise BadDataFile(
                f"{entry}: not a game's folder; corrected files go in a folder named after "
                f"the game package: {', '.join(known)}"
            )
        for file in sorted(entry.glob("*.json")):
            bundled = _BUNDLED / entry.name / "data" / file.name
            if not bundled.is_file():
                names = ", ".join(p.name for p in sorted(bundled.parent.glob("*.json")))
                raise BadDataFile(f"{file}: {entry.name} has no data file of that name ({names})")
            load(entry.name, file.stem)
        corrected.append(entry.name)
    for package in corrected:
        importlib.import_module(f"engines.{package}")
        check = _checks.get(package)
        try:
            if check is not None:
                check()
        except BadDataFile as error:
            raise BadDataFile(f"Corrected data in {folder / package}: {error}") from error


@lru_cache(maxsize=64)
def load(package: str, name: str) -> dict[str, Any]:
    """Data file ``name`` (no ``.json``) of engine package ``package``, overrides applied.
    A corrected file that is not a JSON object raises :class:`BadDataFile`."""
    data = json.loads((_BUNDLED / package / "data" / f"{name}.json").read_text(encoding="utf-8"))
    if _override_dir is not None:
        corrected = _override_dir / package / f"{name}.json"
        if corrected.is_file():
            data = {**data, **_read_corrected(corrected)}
            data["overridden"] = True
    return data


def _read_corrected(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as error:
        raise BadDataFile(f"{path}: not UTF-8 text ({error.reason})") from error
    except json.JSONDecodeError as error:
        raise BadDataFile(
            f"{path}: not valid JSON, line {error.lineno} column {error.colno}: {error.msg}"
        ) from error
    if not isinstance(value, dict):
        raise BadDataFile(f"{path}: must be a JSON object of fields, like the bundled file")
    return value


def reconstructed_notes(data: dict[str, Any]) -> list[str]:
    """One line per reconstructed value: ``"what: why"``, for rules help."""
    notes = data.get("reconstructed", {})
    return [f"{key}: {why}" for key, why in notes.items()]


class Fields:
    """Reads one data file's raw JSON values, raising :class:`BadDataFile` that names the
    file and the field (``"board.json: castles.george.name is missing"``)."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, path: str, problem: str) -> BadDataFile:
        return BadDataFile(f"{self.file}: {path} {problem}")

    def get(self, raw: dict[str, Any], name: str, path: str = "") -> Any:
        where = f"{path}.{name}" if path else name
        if name not in raw:
            raise self.fail(where, "is missing")
        return raw[name]

    def record(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, "must be an object")
        return value

    def items(self, value: Any, path: str, least: int = 0, most: int | None = None) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(path, "must be a list")
        if len(value) < least:
            raise self.fail(path, f"must list at least {least}")
        if most is not None and len(value) > most:
            raise self.fail(path, f"must list at most {most}")
        return value

    def text(self, value: Any, path: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(path, "must be a non-empty text")
        return value

    def whole(self, value: Any, path: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(path, f"must be a whole number {low}-{high}")
        return value

    def number(self, value: Any, path: str) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(path, "must be a number")
        if not math.isfinite(value):
            raise self.fail(path, "must be a finite number")
        return float(value)

    def one_of(self, value: Any, path: str, allowed: Any) -> Any:
        if not isinstance(value, str) or value not in allowed:
            raise self.fail(path, f"must be one of {', '.join(map(str, allowed))}")
        return value

    def distinct(self, values: list[Any], path: str) -> None:
        seen: set[Any] = set()
        for index, value in enumerate(values):
            if value in seen:
                raise self.fail(f"{path}[{index}]", f"repeats {value!r}")
            seen.add(value)
