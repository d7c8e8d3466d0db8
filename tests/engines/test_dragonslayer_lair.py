"""Dragonslayer's Lair in the rule text's order: the Dragon Location tile is drawn first,
then the party is offered only what that tile allows.

'When you think your party is strong enough to fight the Dragon, you can move to the
Dragon's Lair and draw a Dragon Location tile at random. This tile tells you where the
Dragon is.' 'Any party can recover abandoned weapons by going to the Dragon's Lair and
drawing a Dragon Location tile. If you draw the tile that matches the location of the
weapons, you have to fight the Dragon and cannot recover weapons; if you draw any other
tile, you can take the weapons.' The summary: 'Move to the Dragon's Lair. Draw a Dragon
Location tile at random.' Nothing in the text has the party say what it came for before
the draw.
"""

from __future__ import annotations

import json

import pytest

from engines.base import IllegalAction
from engines.dragonslayer.notation import Action, read, write
from engines.replay import WatchedRandom
from tests.engines.dragonslayer_helpers import GAME
from tests.engines.test_dragonslayer_fight import (
    AURRIC,
    GALEN,
    GO_LAIR,
    MORGENTHORME,
    SIX,
    Draws,
    abandoned,
    act,
    arrive,
    battle,
    enter,
    labels,
    prompt,
    scene,
    where,
)


def weapons_about() -> dict:
    """Aurric and Wulfstan one road from the Lair; the Hart Bow lies abandoned in the
    Passage box."""
    return abandoned(scene(companions=("wulfstan",)), "passage", "hart_bow")


# -- the draw comes first ----------------------------------------------------------------


def test_with_weapons_abandoned_the_party_draws_before_anything_is_asked():
    """Entering the Lair asks for the draw alone: no 'fight or recover' first."""
    inside = arrive(weapons_about(), AURRIC)
    [asked] = GAME.prompts(inside)
    assert asked.kind == "draw" and "draw a Dragon Location tile" in asked.text
    assert [c.action for c in GAME.legal_actions(inside, AURRIC)] == ["draw"]


def test_galen_with_the_ashes_draws_before_anything_is_asked():
    inside = arrive(scene(seat=GALEN), GALEN)
    assert prompt(inside) == (GALEN, "draw")
    assert set(labels(inside, GALEN)) == {"draw"}


@pytest.mark.parametrize("early", ["fight", "recover", "redraw", "done"])
def test_declaring_what_the_visit_is_for_before_the_draw_is_refused(early):
    """A choice that only a drawn tile can allow is refused, saying to `draw` first."""
    inside = arrive(weapons_about(), AURRIC)
    with pytest.raises(IllegalAction, match=r"`draw` a Dragon Location tile first"):
        act(inside, AURRIC, early, "open")


def test_entering_the_lair_draws_nothing_yet():
    """The move into the Lair uses no chance (so it can still be taken back); the `draw`
    does, and names the tile to everyone."""
    rng = WatchedRandom("lair")
    inside, events = GAME.apply(weapons_about(), AURRIC, GO_LAIR, rng)
    assert not rng.used and not any("location" in e.data for e in events)
    _, events = GAME.apply(inside, AURRIC, "draw", Draws("open"))
    [told] = [e for e in events if "location" in e.data]
    assert told.public and told.text == "Aurric draws: The Dragon is in the Open."


# -- then what the draw allows -------------------------------------------------------------


def test_a_draw_matching_the_weapons_allows_only_the_fight():
    """'If you draw the tile that matches the location of the weapons, you have to fight
    the Dragon and cannot recover weapons': the battle follows at once."""
    drawn, events = enter(weapons_about(), AURRIC, "passage")
    assert prompt(drawn) == (AURRIC, "battle") and battle(drawn)["location"] == "passage"
    assert "Aurric finds the Dragon there and must fight." in [e.text for e in events]
    assert not any(a.startswith("recover") for a in labels(drawn, AURRIC))


def test_a_matching_draw_with_a_seer_item_offers_the_fight_or_a_redraw():
    state = weapons_about()
    state["parties"][AURRIC]["things"].append("silver_ewer")
    drawn, _ = enter(state, AURRIC, "passage")
    assert prompt(drawn) == (AURRIC, "lair")
    assert list(labels(drawn, AURRIC)) == ["fight", "redraw"]
    with pytest.raises(IllegalAction, match="`fight`, `redraw`"):
        act(drawn, AURRIC, "recover")


@pytest.mark.parametrize("row", [r for r in SIX if r != "passage"])
def test_a_draw_matching_no_weapons_offers_the_fight_or_recovering(row):
    """'if you draw any other tile, you can take the weapons': the Dragon is there too, so
    the party may also fight it."""
    drawn, _ = enter(weapons_about(), AURRIC, row)
    [asked] = GAME.prompts(drawn)
    assert asked.kind == "lair" and asked.text.endswith("fight the Dragon or recover?")
    shown = labels(drawn, AURRIC)
    assert list(shown) == ["fight", "recover"]
    assert shown["recover"] == "Recover abandoned weapons"
    assert shown["fight"].startswith("Fight the Dragon at ")
    recovering, _ = act(drawn, AURRIC, "recover")
    assert prompt(recovering) == (AURRIC, "recover")
    fighting, _ = act(drawn, AURRIC, "fight")
    assert prompt(fighting) == (AURRIC, "battle") and battle(fighting)["location"] == row


