"""Game data files (boards, setups, tables), with server-supplied corrections.

Each game keeps its data as JSON under ``engines/<package>/data/``. Every value that the rule
text does not give is listed in the file's ``"reconstructed"`` section with a reason, and
each game's rules help shows those reasons.

A server operator can correct reconstructed values without a code change: put a file of
the same name in ``<override dir>/<package>/`` and call :func:`use_overrides` at start-up
(the bot does this from its ``DATA_OVERRIDES`` setting). Keys in the override replace the
bundled ones at the top level. Games started afterwards use the corrected data.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

_BUNDLED = Path(__file__).parent
_override_dir: Path | None = None


def use_overrides(directory: str | Path | None) -> None:
    """Read corrected data files from ``directory`` from now on (``None``: bundled only)."""
    global _override_dir
    _override_dir = Path(directory) if directory else None
    load.cache_clear()


@lru_cache(maxsize=64)
def load(package: str, name: str) -> dict[str, Any]:
    """Data file ``name`` (no ``.json``) of engine package ``package``, overrides applied."""
    data = json.loads((_BUNDLED / package / "data" / f"{name}.json").read_text(encoding="utf-8"))
    if _override_dir is not None:
        corrected = _override_dir / package / f"{name}.json"
        if corrected.is_file():
            data = {**data, **json.loads(corrected.read_text(encoding="utf-8"))}
            data["overridden"] = True
    return data


def reconstructed_notes(data: dict[str, Any]) -> list[str]:
    """One line per reconstructed value: ``"what: why"``, for rules help."""
    notes = data.get("reconstructed", {})
    return [f"{key}: {why}" for key, why in notes.items()]
