"""Dragonslayer: the fast model of the fight (``engines.dragonslayer.fast``) counts parties
and fights as the engine does: combat strength, carrying limits, what can be lost, the
Shield, both strengths at every Location and placement, and the Matrix."""

from __future__ import annotations

import copy
import random
from collections import Counter

from engines.dragonslayer import fast, fight, losses
from engines.dragonslayer import state as rules
from engines.dragonslayer.model import COMPANION, MAGIC_ITEM, SPELL, WEAPON, load_tiles
from tests.engines.dragonslayer_helpers import GAME, ROLES, give, placed

ROWS = fast.ROWS


def random_states(players: int, seed: int, steps: int = 600):
    """``(state, seat)`` at every prompt of a game of random legal play."""
    rng = random.Random(seed)
    state = GAME.setup(ROLES[players], {}, rng)
    for _ in range(steps):
        if GAME.result(state) is not None:
            return
        seat = GAME.prompts(state)[0].seat
        choices = GAME.legal_actions(state, seat)
        if not choices:
            return
        yield state, seat
        state, _ = GAME.apply(state, seat, rng.choice(choices).action, rng)


def pool(kind: str) -> list[str]:
    return sorted({t.key for t in load_tiles().tiles if t.kind == kind})


def test_party_counts_as_the_engine_in_random_games():
    """Combat strength, what may be carried, what is over the limit and what the Dragon can
    take agree with the engine for every party met in random games."""
    probes = pool(WEAPON)[:3] + pool(SPELL)[:3] + pool(MAGIC_ITEM)[:3] + pool(COMPANION)[:2]
    checked = 0
    for players, seed in ((2, 1), (2, 2), (4, 3), (4, 4)):
        for state, _seat in random_states(players, seed):
            for seat in range(players):
                if state["magicians"][seat]["out"]:
                    continue
                party = fast.party_of(state, seat)
                assert party.combat == rules.party_combat(state, seat)
                assert party.people == rules.people(state, seat)
                assert party.magic_limit() == rules.magic_limit(state, seat)
                assert party.over_limit() == losses.over_limit(state, seat)
                assert Counter(party.losable) == Counter(fight.losable(state, seat))
                for key in probes:
                    assert party.fits(key) == rules.fits(state, seat, key), key
                checked += 1
    assert checked > 1000


def test_fight_sums_and_outcomes_at_every_location_and_placement():
    """Random parties (Valerian now and then, so the Shield joins) face the Dragon at each
    of the six Locations: every placement's combat and magic totals are
    ``fight.strengths``, and its outcome is ``fight.outcome_of``, for several Dragon
    strengths."""
    rng = random.Random(7)
    weapons, magic = pool(WEAPON), pool(SPELL) + pool(MAGIC_ITEM)
    companions = pool(COMPANION)
    checked = 0
    for number in range(40):
        state = placed(2, seed=number)
        seat = number % 2
        party = state["parties"][seat]
        chosen = rng.sample(companions, rng.randint(0, 3))
        if number % 3 == 0 and "valerian" not in chosen and "valerian" in companions:
            chosen.append("valerian")
        give(state, seat, companions=tuple(c for c in chosen if c not in party["companions"]))
        people = 1 + len(state["parties"][seat]["companions"])
        things = rng.sample(weapons, min(people, rng.randint(0, 3)))
        things += rng.sample(magic, rng.randint(0, 4))
        give(state, seat, things=tuple(k for k in things if k not in party["things"]))
        expected_shield = fast.party_of(state, seat).shield
        for location in ROWS:
            for dragon in (1, 4, 7):
                trial = copy.deepcopy(state)
                trial["dragon"] = dragon
                fight.begin(trial, seat, location, [])
                assert trial["fight"]["shield"] == expected_shield
                mine = fast.party_of(trial, seat)
                options = fast.placements(mine)[ROWS.index(location)]
                by_boxes = {frozenset(b): (c, m) for c, m, b in options}
                engine_placements = fight.placements(trial, seat)
                assert len(by_boxes) == len(engine_placements)
                for boxes in engine_placements:
                    sums = fight.strengths(trial, seat, boxes)
                    c, m = by_boxes[frozenset(boxes.items())]
                    assert (c, m) == (sums["combat"]["total"], sums["magic"]["total"])
                    assert fast.outcome(mine, dragon, c, m) == fight.outcome_of(trial, seat, boxes)
                    checked += 1
    assert checked > 1000


def test_outcome_reads_the_matrix():
    """Combat 5 over and magic 5 over: the Matrix reads 0/3; weaker than the Dragon: wiped
    out."""
    party = fast.Party("aurric", ("wulfstan",), ())
    assert fast.outcome(party, 5, 10, 10) == (0, 3, False)
    assert fast.outcome(party, 5, 4, 10)[2] is True
