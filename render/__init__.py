"""Board pictures. Each game's renderer turns a *public view* into PNG bytes.

Renderers never see engine state, only the dict that ``Game.view(state, None)`` returns,
so nothing secret can reach a picture.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

Renderer = Callable[[dict[str, Any]], bytes]

_MODULES = {
    "stgeorge": "stgeorge",
    "dragons-cave": "dragons_cave",
    "lions-dragons": "lions_dragons",
    "dragonslayer": "dragonslayer",
}


def renderer_for(slug: str) -> Renderer:
    """The ``render(view) -> bytes`` function of game ``slug``."""
    module = importlib.import_module(f"render.{_MODULES[slug]}")
    return module.render


def render(slug: str, view: dict[str, Any]) -> bytes:
    """PNG bytes of a public view of game ``slug``."""
    return renderer_for(slug)(view)
