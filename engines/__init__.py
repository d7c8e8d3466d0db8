"""Rules of the hosted games. Pure, deterministic, standard library only.

One package per game (see :mod:`engines.base` for the contract every game keeps, and
``docs/ARCHITECTURE.md`` for the shape every package has). The games are registered, with
their renderers and computer players, in :mod:`games`.
"""
