"""The store's ports stay small and ``Store`` is exactly their union: a new method of the
store goes in a port (the concern it belongs to), never into ``Store`` alone."""

from __future__ import annotations

import inspect

from bot.store import PORTS, Store

MOST = 20
"""The most methods a port may have."""


def methods(protocol: type) -> set[str]:
    """The public methods ``protocol`` declares itself (not those it inherits)."""
    return {
        name
        for name, value in vars(protocol).items()
        if not name.startswith("_") and inspect.isfunction(value)
    }


def test_no_port_has_more_than_twenty_methods():
    sizes = {port.__name__: len(methods(port)) for port in PORTS}
    assert all(sizes.values()), sizes
    assert {name: size for name, size in sizes.items() if size > MOST} == {}


def test_store_is_exactly_the_union_of_its_ports():
    assert methods(Store) == set()  # nothing of its own: every method is in a port
    assert set(Store.__mro__) >= set(PORTS)
    bases = [base for base in Store.__bases__ if base.__name__ != "Protocol"]
    assert sorted(bases, key=str) == sorted(PORTS, key=str)


def test_no_method_is_in_two_ports():
    seen: dict[str, str] = {}
    for port in PORTS:
        for name in methods(port):
            assert name not in seen, f"{name} is in both {seen[name]} and {port.__name__}"
            seen[name] = port.__name__
