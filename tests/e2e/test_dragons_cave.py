"""Dragon's Cave through the real bot on a simulated Discord: secret choices by DM.

Players open, join and start a game by slash commands, make their secret choices with the
buttons of the bot's direct messages, and see in the channel only how many choices are in
until everyone has chosen. A player whose DMs are closed plays through ephemeral messages,
and a restart between two picks loses neither.
"""

import re

from tests.e2e.conftest import answered, bot_posts, controls_in, part, play_move, text_of, texts

KINDS = ("Ruby", "Emerald", "Sapphire", "Amber", "Crystal")
TITLE = "**Dragon's Cave #1**"


# -- reading messages ------------------------------------------------------------------


def button_labels(message):
    """Labels of the buttons on a message (a ``discord.Message`` or a ResponseMessage)."""
    return [part(item, "label") for item in controls_in(message) if part(item, "label")]


def label_starting(message, prefix):
    """The one button label on ``message`` that starts with ``prefix`` (after the label of
    its place on the picture, such as ``A · ``, if it has one)."""
    found = [
        label for label in button_labels(message)
        if re.sub(r"^[A-Z]{1,2} · ", "", label).startswith(prefix)
    ]  # fmt: skip
    assert len(found) == 1, (prefix, button_labels(message))
    return found[0]


def dm_prompt(member, words):
    """The newest message with buttons in ``member``'s DMs whose text has ``words``.

    The DM history is read as the member sees it, ephemeral follow-ups included.
    """
    dm = member.user.dm_channel
    for message in reversed(dm.history(viewer=member.user)):
        if button_labels(message) and words in text_of(message):
            return message
    raise AssertionError(f"no DM prompt with {words!r} for {member.name}")


def counted(done, total):
    """What the channel hears of a round's answers so far."""
    return f"{done} of {total} choices {'is' if done == 1 else 'are'} in."


def round_post(channel):
    """The round's post (updated as answers come in), not a closed-DM button's post."""
    return next(p for p in reversed(bot_posts(channel)) if text_of(p).startswith(TITLE))


def new_posts(channel, seen):
    """Bot posts in ``channel`` after the first ``seen`` ones."""
    return bot_posts(channel)[seen:]


async def pick(member, words, prefix):
    """Click, in ``member``'s DM prompt containing ``words``, the button starting ``prefix``."""
    prompt = dm_prompt(member, words)
    return await member.user.click(prompt, label=label_starting(prompt, prefix))


async def host_view(env):
    """The game's public view, straight from the bot's game host."""
    table = await env.bot.host.desk.table(1)
    return table.engine.view(table.state, None)


async def open_game(world, players=3):
    """alice opens a Dragon's Cave table, bob (and carol) join, alice starts it."""
    _, channel, users = world
    names = ["alice", "bob", "carol", "dave"][:players]
    await users["alice"].slash(channel, "game new", game="dragons-cave", players=players)
    for name in names[1:]:
        await users[name].slash(channel, "game join")
    started = await users["alice"].slash(channel, "game start")
    assert "has started" in texts([started])[0]
    return channel, [users[name] for name in names]


async def secret_round(channel, picks, round_no):
    """Make every pick of a round by DM buttons, checking what the channel hears meanwhile.

    ``picks`` is ``[(member, kind name), ...]`` in click order; the Dragon's pick is a lair
    kind, everyone else's a card. Before the last pick, each pick adds exactly one channel
    post that only counts; each is acknowledged privately. Returns the posts of the last
    pick (the reveal).
    """
    total = len(picks)
    for done, (member, kind) in enumerate(picks, start=1):
        seen = len(bot_posts(channel))
        words = f"Round {round_no}:"
        prompt = dm_prompt(member, words)
        prefix = f"Sit on {kind}" if "you are the Dragon" in text_of(prompt) else f"{kind}:"
        result = await member.user.click(prompt, label=label_starting(prompt, prefix))
        acks = texts([result])
        assert all(m.ephemeral for m in answered(result))
        assert all(m.channel_id == member.user.dm_channel.id for m in answered(result))
        assert any(
            f"locked in: {kind}" in text or f"sit on the {kind} square" in text for text in acks
        ), acks
        posts = new_posts(channel, seen)
        if done < total:
            assert posts == [], "the round's post is updated, no post is added"
            told = text_of(round_post(channel))
            assert counted(done, total) in told, told
            assert not any(k in told.split(counted(done, total))[-1] for k in KINDS)
        else:
            return posts
    raise AssertionError("no picks")


