"""The local table keeps its games in a file between sessions, says where, shows the games
still open when it starts again, and never writes over earlier pictures."""

from tests.console.terminal import console

OPEN = (
    "alice: /game new game:stgeorge players:2 role:knights\nbob: /game join\nalice: /game start\n"
)


def test_a_game_goes_on_in_the_next_session_with_the_same_players(tmp_path):
    first = console([], tmp_path, stdin=OPEN + "quit\n")
    assert first.returncode == 0, first.stderr
    assert "Games are kept in data/local-table.sqlite3" in first.stdout
    assert (tmp_path / "data" / "local-table.sqlite3").is_file()

    second = console([], tmp_path, stdin="alice: roll\nbob: roll\nquit\n")
    assert second.returncode == 0, second.stderr
    start, _, played = second.stdout.partition("table> ")
    assert "Still open from before:" in start and "#1 St. George and the Dragon" in start
    assert "waiting for All four Knights (@alice)" in start
    assert "All four Knights rolled" in played  # alice still holds her seat
    assert "[to bob] ⚠️" in played  # and bob his: it is not the Dragon's turn


def test_another_database_file_can_be_named(tmp_path):
    named = console(["--db", "elsewhere/games.sqlite3"], tmp_path, stdin=OPEN + "quit\n")
    assert "Games are kept in elsewhere/games.sqlite3" in named.stdout
    assert (tmp_path / "elsewhere" / "games.sqlite3").is_file()
    by_setting = console([], tmp_path, stdin="quit\n", LOCAL_TABLE_DB="elsewhere/games.sqlite3")
    assert "#1 St. George and the Dragon" in by_setting.stdout
    assert not (tmp_path / "data" / "local-table.sqlite3").exists()


def test_pictures_of_a_new_session_are_added_after_the_earlier_ones(tmp_path):
    console([], tmp_path, stdin=OPEN + "quit\n")
    first = (tmp_path / "out" / "board-0001.png").read_bytes()
    again = console([], tmp_path, stdin="bob: /game status\nquit\n")
    assert "Board pictures are written to out/, from board-0002.png on." in again.stdout
    assert "(board picture: out/board-0002.png)" in again.stdout
    assert (tmp_path / "out" / "board-0001.png").read_bytes() == first
