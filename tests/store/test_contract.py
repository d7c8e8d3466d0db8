"""The store contract: what every :class:`bot.store.Store` promises, tested by behaviour.

Each test runs against every store in ``conftest.STORES``.
"""

from __future__ import annotations

import asyncio
import inspect
import re
import typing
from pathlib import Path

import pytest

from bot.store import GAME_FIELDS, GameRecord, SeatRecord, StaleVersion, Store, records

NOW = 1_000_000.0
GUILD, OTHER_GUILD = 10, 11
CHANNEL, OTHER_CHANNEL = 100, 101
ALICE, BOB, CAROL = 1, 2, 3


async def new_game(store: Store, **given) -> int:
    fields = {
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "slug": "stgeorge",
        "host_id": ALICE,
        "players": 2,
        "options": {},
        "seed": 42,
        "now": NOW,
        "timing": {"limit": 3600},
    }
    return await store.create_game(**{**fields, **given})


async def game(store: Store, game_id: int) -> GameRecord:
    record = await store.get_game(game_id)
    assert record is not None
    return record


async def seat(store: Store, game_id: int, number: int, user_id: int, **given) -> int:
    version = (await game(store, game_id)).version
    return await store.add_seat(
        game_id,
        version,
        seat=number,
        role=given.pop("role", f"r{number}"),
        user_id=user_id,
        name=given.pop("name", f"user{user_id}"),
        now=given.pop("now", NOW),
        **given,
    )


async def set_fields(store: Store, game_id: int, **fields) -> int:
    version = (await game(store, game_id)).version
    return await store.update_game(game_id, version, now=fields.pop("now", NOW), **fields)


async def running(store: Store, **fields) -> int:
    """A running game with two seats, and ``fields`` set."""
    game_id = await new_game(store)
    await seat(store, game_id, 0, ALICE)
    await seat(store, game_id, 1, BOB)
    await set_fields(store, game_id, status="running", snapshot={"turn": 0}, **fields)
    return game_id


async def play(store: Store, game_id: int, seat_number: int, action: str, **fields) -> int:
    version = (await game(store, game_id)).version
    return await store.append_action(
        game_id,
        version,
        seat=seat_number,
        action=action,
        events=[{"text": action, "public": True}],
        now=fields.pop("now", NOW),
        **fields,
    )


# -- the protocol itself ---------------------------------------------------------------


def _protocol_methods() -> list[str]:
    """Every coroutine of the store's ports, which ``Store`` is the union of."""
    return [name for name, value in inspect.getmembers(Store) if inspect.iscoroutinefunction(value)]


def _signature(cls: type, name: str) -> list[tuple]:
    function = getattr(cls, name)
    # The JSON value type refers to itself by name: it is looked up where it is defined.
    hints = typing.get_type_hints(function, localns=vars(records))
    parameters = [
        (p.name, p.kind, p.default, hints.get(p.name))
        for p in inspect.signature(function).parameters.values()
    ]
    return [*parameters, ("return", hints.get("return"))]


def test_the_protocol_lists_every_store_call_of_the_host_and_the_frontends():
    bot = Path(__file__).resolve().parents[2] / "bot"
    called = set()
    for folder in ("service", "discord", "console"):
        for source in (bot / folder).rglob("*.py"):
            called |= set(re.findall(r"\bstore\.(\w+)\(", source.read_text()))
    assert called, "no store call found: the search is wrong"
    assert called <= set(_protocol_methods())


async def test_the_store_implements_every_protocol_method_with_its_signature(store):
    implementation = type(store)
    assert isinstance(store, Store)
    for name in _protocol_methods():
        method = getattr(implementation, name, None)
        assert inspect.iscoroutinefunction(method), f"{name} is not a coroutine"
        assert _signature(implementation, name) == _signature(Store, name), name


async def test_the_store_has_no_public_coroutine_outside_the_protocol(store):
    extra = {
        name
        for name, value in inspect.getmembers(type(store))
        if inspect.iscoroutinefunction(value) and not name.startswith("_")
    } - set(_protocol_methods())
    assert extra <= {"open"}


# -- creating and reading games --------------------------------------------------------


