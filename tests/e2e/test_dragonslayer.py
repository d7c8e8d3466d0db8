"""Dragonslayer through the real bot on simulated Discord: King's men challenge Galen.

alice plays Aurric and posts both King's men at Castle Morn, one road from Pennick, the port
Galen lands in. bob plays Galen. Galen's party (Galen and Hodge, combat 2) is never stronger
than a King's men tile (2 or 4), so an accepted challenge always takes Galen to a castle,
whichever way the tiles were shuffled.
"""

import re

from tests.bot.leak_checks import edit_snapshot
from tests.e2e.conftest import answered, bot_posts, controls_in, part, play_move, text_of, texts

TITLE = "Dragonslayer #1"


async def open_game(channel, alice, bob):
    results = [
        await alice.slash(channel, "game new", game="dragonslayer"),
        await bob.slash(channel, "game join"),
        await alice.slash(channel, "game start"),
    ]
    assert texts(results) == [
        f"You joined {TITLE} as Aurric.",
        f"You joined {TITLE} as Galen.",
        f"{TITLE} has started.",
    ]


def panel(channel, spectator):
    """The newest channel post with controls, as a member who is not playing sees it."""
    for message in reversed(bot_posts(channel, viewer=spectator)):
        if controls_in(message):
            return message
    raise AssertionError("no post with controls")


def labels(message):
    return [part(c, "label") for c in controls_in(message) if part(c, "label")]


async def play(channel, member, *actions):
    """Type each action with /move; every one must be accepted."""
    for action in actions:
        result = await member.slash(channel, "move", action=action)
        assert texts([result]) == [f"✅ Played `{action}`."], texts([result])


async def reach_the_challenge(channel, alice, bob, carol):
    """Galen lands in Pennick beside Aurric's King's men; the next King's man to march in
    lets alice challenge him."""
    await open_game(channel, alice, bob)
    start = panel(channel, carol)
    await play_move(alice, start, "Tyrian's King's men 1 → Castle Morn")
    await play(channel, alice, "place castle_morn")
    await play(channel, bob, "place redkeep", "place redkeep")
    # Turn 1: Aurric sails to Caerlow; one King's man marches into Pennick and stops.
    await play(channel, alice, "go north_sea", "go caerlow", "done", "k1 pennick", "done", "done")
    # Galen sails in: entering Pennick, where King's men stand, costs two days.
    await play(channel, bob, "go sunset_sea", "go pennick", "done")
    # Turn 2: Aurric rests; the second King's man marches into Pennick.
    await play(channel, alice, "done", "k2 pennick")
    post = panel(channel, carol)
    assert "Tyrian's King's men 2 march to Pennick." in text_of(post)
    assert labels(post) == ["Challenge Galen", "No challenge"]
    return post


async def test_a_challenge_answered_by_the_challenged_players_button(simcord_env, world):
    _, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    post = await reach_the_challenge(channel, alice, bob, carol)

    # Only the owner of the King's men may challenge.
    refused = await bob.click(post, label="Challenge Galen")
    assert all(m.ephemeral for m in answered(refused)) and "not your turn" in texts([refused])[0]
    await alice.click(post, label="Challenge Galen")
    asked = panel(channel, carol)
    assert f"<@{bob.id}>" in text_of(asked) and "challenge you" in text_of(asked)
    assert labels(asked)[0] == "Accept the challenge"

    answer = await bob.click(asked, label="Accept the challenge")
    assert answered(answer) == [], "the post answers the click"
    castle = panel(channel, carol)
    assert "Galen accepts." in text_of(castle) and "taken to a castle" in text_of(castle)
    strength = await simcord_env.bot.host.desk.table(1)
    km = next(k for k in strength.state["kings_men"] if k["key"] == "tyrian_2")
    assert f"(strength {km['strength']})" in text_of(castle), "the challenge reveals it"

    await play_move(alice, castle, "Greyhold")
    moved = bot_posts(channel, viewer=carol)[-1]
    assert "Galen and Tyrian's King's men 2 go to Greyhold." in text_of(moved)
    table = await simcord_env.bot.host.desk.table(1)
    galen = table.state["magicians"][1]
    assert galen["where"] == "place:greyhold" and galen["lost"] == 1


