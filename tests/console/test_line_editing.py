"""Typing at the local table: the arrow keys edit the line and recall earlier lines, and
the lines typed are there again in the next session."""

from tests.console.terminal import Terminal

UP = b"\x1b[A"
LEFT = b"\x1b[D"
LISTED = "[to alice] No games are open on this server."


def test_the_up_arrow_recalls_the_last_line_instead_of_printing_it(tmp_path):
    table = Terminal(tmp_path)
    table.type(b"alice: /game list\r")
    table.type(UP + b"\r")
    table.quit()
    assert table.screen.count(LISTED) == 2
    assert "^[[A" not in table.screen and "Write lines as" not in table.screen


def test_the_arrow_keys_move_in_the_line_to_mend_it(tmp_path):
    table = Terminal(tmp_path)
    table.type(b"alice: /game lst" + LEFT * 2 + b"i\r")  # the missing letter, put in place
    table.quit()
    assert LISTED in table.screen


def test_the_lines_of_an_earlier_session_can_be_recalled(tmp_path):
    first = Terminal(tmp_path)
    first.type(b"alice: /game list\r")
    first.quit()
    assert (tmp_path / "data" / "local-table.history").is_file()
    second = Terminal(tmp_path)
    second.type(UP + UP + b"\r")  # `quit` was the last line; `/game list` the one before
    second.quit()
    assert LISTED in second.screen