async def test_a_new_game_is_a_lobby_at_version_0_with_what_was_given(store):
    options = {"variant": "short", "board": {"size": 7, "holes": [1, 2]}}
    game_id = await new_game(
        store, slug="dragons-cave", players=3, options=options, seed=2**61 + 5,
        timing={"limit": 7200, "remind": 3600, "on_timeout": "skip"}, now=NOW + 5,
    )  # fmt: skip
    record = await game(store, game_id)
    assert record.id == game_id
    assert (record.guild_id, record.channel_id, record.slug) == (GUILD, CHANNEL, "dragons-cave")
    assert (record.host_id, record.players, record.seed) == (ALICE, 3, 2**61 + 5)
    assert record.options == options
    assert record.timing == {"limit": 7200, "remind": 3600, "on_timeout": "skip"}
    assert record.status == "lobby" and record.active
    assert record.version == 0
    assert record.seats == ()
    assert record.snapshot is None and record.result is None
    assert record.deadline is None and record.remind_at is None
    assert record.status_message_id is None and record.board_message_id is None
    assert record.own_thread is False
    assert record.created_at == record.updated_at == NOW + 5


async def test_a_game_without_timing_has_empty_timing(store):
    game_id = await store.create_game(
        guild_id=GUILD, channel_id=CHANNEL, slug="toy", host_id=ALICE, players=2,
        options={}, seed=1, now=NOW,
    )  # fmt: skip
    assert (await game(store, game_id)).timing == {}


async def test_game_ids_are_positive_and_increase(store):
    ids = [await new_game(store) for _ in range(4)]
    assert ids[0] > 0
    assert ids == sorted(set(ids))


async def test_there_is_no_game_with_an_unknown_id(store):
    game_id = await new_game(store)
    assert await store.get_game(game_id + 1000) is None


# -- seats -----------------------------------------------------------------------------


async def test_seating_bumps_the_version_and_seats_come_in_seat_order(store):
    game_id = await new_game(store, players=3)
    assert await seat(store, game_id, 2, CAROL, role="dragon", name="Carol") == 1
    assert await seat(store, game_id, 0, ALICE, role="knight", name="Alice", now=NOW + 9) == 2
    record = await game(store, game_id)
    assert record.version == 2
    assert record.updated_at == NOW + 9
    assert record.seats == (
        SeatRecord(game_id, 0, "knight", ALICE, "Alice", left=False, computer=None),
        SeatRecord(game_id, 2, "dragon", CAROL, "Carol", left=False, computer=None),
    )


async def test_a_computer_seat_keeps_its_level(store):
    game_id = await new_game(store)
    await seat(store, game_id, 0, ALICE)
    await seat(store, game_id, 1, -2, name="Computer (easy)", computer="easy")
    record = await game(store, game_id)
    assert record.seats[1].computer == "easy"
    assert record.computer_at(1) == "easy" and record.user_at(1) is None
    assert record.computer_at(0) is None and record.user_at(0) == ALICE


async def test_one_user_may_hold_several_seats(store):
    game_id = await new_game(store)
    await seat(store, game_id, 0, ALICE)
    await seat(store, game_id, 1, ALICE)
    assert (await game(store, game_id)).seat_of(ALICE) == [0, 1]


@pytest.mark.parametrize(
    "clash", [{"seat": 0, "role": "other"}, {"seat": 1, "role": "r0"}], ids=["seat", "role"]
)
async def test_a_taken_seat_or_role_is_stale_and_changes_nothing(store, clash):
    game_id = await new_game(store)
    await seat(store, game_id, 0, ALICE)
    before = await game(store, game_id)
    with pytest.raises(StaleVersion):
        await store.add_seat(game_id, before.version, user_id=BOB, name="Bob", now=NOW + 1, **clash)
    assert await game(store, game_id) == before


async def test_seating_at_a_stale_version_changes_nothing(store):
    game_id = await new_game(store)
    version = await seat(store, game_id, 0, ALICE)
    with pytest.raises(StaleVersion):
        await store.add_seat(
            game_id, version - 1, seat=1, role="r1", user_id=BOB, name="Bob", now=NOW
        )
    record = await game(store, game_id)
    assert record.version == version and record.seat_of(BOB) == []


async def test_two_joining_at_one_version_seat_only_one(store):
    game_id = await new_game(store)
    version = (await game(store, game_id)).version
    results = await asyncio.gather(
        *(
            store.add_seat(game_id, version, seat=i, role=f"r{i}", user_id=u, name="x", now=NOW)
            for i, u in ((0, ALICE), (1, BOB))
        ),
        return_exceptions=True,
    )
    assert sum(isinstance(r, StaleVersion) for r in results) == 1
    assert sum(isinstance(r, int) for r in results) == 1
    assert len((await game(store, game_id)).seats) == 1


