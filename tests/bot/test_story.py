"""A game's story through the game host: history by turn from public events only, records
written and read back, replays drawn with their progress told, finished games listed.

The differential checks follow the leak tests: copies of a game that differ only in a
secret (a Dragon's Cave card, lair square or hand split; two face-down Dragonslayer tiles
or a King's men's strengths) must give the same history and the same running record to
everybody until the rules reveal that secret.
"""

from __future__ import annotations

import io
import random
import re
from dataclasses import dataclass, replace

import pytest
from PIL import Image

from bot.service.errors import UserError
from bot.service.history import record as records
from bot.service.history.story import MARKERS, SECRET, Walker, walk
from bot.service.host import GameHost
from bot.service.notices import ChannelPost
from games import render
from render.replay import animate, spread
from tests.bot import leak_checks
from tests.bot.clocks import TickingClock
from tests.bot.leak_checks import USERS, Stores, everyone_asked, state_of
from tests.bot.test_dragonslayer_leaks import pick, reveals, swap_strengths, swap_tiles

GUILD, CHANNEL, ALICE, BOB = 1, 10, 101, 102
STORES = Stores()
MAX_BRANCHES = 3
"""Copies followed at once (each comparison replays the whole log of both games)."""


@pytest.fixture(autouse=True)
async def close_stores():
    yield
    await STORES.close_all()


async def toy_game(host: GameHost) -> int:
    opened = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice", slug="toy"
    )
    game_id = next(n.game_id for n in opened.notices if isinstance(n, ChannelPost))
    await host.lobby.join(game_id=game_id, user_id=BOB, user_name="bob")
    await host.lobby.start(game_id=game_id, user_id=ALICE)
    return game_id


async def real_game(store, slug: str, players: int = 2, **drawing) -> tuple[GameHost, int]:
    """A started game of ``slug`` on ``store``, drawn with the real renderers (or with the
    ``drawer`` and ``animator`` given in ``drawing``)."""
    host = GameHost(store, renderer=render, clock=TickingClock(), seeds=random.Random(5), **drawing)
    opened = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=USERS[0], user_name="alice", slug=slug,
        players=players,
    )  # fmt: skip
    game_id = next(n.game_id for n in opened.notices if isinstance(n, ChannelPost))
    for user, name in zip(USERS[1:players], leak_checks.NAMES[1:players], strict=True):
        await host.lobby.join(game_id=game_id, user_id=user, user_name=name)
    await host.lobby.start(game_id=game_id, user_id=USERS[0])
    return host, game_id


async def play_randomly(host: GameHost, game_id: int, chooser: random.Random, actions: int):
    users = list(USERS)
    for _ in range(actions):
        if (await host.store.get_game(game_id)).status != "running":
            return
        user, control = chooser.choice(await everyone_asked(host, game_id, users))
        action = chooser.choice(control.choices).action
        await host.turns.act(game_id=game_id, user_id=user, action=action)


async def every_page(host: GameHost, game_id: int, user: int) -> list[str]:
    latest = str((await host.stories.history(game_id=game_id, user_id=user)).text)
    count = int(re.search(r"page (\d+) of \1", latest)[1])
    pages = [
        str((await host.stories.history(game_id=game_id, page=n)).text) for n in range(1, count)
    ]
    return [*pages, latest]


async def told(host: GameHost, game_id: int, user: int) -> tuple:
    """What the story tells ``user`` now: the latest history page (where each action first
    shows; older pages were the latest once), and the record file with every action."""
    exported = await host.stories.export_record(game_id=game_id, user_id=user)
    return str((await host.stories.history(game_id=game_id, user_id=user)).text), exported.data


# -- history ---------------------------------------------------------------------------


async def test_history_groups_by_turn_and_hides_secret_picks_until_revealed(host):
    game_id = await toy_game(host)
    await host.turns.act(game_id=game_id, user_id=ALICE, action="pick 3")
    text = str((await host.stories.history(game_id=game_id, user_id=BOB)).text)
    assert "**Turn 1** · Even (alice)" in text
    assert f"{SECRET.plain()} — 1 of 2 picks are in." in text
    assert "3" not in text.split("\n", 2)[2]  # the pick is nowhere, nor "You picked 3."
    await host.turns.act(game_id=game_id, user_id=BOB, action="pick 1")
    await host.turns.act(game_id=game_id, user_id=ALICE, action="roll")
    lines = str((await host.stories.history(game_id=game_id, user_id=BOB)).text).splitlines()
    assert lines[0].startswith("📖 **Toy Game #1**: history of the game so far, page 1 of 1")
    assert lines[1:5] == [
        "**Turn 1** · Even (alice), Odd (bob)",
        f"{SECRET.plain()} — 1 of 2 picks are in.",
        f"{SECRET.plain()} — Picks revealed: Even 3, Odd 1.",
        "**Turn 2** · Even (alice)",
    ]
    assert re.fullmatch(r"`roll` — Even rolled \d\.", lines[5])
    assert not any("You picked" in line for line in lines)


