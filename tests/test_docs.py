"""Every code name the docs quote exists: a map that names what is gone misleads its reader.

The docs are ``README.md`` and ``docs/*.md``. What they quote in single backticks outside
fenced code blocks is read by these rules, in this order:

1. **A call** ``name(...)`` or ``a.b(...)`` is checked by what stands before the
   parenthesis (``setup(roles, options, rng)`` checks ``setup``).
2. **Not a code name** (never checked): anything with a space, or with one of
   ``= : < > * { } $ … ! ? ' " , @ # ~`` (commands such as ``make run``, slash commands
   such as ``/game new``, options such as ``lions=symmetric`` or ``players:``, action
   notation such as ``3c-lair`` or ``!skip``, placeholders such as ``engines/<game>/``);
   anything starting with ``/``, ``-`` or a digit; a bare word in capitals
   (``DISCORD_TOKEN``, a setting; ``PNG``); a bare lower-case word without ``_``
   (``roll``, ``running``) or a bare capitalised word with one hump (``Title``, a record
   header), since prose and notation look the same.
3. **A path** (it has a ``/``) whose first part is a folder or file at the repository's top
   (``bot/service/host.py``, ``engines/``, ``.ci/run``) must exist. A path under anything
   else (``data/``, ``out/``) is one the bot makes when it runs, and is not checked.
4. **A file name** of source or docs (``.py``, ``.md``, ``.toml``, ``.json``, ``.js``,
   ``.css``: ``host.py``, ``pyproject.toml``) must name some file of the repository; a
   picture or database the bot writes (``board-0001.png``) is not checked.
5. **A dotted name** (``bot.service.host.GameHost``, ``engines.base.Game``,
   ``asyncio.to_thread``) must resolve: its longest importable head is imported and the
   rest found as attributes. A head that is no importable module (``host.turns.act``,
   ``Store.append_action``, ``pictures.DEPTH``), or a module from outside the repository
   without the rest (a shorthand that shares its name with a library), is a shorthand:
   each of its parts must then be a defined name (6).
6. **A bare name** that looks like code, ``snake_case`` (``mark_sent``), ``CamelCase``
   with two humps or more, each a capital and small letters or digits (``GameHost``; not
   ``SeatN``, a pattern of record headers) or starting with ``_`` (``_GAMES``), must be
   defined in the source of ``bot``, ``engines``, ``games``, ``players``, ``render``,
   ``bench`` or ``tests``: a module, class, function or parameter name, a keyword argument,
   or a name or attribute assigned (a dataclass field, ``self.host = ...``). A word of the
   store's SQL (a table, column or index in a string under ``bot/store/``) counts too.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
SOURCES = ("bot", "engines", "games", "players", "render", "bench", "tests")
SQL_HOME = "bot/store"

FENCE = re.compile(r"^\s*(```|~~~)")
SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
CALL = re.compile(r"^([A-Za-z_][\w.]*)\(.*\)$")
NOT_CODE = re.compile(r"[\s=:<>*{}$…!?'\",@#~]|^[/\-\d]")
DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")
FILE_NAME = re.compile(r"^[\w.-]+\.(py|md|toml|json|js|css)$")
SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)+$")
CAMEL = re.compile(r"^[A-Z][a-z0-9]+([A-Z][a-z0-9]+)+$")
PRIVATE = re.compile(r"^_+\w+$")
WORD = re.compile(r"[A-Za-z_]\w*")


def docs(root: Path) -> list[Path]:
    """The docs whose quotes are held to the code."""
    return sorted([root / "README.md", *(root / "docs").glob("*.md")])


def quoted(text: str) -> list[str]:
    """What ``text`` quotes in single backticks, leaving out fenced code blocks."""
    spans, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            spans += SPAN.findall(line)
    return spans


def defined_names(root: Path, folders: Iterable[str] = SOURCES) -> frozenset[str]:
    """Every name the source under ``folders`` defines (rule 6), with the words of the
    store's SQL."""
    names: set[str] = set()
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            names.add(path.stem)
            names.add(path.parent.name)
            tree = ast.parse(path.read_text(encoding="utf-8"))
            in_store = path.is_relative_to(root / SQL_HOME)
            for node in ast.walk(tree):
                names |= _names_defined_by(node, in_store)
    return frozenset(names)


