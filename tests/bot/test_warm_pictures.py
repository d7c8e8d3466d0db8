"""Picture workers warm themselves: every registered game's backgrounds, layout and palette
are made, and a few boards of a game under way drawn, before the first board is asked for;
a game that fails to warm is logged and drawn cold, and a board drawn warm is the very
picture drawn cold."""

import asyncio
import hashlib
import itertools
import json
import logging
import random
import signal
import socket
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest

import games
from bot.service.boards import drawing, picture_worker
from bot.service.boards.picture_worker import Warmed, framed, receive
from bot.service.boards.pictures import Pictures
from bot.service.host import GameHost
from games import SPECS, playout, render, starting_views
from render import common


def _views_of_a_game(slug, moves=12, seed=3):
    """Public views of a random game of ``slug`` after ``moves`` moves and on the way: none
    of them a new game's, nor one of the warm-up's own boards under way (another seed)."""
    engine = SPECS[slug].engine
    game = playout(slug, engine.max_players, seed, random.Random(seed))
    views = list(itertools.islice(game, 1, moves + 1))
    return views[-1:]


async def test_a_started_worker_has_warmed_every_registered_game_before_it_draws():
    pictures = Pictures(1)
    try:
        pictures.start()
        assert len(pictures.pids) == 1  # started at once, before any board was asked for
        warmed = await pictures.warmed()
        view = _views_of_a_game("dragonslayer")[0]
        drawn = await pictures.draw("dragonslayer", view)
    finally:
        await pictures.close()
    assert warmed.games == tuple(SPECS)
    assert warmed.failed == {}
    assert drawn == render("dragonslayer", view)


async def test_a_pool_told_not_to_warm_starts_its_workers_cold():
    pictures = Pictures(1, warm=False)
    try:
        pictures.start()
        warmed = await pictures.warmed()
    finally:
        await pictures.close()
    assert warmed == Warmed()


async def test_boards_drawn_by_a_warmed_worker_are_those_a_cold_one_draws():
    views = [(slug, view) for slug in SPECS for view in _views_of_a_game(slug)]
    views += [(slug, starting_views(slug)[-1]) for slug in SPECS]
    warm, cold = Pictures(1), Pictures(1, warm=False)
    try:
        warm.start()
        cold.start()
        await warm.warmed()
        warm_boards = [await warm.draw(slug, view) for slug, view in views]
        cold_boards = [await cold.draw(slug, view) for slug, view in views]
    finally:
        await asyncio.gather(warm.close(), cold.close())
    assert warm_boards == cold_boards
    assert cold_boards == [render(slug, view) for slug, view in views]


def test_the_warm_up_reports_each_game_it_warmed_and_logs_one_that_failed(monkeypatch, caplog):
    def broken():
        raise OSError("the background's font is missing")

    monkeypatch.setitem(SPECS, "stgeorge", replace(SPECS["stgeorge"], warm=broken))
    with caplog.at_level(logging.ERROR, logger=picture_worker.__name__):
        warmed = picture_worker.warm()
    assert warmed.games == tuple(slug for slug in SPECS if slug != "stgeorge")
    assert warmed.failed == {"stgeorge": "OSError: the background's font is missing"}
    (record,) = caplog.records
    assert "stgeorge" in record.getMessage()
    assert record.exc_info is not None


def test_a_worker_whose_warm_up_failed_still_draws(monkeypatch, caplog):
    """The worker's own loop (run here, in the test's main thread, as the worker process
    runs it), with one game's warm-up broken: it logs that, answers, and draws that game's
    board cold."""

    def broken():
        raise RuntimeError("no layout")

    monkeypatch.setitem(SPECS, "dragonslayer", replace(SPECS["dragonslayer"], warm=broken))
    monkeypatch.setattr(picture_worker, "_warmed", Warmed())
    view = _views_of_a_game("dragonslayer")[0]
    ours, theirs = socket.socketpair()
    answers = []

    def the_pool():
        with ours:
            for request in (("warmed", ()), ("draw", ("dragonslayer", view))):
                ours.sendall(framed(request))
                answers.append(receive(ours))

    pool = threading.Thread(target=the_pool)
    sigint = signal.getsignal(signal.SIGINT)
    pool.start()
    try:
        with caplog.at_level(logging.ERROR, logger=picture_worker.__name__):
            picture_worker.main([str(theirs.detach())])
    finally:
        signal.signal(signal.SIGINT, sigint)
        pool.join()
    (warmed_answer, drawn_answer) = answers
    assert warmed_answer[0] == "ok"
    assert warmed_answer[1].failed == {"dragonslayer": "RuntimeError: no layout"}
    assert "dragonslayer" not in warmed_answer[1].games
    assert drawn_answer == ("ok", render("dragonslayer", view))
    assert any("dragonslayer" in record.getMessage() for record in caplog.records)


async def test_a_host_drawing_in_threads_warms_them_while_the_event_loop_runs(store, monkeypatch):
    monkeypatch.setattr(drawing, "_warmed", None)  # as in a fresh process
    host = GameHost(store, renderer=render, seeds=random.Random(1))
    ticks = 0

    async def heartbeat():
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    beating = asyncio.ensure_future(heartbeat())
    try:
        warmed = await host.drawing.warm()
    finally:
        beating.cancel()
    assert warmed is not None
    assert warmed.games == tuple(SPECS)
    assert ticks > 1  # the loop went on while the thread warmed
    assert await host.drawing.warm() is warmed  # once a process


async def test_a_host_that_draws_elsewhere_leaves_the_warm_up_to_its_workers(store):
    async def drawer(slug, view, corrections=None):
        raise AssertionError("nothing is drawn")

    assert await GameHost(store, drawer=drawer).drawing.warm() is None
    assert await GameHost(store).drawing.warm() is None