async def test_removing_a_user_opens_all_their_seats_and_only_theirs(store):
    game_id = await new_game(store, players=3)
    await seat(store, game_id, 0, ALICE)
    await seat(store, game_id, 1, BOB)
    await seat(store, game_id, 2, BOB)
    before = await game(store, game_id)
    version = await store.remove_seats(game_id, before.version, user_id=BOB, now=NOW + 3)
    record = await game(store, game_id)
    assert version == record.version == before.version + 1
    assert record.updated_at == NOW + 3
    assert [(s.seat, s.user_id) for s in record.seats] == [(0, ALICE)]
    await seat(store, game_id, 1, CAROL)  # the seat and its role are free again
    assert (await game(store, game_id)).seat_of(CAROL) == [1]


async def test_removing_a_user_from_one_game_keeps_them_in_the_others(store):
    lobby = await new_game(store)
    await seat(store, lobby, 0, BOB)
    elsewhere = await running(store)
    await store.remove_seats(lobby, (await game(store, lobby)).version, user_id=BOB, now=NOW)
    assert (await game(store, lobby)).seats == ()
    assert (await game(store, elsewhere)).seat_of(BOB) == [1]


async def test_removing_seats_at_a_stale_version_changes_nothing(store):
    game_id = await new_game(store)
    await seat(store, game_id, 0, ALICE)
    version = await seat(store, game_id, 1, BOB)
    with pytest.raises(StaleVersion):
        await store.remove_seats(game_id, version - 1, user_id=BOB, now=NOW)
    record = await game(store, game_id)
    assert record.version == version and record.seat_of(BOB) == [1]


async def test_leaving_a_running_game_marks_the_seats_left_but_keeps_them(store):
    game_id = await new_game(store, players=3)
    await seat(store, game_id, 0, ALICE)
    await seat(store, game_id, 1, BOB)
    await seat(store, game_id, 2, BOB)
    elsewhere = await running(store)
    before = await game(store, game_id)
    version = await store.mark_left(game_id, before.version, user_id=BOB, now=NOW + 4)
    record = await game(store, game_id)
    assert version == record.version == before.version + 1
    assert record.updated_at == NOW + 4
    assert [(s.seat, s.user_id, s.left) for s in record.seats] == [
        (0, ALICE, False), (1, BOB, True), (2, BOB, True),
    ]  # fmt: skip
    assert record.has_left(1) and not record.has_left(0)
    assert not (await game(store, elsewhere)).has_left(1)
    assert [g.id for g in await store.games(user_id=BOB)] == [elsewhere, game_id]


async def test_leaving_at_a_stale_version_changes_nothing(store):
    game_id = await new_game(store)
    version = await seat(store, game_id, 0, ALICE)
    with pytest.raises(StaleVersion):
        await store.mark_left(game_id, version - 1, user_id=ALICE, now=NOW)
    record = await game(store, game_id)
    assert record.version == version and not record.has_left(0)


# -- changing a game -------------------------------------------------------------------


async def test_every_game_field_can_be_changed_and_reads_back(store):
    game_id = await new_game(store)
    changes = {
        "status": "running",
        "snapshot": {"board": [[1, 0], [0, 2]], "hands": {"0": ["ruby"]}},
        "result": "Alice wins.",
        "deadline": NOW + 3600.5,
        "remind_at": NOW + 1800.25,
        "timing": {"limit": 60},
        "channel_id": OTHER_CHANNEL,
        "options": {"short": True},
        "players": 4,
        "own_thread": True,
    }
    assert set(changes) == GAME_FIELDS
    assert await store.update_game(game_id, 0, now=NOW + 7, **changes) == 1
    record = await game(store, game_id)
    assert {name: getattr(record, name) for name in changes} == changes
    assert record.version == 1
    assert (record.created_at, record.updated_at) == (NOW, NOW + 7)
    assert (record.guild_id, record.slug, record.seed, record.host_id) == (GUILD, "stgeorge", 42, 1)


async def test_deadlines_and_snapshot_can_be_cleared(store):
    game_id = await running(store, deadline=NOW + 10, remind_at=NOW + 5)
    await set_fields(store, game_id, deadline=None, remind_at=None, snapshot=None)
    record = await game(store, game_id)
    assert (record.deadline, record.remind_at, record.snapshot) == (None, None, None)


async def test_a_change_with_no_fields_only_bumps_the_version(store):
    game_id = await running(store)
    before = await game(store, game_id)
    assert await store.update_game(game_id, before.version, now=NOW + 1) == before.version + 1
    after = await game(store, game_id)
    assert after.version == before.version + 1
    assert (after.status, after.snapshot, after.seats) == (
        before.status, before.snapshot, before.seats,
    )  # fmt: skip


