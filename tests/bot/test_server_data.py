"""A server's corrected data files through the host (``/game data``, ``/rules``), on every
store: checked before they are kept, used by games opened on that server afterwards and by
nothing else, kept with each game for its whole life (replays too), and shown in
``/rules`` with who uploaded them."""

import asyncio
import contextlib
import json
import random

import pytest

from bot.service import wire
from bot.service.community.server_data import CORRECTIONS_TITLE, UPLOAD_LIMIT
from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.notices import Board, ChannelPost
from bot.service.tables import replay, table_from
from bot.service.text import Mention
from engines import data
from tests.bot.clocks import TickingClock

SERVER, OTHER, CHANNEL, OTHER_CHANNEL = 1, 2, 10, 20
ALICE, BOB, CAROL = 101, 102, 103
RICH = {"coins": [[3, 3, 3, 3, 3]] * 4}
"""A correction of Dragon's Cave's path: every square pays 3 coins."""


@pytest.fixture
async def host(store):
    drawn = []

    def renderer(slug, view):
        # What a board is drawn with: the coins of the data in effect while drawing.
        drawn.append(data.load("dragons_cave", "path")["coins"])
        return b"png"

    host = GameHost(store, renderer=renderer, clock=TickingClock(), seeds=random.Random(3))
    host.drawn = drawn
    return host


async def upload(host, fields, *, guild=SERVER, user=ALICE, name="path.json", admin=True):
    content = fields if isinstance(fields, bytes) else json.dumps(fields).encode()
    outcome = await host.server_data.upload_data(
        guild_id=guild, channel_id=CHANNEL, user_id=user, game="dragons-cave",
        file_name=name, content=content, is_admin=admin,
    )  # fmt: skip
    return outcome.replies[0].text


async def open_game(host, guild=SERVER, channel=CHANNEL):
    outcome = await host.lobby.new_game(
        guild_id=guild, channel_id=channel, user_id=ALICE, user_name="alice",
        slug="dragons-cave",
    )  # fmt: skip
    return next(n for n in outcome.notices if isinstance(n, ChannelPost)).game_id


async def started(host, guild=SERVER, channel=CHANNEL):
    game = await open_game(host, guild, channel)
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.start(game_id=game, user_id=ALICE)
    return game


async def coins_on_board(host, game):
    """The coins of the squares on the board the players are shown."""
    reply = await host.listings.status(game_id=game, user_id=ALICE)
    return {square["coins"] for square in reply.board.view["path"]}


async def test_an_accepted_correction_says_what_changed_and_is_used_by_games_opened_after_it(host):
    text = await upload(host, RICH)
    assert "Kept `path.json` for Dragon's Cave" in text
    assert "Differs from the bundled values: `coins`" in text
    here = await started(host)
    elsewhere = await started(host, OTHER, OTHER_CHANNEL)
    assert await coins_on_board(host, here) == {3}
    assert await coins_on_board(host, elsewhere) == {1, 2, 3}


async def test_a_game_keeps_the_data_it_was_opened_with_whatever_is_uploaded_or_cleared_later(
    host,
):
    before = await open_game(host)
    await upload(host, RICH)
    corrected = await open_game(host)
    for game in (before, corrected):
        await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
        await host.lobby.start(game_id=game, user_id=ALICE)
    await host.server_data.clear_data(
        guild_id=SERVER, user_id=ALICE, game="dragons-cave", is_admin=True
    )
    after = await started(host)
    assert await coins_on_board(host, before) == {1, 2, 3}
    assert await coins_on_board(host, corrected) == {3}
    assert await coins_on_board(host, after) == {1, 2, 3}


async def test_a_corrected_game_replays_exactly_and_its_boards_are_drawn_with_its_data(host):
    await upload(host, RICH)
    game = await started(host)
    table = table_from(await host.store.get_game(game))
    for seat in range(len(table.role_keys())):
        user = (ALICE, BOB)[seat]
        prompts = [p for p in table.prompts() if p.seat == seat]
        if prompts:
            action = table.engine.legal_actions(table.state, seat)[0].action
            await host.turns.act(game_id=game, user_id=user, action=action)
    record = await host.store.get_game(game)
    logged = [(a.seq, a.seat, a.action) for a in await host.store.actions(game)]
    assert logged
    assert table_from(record).engine.dump(replay(record, logged)) == record.snapshot
    board = (await host.listings.status(game_id=game, user_id=ALICE)).board
    # The board travels through the outbox with the game's data, and is drawn with it.
    post = ChannelPost(game, CHANNEL, "x", board=board)
    sent = wire.load(json.loads(json.dumps(wire.dump(post))))
    assert await host.drawing.draw(sent.board) == b"png"
    assert await host.drawing.draw(Board("dragons-cave", board.view)) == b"png"
    assert host.drawn[-2] == RICH["coins"] and host.drawn[-1] != RICH["coins"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ({"coins": [[1, 2]]}, "path.json: coins"),
        ({"coins": "many"}, "path.json: coins"),
        ({"coin": [[1] * 5] * 4}, "path.json: coin is not a field of this file"),
        (b'{"coins": [[1, 1, 1, 1, 1],\n  [1, 1, 1 1]]}', "not valid JSON, line 2 column"),
        (b"[1, 2, 3]", "must be a JSON object"),
    ],
)
async def test_a_correction_that_cannot_be_used_is_refused_naming_its_field_and_not_kept(
    host, content, message
):
    with pytest.raises(UserError) as refused:
        await upload(host, content)
    assert message in refused.value.text
    assert "not kept" in refused.value.text
    assert await host.store.guild_data(SERVER) == []
    assert await coins_on_board(host, await started(host)) == {1, 2, 3}


