"""The layers' seams, checked on the source: arrows point one way, frontends reach the
store only through the host, and the application layer writes no frontend's markup."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]

MAY_IMPORT = {
    "engines": {"engines"},
    "render": {"render", "engines", "PIL"},
    "players": {"players", "engines"},
    "games": {"games", "engines", "render", "players"},
    "bot/store": {"bot.store", "aiosqlite", "asyncpg"},
    "bot/service": {"bot.service", "bot.store", "engines", "players", "games", "openskill"},
    # The frontends: each turns its own input into calls on the host's parts and delivers
    # what they return. The store is imported for its types and to open it, never used
    # (see test_frontends_reach_the_store_only_through_the_host).
    "bot/discord": {
        "bot.discord", "bot.service", "bot.store", "bot.settings", "bot.web", "engines",
        "games", "discord", "aiohttp",
    },
    "bot/console": {
        "bot.console", "bot.service", "bot.store", "bot.settings", "bot.logs", "bot.web", "engines",
        "games",
    },
    "bot/web": {"bot.web", "bot.service", "aiohttp"},
}  # fmt: skip
"""What each layer may import besides the standard library (packages or modules)."""

FRONTENDS = ("bot/discord", "bot/console", "bot/web")
MARKUP = re.compile(r"<@!?\{|<@!?\d|<#\{|<#\d|<t:|discord\.com/channels")
THIRD_PARTY = {"discord", "aiosqlite", "PIL", "dotenv", "asyncpg", "openskill", "aiohttp"}
OURS = {"bot", "engines", "render", "players", "games", "tests", "bench"}


def sources(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, by its full name (relative imports excluded)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def within(module: str, packages: set[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


@pytest.mark.parametrize("layer", sorted(MAY_IMPORT))
def test_each_layer_imports_only_the_layers_below_it(layer):
    allowed = MAY_IMPORT[layer]
    wrong = {}
    for path in sources(layer):
        extra = {
            n for n in imported(path) if within(n, OURS | THIRD_PARTY) and not within(n, allowed)
        }
        if extra:
            wrong[str(path.relative_to(ROOT))] = sorted(extra)
    assert not wrong, f"{layer} reaches past its layer: {wrong}"


def test_the_layers_checked_hold_code():
    for layer in (*MAY_IMPORT, *FRONTENDS):
        assert sources(layer), f"no Python files under {layer}"


@pytest.mark.parametrize("frontend", FRONTENDS)
def test_frontends_reach_the_store_only_through_the_host(frontend):
    reaching = []
    for path in sources(frontend):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("store", "_store"):
                reaching.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not reaching, f"a frontend uses the store directly: {reaching}"


def test_the_application_layer_writes_no_discord_markup():
    found = []
    for path in sources("bot/service"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if MARKUP.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "Discord markup in bot/service:\n" + "\n".join(found)


def test_the_markup_check_would_see_a_mention():
    assert MARKUP.search('raise UserError(f"Only the host, <@{record.host_id}>, can")')
    assert MARKUP.search('f"turn ends <t:{int(deadline)}:R>"')
    assert not MARKUP.search("Text.of('Only the host, ', Mention(host))")


CHECKED_FOR_CYCLES = ("bot", "engines", "render", "games", "players", "i18n")
"""The packages whose imports must not go round in a circle."""

MOST_MODULES = 16
"""The most modules one folder of ``bot/`` holds: past that it wants rooms of its own."""


def module_name(path: Path) -> str:
    """``engines/stgeorge/board.py`` -> ``engines.stgeorge.board`` (a package is named by
    its folder)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The modules among ``modules`` that ``path`` imports anywhere in its source: at the
    top, in a function, or only for type checking (``if TYPE_CHECKING:``), relative imports
    resolved. ``from package import name`` counts as importing ``package.name`` when that is
    a module, else ``package``."""
    own = module_name(path)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            parent = ".".join(base) if node.level else ""
            source = ".".join(p for p in (parent, node.module or "") if p)
            for alias in node.names:
                inner = f"{source}.{alias.name}"
                found.add(inner if inner in modules else source)
    return {name for name in found if name in modules and name != own}


def import_graph(folders: tuple[str, ...]) -> dict[str, set[str]]:
    """Each module under ``folders`` and the modules under them it imports."""
    paths = [path for folder in folders for path in sources(folder)]
    modules = {module_name(path) for path in paths}
    return {module_name(path): imports_of(path, modules) for path in paths}


def import_cycles(folders: tuple[str, ...]) -> list[list[str]]:
    """Every circle of imports among the modules under ``folders``, one per strongly
    connected group of modules, each named by a path round it (``a -> b -> a``)."""
    graph = import_graph(folders)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(group)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return [circle_through(graph, group) for group in groups]


def circle_through(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """One path round ``group`` (a strongly connected group), from its first module back."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        module = queue.pop(0)
        for target in sorted(graph[module] & group):
            if target == start:
                return [*paths[module], start]
            if target not in paths:
                paths[target] = [*paths[module], target]
                queue.append(target)
    return sorted(group)  # pragma: no cover - a strongly connected group has a circle