def _names_defined_by(node: ast.AST, in_store: bool) -> set[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    if isinstance(node, ast.arg):
        return {node.arg}
    if isinstance(node, ast.keyword) and node.arg:
        return {node.arg}
    if isinstance(node, ast.alias):
        return {(node.asname or node.name).split(".")[-1]}
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
        return {node.id}
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
        return {node.attr}
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return {node.target.id}
    if in_store and isinstance(node, ast.Constant) and isinstance(node.value, str):
        return set(WORD.findall(node.value))
    return set()


def resolves(dotted: str) -> bool | None:
    """Whether ``dotted`` imports and resolves; None when no head of it is a module."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            if not hasattr(found, part):
                return False
            found = getattr(found, part)
        return True
    return None


def problem(span: str, root: Path, names: frozenset[str]) -> str | None:
    """Why ``span`` quotes a code name that does not exist, or None when it is fine (or
    no code name at all), by the rules of this module's docstring."""
    call = CALL.match(span)
    name = call.group(1) if call else span
    if NOT_CODE.search(name):
        return None
    if "/" in name:
        top = name.split("/")[0]
        if top and (root / top).exists() and not (root / name).exists():
            return "no such path"
        return None
    if FILE_NAME.match(name):
        if not any(p.name == name for p in _files(root)):
            return "no such file"
        return None
    if DOTTED.match(name):
        head = name.split(".")[0]
        found = resolves(name)
        ours = (root / head / "__init__.py").exists()
        if found is None or (found is False and not ours):
            missing = [p for p in name.split(".") if p not in names]
            return f"not defined: {', '.join(missing)}" if missing else None
        return None if found else "does not resolve"
    looks_like_code = call or SNAKE.match(name) or CAMEL.match(name) or PRIVATE.match(name)
    if looks_like_code and name not in names:
        return "not defined"
    return None


@cache
def _files(root: Path) -> list[Path]:
    """Every file of the repository at ``root``, leaving out git's and tools' folders."""
    skip = {".git", ".venv", "node_modules", "__pycache__"}
    return [
        p
        for p in root.rglob("*")
        if p.is_file() and not skip.intersection(p.relative_to(root).parts)
    ]


def problems(root: Path, names: frozenset[str]) -> list[str]:
    """Every quote of the docs under ``root`` naming code that does not exist."""
    found = []
    for doc in docs(root):
        if not doc.exists():
            continue
        for span in quoted(doc.read_text(encoding="utf-8")):
            why = problem(span, root, names)
            if why:
                found.append(f"{doc.relative_to(root)}: `{span}` ({why})")
    return sorted(set(found))


def test_every_code_name_the_docs_quote_exists():
    found = problems(ROOT, defined_names(ROOT))
    assert not found, "the docs quote names the code does not have:\n" + "\n".join(found)


@pytest.fixture
def tiny_repo(tmp_path, monkeypatch):
    """A repository of one package, ``tinyhost``, whose README quotes its names."""
    package = tmp_path / "tinyhost"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "outbox.py").write_text(
        "class Outbox:\n    def mark_sent(self, entry_id):\n        self.last_sent = entry_id\n"
    )
    (tmp_path / "docs").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def write_readme(root: Path, text: str) -> None:
    (root / "README.md").write_text(text)


def test_a_name_removed_from_the_code_is_flagged(tiny_repo):
    readme = (
        "The outbox (`tinyhost/outbox.py`, `tinyhost.outbox.Outbox`) calls `mark_sent`,\n"
        "which keeps `last_sent`; `Outbox.mark_sent(entry_id)` too.\n"
    )
    write_readme(tiny_repo, readme)
    assert problems(tiny_repo, defined_names(tiny_repo, ["tinyhost"])) == []

    (tiny_repo / "tinyhost" / "outbox.py").write_text("class Outbox:\n    pass\n")
    importlib.invalidate_caches()
    sys.modules.pop("tinyhost.outbox", None)
    sys.modules.pop("tinyhost", None)
    flagged = problems(tiny_repo, defined_names(tiny_repo, ["tinyhost"]))
    assert flagged == [
        "README.md: `Outbox.mark_sent(entry_id)` (not defined: mark_sent)",
        "README.md: `last_sent` (not defined)",
        "README.md: `mark_sent` (not defined)",
    ]


def test_a_module_or_path_removed_is_flagged(tiny_repo):
    write_readme(tiny_repo, "See `tinyhost/drawing.py` and `tinyhost.drawing.Drawing`.\n")
    assert problems(tiny_repo, defined_names(tiny_repo, ["tinyhost"])) == [
        "README.md: `tinyhost.drawing.Drawing` (does not resolve)",
        "README.md: `tinyhost/drawing.py` (no such path)",
    ]


def test_commands_settings_notation_and_prose_are_not_code_names(tiny_repo):
    write_readme(
        tiny_repo,
        "Type `/game new`, `make run` or `python -m bot console --seed 7`; set\n"
        "`DISCORD_TOKEN` or `DATABASE_URL=postgresql://…`; play `3c-lair`, `card ruby`,\n"
        "`!forfeit resigned`, `dh:b:12:57:roll`; give `players:` or `lions=symmetric`;\n"
        "read `engines/<game>/data/*.json` and `data/local-table.sqlite3`; a `Title`\n"
        "header says `running`, and a fenced block is not read:\n"
        "```\n`no_such_name`\n```\n",
    )
    assert problems(tiny_repo, defined_names(tiny_repo, ["tinyhost"])) == []