async def test_only_members_with_manage_server_change_a_servers_data_and_only_in_a_server(host):
    with pytest.raises(UserError, match="Only members with Manage Server may upload"):
        await upload(host, RICH, admin=False)
    with pytest.raises(UserError, match="belongs to a server"):
        await upload(host, RICH, guild=None)
    await upload(host, RICH)
    with pytest.raises(UserError, match="Only members with Manage Server may clear"):
        await host.server_data.clear_data(
            guild_id=SERVER, user_id=BOB, game="dragons-cave", is_admin=False
        )
    assert len(await host.store.guild_data(SERVER)) == 1


@pytest.mark.parametrize(
    ("name", "size", "message"),
    [
        ("board.json", 10, "This game has no data file `board.json`. Its files: `path.json`"),
        ("path.txt", 10, "is not a `.json` file"),
        ("path.json", UPLOAD_LIMIT + 1, "a corrected file may be at most 256 KB"),
    ],
)
async def test_a_file_of_the_wrong_name_or_size_is_refused_saying_what_to_upload(
    host, name, size, message
):
    with pytest.raises(UserError, match=message.replace("`", ".").replace("(", ".")):
        await upload(host, b" " * size, name=name)


async def test_show_lists_each_file_with_who_uploaded_it_and_clear_removes_them(host):
    empty = (await host.server_data.show_data(guild_id=SERVER)).replies[0].text
    assert "no corrected data for any game" in empty
    await upload(host, RICH, user=CAROL)
    shown = (await host.server_data.show_data(guild_id=SERVER, game="dragons-cave")).replies[0].text
    assert "Dragon's Cave, `path.json` (`coins`)" in shown.plain()
    assert Mention(CAROL) in shown
    assert (await host.server_data.show_data(guild_id=OTHER)).replies[0].text == empty
    cleared = await host.server_data.clear_data(
        guild_id=SERVER, user_id=ALICE, game="dragons-cave", is_admin=True
    )
    assert "Removed 1 corrected file of Dragon's Cave" in cleared.replies[0].text
    with pytest.raises(UserError, match="no corrected data for Dragon's Cave"):
        await host.server_data.clear_data(
            guild_id=SERVER, user_id=ALICE, game="dragons-cave", is_admin=True
        )


async def test_a_second_upload_of_another_file_is_checked_with_the_first(host):
    await host.server_data.upload_data(
        guild_id=SERVER, channel_id=CHANNEL, user_id=ALICE, game="lions-dragons",
        file_name="setup.json", content=b'{"reserve": 2}', is_admin=True,
    )  # fmt: skip
    again = await host.server_data.upload_data(
        guild_id=SERVER, channel_id=CHANNEL, user_id=BOB, game="lions-dragons",
        file_name="setup.json", content=b'{"reserve": 1}', is_admin=True,
    )  # fmt: skip
    assert "`reserve`" in again.replies[0].text
    [row] = await host.store.guild_data(SERVER)
    assert (row.content, row.user_id) == ({"reserve": 1}, BOB)
    opened = await host.lobby.new_game(
        guild_id=SERVER, channel_id=CHANNEL, user_id=ALICE, user_name="alice",
        slug="lions-dragons",
    )  # fmt: skip
    game = next(n for n in opened.notices if isinstance(n, ChannelPost)).game_id
    assert (await host.store.get_game(game)).options["reserve"] == 1


async def test_rules_on_a_server_show_its_corrections_and_who_made_them(host):
    await upload(host, RICH, user=CAROL)
    here = await host.server_data.rules_sections("dragons-cave", SERVER)
    elsewhere = await host.server_data.rules_sections("dragons-cave", OTHER)
    in_dms = await host.server_data.rules_sections("dragons-cave", None)
    [corrections] = [s for s in here if s.title == CORRECTIONS_TITLE]
    assert "`coins`: `[[3, 3, 3, 3, 3]" in corrections.text.plain()
    assert "(bundled: `[[1, 1, 1, 1, 2]" in corrections.text.plain()
    assert Mention(CAROL) in corrections.text
    assert CORRECTIONS_TITLE not in [s.title for s in elsewhere + in_dms]
    assert [s.title for s in elsewhere] == [s.title for s in in_dms]


