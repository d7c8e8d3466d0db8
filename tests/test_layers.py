"""The layers' seams, checked on the source: arrows point one way, frontends reach the
store only through the host, and the application layer writes no frontend's markup."""

from __future__ import annotations

import ast
import re
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
}
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
