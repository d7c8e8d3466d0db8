"""The replay animation: board pictures (PNG) in, one animated GIF out.

Discord shows a GIF inline. Frames are scaled to a phone-legible width, each with its own
palette, and only what changed from the frame before is stored (Pillow crops each frame to
the difference). A game too long for the size limit keeps fewer frames, dropped evenly but
always keeping the first and the last, and then, if still too big, smaller frames.
"""

from __future__ import annotations

import io

from PIL import Image

WIDTH = 800
"""Frame width in pixels: legible on a phone, small enough for long games."""
LIMIT = 10 * 1024 * 1024
"""Discord's attachment limit (10 MiB)."""
FRAME_MS = 1000
"""How long each board is shown."""
LAST_MS = 4000
"""How long the final board is shown before the animation starts again."""
SMALLEST = 320
"""Frames are never scaled below this width."""


def animate(pictures: list[bytes], *, width: int = WIDTH, limit: int = LIMIT) -> bytes:
    """One animated GIF of ``pictures`` (PNG bytes, in order) within ``limit`` bytes."""
    if not pictures:
        raise ValueError("a replay needs at least one board picture")
    frames = _frames(pictures, width)
    keep = list(range(len(frames)))
    while True:
        data = _gif([frames[i] for i in keep])
        if len(data) <= limit:
            return data
        if len(keep) > 2:
            wanted = max(2, min(len(keep) - 1, int(len(keep) * limit / len(data) * 0.9)))
            keep = spread(keep, wanted)
        elif frames[0].width > SMALLEST:
            width = max(SMALLEST, int(frames[0].width * 0.75))
            frames = _frames(pictures, width)
            keep = spread(list(range(len(frames))), len(frames))
        else:
            raise ValueError(f"even two boards at {SMALLEST} px do not fit in {limit} bytes")


def spread(indices: list[int], count: int) -> list[int]:
    """``count`` of ``indices`` spread evenly, the first and the last always among them."""
    if count >= len(indices):
        return list(indices)
    if count <= 1:
        return [indices[-1]]
    step = (len(indices) - 1) / (count - 1)
    return sorted({indices[round(i * step)] for i in range(count)})


def _frames(pictures: list[bytes], width: int) -> list[Image.Image]:
    """The board pictures scaled to ``width`` (never enlarged), each on a canvas of the
    largest one's size (a game may show boards of two shapes), each in its own palette."""
    scaled = [_scaled(data, width) for data in pictures]
    size = (max(i.width for i in scaled), max(i.height for i in scaled))
    frames = []
    for image in scaled:
        if image.size != size:
            canvas = Image.new("RGB", size, "white")
            canvas.paste(image, ((size[0] - image.width) // 2, 0))
            image = canvas
        frames.append(image.quantize(255, method=Image.Quantize.FASTOCTREE))
    return frames


def _scaled(data: bytes, width: int) -> Image.Image:
    with Image.open(io.BytesIO(data)) as opened:
        image = opened.convert("RGB")
    if image.width > width:
        height = round(image.height * width / image.width)
        # Bilinear after a box reduction: as sharp as Lanczos for text, at half the cost.
        image = image.resize((width, height), Image.Resampling.BILINEAR, reducing_gap=2.0)
    return image


def _gif(frames: list[Image.Image]) -> bytes:
    out = io.BytesIO()
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_MS]
    frames[0].save(
        out, format="GIF", save_all=True, append_images=frames[1:],
        duration=durations, loop=0, optimize=False, disposal=1,
    )  # fmt: skip
    return out.getvalue()
