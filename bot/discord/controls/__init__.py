"""Every persistent control the bot offers, the views holding them, and their registration.

A control is a ``DynamicItem``: discord.py rebuilds it from the id of whatever was clicked,
so controls on any message keep working after a restart, provided :func:`register` has
told the bot about them. A click calls one host method and answers
(:func:`bot.discord.replies.answer`).

- :mod:`.play`: a turn's buttons and menus, the two-step pick (a piece, then its places
  labelled on a picture), the private choice's button;
- :mod:`.endings`: an offer's Accept and Decline, the confirmation of a resignation;
- :mod:`.lobby`: Join, Leave, Start, the menu of seats, an invitation's Join, Rematch;
- :mod:`.rules`: ``/rules``'s menu of sections;
- :mod:`.inbox`: ``/games``'s Next button;
- :mod:`.views`: the host's controls as one view (:func:`controls_view`);
- :mod:`.base`: ids, stamps, and a click handed on with the bot it reached.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.controls.endings import OfferButton, ResignButton
from bot.discord.controls.inbox import NextButton
from bot.discord.controls.lobby import LobbyButton, RematchButton, SeatSelect
from bot.discord.controls.play import (
    ActionButton,
    ActionSelect,
    GroupSelect,
    OpenPrivateButton,
    PlacesButton,
)
from bot.discord.controls.rules import SectionMenu

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot

ITEMS = (
    ActionButton,
    ActionSelect,
    GroupSelect,
    PlacesButton,
    OpenPrivateButton,
    OfferButton,
    ResignButton,
    LobbyButton,
    SeatSelect,
    RematchButton,
    SectionMenu,
    NextButton,
)
"""Every kind of control, each recognised by the template of its id."""


def register(bot: HostingBot) -> None:
    """Have ``bot`` answer clicks on every control, whenever it was posted."""
    bot.add_dynamic_items(*ITEMS)
