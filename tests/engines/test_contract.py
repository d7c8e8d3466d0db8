"""The engine contract (engines.base), checked over every registered game.

In the manner of OpenSpiel's simulation test: for each game, each table size and a few
seeds, a seeded random playout (random legal choices, now and then a skipped or forfeited
prompt, chance drawn per action as the host draws it) checks at every step:

* ``result`` is set exactly when there are no prompts; every prompted seat has legal
  actions, and each of them (all, or a seeded sample of many) applies without
  ``IllegalAction``;
* ``apply``, ``skip`` and ``forfeit`` never change the state they are given (its dump is
  the same before and after);
* ``load(dump(s))`` round trips through JSON to the same dump;
* ``observe(s, seat)`` keeps everything the seat may see: the same seat view, prompts and
  legal actions for that seat, and the same public view;
* the public and seat views are JSON-ready and have a ``summary`` (and ``private`` for a
  seat); events are JSON-ready;
* every prompted seat can be skipped and forfeited (tried aside, on a copy of the line of
  play), in every kind of prompt met; the test records the kinds met and asserts each was
  skipped and forfeited at least once; the line of play forfeits for every reason
  (``!forfeit``, ``!forfeit resigned``, ``!forfeit left``) and replays so;
* replaying the log with :func:`engines.replay.replay` gives the current dump (checked at
  steps 1, 2, 4, 8... and at the end, so the cost stays linear in the game's length);
* a draw by agreement (tried aside at the same steps) ends the game with no winners where
  :meth:`~engines.base.Game.draw_by_agreement` says it exists, and is refused as illegal
  where it says not; ``revealed`` answers for every step played;
* a takeback (tried in the line of play at the same steps) either is refused with a reason,
  or goes back to the very state before the seat's last action, and the log with its
  ``!takeback`` entry still replays to the current state;
* the game ends within a bound.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from engines.base import FORFEIT_REASONS, Game, IllegalAction
from engines.replay import (
    FORFEIT,
    SKIP,
    TAKEBACK,
    NoTakeback,
    action_rng,
    forfeit_marker,
    in_effect,
    last_action,
    replay,
    setup_rng,
    takeback,
)
from games import ENGINES

SEEDS = (0, 1, 2)
MAX_STEPS = 6000
"""No game may take longer (random Dragonslayer games are the longest: about 3,000)."""
SAMPLE = 6
"""Legal actions tried aside per step when there are more (all of them when fewer)."""
ASIDE_PER_KIND = 3
"""How many times per prompt kind the skip and forfeit of a prompted seat are tried aside."""
SKIP_RATE, FORFEIT_RATE = 0.04, 0.004
"""How often the line of play itself takes a timeout instead of an action."""

TABLES = [
    pytest.param(slug, players, seed, id=f"{slug}-{players}p-seed{seed}")
    for slug, game in sorted(ENGINES.items())
    for players in range(game.min_players, game.max_players + 1)
    for seed in SEEDS
]


def json_ready(value: Any) -> bool:
    return json.loads(json.dumps(value)) == value


@dataclass
class Tally:
    """What one playout exercised."""

    kinds: Counter = field(default_factory=Counter)
    skipped: set[str] = field(default_factory=set)
    forfeited: set[str] = field(default_factory=set)
    applied: int = 0
    draws: int = 0
    takebacks: int = 0


def check_views(game: Game, state: Any, players: int) -> None:
    public = game.view(state, None)
    assert json_ready(public), "the public view is not JSON-ready"
    assert isinstance(public.get("summary"), str) and public["summary"], "no summary"
    assert "private" not in public
    for seat in range(players):
        mine = game.view(state, seat)
        assert json_ready(mine), f"seat {seat}'s view is not JSON-ready"
        assert isinstance(mine.get("summary"), str) and mine["summary"]
        assert isinstance(mine.get("private"), str)


def check_round_trip(game: Game, state: Any, dumped: dict[str, Any]) -> None:
    assert json_ready(dumped), "the dump is not JSON-ready"
    assert "format" in dumped, "the dump carries no format version"
    again = game.load(json.loads(json.dumps(dumped)))
    assert game.dump(again) == dumped, "load(dump(s)) differs"


def check_observe(game: Game, state: Any, players: int) -> None:
    public = game.view(state, None)
    for seat in range(players):
        seen = game.observe(state, seat)
        assert game.view(seen, seat) == game.view(state, seat), f"seat {seat} loses its view"
        assert game.view(seen, None) == public, f"observe({seat}) changes the public view"
        mine = [p for p in game.prompts(state) if p.seat == seat]
        assert [p for p in game.prompts(seen) if p.seat == seat] == mine
        assert game.legal_actions(seen, seat) == game.legal_actions(state, seat)


def check_events(events: list) -> None:
    for event in events:
        assert isinstance(event.text, str)
        assert json_ready(event.data), f"event data is not JSON-ready: {event.text}"


def check_prompts(game: Game, state: Any, players: int) -> list:
    prompts = game.prompts(state)
    assert (game.result(state) is None) == bool(prompts), "result set iff no prompts"
    for prompt in prompts:
        assert 0 <= prompt.seat < players
        assert game.legal_actions(state, prompt.seat), f"seat {prompt.seat} has no action"
    if not prompts:
        assert all(game.legal_actions(state, seat) == [] for seat in range(players))
    return prompts


def try_aside(
    game: Game, state: Any, players: int, prompts: list, tally: Tally, pick: random.Random
) -> None:
    """Legal actions, skips and forfeits of the prompted seats, each on the state as it is
    (the line of play goes on from the state untouched)."""
    rng = random.Random(pick.random())
    for prompt in prompts:
        choices = game.legal_actions(state, prompt.seat)
        sample = choices if len(choices) <= SAMPLE else pick.sample(choices, SAMPLE)
        for choice in sample:
            try:
                after, events = game.apply(state, prompt.seat, choice.action, rng)
            except IllegalAction as error:  # pragma: no cover - reported below
                pytest.fail(f"legal action {choice.action!r} of seat {prompt.seat}: {error}")
            check_events(events)
            tally.applied += 1
        if tally.kinds[prompt.kind] <= ASIDE_PER_KIND:
            for timeout, done in ((game.skip, tally.skipped), (game.forfeit, tally.forfeited)):
                after, events = timeout(state, prompt.seat, rng)
                check_events(events)
                check_round_trip(game, after, game.dump(after))
                check_prompts(game, after, players)
                done.add(prompt.kind)


def check_draw(game: Game, state: Any, players: int) -> bool:
    """A draw by agreement tried aside: a drawn ending where the game has one, else refused.
    Returns whether one was agreed."""
    dumped = game.dump(state)
    allowed = game.draw_by_agreement(state)
    assert isinstance(allowed, bool)
    if not allowed:
        with pytest.raises(IllegalAction):
            game.agree_draw(state)
        return False
    after, events = game.agree_draw(state)
    assert game.dump(state) == dumped, "agree_draw changed its input"
    check_events(events)
    result = game.result(after)
    assert result is not None and result.draw and result.text, "no drawn result"
    assert check_prompts(game, after, players) == []
    check_views(game, after, players)
    assert not game.draw_by_agreement(after), "a draw offered in a finished game"
    check_round_trip(game, after, game.dump(after))
    return True


def try_takeback(
    game: Game, roles: list[str], options: dict, seed: int, log: list, history: list, seat: int
) -> Any | None:
    """The state a takeback by ``seat`` leaves, checked against the state before its last
    action in effect; None when it is refused."""
    try:
        state = takeback(game, roles, options, seed, log, seat)
    except NoTakeback as refusal:
        assert str(refusal)
        return None
    kept = in_effect(log)
    index = last_action(kept, seat)
    assert index is not None
    before = history[log.index(kept[index])]
    assert game.dump(state) == game.dump(before), "a takeback lands elsewhere"
    return state


def playout(game: Game, players: int, seed: int) -> tuple[Tally, int]:
    slug = game.slug
    options = game.parse_options("")
    roles = [role.key for role in game.roles(players, options)]
    state = game.setup(roles, options, setup_rng(seed))
    pick = random.Random(f"contract:{slug}:{players}:{seed}")
    log: list[tuple[int, int, str]] = []
    history: list[Any] = []  # the state before each logged entry
    tally = Tally()
    check_next = 1
    for step in range(1, MAX_STEPS + 1):
        dumped = game.dump(state)
        check_round_trip(game, state, dumped)
        check_views(game, state, players)
        check_observe(game, state, players)
        prompts = check_prompts(game, state, players)
        if not prompts:
            break
        for prompt in prompts:
            tally.kinds[prompt.kind] += 1
        try_aside(game, state, players, prompts, tally, pick)
        assert game.dump(state) == dumped, "apply, skip or forfeit changed its input"

        prompt = pick.choice(prompts)
        if step == check_next:
            tally.draws += check_draw(game, state, players)
            asker = log[-1][1] if log else prompt.seat  # the seat that acted last
            back = try_takeback(game, roles, options, seed, log, history, asker)
            if back is not None:
                history.append(state)
                log.append((step, asker, TAKEBACK))
                state = back
                tally.takebacks += 1
                assert game.dump(replay(game, roles, options, seed, log)) == game.dump(state)
                check_next *= 2
                continue
        before = state
        roll = pick.random()
        action = SKIP if roll < SKIP_RATE else FORFEIT if roll < SKIP_RATE + FORFEIT_RATE else ""
        rng = action_rng(seed, step)
        if action == SKIP:
            state, events = game.skip(state, prompt.seat, rng)
        elif action == FORFEIT:
            reason = FORFEIT_REASONS[step % len(FORFEIT_REASONS)]
            state, events = game.forfeit(state, prompt.seat, rng, reason)
            action = forfeit_marker(reason)
        else:
            action = pick.choice(game.legal_actions(state, prompt.seat)).action
            state, events = game.apply(state, prompt.seat, action, rng)
        check_events(events)
        assert isinstance(game.revealed(before, state), bool)
        history.append(before)
        log.append((step, prompt.seat, action))
        if step == check_next:
            again = replay(game, roles, options, seed, log)
            assert game.dump(again) == game.dump(state), f"replay differs after {step} steps"
            check_next *= 2
    else:
        pytest.fail(f"{slug} with {players} players did not end within {MAX_STEPS} steps")
    again = replay(game, roles, options, seed, log)
    assert game.dump(again) == game.dump(state), "replay of the whole log differs"
    assert game.result(state) is not None
    return tally, len(log)


def check_contract(game: Game) -> None:
    """Every check of this suite over ``game`` (a game given, registered or not): its
    declaration, endings by agreement, snapshots, turn numbers, and the random playouts
    at each table size and seed."""
    check_declaration(game)
    check_endings_by_agreement(game)
    check_snapshot_formats(game)
    for players in range(game.min_players, game.max_players + 1):
        check_turn_numbers(game, players)
        for seed in SEEDS:
            check_playout(game, players, seed)


@pytest.mark.parametrize(("slug", "players", "seed"), TABLES)
def test_random_playouts_keep_the_contract(slug, players, seed):
    check_playout(ENGINES[slug], players, seed)


def check_playout(game: Game, players: int, seed: int) -> None:
    tally, steps = playout(game, players, seed)
    assert steps > 0
    assert tally.applied > 0
    seen = set(tally.kinds)
    assert seen <= tally.skipped, f"prompt kinds never skipped: {seen - tally.skipped}"
    assert seen <= tally.forfeited, f"prompt kinds never forfeited: {seen - tally.forfeited}"


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_load_refuses_a_snapshot_of_an_unknown_or_newer_format(slug):
    check_snapshot_formats(ENGINES[slug])


def check_snapshot_formats(game: Game) -> None:
    options = game.parse_options("")
    roles = [role.key for role in game.roles(game.min_players, options)]
    dumped = game.dump(game.setup(roles, options, setup_rng(0)))
    assert isinstance(dumped["format"], int) and dumped["format"] >= 1
    for bad in (dumped["format"] + 1, "1", None, 0):
        with pytest.raises(ValueError, match="format"):
            game.load({**dumped, "format": bad})
    assert game.dump(game.load(dumped)) == dumped


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_every_game_declares_the_contract(slug):
    assert ENGINES[slug].slug == slug
    check_declaration(ENGINES[slug])


def check_declaration(game: Game) -> None:
    assert game.slug and game.title
    assert 1 <= game.min_players <= game.max_players
    assert isinstance(game.options, tuple)
    assert game.parse_options("") == game.normalize_options({})
    assert game.rules_help().strip()


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_every_game_says_how_it_ends_by_agreement(slug):
    check_endings_by_agreement(ENGINES[slug])


def check_endings_by_agreement(game: Game) -> None:
    """Resigning, drawing by agreement and taking back are each explained in ``/rules``,
    and a draw is allowed exactly where the rules help offers ``/game draw``."""
    options = game.parse_options("")
    roles = [role.key for role in game.roles(game.min_players, options)]
    state = game.setup(roles, options, setup_rng(0))
    text = game.rules_help()
    assert "/game resign" in text and "/game undo" in text
    assert ("no draw by agreement" not in text) == game.draw_by_agreement(state)
    assert game.revealed(state, state) is False


NUMBERED = re.compile(r"\b(?:turn|round) (\d+)\b|\bafter (\d+) (?:turns?|rounds?)\b", re.I)
"""A turn number in a summary: ``Turn 3:``, ``(turn 3)``, ``Round 3``, ``after 16 turns``."""


@pytest.mark.parametrize(
    ("slug", "players"),
    [
        pytest.param(slug, players, id=f"{slug}-{players}p")
        for slug, game in sorted(ENGINES.items())
        for players in range(game.min_players, game.max_players + 1)
    ],
)
def test_every_game_numbers_its_turns_once_from_one_without_gaps(slug, players):
    check_turn_numbers(ENGINES[slug], players)


def check_turn_numbers(game: Game, players: int) -> None:
    """``turn`` starts at 1, rises by at most one a step and never falls; a finished game
    stays on the turn of its last action; every number a summary shows is that one."""
    slug = game.slug
    assert game.turn_name in ("turn", "round")
    options = game.parse_options("")
    roles = [role.key for role in game.roles(players, options)]
    state = game.setup(roles, options, setup_rng(0))
    pick = random.Random(f"turns:{slug}:{players}")
    assert game.turn(state) == 1
    for step in range(1, MAX_STEPS + 1):
        number = game.turn(state)
        public = game.view(state, None)
        shown = [int(a or b) for a, b in NUMBERED.findall(public["summary"])]
        shown += [public[key] for key in ("turn", "round") if key in public]  # the picture's
        assert all(n == number for n in shown), (number, game.view(state, None)["summary"])
        prompts = game.prompts(state)
        if not prompts:
            break
        prompt = pick.choice(prompts)
        rng = action_rng(0, step)
        if pick.random() < SKIP_RATE:
            state, _ = game.skip(state, prompt.seat, rng)
        else:
            action = pick.choice(game.legal_actions(state, prompt.seat)).action
            state, _ = game.apply(state, prompt.seat, action, rng)
        assert game.turn(state) in (number, number + 1), f"turn {number} to {game.turn(state)}"
        if game.result(state) is not None:
            assert game.turn(state) == number, "a finished game left the turn it ended in"
    assert game.result(state) is not None