async def test_the_challenged_player_takes_the_road(simcord_env, world):
    _, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    post = await reach_the_challenge(channel, alice, bob, carol)
    await alice.click(post, label="Challenge Galen")
    asked = panel(channel, carol)

    await play_move(bob, asked, "Take the road to Ivybridge")
    after = bot_posts(channel, viewer=carol)[-1]
    assert "Galen takes the road towards Ivybridge." in text_of(after)
    table = await simcord_env.bot.host.desk.table(1)
    assert table.state["magicians"][1]["where"] == "road:pennick:ivybridge"
    # The King's men go on marching: no strength was revealed.
    assert all(not k["revealed"] for k in table.state["kings_men"])
    assert "strength" not in text_of(after)
    await play(channel, alice, "k2 ivybridge")
    assert table.state["magicians"][1]["lost"] == 0


async def set_up_the_fight(env, channel, alice, bob):
    """Aurric stands by the Lair with a strong party; Galen waits in Glenarrow, the nearest
    place to the Lair with face-down tiles, where a raid will strike."""
    await open_game(channel, alice, bob)
    await play(channel, alice, "place castle_morn", "place castle_morn")
    await play(channel, bob, "place redkeep", "place redkeep")

    def change(state):
        state["magicians"][0]["where"] = "place:underhill"
        state["magicians"][1]["where"] = "place:glenarrow"
        state["parties"][0] = {
            "companions": ["wulfstan", "cedric_the_bold", "ewan_strongarm"],
            "things": ["sword_of_the_well", "hart_bow", "amulet_of_power", "anti_fire_spell"],
            "kept": [],
        }
        state["parties"][1]["things"] = ["ulrichs_ashes"]

    await edit_snapshot(env.bot.host, 1, change)


async def test_a_fight_with_a_choice_of_losses_then_a_raid_on_a_hamlet(simcord_env, world):
    _, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    await set_up_the_fight(simcord_env, channel, alice, bob)

    await play(channel, alice, "go dragons_lair")
    inside = panel(channel, carol)
    assert "Aurric goes to The Dragon's Lair." in text_of(inside)
    assert "draws: " not in text_of(inside), "the tile is drawn only when asked"
    assert labels(inside) == ["Draw a Dragon Location tile"]
    await alice.click(inside, label="Draw a Dragon Location tile")
    drawn = panel(channel, carol)
    assert "Aurric draws: " in text_of(drawn) and "Aurric fights the Dragon at" in text_of(drawn)
    choices = labels(drawn)
    assert len(choices) == 4, "two things pictured twice: four placements"
    best = next(c for c in choices if c.startswith("Amulet of Power magic, Anti-Fire Spell magic"))
    assert "lose 2" in best

    await alice.click(drawn, label=best)
    fought = panel(channel, carol)
    assert "the Matrix reads 2/" in text_of(fought)
    assert "Aurric loses 2 of the party." in text_of(fought)
    assert [a.filename for a in fought.attachments] == ["board.png"], "the Battle Display"
    assert "Lose Wulfstan" in labels(fought)
    await alice.click(fought, label="Lose Hart Bow")
    second = panel(channel, carol)
    assert "it lies abandoned at" in text_of(second)
    await alice.click(second, label="Lose Wulfstan")

    raided = panel(channel, carol)
    assert "Aurric rests in Morgenthorme." in text_of(raided)
    assert "The Dragon raids Glenarrow: its face-down tiles are destroyed." in text_of(raided)
    assert "The Dragon attacks Galen in Glenarrow, as if at High Altitude." in text_of(raided)
    assert f"<@{bob.id}>" in text_of(raided)
    await bob.click(raided, label=labels(raided)[0])
    after = text_of(bot_posts(channel, viewer=carol)[-1])
    assert "Galen is slain by the Dragon and is out." in after
    table = await simcord_env.bot.host.desk.table(1)
    assert table.state["magicians"][1]["out"] and table.state["slots"]["glenarrow"] == [None, None]
    lying = [row for row, keys in table.state["abandoned"].items() if "hart_bow" in keys]
    assert len(lying) == 1, "the Hart Bow lies on the Abandoned Weapons Display"
    levels = int(re.search(r"the Matrix reads 2/(\d)", text_of(fought))[1])
    assert "wulfstan" in table.state["removed"] and table.state["dragon"] == 5 - levels