# -- 1. a whole round trip: picks, reveal, a catch, the split and the Dragon's hand -----


async def test_secret_picks_by_dm_reveal_together_and_a_catch_settles_the_purse(simcord_env, world):
    channel, (alice, bob, carol) = await open_game(world)
    start = bot_posts(channel)[-1]
    assert "The game begins!" in text_of(start) and "0 of 3 in" in text_of(start)
    assert start.attachments[0].filename == "board.png"
    for member in (alice, bob, carol):
        assert member.mention in text_of(start)  # everyone is called to choose

    # Round 1: Red (alice) is the Dragon.
    reveal = await secret_round(channel, [(bob, "Ruby"), (carol, "Crystal"), (alice, "Amber")], 1)
    assert len(reveal) == 1
    text = text_of(reveal[0])
    assert "Round 1: the cards are revealed! The Dragon (Red) sits on the Amber square" in text
    assert "Blue plays Ruby and moves to square 1 (Ruby), taking 1 coin." in text
    assert "Green plays Crystal and moves to square 5 (Crystal), taking 2 coins." in text
    assert reveal[0].attachments and reveal[0].attachments[0].filename == "board.png"
    assert "The Dragon passes to Blue. Round 2 begins" in text

    # Rounds 2 and 3 pass the Dragon on; nobody is caught.
    await secret_round(channel, [(alice, "Crystal"), (carol, "Ruby"), (bob, "Sapphire")], 2)
    await secret_round(channel, [(carol, "Ruby"), (alice, "Emerald"), (bob, "Emerald")], 3)
    view = await host_view(simcord_env)
    assert view["purses"] == [3, 2, 3] and view["treasure"] == 36

    # Round 4: alice is the Dragon again and sits where carol steps: carol is caught.
    reveal = await secret_round(
        channel, [(bob, "Amber"), (carol, "Sapphire"), (alice, "Sapphire")], 4
    )
    text = text_of(reveal[0])
    assert "Green played Sapphire and is caught by the Dragon! Back to square 3" in text
    assert "Green must hide the coins of their Purse in two closed hands" in text
    assert reveal[0].attachments
    view = await host_view(simcord_env)
    assert view["purses"] == [3, 3, 3] and view["treasure"] == 35 and view["phase"] == "split"

    # carol splits in secret by her DM: 1 coin left, 2 right.
    seen = len(bot_posts(channel))
    split_prompt = dm_prompt(carol, "You were caught!")
    assert button_labels(split_prompt) == [f"Left hand {n}, right hand {3 - n}" for n in range(4)]
    result = await carol.user.click(split_prompt, label="Left hand 1, right hand 2")
    assert "Your hands are closed: 1 coin in the left, 2 in the right." in texts([result])
    posts = new_posts(channel, seen)
    assert len(posts) == 1
    asking = posts[0]
    assert "Purses hidden in closed hands: 1 of 1." in text_of(asking)
    assert "The Dragon (Red) now picks one hand of each caught player." in text_of(asking)
    assert not re.search(r"\d+ coins? in the (left|right)|right hand \d", text_of(asking))
    assert alice.mention in text_of(asking)
    assert button_labels(asking) == ["Green's left hand", "Green's right hand"]

    # Only the Dragon may pick; alice takes the right hand: 2 coins go back.
    refused = await bob.click(asking, label="Green's right hand")
    assert "not your turn" in texts([refused])[0]
    await alice.click(asking, label="Green's right hand")
    picked = text_of(bot_posts(channel)[-1])
    assert (
        "The Dragon picks Green's right hand: 2 coins back to the Treasure, 1 left in the Purse."
        in picked
    )
    assert "The Dragon passes to Blue. Round 5 begins" in picked
    view = await host_view(simcord_env)
    assert view["purses"] == [3, 3, 1] and view["treasure"] == 37
    assert view["dragon_role"] == "blue" and view["phase"] == "choose"
    status = await carol.slash(channel, "game status")
    assert "Round 5, Blue is the Dragon" in text_of(status.response)
    assert "Treasure: 37 coins." in text_of(status.response)
    assert status.response.ephemeral
    # carol's private view: her cards came back after the catch.
    hand = await carol.slash(channel, "hand")
    assert "Cards in hand: Ruby, Emerald, Sapphire, Amber, Crystal, Chest." in texts([hand])[0]


