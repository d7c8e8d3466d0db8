"""PNG encoding of palette pictures that compresses each part of a board only once.

Consecutive boards of a game share most of their rows: the board's ground, its labels and
legends, and every place nothing stands on. Deflating the image is most of what encoding a
board costs, so the image's bytes are cut into bands of :data:`BAND_ROWS` rows, each
deflated on its own (a full flush after it, so no band refers back into another), and a
band whose bytes were seen at the same place of an earlier picture of the same size reuses
that band's compressed bytes. The bands' deflate blocks joined are one valid zlib stream.

Bands depend only on their own bytes, so a picture encodes to the same bytes whatever was
encoded before it, in every process. Each of the most recent :data:`KEPT_SIZES` picture
sizes keeps the :data:`KEPT_PER_BAND` most recently used versions of each band: about
``KEPT_PER_BAND`` times the picture's pixel count in bytes per size.
"""

from __future__ import annotations

import struct
import zlib
from collections import OrderedDict
from dataclasses import dataclass

from PIL import Image

BAND_ROWS = 32
"""Rows per band: smaller bands are reused more often but deflate worse and cost more
calls; at 16 to 32 rows a board costs least, and 32 deflate best."""
KEPT_PER_BAND = 6
KEPT_SIZES = 8

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_LAST_BLOCK = b"\x03\x00"  # an empty final block with fixed codes: the stream's end
_ADLER_BASE = 65521


@dataclass(frozen=True)
class _Band:
    raw: bytes
    deflated: bytes
    adler: int


_kept: OrderedDict[tuple[int, int, int], dict[int, list[_Band]]] = OrderedDict()


def encode(image: Image.Image, level: int) -> bytes:
    """PNG bytes of the palette (``P`` mode) ``image``: 8-bit indices, its palette, no
    filtering, deflated at zlib ``level`` band by band (bands seen before reused)."""
    if image.mode != "P":
        raise ValueError(f"a palette picture is needed, not mode {image.mode}")
    width, height = image.size
    # Each PNG row starts with its filter type, 0 (none): a zero column before the pixels.
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(image, (1, 0))
    raw = rows.tobytes()
    bands = _bands_of(width, height, level)
    stride = (width + 1) * BAND_ROWS
    parts = [_zlib_header(level)]
    adler = 1
    for start in range(0, len(raw), stride):
        band = _band(bands.setdefault(start, []), raw[start : start + stride], level)
        parts.append(band.deflated)
        adler = _adler_combine(adler, band.adler, len(band.raw))
    parts.append(_LAST_BLOCK + struct.pack(">I", adler))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette
    palette = bytes(image.getpalette() or ())
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", b"".join(parts)),
            _chunk(b"IEND", b""),
        )
    )


def forget() -> None:
    """Drop every kept band (the next pictures are deflated whole)."""
    _kept.clear()


def kept_sizes() -> list[tuple[int, int]]:
    """The picture sizes whose bands are kept, least recently used first."""
    return [(width, height) for width, height, _ in _kept]


def _bands_of(width: int, height: int, level: int) -> dict[int, list[_Band]]:
    key = (width, height, level)
    bands = _kept.get(key)
    if bands is None:
        bands = _kept[key] = {}
        while len(_kept) > KEPT_SIZES:
            _kept.popitem(last=False)
    _kept.move_to_end(key)
    return bands


def _band(seen: list[_Band], raw: bytes, level: int) -> _Band:
    """The band of bytes ``raw`` from ``seen`` (most recently used first), or deflated now
    and kept there."""
    for index, band in enumerate(seen):
        if band.raw == raw:
            if index:
                seen.insert(0, seen.pop(index))
            return band
    deflate = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
    band = _Band(raw, deflate.compress(raw) + deflate.flush(zlib.Z_FULL_FLUSH), zlib.adler32(raw))
    seen.insert(0, band)
    del seen[KEPT_PER_BAND:]
    return band


def _zlib_header(level: int) -> bytes:
    """The two bytes opening a zlib stream (32 KB window, ``level`` as its hint)."""
    hint = 0 if level < 2 else 1 if level < 6 else 2 if level == 6 else 3
    first = 0x78
    second = hint << 6
    second += 31 - (first * 256 + second) % 31
    return bytes((first, second))


def _adler_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings joined, from each one's (as zlib's
    ``adler32_combine``)."""
    low = (first & 0xFFFF) + (second & 0xFFFF) - 1
    high = (first >> 16) + (second >> 16) + second_length * (first & 0xFFFF) - second_length
    return (low % _ADLER_BASE) | ((high % _ADLER_BASE) << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
