"""Boards drawn in worker processes are the pictures the bot's own process would draw. These
pools skip the warm-up (`warm=False`): tests/bot/test_warm_pictures.py holds it."""

import asyncio
import os
import pickle
import random
import signal
import socket

import pytest

from bot.service.boards.picture_worker import HEADER, framed
from bot.service.boards.pictures import Pictures, RecentBoards
from bot.service.host import GameHost
from bot.service.notices import Board
from engines.replay import setup_rng
from games import ENGINES, render


def _view(seed=5):
    engine = ENGINES["stgeorge"]
    roles = [r.key for r in engine.roles(2, engine.parse_options(""))]
    return engine.view(engine.setup(roles, engine.parse_options(""), setup_rng(seed)), None)


async def test_a_board_drawn_in_a_worker_process_is_the_same_picture(store):
    view = _view()
    pictures = Pictures(1, warm=False)
    try:
        host = GameHost(store, drawer=pictures.draw, seeds=random.Random(1))
        drawn = await host.drawing.draw(Board("stgeorge", view))
        again = await pictures.draw("stgeorge", view)
    finally:
        await pictures.close()
    assert drawn == again == render("stgeorge", view)
    assert drawn.startswith(b"\x89PNG")


async def test_a_replay_is_put_together_in_a_worker_process_as_in_a_thread(store):
    from games import animation
    from tests.bot.test_story import play_randomly, real_game

    pictures = Pictures(1, warm=False)
    drawn = []

    async def drawer(slug, view):  # draws in the worker, keeping each board
        drawn.append(await pictures.draw(slug, view))
        return drawn[-1]

    try:
        host, game_id = await real_game(store, "stgeorge", drawer=drawer, animator=pictures.animate)
        await play_randomly(host, game_id, random.Random(2), 6)
        drawn.clear()  # the boards of the moves themselves
        host.drawing.boards = RecentBoards()  # so every board of the replay is drawn in the worker
        made = await host.stories.replay_animation(game_id=game_id)
    finally:
        await pictures.close()
    assert made.data == animation.animate(drawn)
    assert made.data.startswith(b"GIF8")


def _counting():
    calls = []

    async def draw(slug, view, corrections=None):
        calls.append((slug, view, corrections))
        await asyncio.sleep(0)
        return f"picture {len(calls)}".encode()

    return calls, draw


async def test_the_same_board_is_drawn_once_for_its_post_and_its_watchers(store):
    calls, draw = _counting()
    host = GameHost(store, drawer=draw, seeds=random.Random(1))
    view = {"pieces": [1, 2], "turn": 3}
    at_once = await asyncio.gather(
        *(host.drawing.draw(Board("stgeorge", dict(view))) for _ in range(3))
    )
    later = await host.drawing.draw(Board("stgeorge", {"turn": 3, "pieces": [1, 2]}))
    assert len(calls) == 1
    assert set(at_once) == {later} == {b"picture 1"}


async def test_another_view_game_or_data_is_drawn_anew(store):
    calls, draw = _counting()
    host = GameHost(store, drawer=draw, seeds=random.Random(1))
    await host.drawing.draw(Board("stgeorge", {"turn": 3}))
    await host.drawing.draw(Board("stgeorge", {"turn": 4}))
    await host.drawing.draw(Board("lions-dragons", {"turn": 4}))
    await host.drawing.draw(Board("lions-dragons", {"turn": 4}, {"pieces": {"lion": 2}}))
    assert len(calls) == 4


async def test_a_drawing_that_failed_is_tried_again():
    boards = RecentBoards()
    tries = []

    async def fails_once():
        tries.append(1)
        if len(tries) == 1:
            raise OSError("the worker died")
        return b"picture"

    with pytest.raises(OSError):
        await boards.get("stgeorge", {"turn": 1}, {}, fails_once)
    assert await boards.get("stgeorge", {"turn": 1}, {}, fails_once) == b"picture"
    assert len(tries) == 2


async def test_only_the_most_recent_boards_are_kept():
    boards = RecentBoards(size=2)
    tries = []

    async def draw():
        tries.append(1)
        return b"picture"

    for turn in (1, 2, 3, 1):
        await boards.get("stgeorge", {"turn": turn}, {}, draw)
    assert len(tries) == 4  # turn 1 was dropped for turn 3