async def test_a_change_at_a_stale_version_raises_and_writes_nothing(store):
    game_id = await running(store)
    before = await game(store, game_id)
    for version in (before.version - 1, before.version + 1):
        with pytest.raises(StaleVersion):
            await store.update_game(game_id, version, now=NOW + 1, status="cancelled")
    assert await game(store, game_id) == before


async def test_changing_a_missing_game_is_stale(store):
    game_id = await new_game(store)
    with pytest.raises(StaleVersion):
        await store.update_game(game_id + 1000, 0, now=NOW, status="running")


@pytest.mark.parametrize(
    "fields", [{"slug": "other"}, {"version": 9}, {"status": "won"}, {"status": "paused", "x": 1}]
)
async def test_an_unknown_field_or_status_is_refused_and_writes_nothing(store, fields):
    game_id = await new_game(store)
    before = await game(store, game_id)
    with pytest.raises(ValueError):
        await store.update_game(game_id, before.version, now=NOW + 1, **fields)
    assert await game(store, game_id) == before


async def test_two_changes_at_one_version_apply_only_one(store):
    game_id = await running(store)
    version = (await game(store, game_id)).version
    results = await asyncio.gather(
        store.update_game(game_id, version, now=NOW, status="paused"),
        store.update_game(game_id, version, now=NOW, status="cancelled"),
        return_exceptions=True,
    )
    winner = 0 if isinstance(results[0], int) else 1
    assert isinstance(results[1 - winner], StaleVersion)
    record = await game(store, game_id)
    assert record.version == version + 1
    assert record.status == ("paused", "cancelled")[winner]


# -- the action log --------------------------------------------------------------------


async def test_an_action_is_logged_with_the_new_version_and_its_snapshot(store):
    game_id = await running(store)
    version = (await game(store, game_id)).version
    events = [{"text": "Alice rolls 6.", "public": True, "data": {"die": 6}}]
    new = await store.append_action(
        game_id, version, seat=0, action="roll", events=events, now=NOW + 30,
        snapshot={"turn": 1, "die": 6}, deadline=NOW + 3630, remind_at=None,
    )  # fmt: skip
    assert new == version + 1
    record = await game(store, game_id)
    assert record.version == new
    assert record.snapshot == {"turn": 1, "die": 6}
    assert record.deadline == NOW + 3630 and record.updated_at == NOW + 30
    [logged] = await store.actions(game_id)
    assert (logged.game_id, logged.seq, logged.seat, logged.action) == (game_id, new, 0, "roll")
    assert logged.events == events
    assert logged.created_at == NOW + 30


async def test_the_last_action_can_finish_the_game(store):
    game_id = await running(store, deadline=NOW + 60)
    await play(
        store, game_id, 1, "fire", status="finished", result="Bob wins.", deadline=None,
        remind_at=None,
    )  # fmt: skip
    record = await game(store, game_id)
    assert (record.status, record.result, record.deadline) == ("finished", "Bob wins.", None)
    assert not record.active


async def test_an_action_at_a_stale_version_is_not_logged(store):
    game_id = await running(store)
    await play(store, game_id, 0, "roll", snapshot={"turn": 1})
    before = await game(store, game_id)
    with pytest.raises(StaleVersion):
        await store.append_action(
            game_id, before.version - 1, seat=0, action="roll", events=[], now=NOW + 1,
            snapshot={"turn": 99},
        )  # fmt: skip
    assert await game(store, game_id) == before
    assert [a.action for a in await store.actions(game_id)] == ["roll"]


async def test_an_action_with_a_bad_field_is_not_logged_either(store):
    game_id = await running(store)
    before = await game(store, game_id)
    with pytest.raises(ValueError):
        await store.append_action(
            game_id, before.version, seat=0, action="roll", events=[], now=NOW,
            snapshot={"turn": 1}, status="over",
        )  # fmt: skip
    assert await game(store, game_id) == before
    assert await store.actions(game_id) == []


async def test_an_action_that_fails_part_way_writes_nothing(store):
    game_id = await running(store)
    before = await game(store, game_id)
    with pytest.raises((TypeError, ValueError)):
        await store.append_action(
            game_id, before.version, seat=0, action="roll", events=[{"data": object()}],
            now=NOW + 1, snapshot={"turn": 1},
        )  # fmt: skip
    assert await game(store, game_id) == before
    assert await store.actions(game_id) == []


