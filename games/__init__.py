"""The one registry of hosted games: each game registered once, with everything it brings.

A :class:`GameSpec` ties together what one game is made of across the layers: its engine
(``engines/<game>``), its board renderer (``render/<game>``) and its strong computer player
(``players/<game>``), and the check of its data files (:class:`DataFiles`). The engine
owns its option schema (``engine.options``) and parses what a user typed
(``engine.parse_options``). Adding a game means writing those three parts and one entry in
:data:`SPECS` (``docs/ADDING_A_GAME.md``); nothing else keys on a game's slug.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from engines import data
from engines.base import Game
from engines.options import clip
from i18n import DEFAULT, Locale
from players.base import EASY, LEVELS, Player


class Renderer(Protocol):
    """A game's ``render(public_view, locale) -> PNG bytes``: the board's own words
    (legends, captions, whose turn it is) in ``locale``, the view's names as they are."""

    def __call__(self, view: dict[str, Any], locale: Locale = DEFAULT) -> bytes: ...


Warmer = Callable[[], None]
"""A renderer's ``warm()``: builds what it otherwise builds on the first board (the static
background, the map's layout, the palette), for the data files loaded now."""


@dataclass(frozen=True)
class DataFiles:
    """A game's data files (``engines/<package>/data/*.json``), which a server may correct:
    the engine package that holds them, and the check that loads and checks them all with
    the corrections in effect, raising :class:`engines.data.BadDataFile` naming the file
    and the field."""

    package: str
    check: data.DataCheck


class UnknownGame(LookupError):
    """No game is registered under that slug. ``str(error)`` lists the games there are."""


@dataclass(frozen=True)
class GameSpec:
    """One hosted game: its engine, how its board is drawn, and its strong player (and the
    renderer's warm-up, if it has one)."""

    engine: Game[Any]
    renderer: Renderer
    strong: Player
    warm: Warmer | None = None
    data: DataFiles | None = None
    """The game's data files and their check; ``None`` for a game without any."""
    warm_under_way: int = 0
    """How many boards of a game under way :func:`warm` draws besides the new games': the
    text and PNG bands only a game in progress shows are then ready for a fresh worker's
    first board. 0 for a game whose boards or moves cost more than a start-up can spare
    (each costs the warm-up its moves and its board)."""

    @property
    def slug(self) -> str:
        return self.engine.slug

    @property
    def title(self) -> str:
        return self.engine.title

    def player(self, level: str) -> Player:
        """The computer player at ``level`` (``easy`` or ``strong``)."""
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        return EASY if level == "easy" else self.strong

    def render(self, view: dict[str, Any], locale: Locale = DEFAULT) -> bytes:
        """PNG bytes of a public view of this game, its words in ``locale``."""
        if locale == DEFAULT:  # asked as always: a renderer may draw English alone
            return self.renderer(view)
        return self.renderer(view, locale)


def _specs() -> dict[str, GameSpec]:
    import players.dragons_cave
    import players.dragonslayer
    import players.lions_dragons
    import players.stgeorge
    import render.dragons_cave
    import render.dragonslayer
    import render.lions_dragons
    import render.stgeorge
    from engines.dragons_cave import GAME as DRAGONS_CAVE
    from engines.dragons_cave import board as dragons_cave_board
    from engines.dragonslayer import GAME as DRAGONSLAYER
    from engines.dragonslayer import battle as dragonslayer_tables
    from engines.lions_dragons import GAME as LIONS_DRAGONS
    from engines.lions_dragons import layout as lions_dragons_layout
    from engines.stgeorge import GAME as STGEORGE
    from engines.stgeorge import board as stgeorge_board

    specs = (
        GameSpec(
            STGEORGE, render.stgeorge.render, players.stgeorge.PLAYER, render.stgeorge.warm,
            warm_under_way=4, data=DataFiles("stgeorge", stgeorge_board.current_board),
        ),
        GameSpec(
            LIONS_DRAGONS, render.lions_dragons.render, players.lions_dragons.PLAYER,
            render.lions_dragons.warm, warm_under_way=4,
            data=DataFiles("lions_dragons", lions_dragons_layout.setup_data),
        ),
        GameSpec(
            DRAGONS_CAVE, render.dragons_cave.render, players.dragons_cave.PLAYER,
            render.dragons_cave.warm, warm_under_way=4,
            data=DataFiles("dragons_cave", dragons_cave_board.load_board),
        ),
        # No boards under way: one costs the warm-up about 0.2 s (its 60 ms board and its
        # moves), and a fresh worker's first board is already within 1.2x of a warm one's.
        GameSpec(
            DRAGONSLAYER, render.dragonslayer.render, players.dragonslayer.PLAYER,
            render.dragonslayer.warm,
            data=DataFiles("dragonslayer", dragonslayer_tables.load_all),
        ),
    )  # fmt: skip
    return {spec.slug: spec for spec in specs}


SPECS: dict[str, GameSpec] = _specs()
"""Every hosted game by slug, in the order the games are offered."""