async def test_rules_are_sections_that_each_fit_in_one_message(host):
    for slug in ("stgeorge", "lions-dragons", "dragons-cave", "dragonslayer"):
        sections = await host.server_data.rules_sections(slug)
        assert 5 <= len(sections) <= 25
        assert all(len(str(s.text)) <= 1900 and len(s.title) <= 100 for s in sections)
        shown = "\n".join(str(s.text) for s in sections)
        lines = [line for line in _rules_text(slug).splitlines() if line.strip()]
        assert all(line in shown for line in lines if not line.startswith("#")), slug
    titles = [s.title for s in await host.server_data.rules_sections("dragonslayer")]
    assert "Playing" in titles and "The Dragon (1/2)" in titles


def _rules_text(slug):
    from games import ENGINES

    return ENGINES[slug].rules_help()


async def test_a_board_drawn_in_a_worker_process_uses_the_games_corrected_data(store):
    from bot.service.boards.pictures import Pictures
    from engines.replay import setup_rng
    from games import ENGINES, render

    castles = json.loads(json.dumps(data.load("stgeorge", "board")["castles"]))
    castles["george"]["name"] = "St. Georgina"
    corrected = data.check_corrections("stgeorge", "board", {"castles": castles}).to_json()
    engine = ENGINES["stgeorge"]
    roles = [r.key for r in engine.roles(2, engine.parse_options(""))]
    view = engine.view(engine.setup(roles, engine.parse_options(""), setup_rng(5)), None)
    pictures = Pictures(1, warm=False)
    try:
        host = GameHost(store, drawer=pictures.draw, seeds=random.Random(1))
        with_data = await host.drawing.draw(Board("stgeorge", view, corrected))
        without = await host.drawing.draw(Board("stgeorge", view))
    finally:
        await pictures.close()
    with data.corrected(corrected):
        assert with_data == render("stgeorge", view)
    assert without == render("stgeorge", view) != with_data


async def test_a_computer_seat_decides_in_its_thread_with_the_games_corrected_data(
    host, monkeypatch
):
    from bot.service.play import computers
    from players import Decision

    seen = []

    class Watching:
        def choose(self, game, state, seat, rng):
            seen.append(data.load("dragons_cave", "path")["coins"])
            return Decision(game.legal_actions(state, seat)[0].action)

    class Spec:
        def player(self, level):
            return Watching()

    monkeypatch.setattr(computers, "spec_for", lambda slug: Spec())
    await upload(host, RICH)
    corrected = await started(host)
    await host.server_data.clear_data(
        guild_id=SERVER, user_id=ALICE, game="dragons-cave", is_admin=True
    )
    plain = await started(host)
    for game in (corrected, plain):
        table = table_from(await host.store.get_game(game))
        seat = table.prompts()[0].seat
        await asyncio.to_thread(
            computers.decide, table.engine, table.state, seat, "strong", random.Random(1)
        )
    assert seen[0] == RICH["coins"] and seen[1] != RICH["coins"]


async def test_a_corrected_games_record_carries_its_data_and_plays_back_with_it(host):
    from bot.service.history.record import BadRecord

    await host.server_data.upload_data(
        guild_id=SERVER, channel_id=CHANNEL, user_id=ALICE, game="lions-dragons",
        file_name="setup.json", content=b'{"lions_count": 5}', is_admin=True,
    )  # fmt: skip
    opened = await host.lobby.new_game(
        guild_id=SERVER, channel_id=CHANNEL, user_id=ALICE, user_name="alice",
        slug="lions-dragons",
    )  # fmt: skip
    game = next(n for n in opened.notices if isinstance(n, ChannelPost)).game_id
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.start(game_id=game, user_id=ALICE)
    for _ in range(4):
        table = table_from(await host.store.get_game(game))
        seat = table.prompts()[0].seat
        action = table.engine.legal_actions(table.state, seat)[-1].action
        await host.turns.act(game_id=game, user_id=(ALICE, BOB)[seat], action=action)
    record = await host.store.get_game(game)
    exported = (await host.stories.export_record(game_id=game, user_id=ALICE)).data.decode()
    assert '[Data "{\\"lions_dragons\\": {\\"setup\\": {\\"lions_count\\": 5}}}"]' in exported
    complete = exported.replace("\n\n", f'\n[Seed "{record.seed}"]\n\n', 1)
    played = await host.stories.play_record(complete)
    assert played.board.data == record.data
    assert played.board.view == table_from(record).public_view()
    without = "\n".join(x for x in complete.split("\n") if not x.startswith("[Data "))
    # With the bundled data the same log sets up other Lions (or stops being legal).
    with contextlib.suppress(BadRecord):
        assert (await host.stories.play_record(without)).board.view != played.board.view
    tampered = complete.replace('{\\"lions_count\\": 5}', '{\\"lions_count\\": \\"many\\"}')
    with pytest.raises(BadRecord, match=r"data cannot be used: setup\.json: lions_count"):
        await host.stories.play_record(tampered)
    with pytest.raises(BadRecord, match="Data header must be a JSON object"):
        await host.stories.play_record(
            complete.replace('[Data "{', '[Data "[{').replace('}}}"]', '}}}]"]')
        )