async def test_many_boards_at_once_share_the_pool_and_come_back_each_its_own():
    views = [_view(seed) for seed in range(6)]
    pictures = Pictures(2, warm=False)
    try:
        drawn = await asyncio.gather(*(pictures.draw("stgeorge", v) for v in views))
        assert len(pictures.pids) == 2
    finally:
        await pictures.close()
    assert drawn == [render("stgeorge", v) for v in views]


async def test_a_worker_killed_is_replaced_and_the_board_still_drawn():
    view = _view()
    pictures = Pictures(1, warm=False)
    try:
        await pictures.draw("stgeorge", view)
        (first,) = pictures.pids
        os.kill(first, signal.SIGKILL)
        assert await pictures.draw("stgeorge", view) == render("stgeorge", view)
        assert pictures.pids != [first]
    finally:
        await pictures.close()


async def test_a_board_that_cannot_be_drawn_says_why_and_the_worker_draws_on():
    pictures = Pictures(1, warm=False)
    try:
        with pytest.raises(Exception, match="no-such-game"):
            await pictures.draw("no-such-game", {})
        (worker,) = pictures.pids
        assert await pictures.draw("stgeorge", _view()) == render("stgeorge", _view())
        assert pictures.pids == [worker]
    finally:
        await pictures.close()


async def test_a_closed_pool_stops_its_workers_and_starts_again_when_asked():
    pictures = Pictures(1, warm=False)
    await pictures.draw("stgeorge", _view())
    (first,) = pictures.pids
    await pictures.close()
    assert pictures.pids == []
    with pytest.raises(ProcessLookupError):
        os.kill(first, 0)
    try:
        assert await pictures.draw("stgeorge", _view()) == render("stgeorge", _view())
    finally:
        await pictures.close()


async def test_a_caller_that_gives_up_leaves_the_worker_free():
    pictures = Pictures(1, warm=False)
    try:
        waiting = asyncio.ensure_future(pictures.draw("stgeorge", _view(1)))
        await asyncio.sleep(0)
        waiting.cancel()
        assert await pictures.draw("stgeorge", _view(2)) == render("stgeorge", _view(2))
    finally:
        await pictures.close()


# -- a worker holds the board it draws and the next ------------------------------------


class _StandIn:
    """A drawing process that is the test's end of a socket: the test reads its requests
    and answers them."""

    pids = iter(range(10**6, 2 * 10**6))

    def __init__(self):
        self.pid = next(self.pids)

    def wait(self):
        return 0

    def kill(self):
        pass


@pytest.fixture
def stand_ins(monkeypatch):
    """The sockets of the workers the pool starts, in order; the test answers for them."""
    from bot.service.boards import pictures as module

    started: asyncio.Queue = asyncio.Queue()

    def spawn(overrides, warm):
        ours, theirs = socket.socketpair()
        theirs.setblocking(False)
        started.put_nowait(theirs)
        return _StandIn(), ours

    monkeypatch.setattr(module, "_spawn", spawn)
    yield started
    while not started.empty():
        started.get_nowait().close()


async def _request(end):
    """The next request the pool wrote to a stand-in worker: (task, args). Bounded only so
    that a request never written fails the test instead of hanging it."""
    async with asyncio.timeout(60):
        return await _read_request(end)


async def _read_request(end):
    loop = asyncio.get_running_loop()

    async def exactly(size):
        buffer = bytearray()
        while len(buffer) < size:
            got = await loop.sock_recv(end, size - len(buffer))
            assert got, "the pool closed the socket"
            buffer += got
        return bytes(buffer)

    (length,) = HEADER.unpack(await exactly(HEADER.size))
    return pickle.loads(await exactly(length))


async def _answer(end, picture):
    await asyncio.get_running_loop().sock_sendall(end, framed(("ok", picture)))


def _nothing_more_asked(end):
    with pytest.raises(BlockingIOError):
        end.recv(1, socket.MSG_PEEK)


async def test_a_worker_is_asked_for_its_next_board_while_it_draws_one(stand_ins):
    pictures = Pictures(1, warm=False)
    draws = [asyncio.ensure_future(pictures.draw("stgeorge", {"turn": n})) for n in range(3)]
    worker = await stand_ins.get()
    asked = [await _request(worker), await _request(worker)]
    assert [args[1] for _, args in asked] == [{"turn": 0}, {"turn": 1}]
    _nothing_more_asked(worker)  # two at a time: the third waits for room
    await _answer(worker, b"picture 0")
    assert await draws[0] == b"picture 0"
    assert (await _request(worker))[1][1] == {"turn": 2}
    await _answer(worker, b"picture 1")
    await _answer(worker, b"picture 2")
    assert await asyncio.gather(*draws[1:]) == [b"picture 1", b"picture 2"]
    await pictures.close()


