"""Corrected data files are checked when they are taken up (``engines.data.use_overrides``).

A correction that cannot be used is refused at once with :class:`BadDataFile` naming the
file and the field, and the data in use stays as it was; a correction that is taken up can
be played with, never failing later with a ``KeyError`` or ``TypeError`` from deep inside.
"""

from __future__ import annotations

import copy
import dataclasses
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


# -- a server's corrections, in effect only where they are put in effect ----------------


def test_corrections_apply_only_inside_their_block_and_over_the_deployment_folder(tmp_path):
    correct(tmp_path, "lions_dragons", "setup", {"quiet_ply_cap": 150})
    data.use_overrides(tmp_path)
    server = data.check_corrections("lions_dragons", "setup", {"reserve": 2})
    with data.corrected(server):
        inside = data.load("lions_dragons", "setup")
        options = ENGINES["lions-dragons"].parse_options("")
    outside = data.load("lions_dragons", "setup")
    assert (inside["reserve"], inside["quiet_ply_cap"]) == (2, 150)
    assert (outside["reserve"], outside["quiet_ply_cap"]) == (4, 150)
    assert options["reserve"] == 2
    assert ENGINES["lions-dragons"].parse_options("")["reserve"] == 4


def test_the_same_corrections_give_the_same_data_and_other_files_stay_shared():
    first = data.check_corrections("stgeorge", "board", {"lair_colour": "blue"})
    again = data.Corrections(first.to_json())
    with data.corrected(first):
        board, path = data.load("stgeorge", "board"), data.load("dragons_cave", "path")
    with data.corrected(again):
        assert data.load("stgeorge", "board") is board
    assert data.load("dragons_cave", "path") is path  # not a file the server corrected
    assert data.load("stgeorge", "board") is not board


@pytest.mark.parametrize(
    ("package", "name", "fields", "message"),
    [
        ("stgeorge", "board", {"castles": {"george": {}}}, "board.json: castles"),
        ("lions_dragons", "setup", {"reserve": "lots"}, "setup.json: reserve must be a whole"),
        ("lions_dragons", "setup", {"reserv": 3}, "setup.json: reserv is not a field"),
        ("dragons_cave", "path", {"coins": [[1, 1]]}, "path.json: coins"),
        ("dragonslayer", "parties", {"magicians": [{"key": "aurric"}]}, "parties.json: magicians"),
        ("stgeorge", "boards", {}, "boards.json: stgeorge has no data file of that name"),
    ],
)
def test_a_server_correction_that_cannot_be_used_is_refused_naming_its_field(
    package, name, fields, message
):
    with pytest.raises(BadDataFile) as refused:
        data.check_corrections(package, name, fields)
    assert message in str(refused.value)
    assert data.in_effect() is data.NONE
    assert "overridden" not in data.load(package, data.file_names(package)[0])


def test_a_game_played_in_a_thread_with_corrections_leaves_other_threads_on_the_bundled_data():
    import threading

    game = ENGINES["dragons-cave"]
    corrected = data.check_corrections("dragons_cave", "path", {"coins": [[3] * 5] * 4})
    seen: dict[str, Any] = {}

    def coins() -> list[int]:
        options = game.parse_options("")
        roles = [role.key for role in game.roles(2, options)]
        state = game.setup(roles, options, random.Random(1))
        return [square["coins"] for square in game.dump(state)["board"]["path"]]

    def corrected_game() -> None:
        with data.corrected(corrected):
            seen["corrected"] = coins()

    worker = threading.Thread(target=corrected_game)
    worker.start()
    plain = coins()
    worker.join()
    assert set(seen["corrected"]) == {3}
    assert plain == [c for section in data.load("dragons_cave", "path")["coins"] for c in section]
    assert set(plain) != {3}


def test_the_differences_from_the_bundled_file_are_named():
    bundled_reserve = data.load("lions_dragons", "setup")["reserve"]
    assert data.differences(
        "lions_dragons", "setup", {"reserve": bundled_reserve, "quiet_ply_cap": 90}
    ) == ["quiet_ply_cap"]


def test_a_correction_is_checked_by_the_check_its_game_declares_in_the_registry(monkeypatch):
    """The registry entry says how a game's data files are checked: a server's correction
    that the declared check refuses is refused, naming what the check said."""
    import games

    def refuse() -> None:
        raise BadDataFile("board.json: lair_colour is not a colour this board can show")

    spec = games.SPECS["stgeorge"]
    declared = games.DataFiles("stgeorge", refuse)
    monkeypatch.setitem(games.SPECS, "stgeorge", dataclasses.replace(spec, data=declared))
    with pytest.raises(BadDataFile, match="not a colour this board can show"):
        games.check_corrections("stgeorge", "board", {"lair_colour": "blue"})
    monkeypatch.setitem(games.SPECS, "stgeorge", spec)
    assert games.check_corrections("stgeorge", "board", {"lair_colour": "blue"})


def test_a_game_with_a_servers_corrections_is_a_game_that_plays_with_them():
    """The engine a game opened with corrected data plays through is a game of its own
    (the same kind of engine, not a stand-in), and every call of it, options included,
    reads the corrected files while the bundled game is unchanged."""
    bundled = ENGINES["lions-dragons"]
    server = data.check_corrections("lions_dragons", "setup", {"reserve": 2})
    corrected = bundled.with_data(server)
    assert type(corrected) is type(bundled)
    assert corrected.with_data(server) is corrected
    options = corrected.parse_options("")
    state = corrected.setup(["white", "black"], options, random.Random(0))
    assert options["reserve"] == 2 and corrected.view(state, None) != bundled.view(
        bundled.setup(["white", "black"], bundled.parse_options(""), random.Random(0)), None
    )
    assert bundled.parse_options("")["reserve"] == 4
    again = corrected.with_data(data.check_corrections("lions_dragons", "setup", {"reserve": 3}))
    assert again.parse_options("")["reserve"] == 3