async def test_history_pages_hold_whole_turns_and_default_to_the_latest(store):
    host, game_id = await real_game(store, "stgeorge")
    await play_randomly(host, game_id, random.Random(3), 160)
    pages = await every_page(host, game_id, USERS[0])
    assert len(pages) >= 3
    assert all(len(page) <= 2000 for page in pages)
    assert "**Turn 1** · " in pages[0] and "**Turn 1** · " not in pages[1]
    assert all(page.split("\n", 2)[1].startswith("**Turn ") for page in pages)
    numbers = [int(n) for page in pages for n in re.findall(r"\*\*Turn (\d+)\*\*", page)]
    assert numbers == list(range(1, len(numbers) + 1))
    assert "(older: `page:" in pages[-1] and "(older" not in pages[0]
    with pytest.raises(UserError, match=f"ask for a `page` from 1 to {len(pages)}"):
        await host.stories.history(game_id=game_id, page=len(pages) + 1)


async def test_history_before_the_start_says_there_is_none_yet(host):
    opened = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice", slug="toy"
    )
    game_id = next(n.game_id for n in opened.notices if isinstance(n, ChannelPost))
    with pytest.raises(UserError, match="has not started yet"):
        await host.stories.history(game_id=game_id)


async def test_history_shows_markers_it_does_not_know_as_plain_lines(host):
    game_id = await toy_game(host)
    await host.turns.act(game_id=game_id, user_id=ALICE, action="pick 2")
    record = await host.store.get_game(game_id)
    for marker in ("!draw", "!takeback", "!brand-new-thing"):
        record = await host.store.get_game(game_id)
        await host.store.append_action(
            game_id, record.version, seat=1, action=marker, events=[], now=2e6
        )
    text = str((await host.stories.history(game_id=game_id)).text)
    assert MARKERS["!draw"].plain() in text and MARKERS["!takeback"].plain() in text
    assert "brand new thing" in text
    exported = records.read((await host.stories.export_record(game_id=game_id)).data.decode())
    assert [m.action for m in exported.moves][-3:] == ["!draw", "!takeback", "!brand-new-thing"]


# -- secrets, differentially -----------------------------------------------------------


@dataclass
class Branch:
    host: GameHost
    holder: int
    seat: int
    kind: str
    round: int
    fresh: bool = True  # it has just taken its own answer


