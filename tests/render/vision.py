"""Colour vision for the picture tests, in plain Python: how a colour looks to a viewer with
deuteranopia, protanopia or tritanopia (Machado, Oliveira and Fernandes 2009, severity 1.0,
applied to linear sRGB), and how far apart two colours look (CIE76 ΔE in CIELAB, D65)."""

from __future__ import annotations

import math
from itertools import combinations

Colour = tuple[int, int, int]

MACHADO = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
"""The simulation matrices of Machado et al. (2009) at full severity, on linear RGB."""

VISIONS = ("normal", *MACHADO)


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(value: float) -> int:
    value = min(1.0, max(0.0, value))
    c = value * 12.92 if value <= 0.0031308 else 1.055 * value ** (1 / 2.4) - 0.055
    return round(c * 255)


def seen(colour: Colour, vision: str) -> Colour:
    """``colour`` as a viewer with ``vision`` sees it (unchanged for ``"normal"``)."""
    if vision == "normal":
        return colour
    rgb = [_linear(c) for c in colour]
    rows = MACHADO[vision]
    return tuple(_encoded(sum(m * c for m, c in zip(row, rgb, strict=True))) for row in rows)  # type: ignore[return-value]


def lab(colour: Colour) -> tuple[float, float, float]:
    """CIELAB of an sRGB colour (D65 white)."""
    r, g, b = (_linear(c) for c in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: Colour, b: Colour) -> float:
    """CIE76 colour difference: about 2.3 is just noticeable, 20 is plainly another colour."""
    return math.dist(lab(a), lab(b))


def closest_pair(colours: dict[str, Colour], vision: str, distance=None) -> tuple[float, str, str]:
    """The two of ``colours`` that look most alike to ``vision``, and how far apart they look
    (by ``distance``, CIEDE2000 unless told)."""
    distance = distance or delta_e2000
    return min(
        (distance(seen(colours[a], vision), seen(colours[b], vision)), a, b)
        for a, b in combinations(colours, 2)
    )


def delta_e2000(a: Colour, b: Colour) -> float:
    """CIEDE2000 colour difference (Sharma, Wu and Dalal's formulation): closer than CIE76
    to what the eye sees, above all among saturated colours; 10 or more is another colour."""
    return delta_e2000_lab(lab(a), lab(b))


def delta_e2000_lab(one: tuple[float, float, float], two: tuple[float, float, float]) -> float:
    """CIEDE2000 between two CIELAB colours."""
    l1, a1, b1 = one
    l2, a2, b2 = two
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dl, dc = l2 - l1, c2 - c1
    dh = h2 - h1
    if c1 * c2 == 0:
        dh = 0.0
    elif dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    dh_big = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_bar, c_bar2 = (l1 + l2) / 2, (c1 + c2) / 2
    h_bar = h1 + h2
    if c1 * c2 != 0:
        if abs(h1 - h2) <= 180:
            h_bar = (h1 + h2) / 2
        else:
            h_bar = (h1 + h2 + (360 if h1 + h2 < 360 else -360)) / 2

    def cos(degrees: float) -> float:
        return math.cos(math.radians(degrees))

    t = (
        1 - 0.17 * cos(h_bar - 30) + 0.24 * cos(2 * h_bar)
        + 0.32 * cos(3 * h_bar + 6) - 0.20 * cos(4 * h_bar - 63)
    )  # fmt: skip
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * c_bar2
    s_h = 1 + 0.015 * c_bar2 * t
    r_t = (
        -2 * math.sqrt(c_bar2**7 / (c_bar2**7 + 25**7))
        * math.sin(math.radians(60 * math.exp(-(((h_bar - 275) / 25) ** 2))))
    )  # fmt: skip
    return math.sqrt(
        (dl / s_l) ** 2 + (dc / s_c) ** 2 + (dh_big / s_h) ** 2 + r_t * (dc / s_c) * (dh_big / s_h)
    )
