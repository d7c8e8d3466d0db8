"""Dragon's Cave computer player: play-outs on a compact model of the game, mixed play.

Why this approach. Each round is a guessing game (cards against the Dragon's square), and
what a guess is worth depends on the race that follows: reaching the lair ends the game and
pays 4 coins, a catch sends a Dwarf back and costs half a Purse. A fixed rule ("walk to the
richest square") already beats random play easily but is easy to read and blind to the
score. So each secret choice is scored by its share of the win, found by playing the game
on from it many times on :class:`~engines.dragons_cave.fast.Sim`, the engine's fast model of
the same rules (its tests replay engine games on it), from what the seat knows only:

* the others' hidden Chests are drawn from what the table shows (44 coins minus the
  Treasure, the Purses and our own Chest);
* the others' choices this round come from an opponent model, ``SMART`` sensible and the
  rest random: Dwarves favour rich, far squares (evaluation: coins + 0.3 a square of
  progress + the lair bonus) and bank big Purses; the Dragon sits where the expected harm
  (half the Purse, the coins the square would pay, the steps back) is largest, including
  the card it expects from us;
* our card is scored against each Dragon square in turn (all five, weighted by the model),
  then everyone plays on by rules of thumb (greedy walking, banking ``BANK_AT`` coins; the
  Dragon on the costliest likely square; opponents random part of the time) to the end or
  ``DEPTH`` rounds, where coins plus progress judge the leader. The same luck is used for
  every option of a sample, so differences come from the choice, not the dice.

The score is the share of the win (softened by ``MARGIN`` coins of lead). The card is drawn
from a mix: ``1 - GUARDED`` a softmax over the scores (``TEMPERATURE``), ``GUARDED`` the
maximin mix against a Dragon who reads us, so a watching Dragon cannot bank on the obvious
square. The Dragon's square mixes the softmax with a uniform draw likewise. Caught, the
Purse is split evenly (the Dragon's pick is then worthless) unless hiding it all in one
hand scores clearly better (far behind); the side is drawn. As the Dragon, closed hands
look alike, so a fair draw picks one.

Bounds: ``ROUND_BUDGET`` simulated rounds per decision (results do not depend on machine
speed); ``TIME_GUARD`` seconds is only a safety net.

Measured with ``python -m bench.tournament --games dragons-cave --rounds 200`` (win share
with strong in the seat against easy in it, others easy; average final coins):
2 players: seat 0 86.0% vs 48.0% (+38.0 pp), coins 17.3 vs 16.8;
seat 1 94.0% vs 52.0% (+42.0 pp), coins 18.2 vs 17.8. 4 players: seat 0 68.2% vs 16.8%
(+51.5 pp), coins 9.0 vs 7.0; seat 1 76.8% vs 19.5% (+57.2 pp), 9.4 vs 6.9; seat 2 83.8% vs
39.0% (+44.8 pp), 9.6 vs 8.2; seat 3 74.2% vs 24.8% (+49.5 pp), 9.5 vs 7.7. Decision time
p50 20-27 ms, p95 26-39 ms. The greedy rule alone scores about as well against random
players; the mixing (``GUARDED``) costs a few points against them and is kept for people.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from engines.base import Game
from engines.dragons_cave.board import coin_words, describe, kind_name, progress
from engines.dragons_cave.fast import (
    CHEST,
    KINDS_IN,
    Sim,
    Tables,
    legal_cards,
    next_round,
    reveal,
    round_over,
    sim_from,
    tables,
    take,
    totals,
    treasure_empty,
)
from engines.dragons_cave.notation import canonical_card
from engines.dragons_cave.state import LAIR_BONUS, TREASURE, Observed
from players.base import Decision

ROUND_BUDGET = 2500
"""Simulated rounds per decision: the primary bound on thinking."""
TIME_GUARD = 0.8
"""Seconds after which sampling stops early whatever the budget (a safety net only)."""
MAX_SAMPLES = 100
"""Most samples per option (a multiple of 5: one per Dragon square in turn)."""
DEPTH = 6
"""Rounds a play-out runs before the position is judged by coins and progress."""
TEMPERATURE = 0.01
"""Softmax temperature over win shares: options this close are mixed."""
SMART = 0.3
"""Weight of the sensible opponent in this round's model (the rest is a random player)."""
ROLLOUT_SMART = 0.3
"""Chance an opponent plays by the rules of thumb in a play-out move (else at random)."""
BANK_AT = 9
"""The rule of thumb banks a Purse this large."""
STEP_VALUE = 0.3
"""Coins a square of progress is worth to the rules of thumb."""
GUARDED = 0.25
"""Share of the mixed strategy kept safe from a Dragon (or Dwarves) reading our play."""
MARGIN = 0.5
"""Coins of lead worth a factor e in the smoothed share of the win."""
ALL_IN_MARGIN = 0.03
"""How much better (win share) hiding all in one hand must score to beat an even split."""