class _Engines(Mapping[str, Game[Any]]):
    """The engines of the games in :data:`SPECS` as it is now (a game registered later
    included)."""

    def __getitem__(self, slug: str) -> Game[Any]:
        return SPECS[slug].engine

    def __iter__(self) -> Iterator[str]:
        return iter(SPECS)

    def __len__(self) -> int:
        return len(SPECS)


ENGINES: Mapping[str, Game[Any]] = _Engines()
"""The registered games' engines by slug (a view of :data:`SPECS` for engine-level code)."""


def data_checks() -> dict[str, data.DataCheck]:
    """The data checks the registered games declare, by engine package."""
    return {spec.data.package: spec.data.check for spec in SPECS.values() if spec.data}


def use_overrides(directory: str | Path | None, *, check: bool = True) -> None:
    """Read corrected data files from ``directory`` from now on, each checked by the check
    its game declares (:func:`engines.data.use_overrides`)."""
    data.use_overrides(directory, check=check, checks=data_checks())


def check_corrections(
    package: str, name: str, fields: Mapping[str, Any], base: data.Corrections = data.NONE
) -> data.Corrections:
    """``base`` with a server's correction of one data file, once the check its game
    declares passed on it (:func:`engines.data.check_corrections`)."""
    return data.check_corrections(package, name, fields, base, checks=data_checks())


# What a caller of engines.data that passes no checks gets: the ones declared here.
data.declare_checks(data_checks())


def spec_for(slug: str) -> GameSpec:
    """The game registered as ``slug``; :class:`UnknownGame` names the games there are."""
    try:
        return SPECS[slug]
    except KeyError:
        known = ", ".join(f"`{s}`" for s in SPECS)
        raise UnknownGame(f"There is no game called `{clip(slug)}`. Games: {known}.") from None


def render(slug: str, view: dict[str, Any], locale: Locale = DEFAULT) -> bytes:
    """PNG bytes of a public view of the game registered as ``slug``, its words in
    ``locale``."""
    return spec_for(slug).render(view, locale)


def starting_views(slug: str) -> list[dict[str, Any]]:
    """The public view of a new game of ``slug`` at each table size, with the default
    options (a fixed seed, so every process draws the same boards)."""
    from engines.replay import start

    engine = spec_for(slug).engine
    views = []
    for players in range(engine.min_players, engine.max_players + 1):
        options = engine.parse_options("")
        roles = [role.key for role in engine.roles(players, options)]
        views.append(engine.view(start(engine, roles, options, "warm"), None))
    return views


def playout(
    slug: str, players: int, seed: int | str, chooser: random.Random
) -> Iterator[dict[str, Any]]:
    """The public views of a game of ``slug`` at ``players`` seats (default options) from
    its set-up on, each move a legal action ``chooser`` picks, played with the chance the
    host would give it: boards of games under way, the same in every process, for the
    warm-up, the tests and the benchmarks. Views are made only as they are read, so
    ``chooser`` is drawn on only that far (a caller may go on using it)."""
    from engines.replay import action_rng, start, step

    engine = spec_for(slug).engine
    options = engine.parse_options("")
    roles = [role.key for role in engine.roles(players, options)]
    state = start(engine, roles, options, seed)
    yield engine.view(state, None)
    seq = 0
    while engine.result(state) is None:
        prompts = engine.prompts(state)
        if not prompts:
            return
        prompt = chooser.choice(prompts)
        action = chooser.choice(engine.legal_actions(state, prompt.seat)).action
        seq += 1
        state, _ = step(engine, state, prompt.seat, action, action_rng(seed, seq))
        yield engine.view(state, None)


WARM_MOVES = 40
"""How far into a game the warm-up's boards under way reach: far enough for rounds, scores
and outcomes a new game does not show yet, near enough that the moves cost little."""


def warm_playout(slug: str) -> Iterator[dict[str, Any]]:
    """The one game under way the warm-up draws boards of: at the largest table (the most
    pieces, panels and names), with a fixed seed, so every process draws the same."""
    players = spec_for(slug).engine.max_players
    return playout(slug, players, "warm", random.Random(f"{slug}:warm"))


def under_way_views(slug: str) -> list[dict[str, Any]]:
    """The boards of a game under way the warm-up draws: :attr:`GameSpec.warm_under_way`
    views of :func:`warm_playout` spread over its first :data:`WARM_MOVES` moves (over the
    whole game, its end included, if it is shorter)."""
    count = spec_for(slug).warm_under_way
    if count <= 0:
        return []
    game = list(itertools.islice(warm_playout(slug), WARM_MOVES + 1))
    moves = len(game) - 1
    picks = sorted({round(moves * (index + 1) / count) for index in range(count)} - {0})
    return [game[move] for move in picks]


def warm(slug: str) -> None:
    """Make the first board of ``slug`` as quick as any later one: the renderer's own
    ``warm()`` builds its static parts, then a new game's board at each table size and a
    few boards of a game under way are drawn once (the fonts, each size's background, the
    glyphs and the PNG bands boards share), all with the data files loaded now."""
    spec = spec_for(slug)
    if spec.warm is not None:
        spec.warm()
    for view in starting_views(slug) + under_way_views(slug):
        spec.render(view)
