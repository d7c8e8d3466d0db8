"""Corrected data files are checked when they are taken up (``engines.data.use_overrides``).

A correction that cannot be used is refused at once with :class:`BadDataFile` naming the
file and the field, and the data in use stays as it was; a correction that is taken up can
be played with, never failing later with a ``KeyError`` or ``TypeError`` from deep inside.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engines import data
from engines.data import BadDataFile
from games import ENGINES

# (game package, data file, slug, players)
FILES = [
    ("stgeorge", "board", "stgeorge", 5),
    ("dragons_cave", "path", "dragons-cave", 3),
    ("lions_dragons", "setup", "lions-dragons", 2),
]


@pytest.fixture(autouse=True)
def bundled_only():
    data.use_overrides(None)
    yield
    data.use_overrides(None)


def correct(folder: Path, package: str, name: str, raw: Any) -> Path:
    (folder / package).mkdir(parents=True, exist_ok=True)
    path = folder / package / f"{name}.json"
    path.write_text(json.dumps(raw) if not isinstance(raw, str) else raw, encoding="utf-8")
    return path


def bundled(package: str, name: str) -> dict[str, Any]:
    return copy.deepcopy(data.load(package, name))


def play(slug: str, players: int, steps: int = 25) -> None:
    """Set up a seeded game of ``slug`` and play random legal moves, looking at each view."""
    game = ENGINES[slug]
    rng = random.Random(11)
    game.rules_help()
    roles = [role.key for role in game.roles(players, {})]
    state = game.setup(roles, game.normalize_options({}), rng)
    for _ in range(steps):
        game.view(state, None)
        prompts = game.prompts(state)
        if not prompts or game.result(state) is not None:
            return
        seat = prompts[0].seat
        game.view(state, seat)
        choices = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, rng.choice(choices).action, rng)


MISSING = [
    ("stgeorge", "board", lambda raw: raw["castles"]["george"].pop("name"),
     "board.json: castles.george.name is missing"),
    ("dragons_cave", "path", lambda raw: raw["kinds"][0].pop("name"),
     "path.json: kinds[0].name is missing"),
    ("lions_dragons", "setup", lambda raw: raw["pieces"]["white"][1].pop("kind"),
     "setup.json: pieces.white[1].kind is missing"),
    ("dragonslayer", "parties", lambda raw: raw["magicians"][2].pop("magic"),
     "parties.json: magicians[2].magic is missing"),
]  # fmt: skip


@pytest.mark.parametrize(("package", "name", "change", "message"), MISSING)
def test_a_missing_field_is_refused_at_once_naming_the_file_and_the_field(
    tmp_path, package, name, change, message
):
    before = bundled(package, name)
    raw = bundled(package, name)
    change(raw)
    correct(tmp_path, package, name, raw)
    with pytest.raises(BadDataFile) as refused:
        data.use_overrides(tmp_path)
    assert message in str(refused.value)
    assert str(tmp_path / package) in str(refused.value)
    # Nothing changed: the bundled data is still the data in use.
    assert data.load(package, name) == before and "overridden" not in data.load(package, name)


def test_the_game_opened_after_a_refused_correction_uses_the_bundled_data(tmp_path):
    raw = bundled("dragons_cave", "path")
    del raw["kinds"][0]["name"]
    correct(tmp_path, "dragons_cave", "path", raw)
    with pytest.raises(BadDataFile):
        data.use_overrides(tmp_path)
    play("dragons-cave", 3)


@pytest.mark.parametrize(
    ("folder", "file", "text", "message"),
    [
        ("stgeorge", "board", "{not json", "not valid JSON, line 1"),
        ("stgeorge", "board", "[1, 2]", "must be a JSON object"),
        ("stgeorge", "boards", "{}", "stgeorge has no data file of that name (board.json)"),
        ("st_george", "board", "{}", "not a game's folder"),
    ],
)
def test_a_file_that_is_not_a_correction_is_refused(tmp_path, folder, file, text, message):
    path = correct(tmp_path, folder, file, text)
    with pytest.raises(BadDataFile) as refused:
        data.use_overrides(tmp_path)
    assert message in str(refused.value)
    assert str(path if folder == "stgeorge" else path.parent) in str(refused.value)


def test_a_good_correction_is_used(tmp_path):
    raw = {"kinds": bundled("dragons_cave", "path")["kinds"]}
    raw["kinds"][0]["name"] = "Garnet"
    correct(tmp_path, "dragons_cave", "path", raw)
    data.use_overrides(tmp_path)
    assert data.load("dragons_cave", "path")["kinds"][0]["name"] == "Garnet"
    assert "Garnet" in ENGINES["dragons-cave"].rules_help()


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every value's path inside a JSON document (the notes left out)."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in ("reconstructed", "source"):
                found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


GARBAGE = [None, "x", -1, 2.5, [], {}, [["x"]], True, 10**6, "f6"]


@pytest.mark.parametrize(("package", "name", "slug", "players"), FILES)
def test_any_garbage_value_is_refused_or_plays(tmp_path, package, name, slug, players):
    """Whatever one value of a corrected file is replaced by (or if it is left out), the
    correction is refused with BadDataFile, or it is taken up and a game plays with it:
    never another exception, then or later."""
    original = bundled(package, name)
    paths = _paths(original)
    random.Random(5).shuffle(paths)
    refused = 0
    for path in paths[:60]:
        for garbage in [*GARBAGE, KeyError]:
            raw = copy.deepcopy(original)
            target = raw
            for step in path[:-1]:
                target = target[step]
            if garbage is KeyError:
                if isinstance(target, list):
                    continue
                del target[path[-1]]
            else:
                target[path[-1]] = garbage
            correct(tmp_path, package, name, raw)
            try:
                data.use_overrides(tmp_path)
            except BadDataFile as error:
                assert f"{name}.json" in str(error)
                refused += 1
                continue
            try:
                play(slug, players)
            except Exception as error:  # pragma: no cover - the failure being tested
                raise AssertionError(f"{name}.json with {path} = {garbage!r}: {error!r}") from error
            finally:
                data.use_overrides(None)
    assert refused
