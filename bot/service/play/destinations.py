"""Destinations labelled for the choice at hand: the places a piece may go, each marked on a
picture made for the chooser with a short label (``A``, ``B``…), and the same labels leading
the menu or buttons, with the place and what happens there beside them.

The engine says where each action goes and what happens there (:class:`engines.base.Choice`'s
``to``, ``outcome`` and ``notable``); this module only names the places. Labels follow the
order the chooser should read them in: notable places (a capture, a win) first, then the
engine's order, one label per place, never one label for two places. A picture with marks is
the public view plus the marks of one seat's own legal moves: it is sent to that seat alone
(an ephemeral reply), never posted in a channel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.service.notices import Board
from engines.base import Choice

LABELS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
"""The labels, in order: capitals without I and O (read as 1 and 0 on a small picture)."""
MAX_PLACES = len(LABELS)
"""The places one-letter labels name; a step's 25th place gets ``AA``."""
MAX_STEP = 25
"""The most choices one labelled step offers (one menu); the engine groups more."""
MANY_LABELS = (*LABELS, *(a + b for a in LABELS for b in LABELS))
"""Labels for every place of a whole turn at once (the local table's, over several
pictures): the single letters, then two."""


def has_places(choices: Sequence[Choice]) -> bool:
    """Whether any of ``choices`` goes to a place a picture can mark."""
    return any(c.to for c in choices)


def placed(
    choices: Sequence[Choice], labels: Sequence[str] = LABELS
) -> tuple[tuple[Choice, ...], list[dict[str, Any]]] | None:
    """``choices`` relabelled with the label of their place first (``"A · G1 → 3c — takes
    a Knight"``),
    notable places first and the rest after in the engine's order, and the marks to draw
    (``{"at", "label", "notable"}``); None when they go to no place, or to more places than
    there are ``labels``."""
    order = sorted(range(len(choices)), key=lambda i: not choices[i].notable)
    places: dict[str, str] = {}
    for index in order:
        to = choices[index].to
        if to and to not in places:
            places[to] = labels[len(places)] if len(places) < len(labels) else ""
    if not places or "" in places.values():
        return None
    ranked = sorted(order, key=lambda i: (not choices[i].to, _rank(places, choices[i].to)))
    labelled = tuple(_labelled(choices[i], places.get(choices[i].to, "")) for i in ranked)
    notable = {c.to for c in choices if c.notable}
    marks = [{"at": to, "label": label, "notable": to in notable} for to, label in places.items()]
    return labelled, marks


def marked(board: Board, marks: list[dict[str, Any]]) -> Board:
    """``board`` with ``marks`` drawn on it (for the chooser's eyes only)."""
    return replace(board, view={**board.view, "marks": marks})


def _rank(places: dict[str, str], to: str) -> int:
    return list(places).index(to) if to in places else len(places)


def _labelled(choice: Choice, label: str) -> Choice:
    """``choice`` with its place's label first: ``A · G1 → 3c — takes a Knight of St.
    David`` (the engine's own words kept whole, so two moves to one place stay apart)."""
    if not label:
        return choice
    text = f"{label} · {choice.label}"
    if choice.outcome and choice.outcome not in text:
        text += f" — {choice.outcome}"
    return replace(choice, label=text[:100])