async def test_boards_asked_of_a_worker_that_ends_are_drawn_by_its_replacement(stand_ins):
    pictures = Pictures(1, warm=False)
    draws = [asyncio.ensure_future(pictures.draw("stgeorge", {"turn": n})) for n in range(2)]
    first = await stand_ins.get()
    await _request(first)
    await _request(first)
    first.close()  # it died with both boards asked of it
    second = await stand_ins.get()
    asked = [(await _request(second))[1][1] for _ in range(2)]
    assert sorted(asked, key=lambda view: view["turn"]) == [{"turn": 0}, {"turn": 1}]
    for view in asked:
        await _answer(second, f"picture {view['turn']}".encode())
    assert await asyncio.gather(*draws) == [b"picture 0", b"picture 1"]
    assert len(pictures.pids) == 1
    await pictures.close()


async def test_a_board_goes_to_the_worker_with_the_fewest_asked_of_it(stand_ins):
    pictures = Pictures(2, warm=False)
    pictures.start()
    ends = [await stand_ins.get(), await stand_ins.get()]
    draws = [asyncio.ensure_future(pictures.draw("stgeorge", {"turn": n})) for n in range(2)]
    asked = {}
    for end in ends:  # one board each, not both to one worker
        asked[(await _request(end))[1][1]["turn"]] = end
        _nothing_more_asked(end)
    await _answer(asked[0], b"picture 0")
    assert await draws[0] == b"picture 0"
    draws.append(asyncio.ensure_future(pictures.draw("stgeorge", {"turn": 2})))
    assert (await _request(asked[0]))[1][1] == {"turn": 2}  # it holds none, the other one
    _nothing_more_asked(asked[1])
    await _answer(asked[1], b"picture 1")
    await _answer(asked[0], b"picture 2")
    assert await asyncio.gather(*draws[1:]) == [b"picture 1", b"picture 2"]
    await pictures.close()


async def test_a_worker_found_gone_when_asked_is_replaced_and_the_board_still_drawn(stand_ins):
    pictures = Pictures(1, warm=False)
    drawn = asyncio.ensure_future(pictures.draw("stgeorge", {"turn": 0}))
    first = await stand_ins.get()
    await _request(first)
    await _answer(first, b"picture 0")
    assert await drawn == b"picture 0"
    first.close()  # it dies, and the next board is asked of it before its end is read
    drawn = asyncio.ensure_future(pictures.draw("stgeorge", {"turn": 1}))
    second = await stand_ins.get()
    assert (await _request(second))[1][1] == {"turn": 1}
    await _answer(second, b"picture 1")
    assert await drawn == b"picture 1"
    await pictures.close()


async def test_a_pool_closed_while_drawing_still_holds_two_boards_a_worker(stand_ins):
    pictures = Pictures(1, warm=False)
    draws = [asyncio.ensure_future(pictures.draw("stgeorge", {"turn": n})) for n in range(3)]
    first = await stand_ins.get()
    await _request(first)
    await _request(first)
    await pictures.close()  # the two it held are asked again of a new worker, then the third
    second = await stand_ins.get()
    for _ in range(3):
        view = (await _request(second))[1][1]
        await _answer(second, f"picture {view['turn']}".encode())
    assert sorted(await asyncio.gather(*draws)) == [b"picture 0", b"picture 1", b"picture 2"]
    later = [asyncio.ensure_future(pictures.draw("stgeorge", {"turn": n})) for n in (3, 4, 5)]
    asked = [(await _request(second))[1][1]["turn"] for _ in range(2)]
    _nothing_more_asked(second)  # as before the close: two at a time
    for turn in asked:
        await _answer(second, f"picture {turn}".encode())
    (last,) = {3, 4, 5} - set(asked)
    assert (await _request(second))[1][1]["turn"] == last
    await _answer(second, f"picture {last}".encode())
    assert await asyncio.gather(*later) == [b"picture 3", b"picture 4", b"picture 5"]
    first.close()
    await pictures.close()