async def test_two_actions_at_one_version_log_only_one(store):
    game_id = await running(store)
    version = (await game(store, game_id)).version
    results = await asyncio.gather(
        *(
            store.append_action(
                game_id, version, seat=0, action=a, events=[], now=NOW, snapshot={"a": a}
            )
            for a in ("first", "second")
        ),
        return_exceptions=True,
    )
    assert sum(isinstance(r, StaleVersion) for r in results) == 1
    [logged] = await store.actions(game_id)
    assert (await game(store, game_id)).snapshot == {"a": logged.action}


async def test_the_log_is_in_order_and_keeps_every_action(store):
    game_id = await running(store)
    other = await running(store)
    seqs = [await play(store, game_id, 0, "roll")]
    await play(store, other, 1, "elsewhere")
    seqs.append(await play(store, game_id, 1, "pick 2"))
    await set_fields(store, game_id, deadline=NOW + 100)  # not an action: a gap in seq
    await store.mark_left(game_id, (await game(store, game_id)).version, user_id=BOB, now=NOW)
    seqs.append(await play(store, game_id, 1, "!forfeit"))
    log = await store.actions(game_id)
    assert [(a.seq, a.seat, a.action) for a in log] == [
        (seqs[0], 0, "roll"), (seqs[1], 1, "pick 2"), (seqs[2], 1, "!forfeit"),
    ]  # fmt: skip
    assert seqs[2] == seqs[1] + 3
    assert [a.action for a in await store.actions(other)] == ["elsewhere"]


async def test_a_game_without_actions_has_an_empty_log(store):
    game_id = await running(store)
    assert await store.actions(game_id) == []
    assert await store.actions(game_id + 1000) == []


async def test_acted_since_sees_only_later_actions_of_the_seats_asked(store):
    game_id = await running(store)
    other = await running(store)
    issued = (await game(store, game_id)).version
    assert not await store.acted_since(game_id, [0, 1], issued)
    await play(store, other, 0, "card ruby")  # another game's seat 0
    assert not await store.acted_since(game_id, [0], issued)
    seq = await play(store, game_id, 1, "card ruby")
    assert await store.acted_since(game_id, [1], issued)
    assert await store.acted_since(game_id, [0, 1], issued)
    assert not await store.acted_since(game_id, [0], issued)
    assert not await store.acted_since(game_id, [1], seq)  # strictly after
    assert await store.acted_since(game_id, [1], seq - 1)
    assert not await store.acted_since(game_id, [], issued)


# -- message ids -----------------------------------------------------------------------


async def test_message_ids_are_remembered_without_changing_the_version(store):
    game_id = await running(store)
    before = await game(store, game_id)
    await store.set_message(game_id, "status", 900_000_000_000_000_001)
    await store.set_message(game_id, "board", 900_000_000_000_000_002)
    record = await game(store, game_id)
    assert record.status_message_id == 900_000_000_000_000_001
    assert record.board_message_id == 900_000_000_000_000_002
    assert (record.version, record.updated_at) == (before.version, before.updated_at)
    await store.set_message(game_id, "board", 900_000_000_000_000_003)
    await store.set_message(game_id, "status", None)
    record = await game(store, game_id)
    assert (record.status_message_id, record.board_message_id) == (None, 900_000_000_000_000_003)


async def test_message_ids_belong_to_their_game(store):
    game_id = await running(store)
    other = await running(store)
    await store.set_message(game_id, "status", 5)
    assert (await game(store, other)).status_message_id is None


async def test_a_message_of_another_kind_or_a_missing_game(store):
    game_id = await running(store)
    with pytest.raises(ValueError):
        await store.set_message(game_id, "thread", 5)
    await store.set_message(game_id + 1000, "status", 5)  # nothing to remember it for
    assert await store.get_game(game_id + 1000) is None


# -- users and server settings ---------------------------------------------------------


async def test_notify_choice_is_turns_until_set(store):
    assert await store.notify_choice(ALICE) == "turns"
    await store.set_notify_choice(ALICE, "none")
    await store.set_notify_choice(BOB, "reminders")
    assert await store.notify_choice(ALICE) == "none"
    assert await store.notify_choice(BOB) == "reminders"
    await store.set_notify_choice(ALICE, "reminders")
    assert await store.notify_choice(ALICE) == "reminders"
    assert await store.notify_choice(CAROL) == "turns"