def dragons_cave_revealed(branch: Branch, roles, action: str, after) -> bool:
    if branch.kind in ("card", "lair"):
        return after["round"] != branch.round or after["phase"] != "choose"
    target = roles[branch.seat]
    return action.startswith(f"hand {target} ") or after["phase"] == "over"


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (2, 3)], ids=str)
async def test_dragons_cave_history_and_record_hide_every_secret_until_revealed(players, seed):
    host, game_id = await leak_checks.open_game(STORES, "dragons-cave", players)
    users = list(USERS[:players])
    chooser = random.Random(f"story:{players}:{seed}")
    roles = (await state_of(host, game_id))["roles"]
    branches: list[Branch] = []
    checked = {"card": 0, "lair": 0, "split": 0, "comparisons": 0, "told apart": 0}
    for _ in range(600):
        if (await host.store.get_game(game_id)).status != "running":
            break
        before = await state_of(host, game_id)
        user, control = chooser.choice(await everyone_asked(host, game_id, users))
        action = chooser.choice(control.choices).action
        prompt = control.prompt
        others = [c.action for c in control.choices if c.action != action]
        if prompt.secret and others and len(branches) < MAX_BRANCHES:
            twin = await leak_checks.fork(STORES, host, "dragons-cave")
            await twin.turns.act(game_id=game_id, user_id=user, action=chooser.choice(others))
            branches.append(Branch(twin, user, prompt.seat, prompt.kind, before["round"]))
            checked[prompt.kind] += 1
        await host.turns.act(game_id=game_id, user_id=user, action=action)
        after = await state_of(host, game_id)
        kept = []
        for branch in branches:
            if not branch.fresh:
                await branch.host.turns.act(game_id=game_id, user_id=user, action=action)
            branch.fresh = False
            reader = next(u for u in users if u != branch.holder)
            same = await told(branch.host, game_id, reader) == await told(host, game_id, reader)
            if dragons_cave_revealed(branch, roles, action, after):
                checked["told apart"] += not same
                await STORES.close(branch.host)
                continue
            assert same, f"{branch.kind} of seat {branch.seat} shows in the story at {action}"
            checked["comparisons"] += 1
            kept.append(branch)
        branches = kept
    assert (await host.store.get_game(game_id)).status == "finished"
    assert checked["card"] and checked["lair"] and checked["split"] and checked["comparisons"]
    assert checked["told apart"], "a revealed secret changes the story: the check can fail"


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2)], ids=str)
async def test_dragonslayer_history_and_record_hide_face_down_tiles(players, seed):
    host, game_id = await leak_checks.open_game(STORES, "dragonslayer", players)
    users = list(USERS[:players])
    chooser = random.Random(f"story:dragonslayer:{players}:{seed}")
    twins = [await swap_strengths(STORES, host, game_id, chooser.randrange(players))]
    for place in ("pennick", "caerlow", "eastwold", "culnakask", "wyvernsby", "lathom"):
        twin = await swap_tiles(STORES, host, game_id, place)
        if twin is not None:
            twins.append(twin)
    assert sum(t.kind == "tiles" for t in twins) >= 2
    checked = {"comparisons": 0, "revealed": 0}
    for step in range(160):
        before = await state_of(host, game_id)
        user, control, action = pick(chooser, await everyone_asked(host, game_id, users))
        for twin in list(twins):
            if reveals(twin, before, control.prompt.seat, action):
                twins.remove(twin)
                await STORES.close(twin.host)
                checked["revealed"] += 1
        await host.turns.act(game_id=game_id, user_id=user, action=action)
        for twin in twins:
            await twin.host.turns.act(game_id=game_id, user_id=user, action=action)
        if step % 8 == 7:  # each comparison replays the whole log: not after every action
            for twin in twins:
                reader = next(u for u in users if u != twin.holder)
                mine = await told(host, game_id, reader)
                assert await told(twin.host, game_id, reader) == mine, (twin.kind, twin.place)
                checked["comparisons"] += 1
    assert checked["comparisons"] >= 20 and checked["revealed"] >= 1


# -- records ---------------------------------------------------------------------------


async def test_a_finished_record_replays_to_the_same_final_board(store):
    host, game_id = await real_game(store, "dragons-cave", 3)
    await play_randomly(host, game_id, random.Random(8), 600)
    record = await host.store.get_game(game_id)
    assert record.status == "finished"
    exported = await host.stories.export_record(game_id=game_id)
    text = exported.data.decode()
    parsed = records.read(text)
    assert records.write(parsed) == text
    assert parsed.complete and parsed.seed == str(record.seed)
    assert parsed.headers["Result"] == record.result and parsed.headers["Status"] == "finished"
    assert [m.seq for m in parsed.moves] == [a.seq for a in await host.store.actions(game_id)]
    played = await host.stories.play_record(text)
    status = await host.listings.status(game_id=game_id)
    assert played.board == status.board
    assert f"🏆 {record.result}" in str(played.text)


async def test_a_running_record_hides_secret_answers_and_leaves_out_the_seed(host):
    game_id = await toy_game(host)
    await host.turns.act(game_id=game_id, user_id=ALICE, action="pick 3")
    text = (await host.stories.export_record(game_id=game_id)).data.decode()
    assert "Seed" not in text and "pick 3" not in text
    assert text.rstrip().endswith(f"even: {records.HIDDEN}")
    with pytest.raises(UserError, match="still under way"):
        await host.stories.play_record(text)


TOY_HEAD = '[Game "toy"]\n[Players "2"]\n[Seat1 "even"]\n[Seat2 "odd"]\n'


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("hello", "neither a header"),
        ('[Game "toy"]\n', "needs a `[Players"),
        ('[Game "toy"]\n[Players "2"]\n[Seat1 "even"]\n', "needs a `Seat2`"),
        (TOY_HEAD + "\n1. queen: pick 1\n", "`queen`"),
        (TOY_HEAD + '[Seed "1"]\n\n5. even: jump\n', "does not play back"),
    ],
)
async def test_a_bad_record_is_refused_saying_what_is_wrong(host, text, says):
    with pytest.raises(UserError, match=re.escape(says)):
        await host.stories.play_record(text)


# -- replays ---------------------------------------------------------------------------