# -- 2. closed DMs: the channel offers a button, the player plays ephemerally ----------


async def test_a_player_with_closed_dms_plays_through_ephemeral_messages(
    simcord_env, world, restart
):
    _, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    bob_dm = bob.user.dm_channel
    dm_path = f"/channels/{bob_dm.id}/messages"
    simcord_env.inject_error("POST", dm_path, status=403, code=50007, times=None)

    channel, _ = await open_game(world)
    notice = bot_posts(channel)[-1]
    assert text_of(notice).startswith(f"{bob.mention}, I can't send you direct messages")
    assert "(only you will see it)" in text_of(notice) and "`/hand`" in text_of(notice)
    assert not any(k in text_of(notice) for k in KINDS) and "Chest" not in text_of(notice)
    assert button_labels(notice) == ["Make my choice privately"]
    assert not bob_dm.history()  # nothing reached bob's DMs
    attempts = [r for r in simcord_env.http_requests if r.method == "POST" and r.path == dm_path]
    assert len(attempts) == 1

    # The button opens bob's choice for his eyes only.
    opened = await bob.click(notice, label="Make my choice privately")
    prompt = opened.response
    assert prompt.ephemeral
    assert "Round 1: choose a card in secret." in text_of(prompt)
    assert "Cards in hand: Ruby, Emerald, Sapphire, Amber, Crystal, Chest." in text_of(prompt)
    assert prompt.id not in {m.id for m in channel.history(viewer=alice)}
    assert prompt.id not in {m.id for m in channel.history(viewer=carol)}
    assert prompt.id in {m.id for m in channel.history(viewer=bob)}

    # /hand opens the same pending choice again, also only for bob.
    hand = await bob.slash(channel, "hand")
    reopened = hand.response
    assert reopened.ephemeral and "Waiting for you: Round 1: choose a card" in text_of(reopened)
    assert button_labels(reopened) == button_labels(prompt)
    assert reopened.id not in {m.id for m in channel.history(viewer=alice)}

    # bob plays on the ephemeral message the button opened; the answer is ephemeral too.
    seen = len(bot_posts(channel))
    played = await bob.click(prompt, label=label_starting(prompt, "Emerald:"))
    ack = answered(played)[-1]
    assert ack.ephemeral and "Your card is locked in: Emerald." in text_of(ack)
    assert ack.id not in {m.id for m in channel.history(viewer=alice)}
    assert new_posts(channel, seen) == [] and counted(1, 3) in text_of(round_post(channel))

    # carol and alice choose by DM; the reveal is public.
    await pick(carol, "Round 1:", "Ruby:")
    await pick(alice, "Round 1:", "Sit on Ruby")
    posts = bot_posts(channel)
    reveal = next(p for p in reversed(posts) if "the cards are revealed" in text_of(p))
    assert "Blue plays Emerald and moves to square 2 (Emerald), taking 1 coin." in text_of(reveal)
    assert "Green played Ruby and is caught by the Dragon!" in text_of(reveal)
    assert reveal.attachments

    # Round 2: bob is the Dragon. The bot does not try his DMs again: a new button post.
    notice = bot_posts(channel)[-1]
    assert text_of(notice).startswith(f"{bob.mention}, I can't send you direct messages")
    assert button_labels(notice) == ["Make my choice privately"]
    attempts = [r for r in simcord_env.http_requests if r.method == "POST" and r.path == dm_path]
    assert len(attempts) == 1

    # The failure is remembered across a restart; bob answers through /hand.
    await restart()
    hand = await bob.slash(channel, "hand")
    assert "Waiting for you: Round 2: you are the Dragon." in text_of(hand.response)
    assert hand.response.ephemeral
    result = await play_move(bob, hand.response, "Sit on Crystal (violet star)")
    assert "The Dragon will sit on the Crystal square of its lair." in texts([result])
    assert counted(1, 3) in text_of(round_post(channel))
    await pick(alice, "Round 2:", "Amber:")
    await pick(carol, "Round 2:", "Crystal:")
    reveal = bot_posts(channel)
    text = next(text_of(p) for p in reversed(reveal) if "the cards are revealed" in text_of(p))
    assert "The Dragon (Blue) sits on the Crystal square" in text
    assert "Green played Crystal and is caught by the Dragon!" in text
    assert "Round 3 begins" in text
    assert text_of(bot_posts(channel)[-1]).startswith(f"{bob.mention}, I can't send you direct")
    assert not bob_dm.history()
    attempts = [r for r in simcord_env.http_requests if r.method == "POST" and r.path == dm_path]
    assert len(attempts) == 1