async def test_calls_are_empty_until_set_and_kept_apart_from_other_facts(store):
    assert await store.calls(ALICE) == {}
    await store.set_notify_choice(ALICE, "reminders")
    await store.set_calls(ALICE, {"turn": "dm", "end": "both"})
    await store.set_calls(BOB, {"offer": "none"})
    await store.set_dm_closed(ALICE, True)
    assert await store.calls(ALICE) == {"turn": "dm", "end": "both"}
    assert await store.calls(BOB) == {"offer": "none"}
    assert await store.notify_choice(ALICE) == "reminders" and await store.dm_closed(ALICE)
    await store.set_calls(ALICE, {"invite": "mention"})  # replaces the previous ones
    assert await store.calls(ALICE) == {"invite": "mention"}
    assert await store.calls(CAROL) == {}


async def test_a_game_is_read_with_each_players_calls(store):
    game_id = await new_game(store)
    await seat(store, game_id, 0, ALICE)
    await seat(store, game_id, 1, BOB)
    await store.set_calls(ALICE, {"turn": "none"})
    record = await game(store, game_id)
    assert {s.user_id: s.calls for s in record.seats}[ALICE] == {"turn": "none"}
    [listed] = [r for r in await store.games(guild_id=record.guild_id) if r.id == game_id]
    assert {s.user_id: s.calls for s in listed.seats} == {ALICE: {"turn": "none"}, BOB: {}}


async def test_closed_dms_are_remembered_per_user(store):
    assert await store.dm_closed(ALICE) is False
    await store.set_dm_closed(ALICE, True)
    assert await store.dm_closed(ALICE) is True
    assert await store.dm_closed(BOB) is False
    await store.set_dm_closed(ALICE, False)
    assert await store.dm_closed(ALICE) is False


async def test_a_users_facts_are_kept_apart(store):
    await store.set_notify_choice(ALICE, "none")
    await store.set_dm_closed(ALICE, True)
    assert await store.notify_choice(ALICE) == "none"
    await store.set_dm_closed(BOB, True)
    await store.set_notify_choice(BOB, "reminders")
    assert await store.dm_closed(BOB) is True


async def test_server_settings_are_per_server_and_key(store):
    assert await store.guild_setting(GUILD, "timing") is None
    await store.set_guild_setting(GUILD, "timing", '{"limit": 60}')
    await store.set_guild_setting(GUILD, "threads", "on")
    await store.set_guild_setting(OTHER_GUILD, "threads", "off")
    assert await store.guild_setting(GUILD, "timing") == '{"limit": 60}'
    assert await store.guild_setting(GUILD, "threads") == "on"
    assert await store.guild_setting(OTHER_GUILD, "threads") == "off"
    assert await store.guild_setting(OTHER_GUILD, "timing") is None
    await store.set_guild_setting(GUILD, "threads", "off")
    assert await store.guild_setting(GUILD, "threads") == "off"


# -- listings --------------------------------------------------------------------------


async def test_listings_are_newest_first_and_filtered(store):
    here = await new_game(store)
    await seat(store, here, 0, ALICE)
    there = await new_game(store, channel_id=OTHER_CHANNEL, host_id=BOB)
    await seat(store, there, 0, BOB)
    await seat(store, there, 1, ALICE)
    abroad = await new_game(store, guild_id=OTHER_GUILD, channel_id=900, host_id=CAROL)
    await seat(store, abroad, 0, CAROL)

    async def ids(**filters) -> list[int]:
        return [g.id for g in await store.games(**filters)]

    assert await ids() == [abroad, there, here]
    assert await ids(guild_id=GUILD) == [there, here]
    assert await ids(guild_id=OTHER_GUILD) == [abroad]
    assert await ids(channel_id=CHANNEL) == [here]
    assert await ids(user_id=ALICE) == [there, here]
    assert await ids(user_id=BOB) == [there]
    assert await ids(guild_id=GUILD, user_id=CAROL) == []
    assert await ids(channel_id=OTHER_CHANNEL, user_id=ALICE) == [there]
    assert await ids(guild_id=GUILD, limit=1) == [there]


async def test_listings_carry_each_games_seats(store):
    first = await running(store)
    second = await new_game(store)
    await seat(store, second, 1, CAROL)
    listed = {g.id: g for g in await store.games(guild_id=GUILD)}
    assert listed[first] == await game(store, first)
    assert [(s.seat, s.user_id) for s in listed[first].seats] == [(0, ALICE), (1, BOB)]
    assert [(s.seat, s.user_id) for s in listed[second].seats] == [(1, CAROL)]


