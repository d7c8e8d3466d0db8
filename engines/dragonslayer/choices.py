"""The former name of :mod:`engines.dragonslayer.prompts`, kept so older imports work."""

from engines.dragonslayer.prompts import legal_actions, prompts

__all__ = ["legal_actions", "prompts"]