# -- 3. a restart between two picks ----------------------------------------------------


async def test_a_restart_between_two_picks_loses_neither(simcord_env, world, restart):
    channel, (alice, bob, carol) = await open_game(world)
    old_bob = dm_prompt(bob, "Round 1:")
    old_carol = dm_prompt(carol, "Round 1:")
    await pick(alice, "Round 1:", "Sit on Emerald")
    assert counted(1, 3) in text_of(round_post(channel))

    await restart()

    # The buttons of DMs sent before the restart still work.
    result = await bob.user.click(old_bob, label=label_starting(old_bob, "Sapphire:"))
    assert "Your card is locked in: Sapphire." in texts([result])
    assert counted(2, 3) in text_of(round_post(channel))
    await restart()
    await carol.user.click(old_carol, label=label_starting(old_carol, "Emerald:"))
    reveal = bot_posts(channel)[-1]
    assert "The Dragon (Red) sits on the Emerald square" in text_of(reveal)
    assert "Blue plays Sapphire and moves to square 3 (Sapphire), taking 1 coin." in text_of(reveal)
    assert "Green played Emerald and is caught by the Dragon! Back to Start" in text_of(reveal)
    assert reveal.attachments
    view = await host_view(simcord_env)
    assert view["round"] == 2 and view["purses"] == [0, 1, 0]


# -- 4. autocomplete offers only the typer's own choices -------------------------------


async def test_autocomplete_never_offers_another_players_secret(simcord_env, world):
    channel, (alice, bob, carol) = await open_game(world)
    before = await bob.autocomplete(channel, "move", "action", "")
    assert before and all(c["value"].startswith("card ") for c in before)
    assert [c["value"] for c in before] == [
        "card ruby", "card emerald", "card sapphire", "card amber", "card crystal", "card chest"
    ]  # fmt: skip

    await pick(alice, "Round 1:", "Sit on Amber")
    assert await bob.autocomplete(channel, "move", "action", "") == before
    assert await bob.autocomplete(channel, "move", "action", "lair") == []
    assert await bob.autocomplete(channel, "move", "action", "amber") == [
        c for c in before if c["value"] == "card amber"
    ]
    assert await alice.autocomplete(channel, "move", "action", "") == []

    # carol plays by typing; bob still sees only his own cards, never hers.
    await carol.slash(channel, "move", action="card sapphire")
    assert await bob.autocomplete(channel, "move", "action", "") == before
    assert await carol.autocomplete(channel, "move", "action", "") == []
    await bob.slash(channel, "move", action="card amber")
    reveal = text_of(bot_posts(channel)[-1])
    assert "Blue played Amber and is caught by the Dragon!" in reveal
    assert "Green plays Sapphire" in reveal