async def test_listings_show_active_games_unless_asked_for_all(store):
    by_status = {}
    for status in ("lobby", "running", "paused", "finished", "cancelled"):
        game_id = await new_game(store)
        if status != "lobby":
            await set_fields(store, game_id, status=status)
        by_status[status] = game_id
    active = [g.id for g in await store.games(channel_id=CHANNEL)]
    assert active == [by_status[s] for s in ("paused", "running", "lobby")]
    every = [g.id for g in await store.games(channel_id=CHANNEL, active_only=False)]
    assert every == sorted(by_status.values(), reverse=True)
    latest = await store.games(channel_id=CHANNEL, active_only=False, limit=1)
    assert [(g.id, g.status) for g in latest] == [(by_status["cancelled"], "cancelled")]


async def test_a_game_moved_to_another_channel_is_listed_there(store):
    game_id = await running(store)
    await set_fields(store, game_id, channel_id=OTHER_CHANNEL)
    assert await store.games(channel_id=CHANNEL) == []
    assert [g.id for g in await store.games(channel_id=OTHER_CHANNEL)] == [game_id]


async def test_a_listing_holds_at_most_its_limit(store):
    ids = [await new_game(store) for _ in range(7)]
    assert [g.id for g in await store.games(limit=3)] == ids[::-1][:3]
    assert len(await store.games()) == 7


# -- finished games --------------------------------------------------------------------


async def finish(store: Store, game_id: int, at: float) -> None:
    await set_fields(store, game_id, status="finished", result="someone won", now=at)


async def test_finished_games_are_listed_most_recently_ended_first(store):
    early, late, tied = await running(store), await running(store), await running(store)
    await finish(store, late, NOW + 300)
    await finish(store, early, NOW + 100)
    await finish(store, tied, NOW + 300)  # ended at the same moment: the newer game first
    listed = await store.finished_games(guild_id=GUILD)
    assert [g.id for g in listed] == [tied, late, early]
    assert [g.result for g in listed] == ["someone won"] * 3
    assert [(s.seat, s.user_id) for s in listed[0].seats] == [(0, ALICE), (1, BOB)]
    assert [g.id for g in await store.finished_games(guild_id=GUILD, limit=2)] == [tied, late]


async def test_only_finished_games_of_the_server_and_the_user_are_listed(store):
    by_status = {}
    for status in ("lobby", "running", "paused", "cancelled"):
        game_id = await new_game(store)
        if status != "lobby":
            await set_fields(store, game_id, status=status)
        by_status[status] = game_id
    mine = await running(store)
    await finish(store, mine, NOW + 10)
    theirs = await new_game(store)
    await seat(store, theirs, 0, CAROL)
    await finish(store, theirs, NOW + 20)
    abroad = await new_game(store, guild_id=OTHER_GUILD, channel_id=900)
    await seat(store, abroad, 0, ALICE)
    await finish(store, abroad, NOW + 30)
    await store.mark_left(mine, (await game(store, mine)).version, user_id=BOB, now=NOW + 40)

    async def ids(**filters) -> list[int]:
        return [g.id for g in await store.finished_games(**filters)]

    assert await ids(guild_id=GUILD) == [mine, theirs]
    assert await ids(guild_id=GUILD, user_id=ALICE) == [mine]
    assert await ids(guild_id=GUILD, user_id=BOB) == [mine]  # a seat left still counts
    assert await ids(guild_id=GUILD, user_id=CAROL) == [theirs]
    assert await ids(guild_id=OTHER_GUILD, user_id=ALICE) == [abroad]
    assert await ids(guild_id=OTHER_GUILD, user_id=BOB) == []


# -- deadlines and reminders -----------------------------------------------------------


async def test_nothing_to_wake_up_for_without_running_deadlines(store):
    assert await store.next_wakeup() is None
    await running(store)  # running, but no clock
    assert await store.next_wakeup() is None
    assert await store.due(NOW + 10**9) == []


async def test_the_next_wakeup_is_the_earliest_deadline_or_reminder_of_a_running_game(store):
    await running(store, deadline=NOW + 500, remind_at=NOW + 400)
    await running(store, deadline=NOW + 300)
    assert await store.next_wakeup() == NOW + 300
    await running(store, remind_at=NOW + 200)
    assert await store.next_wakeup() == NOW + 200
    await running(store, deadline=NOW - 50)  # already passed: still the next thing to do
    assert await store.next_wakeup() == NOW - 50