def judged(sim: Sim, seat: int) -> float:
    """``seat``'s likely share of an unfinished game: a softmax over coins plus progress."""
    lair = sim.t.lair
    worth = {
        s: sim.purse[s]
        + sim.chest[s]
        + 0.4 * sum(p for p in sim.pos[s] if p != lair)
        + sum(LAIR_BONUS + 0.4 * lair for p in sim.pos[s] if p == lair)
        for s in sim.present
    }
    top = max(worth.values())
    weights = {s: math.exp((w - top) / 3.0) for s, w in worth.items()}
    return weights[seat] / sum(weights.values())


# --- rules of thumb and the opponent model -------------------------------------------------


def step_value(t: Tables, pos: int, kind: int) -> float:
    """What walking with ``kind`` from ``pos`` is worth to the rules of thumb: its coins,
    the progress, and the lair bonus."""
    new = t.ahead[pos][kind]
    return t.coins[new] + STEP_VALUE * (new - pos) + (LAIR_BONUS if new == t.lair else 0)


def random_card(sim: Sim, seat: int, u: float) -> tuple[int, int]:
    """Any card ``seat`` may play, each equally likely (the easy player), drawn by ``u``."""
    kinds = KINDS_IN[sim.hand[seat]]
    movable = sim.movable(seat)
    n = len(kinds) * len(movable)
    r = int(u * (n + 1))
    if r >= n:
        return (CHEST, 0)
    return (kinds[r % len(kinds)], movable[r // len(kinds)])


def greedy_card(sim: Sim, seat: int) -> tuple[int, int]:
    """Bank a big Purse, else walk with the card worth most."""
    t = sim.t
    kinds = KINDS_IN[sim.hand[seat]]
    if not kinds or sim.purse[seat] >= BANK_AT:
        return (CHEST, 0)
    best, choice = -1.0, (CHEST, 0)
    for d in sim.movable(seat):
        pos = sim.pos[seat][d]
        for k in kinds:
            value = step_value(t, pos, k)
            if value > best:
                best, choice = value, (k, d)
    return choice


def harm(sim: Sim, seat: int, d: int, kind: int) -> float:
    """What catching ``seat``'s Dwarf ``d`` playing ``kind`` costs that player: half the
    Purse, the coins of the square it would have reached, and the steps back."""
    t = sim.t
    pos = sim.pos[seat][d]
    back = STEP_VALUE * (pos - t.back[pos][kind])
    return sim.purse[seat] / 2 + t.coins[t.ahead[pos][kind]] + back


def card_model(sim: Sim, seat: int, smart: float) -> list[tuple[tuple[int, int], float]]:
    """How likely ``seat`` is to play each card: ``smart`` of a sensible player (softmax of
    walking value; the Chest more likely the richer the Purse), the rest uniform."""
    t = sim.t
    cards = legal_cards(sim, seat)
    values = [step_value(t, sim.pos[seat][d], k) for k, d in cards[:-1]]
    values.append(0.3 * sim.purse[seat] - 0.5)
    top = max(values)
    weights = [math.exp(v - top) for v in values]
    total = sum(weights)
    even = 1 / len(cards)
    return [
        (card, (1 - smart) * even + smart * w / total)
        for card, w in zip(cards, weights, strict=True)
    ]


def lair_model(sim: Sim, smart: float) -> list[float]:
    """How likely the Dragon is to sit on each kind: ``smart`` of a Dragon going where the
    expected harm is largest (softmax), the rest uniform."""
    n = len(sim.t.keys)
    expected = [0.0] * n
    for seat in sim.card_seats():
        for (kind, d), p in card_model(sim, seat, smart):
            if kind != CHEST:
                expected[kind] += p * harm(sim, seat, d, kind)
    top = max(expected)
    weights = [math.exp(e - top) for e in expected]
    total = sum(weights)
    return [(1 - smart) / n + smart * w / total for w in weights]


def greedy_lair(sim: Sim, seat: int, u: float) -> int:
    """The kind where the expected harm to the other players is largest (random players
    assumed), ties broken by ``u``."""
    n = len(sim.t.keys)
    expected = [0.0] * n
    for other in sim.card_seats():
        kinds = KINDS_IN[sim.hand[other]]
        movable = sim.movable(other)
        share_of = 1 / (len(kinds) * len(movable) + 1)
        for d in movable:
            for k in kinds:
                expected[k] += share_of * harm(sim, other, d, k)
    best = max(expected)
    tied = [k for k, e in enumerate(expected) if e >= best - 1e-9]
    return tied[int(u * len(tied))]


def pick(weighted: list[tuple[Any, float]], rng: random.Random) -> Any:
    """One item drawn with its weight."""
    r = rng.random() * sum(w for _, w in weighted)
    for item, w in weighted:
        r -= w
        if r <= 0:
            return item
    return weighted[-1][0]


# --- play-outs ----------------------------------------------------------------------------


class Search:
    """Counts simulated rounds against the budget, and the time guard."""

    def __init__(self, budget: int = ROUND_BUDGET, guard: float = TIME_GUARD) -> None:
        self.rounds = 0
        self.budget = budget
        self.deadline = time.perf_counter() + guard

    def spent(self) -> bool:
        return self.rounds >= self.budget or time.perf_counter() > self.deadline


def draws(seed: float, sim: Sim) -> list[float]:
    """The uniform numbers a play-out uses, drawn up front so every option of one sample
    meets the same luck: per round and seat, a style, a card and a hand pick."""
    rng = random.Random(seed)
    return [rng.random() for _ in range((DEPTH + 1) * 3 * len(sim.pos))]


def finish_round(sim: Sim, me: int, caught: list[int], swap: bool, luck: list[float]) -> bool:
    """After a reveal: the Dragon takes a hand of each caught player (ours split evenly,
    others anyhow), then the round ends. ``luck`` is this round's numbers. Returns whether
    the game is over."""
    if treasure_empty(sim):
        return True
    for seat in caught:
        purse = sim.purse[seat]
        u = luck[3 * seat + 2]
        if seat == me:
            take(sim, seat, purse // 2 if u < 0.5 else purse - purse // 2)
        else:
            take(sim, seat, int(u * (purse + 1)))
    if round_over(sim):
        return True
    next_round(sim, swap)
    return False


def play_out(sim: Sim, me: int, luck: list[float], search: Search) -> float:
    """Play ``sim`` on from the start of a round with the rules of thumb (opponents partly
    at random), using ``luck`` from its second round on; ``me``'s smoothed share of the win
    at the end, or as judged after ``DEPTH`` rounds."""
    stride = 3 * len(sim.pos)
    for r in range(1, DEPTH + 1):
        search.rounds += 1
        row = luck[r * stride : (r + 1) * stride]
        cards = {}
        for s in sim.card_seats():
            if s == me or row[3 * s] < ROLLOUT_SMART:
                cards[s] = greedy_card(sim, s)
            else:
                cards[s] = random_card(sim, s, row[3 * s + 1])
        d = sim.dragon
        if d == me or (d in sim.present and row[3 * d] < ROLLOUT_SMART):
            lair = greedy_lair(sim, d, row[3 * d + 1])
        else:
            lair = int(row[3 * d + 1] * len(sim.t.keys))
        caught, swap = reveal(sim, cards, lair)
        if finish_round(sim, me, caught, swap, row):
            return smooth_share(sim, me)
    return judged(sim, me)


def smooth_share(sim: Sim, seat: int) -> float:
    """``seat``'s share of the win in the finished game, softened by the margin: a softmax
    over the totals (``MARGIN`` coins), which varies less from play-out to play-out."""
    scores = totals(sim)
    lair = sim.t.lair
    top = max(scores)
    weights = {
        s: math.exp((scores[s] + 0.01 * sum(min(p, lair) for p in sim.pos[s]) - top) / MARGIN)
        for s in sim.present
    }
    return weights[seat] / sum(weights.values())


# --- decisions ----------------------------------------------------------------------------


def hidden_chests(state: Observed, me: int, rng: random.Random) -> list[int]:
    """Chest totals for a sample: ours as known, the others' hidden coins (all 44 minus
    everything on view) shared out at random among them."""
    chests = state["chests"]
    others = [s for s, c in enumerate(chests) if s != me and not isinstance(c, int)]
    known = sum(c for c in chests if isinstance(c, int))
    hidden = TREASURE - state["treasure"] - state["undistributed"] - sum(state["purses"]) - known
    result = [c if isinstance(c, int) else 0 for c in chests]
    if others and hidden > 0:
        cuts = sorted(rng.randint(0, hidden) for _ in range(len(others) - 1))
        bounds = [0, *cuts, hidden]
        for number, seat in enumerate(others):
            result[seat] = bounds[number + 1] - bounds[number]
    return result


def softmax(scores: list[float], temperature: float = TEMPERATURE) -> list[float]:
    """Weights exp((score - best) / temperature), normalised."""
    top = max(scores)
    weights = [math.exp((s - top) / temperature) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def maximin(matrix: list[list[float]], rounds: int = 300) -> list[float]:
    """Our mixed strategy (over rows) that does best against a Dragon who knows it and sits
    (over columns) where it hurts us most, found by fictitious play."""
    rows, cols = len(matrix), len(matrix[0])
    ours, theirs = [0] * rows, [0] * cols
    ours_total = [0.0] * cols  # our value per Dragon square, summed over our past plays
    theirs_total = [0.0] * rows  # each row's value, summed over the Dragon's past squares
    for _ in range(rounds):
        row = max(range(rows), key=theirs_total.__getitem__)
        ours[row] += 1
        for c in range(cols):
            ours_total[c] += matrix[row][c]
        col = min(range(cols), key=ours_total.__getitem__)
        theirs[col] += 1
        for r in range(rows):
            theirs_total[r] += matrix[r][col]
    return [n / rounds for n in ours]


@dataclass
class CardPlan:
    """What the card decision found: the cards (``(kind or CHEST, Dwarf index)``), the
    Dragon model, each card's value (win share) per Dragon square, the expected values
    and the mixed strategy the card is drawn from."""

    cards: list[tuple[int, int]]
    lair_odds: list[float]
    matrix: list[list[float]]
    values: list[float]
    mix: list[float]


def plan_card(state: Observed, me: int, rng: random.Random, search: Search) -> CardPlan:
    """Score each card of ``me`` against each Dragon square by play-outs, and mix: mostly
    the best reply to the opponent model (softmax), partly the safe mix against a Dragon
    who reads us (``GUARDED``)."""
    base = sim_from(state, hidden_chests(state, me, random.Random(0)))
    lair_odds = lair_model(base, SMART)
    cards = legal_cards(base, me)
    n_kinds = len(base.t.keys)
    sums = [[0.0] * n_kinds for _ in cards]
    counts = [0] * n_kinds
    for i in range(MAX_SAMPLES):
        if i >= n_kinds and search.spent():
            break
        lair = i % n_kinds  # every Dragon square in turn, weighted by the model below
        seed = rng.random()
        sample_rng = random.Random(seed)
        start = sim_from(state, hidden_chests(state, me, sample_rng))
        luck = draws(seed, start)
        others = {
            s: pick(card_model(start, s, SMART), sample_rng) for s in start.card_seats() if s != me
        }
        counts[lair] += 1
        for number, card in enumerate(cards):
            sim = start.copy()
            played = dict(others)
            played[me] = card
            caught, swap = reveal(sim, dict(sorted(played.items())), lair)
            search.rounds += 1
            if finish_round(sim, me, caught, swap, luck):
                sums[number][lair] += smooth_share(sim, me)
            else:
                sums[number][lair] += play_out(sim, me, luck, search)
    matrix = [[row[k] / counts[k] for k in range(n_kinds)] for row in sums]
    values = [sum(p * v for p, v in zip(lair_odds, row, strict=True)) for row in matrix]
    reply = softmax(values)
    safe = maximin(matrix)
    mix = [(1 - GUARDED) * r + GUARDED * s for r, s in zip(reply, safe, strict=True)]
    return CardPlan(cards, lair_odds, matrix, values, mix)


@dataclass
class LairPlan:
    """What the lair decision found: each kind's value (win share) and the mix drawn from."""

    values: list[float]
    mix: list[float]


def plan_lair(state: Observed, me: int, rng: random.Random, search: Search) -> LairPlan:
    """Score each lair square by play-outs against the modelled cards; mix mostly by score
    (softmax), partly uniformly (``GUARDED``) so the Dwarves cannot read the Dragon."""
    base = sim_from(state, hidden_chests(state, me, random.Random(0)))
    n_kinds = len(base.t.keys)
    sums = [0.0] * n_kinds
    samples = 0
    for i in range(MAX_SAMPLES):
        if i >= 2 and search.spent():
            break
        seed = rng.random()
        sample_rng = random.Random(seed)
        start = sim_from(state, hidden_chests(state, me, sample_rng))
        luck = draws(seed, start)
        played = {s: pick(card_model(start, s, SMART), sample_rng) for s in start.card_seats()}
        samples += 1
        for lair in range(n_kinds):
            sim = start.copy()
            caught, swap = reveal(sim, played, lair)
            search.rounds += 1
            if finish_round(sim, me, caught, swap, luck):
                sums[lair] += smooth_share(sim, me)
            else:
                sums[lair] += play_out(sim, me, luck, search)
    values = [s / samples for s in sums]
    mix = [(1 - GUARDED) * w + GUARDED / n_kinds for w in softmax(values)]
    return LairPlan(values, mix)


def split_values(
    state: Observed, me: int, purse: int, rng: random.Random, search: Search
) -> dict[int, float]:
    """Our share of the win if we keep 0, half (either rounding) or all of ``purse``
    after the Dragon's pick, by play-outs."""
    kept = sorted({0, purse // 2, purse - purse // 2, purse})
    sums = dict.fromkeys(kept, 0.0)
    samples = 0
    others = [c for c in state["catches"] if c["seat"] != me and c["hand"] is None]
    last = state.get("last_round")
    plays = last.get("plays", []) if last else []
    swap = any(p["outcome"] in ("caught", "chest") for p in plays)
    for i in range(MAX_SAMPLES // 2):
        if i >= 2 and search.spent():
            break
        seed = rng.random()
        sample_rng = random.Random(seed)
        start = sim_from(state, hidden_chests(state, me, sample_rng))
        luck = draws(seed, start)
        for catch in others:
            take(start, catch["seat"], sample_rng.randint(0, catch["purse"]))
        samples += 1
        for amount in kept:
            sim = start.copy()
            take(sim, me, purse - amount)
            search.rounds += 1
            if round_over(sim):
                sums[amount] += smooth_share(sim, me)
                continue
            next_round(sim, swap)
            sums[amount] += play_out(sim, me, luck, search)
    return {amount: total / samples for amount, total in sums.items()}


# --- the player ---------------------------------------------------------------------------


class DragonsCavePlayer:
    """The strong Dragon's Cave player (see the module docstring).

    ``budget`` is the number of simulated rounds per decision (lower it for quick play).
    """

    def __init__(self, budget: int = ROUND_BUDGET) -> None:
        self.budget = budget

    def choose(self, game: Game[Any], state: Observed, seat: int, rng: random.Random) -> Decision:
        """A legal action for ``seat`` in the ``state`` it observes, with a line saying why.

        Raises ``ValueError`` only if ``seat`` has nothing to decide.
        """
        choices = game.legal_actions(state, seat)
        if not choices:
            raise ValueError(f"seat {seat} has nothing to decide now")
        verb = choices[0].action.split()[0]
        if len(choices) == 1:  # the Chest card is all that is left in hand
            return Decision(choices[0].action, "plays the only card left in hand")
        search = Search(self.budget)
        decide = {"card": _card, "lair": _lair, "split": _split, "hand": _hand}[verb]
        decision = decide(state, seat, rng, search)
        legal = [choice.action for choice in choices]
        if decision.action not in legal:  # the model and the engine disagree: stay legal
            return Decision(rng.choice(legal))
        return decision


def _card(state: Observed, seat: int, rng: random.Random, search: Search) -> Decision:
    plan = plan_card(state, seat, rng, search)
    number = pick(list(enumerate(plan.mix)), rng)
    kind, d = plan.cards[number]
    mixing = plan.values[number] < max(plan.values) - 1e-9
    aside = " (varying the play so the Dragon cannot read it)" if mixing else ""
    board = state["board"]
    if kind == CHEST:
        purse = state["purses"][seat]
        if purse:
            return Decision("card chest", f"locks {coin_words(purse)} in the Chest{aside}")
        return Decision("card chest", f"plays the Chest card to take all its cards back{aside}")
    t = tables(board)
    walker = sorted((w for w in state["dwarves"] if w["seat"] == seat), key=lambda w: w["dwarf"])[d]
    key = t.keys[kind]
    target = t.ahead[progress(board, walker["square"])][kind]
    who = f"Dwarf {walker['dwarf']} " if state["two_player"] else ""
    if target == t.lair:
        why = f"{who}heads into the lair for the {LAIR_BONUS}-coin bonus, ending the game"
    else:
        where = describe(board, target - 1)
        gain = f" for {coin_words(t.coins[target])}" if t.coins[target] else ""
        odds = max(1, round(1 / max(plan.lair_odds[kind], 1e-9)))
        why = f"{who}walks to {where}{gain}; the Dragon sits there about 1 time in {odds}"
    action = canonical_card(key, walker["dwarf"] if state["two_player"] else None)
    return Decision(action, why + aside)


def _lair(state: Observed, seat: int, rng: random.Random, search: Search) -> Decision:
    plan = plan_lair(state, seat, rng, search)
    kind = pick(list(enumerate(plan.mix)), rng)
    board = state["board"]
    key = tables(board).keys[kind]
    sim = sim_from(state, [0] * len(state["roles"]))
    likely = [
        (p * harm(sim, s, d, kind), s)
        for s in sim.card_seats()
        for (k, d), p in card_model(sim, s, SMART)
        if k == kind
    ]
    name = kind_name(board, key)
    why = f"sits on {name}"
    if likely and max(likely)[0] > 0:
        target = max(likely)[1]
        purse = state["purses"][target]
        why += f", hoping to catch {state['names'][target]}"
        why += f" ({coin_words(purse)} in the Purse)" if purse else ""
    if plan.values[kind] < max(plan.values) - 1e-9:
        why += " (a less obvious square, so the Dwarves cannot read it)"
    return Decision(f"lair {key}", why)


def _split(state: Observed, seat: int, rng: random.Random, search: Search) -> Decision:
    purse = next(c["purse"] for c in state["catches"] if c["seat"] == seat)
    values = split_values(state, seat, purse, rng, search)
    low, high = purse // 2, purse - purse // 2
    even = (values[low] + values[high]) / 2
    all_in = (values[0] + values[purse]) / 2
    if all_in > even + ALL_IN_MARGIN:
        left = purse if rng.random() < 0.5 else 0
        why = "hides the whole Purse in one hand: from behind, worth the gamble"
    else:
        left = low if rng.random() < 0.5 else high
        why = "splits the Purse evenly, so the Dragon's pick hardly matters"
    return Decision(f"split {left}", why)


def _hand(state: Observed, seat: int, rng: random.Random, search: Search) -> Decision:
    catch = next(c for c in state["catches"] if c["hand"] is None)
    side = rng.choice(("left", "right"))
    who = state["names"][catch["seat"]]
    return Decision(
        f"hand {state['roles'][catch['seat']]} {side}",
        f"picks {who}'s {side} hand: closed hands look alike, so a fair draw decides",
    )


PLAYER = DragonsCavePlayer()
"""The strong player the host asks (registered in ``games``)."""