def test_no_imports_go_round_in_a_circle():
    cycles = import_cycles(CHECKED_FOR_CYCLES)
    shown = "\n".join(" -> ".join(cycle) for cycle in cycles)
    assert not cycles, f"imports that go round in a circle (type-only ones count):\n{shown}"


CATALOG_MAY_IMPORT = {"i18n", "babel"}
"""What the catalogs' package may import besides the standard library: itself and Babel.
Every layer writes messages with it, so it must know none of them."""


def outside_imports(folder: str, allowed: set[str]) -> dict[str, list[str]]:
    """The modules under ``folder`` importing anything but the standard library and
    ``allowed`` (at the top, in a function or for type checking), with what they import."""
    standard = set(sys.stdlib_module_names) | {"__future__"}
    wrong = {}
    for path in sources(folder):
        extra = {n for n in imported(path) if n.split(".")[0] not in standard | allowed}
        if extra:
            wrong[str(path.relative_to(ROOT))] = sorted(extra)
    return wrong


def test_the_catalogs_import_nothing_of_the_project():
    wrong = outside_imports("i18n", CATALOG_MAY_IMPORT)
    assert not wrong, f"i18n imports past the standard library and Babel: {wrong}"


def test_the_catalog_import_check_sees_a_project_import(tmp_path, monkeypatch):
    (tmp_path / "words").mkdir()
    (tmp_path / "words" / "a.py").write_text(
        "import gettext\nfrom babel import Locale\nfrom bot.service.text import said\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert outside_imports("words", CATALOG_MAY_IMPORT) == {"words/a.py": ["bot.service.text"]}


def test_the_cycle_finder_sees_a_circle_of_type_only_imports(tmp_path, monkeypatch):
    package = tmp_path / "loop"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from loop.b import B\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from loop import c\n"
    )
    (package / "c.py").write_text("from .a import A\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert import_cycles(("loop",)) == [["loop.a", "loop.b", "loop.c", "loop.a"]]


def test_no_folder_of_the_bot_holds_more_than_sixteen_modules():
    crowded = {
        str(folder.relative_to(ROOT)): count
        for folder in [ROOT / "bot", *(ROOT / "bot").rglob("*/")]
        if folder.is_dir() and "__pycache__" not in folder.parts and folder.name != "static"
        if (count := len(list(folder.glob("*.py")))) > MOST_MODULES
    }
    assert not crowded, f"folders of more than {MOST_MODULES} modules: {crowded}"


def test_each_room_of_the_application_layer_says_what_lives_there_and_what_it_may_use():
    rooms = [path for path in sorted((ROOT / "bot/service").iterdir()) if path.is_dir()]
    rooms = [room for room in rooms if room.name != "__pycache__"]
    assert len(rooms) >= 7, "the application layer is laid out in rooms"
    silent = []
    for room in rooms:
        init = room / "__init__.py"
        tree = ast.parse(init.read_text(encoding="utf-8")) if init.exists() else None
        doc = ast.get_docstring(tree) if tree else None
        if not doc or "May use" not in doc:
            silent.append(room.name)
    assert not silent, f"rooms that do not open with what lives there and may be used: {silent}"


RINGS = {"notices_stored", "deadline_moved"}
"""The doorbell's two rings (``bot.service.doorbell.Doorbell``)."""
WRITE_PATH = "bot/service/desk.py"
"""The one place that rings them: the desk's store, as each write commits."""


def doorbell_rings(path: Path) -> list[str]:
    """Where ``path`` rings the doorbell: a call of ``notices_stored`` or ``deadline_moved``."""
    return [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in RINGS
    ]


def test_only_the_write_path_rings_the_doorbell():
    by_hand = [
        ring
        for path in sources("bot")
        if path.relative_to(ROOT).as_posix() != WRITE_PATH
        for ring in doorbell_rings(path)
    ]
    assert not by_hand, f"the doorbell rung by hand, outside {WRITE_PATH}: {by_hand}"
    assert doorbell_rings(ROOT / WRITE_PATH), "the write path rings it"


def test_only_the_composition_root_imports_the_host():
    root = ROOT / "bot/service/host.py"
    importing = [
        str(path.relative_to(ROOT))
        for path in sources("bot/service")
        if path != root and "bot.service.host" in imports_of(path, {"bot.service.host"})
    ]
    assert not importing, f"parts of the host that see the whole host: {importing}"