@pytest.mark.parametrize("slug", list(SPECS))
def test_every_registered_game_warms_its_renderer_and_a_new_game_at_each_table_size(slug):
    spec = SPECS[slug]
    assert spec.warm is not None
    views = starting_views(slug)
    assert len(views) == spec.engine.max_players - spec.engine.min_players + 1
    warmed = picture_worker.warm([slug])
    assert (warmed.games, warmed.failed) == ((slug,), {})


WARMED_UNDER_WAY = [slug for slug, spec in SPECS.items() if spec.warm_under_way]


def test_the_warm_up_draws_boards_of_a_game_under_way():
    """Not just new games: the games that spare the time draw boards of one under way (and
    a game under way shows text a new game does not), whose text is then drawn from masks
    made in the warm-up."""
    assert {"dragons-cave", "lions-dragons", "stgeorge"} <= set(WARMED_UNDER_WAY)
    for slug in WARMED_UNDER_WAY:
        under_way = games.under_way_views(slug)
        assert len(under_way) == SPECS[slug].warm_under_way
        assert not any(view in starting_views(slug) for view in under_way)
        games.warm(slug)
        made = common._mask.cache_info().misses
        for view in under_way:
            render(slug, view)
        assert common._mask.cache_info().misses == made, slug


DRAW_IN_A_FRESH_PROCESS = """
import hashlib, json, sys
import games
warm, views = json.load(sys.stdin)
for slug in warm:
    games.warm(slug)
print(json.dumps([hashlib.sha256(games.render(slug, view)).hexdigest() for slug, view in views]))
"""


def _hashes_in_a_fresh_process(warm, views):
    done = subprocess.run(
        [sys.executable, "-c", DRAW_IN_A_FRESH_PROCESS],
        input=json.dumps([warm, views]),
        capture_output=True,
        text=True,
        cwd=Path(__file__).parents[2],
        check=True,
    )
    return json.loads(done.stdout)


def test_boards_drawn_after_the_warm_up_are_byte_for_byte_those_drawn_without_it():
    """The boards the warm-up leaves its glyph masks and PNG bands for: its own boards under
    way, the move after each (most of its bands the same) and another game's, each drawn in
    a fresh process that warmed and in one that did not."""
    views = []
    for slug in WARMED_UNDER_WAY:
        under_way = games.under_way_views(slug)
        game = list(itertools.islice(games.warm_playout(slug), games.WARM_MOVES + 2))
        near = [
            view
            for move, view in enumerate(game)
            if view in under_way or (move and game[move - 1] in under_way)
        ]
        assert len(near) >= 2 * len(under_way) - 1
        views += [(slug, view) for view in near + _views_of_a_game(slug)]
    warmed = _hashes_in_a_fresh_process(WARMED_UNDER_WAY, views)
    assert warmed == _hashes_in_a_fresh_process([], views)
    assert warmed == [
        hashlib.sha256(render(slug, json.loads(json.dumps(view)))).hexdigest()
        for slug, view in views
    ]


def test_a_worker_logs_in_the_bots_format():
    from bot import logs

    assert picture_worker.LOG_FORMAT == logs.FORMAT


@pytest.fixture
def corrected_board(tmp_path):
    """A deployment's corrected St. George board (a castle renamed): its folder."""
    import json

    from engines import data

    castles = json.loads(json.dumps(data.load("stgeorge", "board")["castles"]))
    castles["george"]["name"] = "St. Georgina"
    (tmp_path / "stgeorge").mkdir()
    (tmp_path / "stgeorge" / "board.json").write_text(json.dumps({"castles": castles}))
    return tmp_path


def test_the_warm_up_fills_the_caches_of_the_data_files_loaded(corrected_board):
    from engines import data
    from render import stgeorge

    view = _views_of_a_game("stgeorge")[0]
    data.use_overrides(corrected_board)
    try:
        assert picture_worker.warm(["stgeorge"]).games == ("stgeorge",)
        made = stgeorge._palette.cache_info().misses
        backgrounds = stgeorge._background_small.cache_info().misses
        render("stgeorge", view)
        # the first board of the corrected board's game made no palette and no background
        assert stgeorge._palette.cache_info().misses == made
        assert stgeorge._background_small.cache_info().misses == backgrounds
    finally:
        data.use_overrides(None)


async def test_a_worker_warms_with_the_data_files_it_was_started_with(corrected_board):
    from engines import data

    view = _views_of_a_game("stgeorge")[0]
    pictures = Pictures(1, str(corrected_board))
    try:
        pictures.start()
        warmed = await pictures.warmed()
        drawn = await pictures.draw("stgeorge", view)
    finally:
        await pictures.close()
    assert warmed.games == tuple(SPECS)
    data.use_overrides(corrected_board)
    try:
        assert drawn == render("stgeorge", view)
    finally:
        data.use_overrides(None)
    assert drawn != render("stgeorge", view)


async def test_a_warmed_worker_owes_no_collection_of_what_the_warm_up_left():
    """The warm-up leaves many objects behind; a full garbage collection over them, owed
    when the first board is asked for, would double that board's time. The worker collects
    them as it warms and keeps what it built out of later collections."""
    pictures = Pictures(1)
    try:
        pictures.start()
        await pictures.warmed()
        held = await pictures._run("collector")
    finally:
        await pictures.close()
    assert held["frozen"] > 10_000, "what the warm-up built is kept out of collections"
    assert held["pending"][1:] == [0, 0], "no older generation is owed a collection"