@pytest.mark.parametrize("status", ["lobby", "paused", "finished", "cancelled"])
async def test_only_running_games_wake_the_scheduler(store, status):
    await running(store, deadline=NOW + 500)
    other = await new_game(store)
    await set_fields(store, other, deadline=NOW - 10, remind_at=NOW - 20, status=status)
    assert await store.next_wakeup() == NOW + 500
    assert await store.due(NOW) == []


async def test_due_games_are_those_whose_time_has_come_earliest_first(store):
    late = await running(store, deadline=NOW - 10)
    reminded = await running(store, deadline=NOW + 1000, remind_at=NOW - 30)
    reminded_now = await running(store, remind_at=NOW)
    await running(store, deadline=NOW + 1, remind_at=NOW + 0.5)  # not yet
    both = await running(store, deadline=NOW - 20, remind_at=NOW - 40)
    timed_out_now = await running(store, deadline=NOW, remind_at=NOW + 10)
    due = await store.due(NOW)
    assert [g.id for g in due[:3]] == [both, reminded, late]
    assert {g.id for g in due[3:]} == {reminded_now, timed_out_now}
    assert all(g.seats for g in due)
    assert [g.id for g in await store.due(NOW, limit=2)] == [both, reminded]
    assert len(await store.due(NOW + 1)) == 6


async def test_a_game_is_no_longer_due_once_its_clock_moves(store):
    game_id = await running(store, deadline=NOW - 5)
    await play(store, game_id, 0, "!skip", deadline=NOW + 3600, remind_at=None)
    assert await store.due(NOW) == []
    assert await store.next_wakeup() == NOW + 3600


async def test_a_reminder_is_taken_once(store):
    game_id = await running(store, deadline=NOW + 100, remind_at=NOW - 1)
    before = await game(store, game_id)
    assert await store.take_reminder(game_id, NOW - 1) is True
    assert await store.take_reminder(game_id, NOW - 1) is False
    after = await game(store, game_id)
    assert after.remind_at is None
    assert (after.version, after.deadline) == (before.version, before.deadline)
    assert await store.next_wakeup() == NOW + 100


async def test_a_reminder_that_moved_is_not_taken(store):
    game_id = await running(store, remind_at=NOW + 50)
    assert await store.take_reminder(game_id, NOW - 1) is False
    assert (await game(store, game_id)).remind_at == NOW + 50
    assert await store.take_reminder(game_id + 1000, NOW + 50) is False


async def test_two_takers_of_one_reminder_get_it_once(store):
    game_id = await running(store, remind_at=NOW)
    taken = await asyncio.gather(*(store.take_reminder(game_id, NOW) for _ in range(3)))
    assert sorted(taken) == [False, False, True]


# -- lifetime --------------------------------------------------------------------------


async def test_everything_survives_closing_and_reopening(open_store):
    store = await open_store()
    game_id = await new_game(store, options={"short": True})
    await seat(store, game_id, 0, ALICE)
    await seat(store, game_id, 1, -2, name="Computer (strong)", computer="strong")
    await set_fields(store, game_id, status="running", snapshot={"turn": 0}, own_thread=True)
    await play(store, game_id, 0, "roll", snapshot={"turn": 1}, deadline=NOW + 60,
               remind_at=NOW + 30)  # fmt: skip
    await store.mark_left(game_id, (await game(store, game_id)).version, user_id=ALICE, now=NOW)
    await store.set_message(game_id, "board", 77)
    await store.set_notify_choice(BOB, "none")
    await store.set_dm_closed(BOB, True)
    await store.set_guild_setting(GUILD, "threads", "on")
    record = await game(store, game_id)
    log = await store.actions(game_id)
    await store.close()

    reopened = await open_store()
    assert await game(reopened, game_id) == record
    assert await reopened.actions(game_id) == log
    assert await reopened.notify_choice(BOB) == "none"
    assert await reopened.dm_closed(BOB) is True
    assert await reopened.guild_setting(GUILD, "threads") == "on"
    assert await reopened.next_wakeup() == NOW + 30
    assert await reopened.acted_since(game_id, [0], log[0].seq - 1)
    with pytest.raises(StaleVersion):
        await reopened.update_game(game_id, record.version - 1, now=NOW, status="paused")
    assert await reopened.update_game(game_id, record.version, now=NOW) == record.version + 1
    assert await new_game(reopened) > game_id


async def test_closing_twice_is_harmless(open_store):
    store = await open_store()
    await new_game(store)
    await store.close()
    await store.close()
