"""Game data files (boards, setups, tables), with server-supplied corrections.

Each game keeps its data as JSON under ``engines/<package>/data/``. Every value that the rule
text does not give is listed in the file's ``"reconstructed"`` section with a reason, and
each game's rules help shows those reasons.

A server operator can correct reconstructed values without a code change: put a file of
the same name in ``<override dir>/<package>/`` and call :func:`use_overrides` at start-up
(the bot does this from its ``DATA_OVERRIDES`` setting). Keys in the override replace the
bundled ones at the top level. Games started afterwards use the corrected data.

Corrected files are checked when :func:`use_overrides` reads them: each game declares, in
its registry entry (``games.GameSpec.data``), a check that reads its files completely, and a
file that cannot be used raises :class:`BadDataFile` naming the file and the field, so a
broken correction stops the start instead of failing in a game. The checks are passed in
(``checks``); the registry hands over the ones it declares as it is built
(:func:`declare_checks`), and they are what a caller that passes none gets.

A server's own corrections (uploaded by its members, kept with each game) are layered over
the deployment folder: :func:`corrected` puts a :class:`Corrections` in effect for the code
it wraps (a context variable, so each task and each thread started with a copy of the
context sees its own), and :func:`load` hands back one dict per file and corrections, so
the engines' caches keyed by that dict stay right. :func:`check_corrections` runs an
engine's check against a would-be correction before it is kept.
"""

from __future__ import annotations

import contextvars
import hashlib
import json
import math
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

_BUNDLED = Path(__file__).parent
_override_dir: Path | None = None
DataCheck = Callable[[], object]
"""Loads and checks every data file of one engine package (with the corrections in effect),
raising :class:`BadDataFile` naming the file and the field."""

_declared: dict[str, DataCheck] = {}


class BadDataFile(ValueError):
    """A data file that cannot be used; ``str(error)`` names the file and the field."""


def declare_checks(checks: Mapping[str, DataCheck]) -> None:
    """The data checks of the registered games, by engine package (what the registry
    declares): the ones :func:`use_overrides` and :func:`check_corrections` run when they
    are given none."""
    _declared.clear()
    _declared.update(checks)


def declared_checks() -> dict[str, DataCheck]:
    """The data checks the registry declared, by engine package (a copy)."""
    return dict(_declared)


def packages() -> list[str]:
    """The engine packages that have data files."""
    return sorted(p.parent.name for p in _BUNDLED.glob("*/data") if p.is_dir())


def use_overrides(
    directory: str | Path | None,
    *,
    check: bool = True,
    checks: Mapping[str, DataCheck] | None = None,
) -> None:
    """Read corrected data files from ``directory`` from now on (``None``: bundled only).

    Every corrected file is checked first, with its package's check of ``checks`` (the
    declared ones by default): a file that cannot be used raises :class:`BadDataFile`
    naming it and the field, and the data in use does not change. ``check=False`` leaves
    the checks to the engines' loaders (for testing those).
    """
    global _override_dir
    previous = _override_dir
    _override_dir = Path(directory) if directory else None
    _load.cache_clear()
    try:
        if _override_dir is not None and check:
            _check_overrides(_override_dir, _declared if checks is None else checks)
    except BaseException:
        _override_dir = previous
        _load.cache_clear()
        raise


def _check_overrides(folder: Path, checks: Mapping[str, DataCheck]) -> None:
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
        check = checks.get(package)
        try:
            if check is not None:
                check()
        except BadDataFile as error:
            raise BadDataFile(f"Corrected data in {folder / package}: {error}") from error


class Corrections:
    """A server's corrections: ``{package: {file name: {top-level key: value}}}``, frozen.

    Equal corrections have equal :attr:`digest` (a hash of their canonical JSON), which keys
    every cache of data built from them; :data:`NONE` is no corrections at all."""

    __slots__ = ("_files", "_parts", "digest", "text")

    def __init__(self, files: Mapping[str, Mapping[str, Mapping[str, Any]]] | None = None):
        kept = {
            package: {name: dict(fields) for name, fields in named.items() if fields}
            for package, named in (files or {}).items()
        }
        kept = {package: named for package, named in kept.items() if named}
        self.text = json.dumps(kept, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        self.digest = hashlib.sha256(self.text.encode()).hexdigest()[:16] if kept else ""
        self._files = kept
        self._parts: dict[str, Corrections] = {}

    def __bool__(self) -> bool:
        return bool(self._files)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Corrections) and other.digest == self.digest

    def __hash__(self) -> int:
        return hash(self.digest)

    def __repr__(self) -> str:
        return f"Corrections({self.digest or 'none'})"

    def fields(self, package: str, name: str) -> dict[str, Any]:
        """The corrected top-level fields of one file (a fresh copy; empty if none)."""
        copied: dict[str, Any] = json.loads(json.dumps(self._files.get(package, {}).get(name, {})))
        return copied

    def to_json(self) -> dict[str, Any]:
        """The corrections as plain JSON (for storing with a game or sending to a worker)."""
        files: dict[str, Any] = json.loads(self.text)
        return files

    def only(self, package: str) -> Corrections:
        """The corrections of one engine package alone (worked out once per package)."""
        if not self._files:
            return self
        part = self._parts.get(package)
        if part is None:
            part = Corrections({package: self._files[package]} if package in self._files else {})
            self._parts[package] = part
        return part


