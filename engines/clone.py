"""Deep copies of game states, made quickly.

Engines never change a state they are given, so each step copies it first, and that copy is
the largest cost of a step. A state is plain data (dicts, lists, tuples, sets, numbers,
strings and the engines' own dataclasses), which pickle's C implementation walks several
times faster than :func:`copy.deepcopy`, with the same result: an equal value sharing no
mutable part with the original (and keeping any sharing within it).
"""

from __future__ import annotations

import pickle
from typing import TypeVar

T = TypeVar("T")


def clone(value: T) -> T:
    """A deep copy of ``value``, equal to ``clone(value)``."""
    copied: T = pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    return copied