async def test_a_replay_draws_every_turn_change_and_tells_its_progress(store):
    host, game_id = await real_game(store, "lions-dragons")
    await play_randomly(host, game_id, random.Random(1), 9)
    heard = []

    async def progress(done, total):
        heard.append((done, total))

    made = await host.stories.replay_animation(game_id=game_id, progress=progress)
    assert heard == [(n, 10) for n in range(11)]
    with Image.open(io.BytesIO(made.data)) as image:
        assert image.format == "GIF" and image.n_frames == 10 and image.width == 800
    later = await host.stories.replay_animation(game_id=game_id, from_turn=7)
    with Image.open(io.BytesIO(later.data)) as image:
        assert image.n_frames == 4
    assert "turns 7 to 10" in later.text  # the tenth under way
    with pytest.raises(UserError, match="between 1 and 10"):
        await host.stories.replay_animation(game_id=game_id, from_turn=11)


async def test_a_table_without_pictures_cannot_draw_a_replay(store):
    host = GameHost(store, clock=TickingClock(), seeds=random.Random(1))
    opened = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice", slug="stgeorge"
    )
    game_id = next(n.game_id for n in opened.notices if isinstance(n, ChannelPost))
    with pytest.raises(UserError, match="draws no pictures"):
        await host.stories.replay_animation(game_id=game_id)


def solid(colour: str) -> bytes:
    out = io.BytesIO()
    noise = Image.effect_noise((400, 300), 90).convert("RGB")
    Image.blend(Image.new("RGB", (400, 300), colour), noise, 0.5).save(out, "PNG")
    return out.getvalue()


def test_a_replay_too_big_keeps_fewer_boards_with_the_first_and_the_last():
    colours = ["red", "green", "blue", "yellow", "purple", "orange", "white", "black"] * 3
    pictures = [solid(c) for c in colours]
    whole = animate(pictures)
    cut = animate(pictures, limit=len(whole) // 3)
    assert len(cut) <= len(whole) // 3
    with Image.open(io.BytesIO(cut)) as image:
        assert 2 <= image.n_frames < len(pictures)
        first = image.convert("RGB").getpixel((200, 150))
        image.seek(image.n_frames - 1)
        last = image.convert("RGB").getpixel((200, 150))
    assert first[0] > 120 and first[1] < 120  # red-ish
    assert max(last) < 130  # black-ish


def test_frames_are_dropped_evenly():
    assert spread(list(range(10)), 4) == [0, 3, 6, 9]
    assert spread(list(range(5)), 9) == [0, 1, 2, 3, 4]


# -- finished games --------------------------------------------------------------------


async def test_finished_games_are_listed_and_offered(host):
    game_id = await toy_game(host)
    while (await host.store.get_game(game_id)).status == "running":
        table = await host.desk.table(game_id)
        prompt = table.prompts()[0]
        first = table.engine.legal_actions(table.state, prompt.seat)[0].action
        await host.turns.act(
            game_id=game_id, user_id=table.record.user_at(prompt.seat), action=first
        )
    result = (await host.store.get_game(game_id)).result
    listed = str((await host.listings.list_games(guild_id=GUILD, show="finished")).text)
    assert f"#{game_id} Toy Game" in listed and result in listed
    assert f"#{game_id}" not in str((await host.listings.list_games(guild_id=GUILD)).text)
    mine = str((await host.listings.mine(guild_id=GUILD, user_id=BOB)).text)
    assert "Finished lately" in mine and result in mine
    offered = await host.listings.story_choices(guild_id=GUILD)
    assert offered == [(game_id, f"#{game_id} Toy Game (finished)")]
    assert await host.listings.game_choices(guild_id=GUILD) == []


async def test_a_story_walked_on_in_steps_is_the_story_walked_at_once():
    """A game followed move by move (a web page) is walked on from where it was: the same
    entries, boards and end as one walk of the whole log, a takeback included."""
    store = await STORES.new()
    host, game_id = await real_game(store, "stgeorge")
    await play_randomly(host, game_id, random.Random(4), 12)
    record = await host.store.get_game(game_id)
    actions = await host.store.actions(game_id)
    takeback = replace(actions[5], seq=actions[-1].seq + 1, action="!takeback", events=[])
    actions = [*actions, takeback]
    engine = (await host.desk.table(game_id)).engine
    whole = walk(engine, record, actions, every_view=True)
    walker = Walker(engine, record, every_view=True)
    for end in (0, 1, 2, 5, 9, len(actions) - 1, len(actions)):
        walker.walk_on(actions[:end])  # the whole log as read each time, as a page does
        assert walker.story().entries == whole.entries[:end]
    stepped = walker.story()
    assert stepped.entries == whole.entries
    assert engine.view(stepped.final, None) == engine.view(whole.final, None)
    assert stepped.turns == whole.turns and stepped.entries[-1].action == "!takeback"