NONE = Corrections()
_in_effect: contextvars.ContextVar[Corrections] = contextvars.ContextVar(
    "data_corrections", default=NONE
)


def in_effect() -> Corrections:
    """The corrections in effect here (:data:`NONE` outside :func:`corrected`)."""
    return _in_effect.get()


@contextmanager
def corrected(corrections: Corrections | Mapping[str, Any] | None) -> Iterator[Corrections]:
    """Make :func:`load` apply ``corrections`` (over the deployment folder) inside the
    ``with`` block, for this task or thread only; the previous ones come back after it."""
    if not isinstance(corrections, Corrections):
        corrections = Corrections(corrections)
    token = _in_effect.set(corrections)
    try:
        yield corrections
    finally:
        _in_effect.reset(token)


def load(package: str, name: str) -> dict[str, Any]:
    """Data file ``name`` (no ``.json``) of engine package ``package``: the bundled file,
    the deployment folder's corrected copy over it, then the corrections in effect
    (:func:`corrected`). The same dict comes back for as long as neither changes, so it
    can key a cache; don't change it. A corrected file that is not a JSON object raises
    :class:`BadDataFile`."""
    return _load(package, name, _in_effect.get().only(package))


@lru_cache(maxsize=64)
def _load(package: str, name: str, corrections: Corrections) -> dict[str, Any]:
    data = json.loads((_BUNDLED / package / "data" / f"{name}.json").read_text(encoding="utf-8"))
    if _override_dir is not None:
        corrected = _override_dir / package / f"{name}.json"
        if corrected.is_file():
            data = {**data, **_read_corrected(corrected)}
            data["overridden"] = True
    fields = corrections.fields(package, name)
    if fields:
        data = {**data, **fields, "overridden": True}
    loaded: dict[str, Any] = data
    return loaded


def bundled_fields(package: str, name: str) -> dict[str, Any]:
    """The file as this deployment has it before any server's corrections (bundled, then
    the deployment folder); ``{}`` when the package has no file of that name."""
    if name not in file_names(package):
        return {}
    return _load(package, name, NONE)


def file_names(package: str) -> list[str]:
    """The names (no ``.json``) of the data files of engine package ``package``."""
    return sorted(p.stem for p in (_BUNDLED / package / "data").glob("*.json"))


def read_correction(text: str | bytes, file: str) -> dict[str, Any]:
    """An uploaded correction read as a JSON object of top-level fields; BadDataFile says
    the line and column of a syntax error, naming ``file``."""
    try:
        value = json.loads(text)
    except UnicodeDecodeError as error:
        raise BadDataFile(f"{file}: not UTF-8 text ({error.reason})") from error
    except json.JSONDecodeError as error:
        raise BadDataFile(
            f"{file}: not valid JSON, line {error.lineno} column {error.colno}: {error.msg}"
        ) from error
    if not isinstance(value, dict):
        raise BadDataFile(f"{file}: must be a JSON object of fields, like the bundled file")
    return value


def check_corrections(
    package: str,
    name: str,
    fields: Mapping[str, Any],
    base: Corrections = NONE,
    *,
    checks: Mapping[str, DataCheck] | None = None,
) -> Corrections:
    """``base`` with file ``name`` of ``package`` corrected to ``fields`` (top-level keys
    replacing the bundled ones), once the package's check of ``checks`` (the declared ones
    by default) passed on the result.

    Raises :class:`BadDataFile` naming the file and the field: an unknown file or field,
    or a value the engine cannot use. Nothing is changed either way."""
    if package not in packages():
        raise BadDataFile(f"{package}: not a game's data package ({', '.join(packages())})")
    known = file_names(package)
    if name not in known:
        raise BadDataFile(
            f"{name}.json: {package} has no data file of that name "
            f"({', '.join(f'{n}.json' for n in known)})"
        )
    bundled = bundled_fields(package, name)
    for key in fields:
        if key not in bundled or key in ("reconstructed", "overridden"):
            allowed = ", ".join(k for k in bundled if k not in ("reconstructed", "overridden"))
            raise BadDataFile(f"{name}.json: {key} is not a field of this file ({allowed})")
    files = base.to_json()
    files.setdefault(package, {})[name] = dict(fields)
    proposed = Corrections(files)
    check = (_declared if checks is None else checks).get(package)
    with corrected(proposed):
        try:
            for other in known:
                load(package, other)
            if check is not None:
                check()
        except BadDataFile:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise BadDataFile(f"{name}.json: the engine cannot use it ({error!r})") from error
    return proposed


def differences(package: str, name: str, fields: Mapping[str, Any]) -> list[str]:
    """The top-level fields of ``fields`` whose values differ from this deployment's file."""
    bundled = bundled_fields(package, name)
    return [key for key, value in fields.items() if bundled.get(key) != value]


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
