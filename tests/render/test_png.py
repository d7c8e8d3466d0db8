"""Board PNGs encoded band by band: what a viewer decodes is exactly the picture drawn,
whatever was encoded before it, and the bytes do not depend on what the process saw."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from PIL import Image

from bench.boards import renderer_module, views
from games import SPECS
from render import png


def _chunks(data: bytes) -> dict[bytes, bytes]:
    """The PNG's chunks by type, each chunk's CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    found: dict[bytes, bytes] = {}
    at = 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        found[kind] = found.get(kind, b"") + body
        at += 12 + length
    return found


def _boards(slug: str, count: int) -> list[Image.Image]:
    module = renderer_module(slug)
    shown = views(slug, count, seed=7)
    random.Random(slug).shuffle(shown)
    palette = module.palette()
    return [palette.quantize(module.picture(view)) for view in shown]


@pytest.fixture(autouse=True)
def _fresh() -> None:
    png.forget()


@pytest.mark.parametrize("slug", list(SPECS))
def test_every_board_decodes_to_the_pixels_and_palette_drawn(slug: str) -> None:
    boards = _boards(slug, 12)
    for board in boards + boards[:4]:  # the repeats are made from kept bands only
        data = png.encode(board, 2)
        shown = Image.open(io.BytesIO(data))
        shown.load()
        assert shown.mode == "P" and shown.size == board.size
        assert shown.tobytes() == board.tobytes()
        assert shown.getpalette() == board.getpalette()
        # zlib checks the stream's Adler-32 over every row, across the joined bands.
        rows = zlib.decompress(_chunks(data)[b"IDAT"])
        assert len(rows) == (board.width + 1) * board.height


def test_a_board_encodes_to_the_same_bytes_whatever_came_before() -> None:
    boards = _boards("dragons-cave", 8)
    alone = []
    for board in boards:
        png.forget()
        alone.append(png.encode(board, 2))
    png.forget()
    after_others = [png.encode(board, 2) for board in boards]
    assert after_others == alone


def test_rows_shared_with_earlier_boards_are_reused() -> None:
    first, second = _boards("stgeorge", 2)
    png.encode(first, 2)
    png.encode(second, 2)
    bands = png._kept[(*second.size, 2)]
    twice = sum(len(versions) == 1 for versions in bands.values())
    assert twice > len(bands) // 3  # the ground and the legends are the same bands


def test_only_the_most_recent_sizes_keep_their_bands() -> None:
    for width in range(1, png.KEPT_SIZES + 3):
        png.encode(Image.new("P", (width, 3)), 2)
    assert png.kept_sizes() == [(width, 3) for width in range(3, png.KEPT_SIZES + 3)]


def test_other_modes_are_refused() -> None:
    with pytest.raises(ValueError, match="palette"):
        png.encode(Image.new("RGB", (4, 4)), 2)


def test_an_odd_sized_picture_with_a_short_last_band() -> None:
    picture = Image.new("P", (5, png.BAND_ROWS * 2 + 3))
    picture.putpalette([n % 256 for n in range(768)])
    picture.putdata([n % 7 for n in range(5 * picture.height)])
    shown = Image.open(io.BytesIO(png.encode(picture, 1)))
    assert shown.tobytes() == picture.tobytes()