def test_the_dragon_away_offers_recovering_or_leaving_but_no_fight():
    """'you cannot fight the Dragon if he is not there'; Away is 'any other tile'."""
    drawn, _ = enter(weapons_about(), AURRIC, "away")
    assert list(labels(drawn, AURRIC)) == ["recover", "done"]
    with pytest.raises(IllegalAction, match="`recover`, `done`"):
        act(drawn, AURRIC, "fight")
    taken, _ = act(act(drawn, AURRIC, "recover")[0], AURRIC, "recover hart_bow")
    assert "hart_bow" in taken["parties"][AURRIC]["things"]
    assert where(taken, AURRIC) == f"place:{MORGENTHORME}"


def test_with_nothing_to_recover_the_draw_leads_straight_on():
    """No weapons abandoned and no Ashes: a row means the fight, Away means Morgenthorme."""
    fought, _ = enter(scene(companions=("wulfstan",)), AURRIC, "open")
    assert prompt(fought) == (AURRIC, "battle")
    away, events = enter(scene(companions=("wulfstan",)), AURRIC, "away")
    assert where(away, AURRIC) == f"place:{MORGENTHORME}" and not away["pending"]
    assert "The Dragon is away: Aurric goes to Morgenthorme." in [e.text for e in events]


def test_galen_drawing_the_lake_of_fire_must_fight():
    """'If he draws "The Dragon is in the Lake of Fire," he has to fight the Dragon and
    cannot trade the Ashes for Ulrich'."""
    drawn, _ = enter(scene(seat=GALEN), GALEN, "lake")
    assert prompt(drawn) == (GALEN, "battle")
    assert "ulrichs_ashes" in drawn["parties"][GALEN]["things"]


def test_galen_drawing_another_tile_may_trade_the_ashes_or_fight():
    drawn, _ = enter(scene(seat=GALEN), GALEN, "mouth")
    assert list(labels(drawn, GALEN)) == ["fight", "recover"]
    traded, _ = act(drawn, GALEN, "recover")
    assert "ulrich" in traded["parties"][GALEN]["companions"]


# -- notation, timeouts, snapshots, help ---------------------------------------------------


def test_draw_is_notation_written_alone():
    assert read("draw") == Action("draw") and write(read(" DRAW ")) == "draw"
    for choice in GAME.legal_actions(enter(weapons_about(), AURRIC, "open")[0], AURRIC):
        assert write(read(choice.action)) == choice.action


def test_a_timeout_in_the_lair_draws_then_takes_the_mildest_choice():
    inside = arrive(weapons_about(), AURRIC)
    drawn, _ = GAME.skip(inside, AURRIC, Draws("open"))
    assert prompt(drawn) == (AURRIC, "lair")
    skipped, _ = GAME.skip(drawn, AURRIC, Draws())
    assert prompt(skipped) == (AURRIC, "recover")
    away, _ = GAME.skip(enter(weapons_about(), AURRIC, "away")[0], AURRIC, Draws())
    assert prompt(away) == (AURRIC, "recover")


def test_the_public_view_of_the_lair_hides_nothing_and_shows_no_battle_yet():
    for state in (arrive(weapons_about(), AURRIC), enter(weapons_about(), AURRIC, "open")[0]):
        view = GAME.view(state, None)
        assert view["battle"] is None and "private" not in view
        assert GAME.load(json.loads(json.dumps(GAME.dump(state)))) == state


def test_an_older_snapshot_asking_what_the_visit_is_for_loads_as_the_draw():
    """Format 1 asked 'fight or recover' before the draw; such a game goes on from the draw,
    and a draw held for a redraw offers what that tile allows."""
    inside = arrive(weapons_about(), AURRIC)
    old = {**GAME.dump(inside), "format": 1}
    old["pending"] = [{"kind": "purpose", "seat": AURRIC}]
    loaded = GAME.load(old)
    assert loaded == inside and loaded["format"] == 2

    seer = weapons_about()
    seer["parties"][AURRIC]["things"].append("far_mirror")
    drawn, _ = enter(seer, AURRIC, "open")
    held = {**GAME.dump(drawn), "format": 1}
    held["pending"] = [
        {"kind": "location", "seat": AURRIC, "location": "open", "purpose": "fight",
         "items": ["far_mirror"]},
    ]  # fmt: skip
    assert GAME.load(held) == drawn
    assert list(labels(GAME.load(held), AURRIC)) == ["fight", "recover", "redraw"]


def test_a_snapshot_keeps_its_key_order_and_one_missing_a_key_is_refused():
    state = arrive(weapons_about(), AURRIC)
    text = json.dumps(GAME.dump(state))
    assert json.dumps(GAME.dump(GAME.load(json.loads(text)))) == text
    broken = GAME.dump(state)
    del broken["abandoned"]
    with pytest.raises(ValueError, match="missing \\['abandoned'\\]"):
        GAME.load(broken)


def test_rules_help_tells_the_order_and_what_each_draw_allows():
    text = GAME.rules_help()
    assert "then `draw` draws a Dragon Location tile at random, before anything else" in text
    assert "the party chooses after the draw, never before" in text
    assert "A tile that matches means a fight" in text
    assert "The Dragon is Away: no fight and no raid" in text
    assert "`face`" not in text
