"""The built wheel is the whole program: installed in a fresh virtual environment, away from
the repository, it replays an example game and writes its board pictures.

One wheel build, one environment, the smallest example. The dependencies come from the
package index (pip's cache makes a rerun quick). Nothing here is skipped: if the wheel or
the environment cannot be built, the test fails.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEVELOPMENT_ONLY = {"tests", "bench"}
"""Top-level packages that stay out of the wheel: the test suite and the benchmarks."""

NOT_SOURCE = {".git", ".venv", "build", "dist", "out", "data", "__pycache__"}
"""Folders of a working copy that are not the program (``data`` and ``out`` only at the top,
where the bot keeps its database and the local table its pictures)."""


def _ignored(folder: str, names: list[str]) -> set[str]:
    """What copying the working copy leaves out: version control, environments, build
    leftovers, caches and run-time output."""
    top = Path(folder).resolve() == ROOT
    return {
        name
        for name in names
        if name == "__pycache__"
        or name.endswith((".pyc", ".egg-info"))
        or (name.startswith(".") and name not in (".ci", ".env.example"))
        or (top and name in NOT_SOURCE)
    }


def top_level_packages() -> set[str]:
    """The repository's top-level folders holding Python modules (with or without an
    ``__init__.py``: ``bot/service`` is a namespace package)."""
    found = set()
    for folder in ROOT.iterdir():
        if not folder.is_dir() or folder.name in _ignored(str(ROOT), [folder.name]):
            continue
        if any(".venv" not in path.parts for path in folder.rglob("*.py")):
            found.add(folder.name)
    return found


def shipped_files() -> set[str]:
    """Every file of the shipped packages in the source tree, as wheel paths: the modules
    and every data file read at run time (the games' JSON, the fonts)."""
    files = set()
    for package in top_level_packages() - DEVELOPMENT_ONLY:
        for path in (ROOT / package).rglob("*"):
            relative = path.relative_to(ROOT)
            hidden = any(_ignored(str(ROOT / package), [part]) for part in relative.parts[1:])
            if path.is_file() and not hidden:
                files.add(relative.as_posix())
    return files


def run(command: list[str | Path], timeout: float, **kwargs) -> subprocess.CompletedProcess:
    """Run ``command``; a failure fails the test with what it printed."""
    done = subprocess.run(
        [str(part) for part in command],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        check=False,
        **kwargs,
    )
    assert done.returncode == 0, (
        f"{' '.join(map(str, command))} exited {done.returncode}\n"
        f"--- stdout\n{done.stdout[-4000:]}\n--- stderr\n{done.stderr[-4000:]}"
    )
    return done


def test_the_include_list_names_every_top_level_package():
    """A new top-level package must be added to pyproject.toml's packages.find, or the
    installed bot would fail with ModuleNotFoundError."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    expected = top_level_packages() - DEVELOPMENT_ONLY
    assert {"bot", "engines", "players", "render"} <= expected
    assert {name for name in include if "." not in name and "*" not in name} == expected
    for package in expected:
        assert f"{package}.*" in include, f"{package}'s sub-packages are left out"


def test_the_wheel_installs_and_plays_an_example_outside_the_repository(tmp_path):
    # The wheel, built from a clean copy so no build/ left in the working copy leaks in.
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=_ignored)
    wheels = tmp_path / "wheels"
    run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-w", wheels], 300, cwd=source)
    [wheel] = wheels.glob("dragon_host-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    tops = {name.split("/", 1)[0] for name in names if not name.startswith("dragon_host-")}
    assert tops == top_level_packages() - DEVELOPMENT_ONLY
    expected = shipped_files()
    assert {"engines/stgeorge/data/board.json", "render/fonts/DejaVuSans.ttf"} <= expected
    missing = expected - names
    assert not missing, f"the wheel lacks {sorted(missing)}"

    # A fresh environment that knows nothing of the repository, with the wheel in it.
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], 120)
    python = venv / "bin" / "python"
    install = [sys.executable, "-m", "pip", "--python", python, "install", "--quiet", wheel]
    run(install, 600)

    # The smallest example, copied to a folder outside the repository, played from there.
    example = min(
        (ROOT / "examples").glob("*.txt"), key=lambda p: len(p.read_text("utf-8").splitlines())
    )
    table = tmp_path / "table"
    table.mkdir()
    script = table / example.name
    shutil.copy(example, script)
    seed = re.search(r"^# seed: (\d+)$", script.read_text("utf-8"), re.MULTILINE)
    assert seed, f"{example.name} records its seed in a '# seed: N' line"
    env = {
        "PATH": f"{venv / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin",
        "HOME": str(table),
        "LANG": "C.UTF-8",
        "PYTHONNOUSERSITE": "1",
    }
    assert ROOT not in table.resolve().parents and ROOT not in venv.resolve().parents
    where = run([python, "-c", "import bot, engines, players, render; print(bot.__file__)"], 60,
                cwd=table, env=env)  # fmt: skip
    assert Path(where.stdout.strip()).is_relative_to(venv)
    out = table / "out"
    command = [python, "-m", "bot", "console", "--script", script, "--seed", seed[1], "--out", out]
    played = run(command, 300, cwd=table, env=env)

    lines = played.stdout.splitlines()
    assert "⚠️" not in played.stdout, played.stdout[-3000:]
    assert any(line.startswith("🏆") for line in lines[-3:]), played.stdout[-3000:]
    pictures = sorted(out.glob("board-*.png"))
    assert pictures, "board pictures were written"
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pictures)
    assert f"(board picture: {pictures[-1]})" in played.stdout


SHIPPED = ("bot", "engines", "games", "i18n", "players", "render")


def _imported_top_level(folder: Path) -> set[str]:
    """The top-level names every module under ``folder`` imports (absolute imports only)."""
    import ast

    names: set[str] = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
    return names


def _declared_distributions() -> set[str]:
    """The distributions ``pyproject.toml`` says running the program needs, normalised."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {
        re.split(r"[<>=!~\[ ;]", requirement, maxsplit=1)[0].lower().replace("_", "-")
        for requirement in project["dependencies"]
    }


def test_every_package_the_program_imports_is_declared():
    from importlib.metadata import packages_distributions

    provided = packages_distributions()
    ours = set(SHIPPED)
    standard = set(sys.stdlib_module_names) | {"__future__"}
    imported = set().union(*(_imported_top_level(ROOT / folder) for folder in SHIPPED))
    needed = {
        dist.lower().replace("_", "-")
        for name in imported - ours - standard
        for dist in provided.get(name, [f"<no distribution provides {name}>"])
    }
    missing = needed - _declared_distributions()
    assert not missing, f"imported by the program but not declared in pyproject.toml: {missing}"
