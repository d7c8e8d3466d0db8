"""The game host: lobby, seats, turns, secret prompts, for every game through one contract.

Frontends call these coroutines with plain ids and strings and deliver the notices they
return. Rules are the engines' business: the host only asks an engine who is prompted,
what is legal, and what happened, and stores every accepted action in one versioned
transaction before anybody is told about it.

:class:`GameHost` is made of parts, each given what it uses when it is built: the
:class:`~bot.service.desk.Desk` (the store, the clock, the doorbell and the loaded states)
that they all share, and the few other parts it calls. The host is the one door: each of
its calls is a part's.
"""

from __future__ import annotations

import os
import random
import socket
import time
from collections.abc import Awaitable, Callable

from bot.service.admission import Admission
from bot.service.boards.drawing import Animator, Drawer, Drawing, Renderer
from bot.service.community.inbox import Inbox
from bot.service.community.languages import Languages
from bot.service.community.notes import Notes
from bot.service.community.server_data import ServerData
from bot.service.community.standings import Standings
from bot.service.community.watchers import Watchers
from bot.service.delivery import outbox
from bot.service.delivery.digest import Digests
from bot.service.delivery.outbox import LANE_LEASE, Outbox, Send
from bot.service.delivery.pacing import Pacer
from bot.service.desk import Desk
from bot.service.doorbell import Doorbell
from bot.service.history.listings import Listings
from bot.service.history.story import StoryTeller
from bot.service.history.web_pages import Pages
from bot.service.notices import Outcome
from bot.service.play.computers import Computers, TurnDeadlines
from bot.service.play.endings import Endings
from bot.service.play.turns import Turns
from bot.service.seating.gathering import Gathering
from bot.service.seating.lobby import Lobby
from bot.service.tables import (
    engine_for,
    replay,
)
from bot.service.timekeeping import scheduler
from bot.service.timekeeping.away import Away
from bot.service.timekeeping.clock import TurnClock
from bot.service.timekeeping.scheduler import Scheduler
from bot.store import Store

__all__ = ["Animator", "Drawer", "GameHost", "Renderer", "replay"]


class GameHost:
    """Every use case of the game host, independent of any frontend."""

    def __init__(
        self,
        store: Store,
        *,
        doorbell: Doorbell | None = None,
        renderer: Renderer | None = None,
        drawer: Drawer | None = None,
        animator: Animator | None = None,
        clock: Callable[[], float] = time.time,
        seeds: random.Random | None = None,
        admission: Admission | None = None,
        web_url: str | None = None,
    ) -> None:
        """``doorbell`` is rung whenever notices are stored or a deadline moves (the outbox
        and the scheduler listen to it); ``renderer``, ``drawer`` and ``animator`` draw
        pictures (see :class:`~bot.service.boards.drawing.Drawing`); ``admission`` bounds the
        work taken on at once (every call a click reaches is admitted by it, the turn
        clock waits on it); ``web_url`` is where players reach the game pages (None:
        none served)."""
        self.store = store
        self.clock = clock
        self.doorbell = doorbell or Doorbell()
        self.admission = admission or Admission()
        # Who holds this host's claims on due games and outbox lanes in a shared database.
        tag = random.SystemRandom().getrandbits(32)
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{tag:08x}"
        seeds = seeds or random.SystemRandom()

        self.desk = Desk(store, clock, self.doorbell, web_url)
        self.drawing = Drawing(renderer, drawer, animator, self.admission)
        self.deadlines = TurnDeadlines()
        self.server_data = ServerData(self.desk.store, clock)
        self.languages = Languages(self.desk.store)
        self.turns = Turns(self.desk, self.deadlines)
        self.computers = Computers(self.desk, self.turns)
        self.lobby = Lobby(self.desk, self.turns, self.deadlines, self.server_data, seeds)
        self.gathering = Gathering(self.desk, self.lobby, self.server_data, seeds)
        self.turn_clock = TurnClock(
            self.desk, self.turns, self.computers, self.deadlines, self.owner
        )
        self.endings = Endings(self.desk, self.turns)
        self.stories = StoryTeller(self.desk, self.drawing)
        self.listings = Listings(self.desk, self.stories)
        self.watchers = Watchers(self.desk)
        self.away = Away(self.desk, self.watchers)
        self.standings = Standings(self.desk.store)
        self.pages = Pages(self.desk, self.drawing)
        self.notes = Notes(self.desk)
        self.inbox = Inbox(self.desk, self.turns)
        self.digests = Digests(self.desk, self.inbox)
        self._admit_clicks()

    def _admit_clicks(self) -> None:
        """Make every call a person's click reaches a door of the host's admission: each
        is admitted (or refused as busy, nothing done) once, whichever frontend or other
        caller makes it, and whether it is reached through a part or the host's name for
        it. What the host does on its own (the turn clock, computers, digests, the outbox)
        calls other methods, or runs as the admission's background work."""
        doors = self.admission.doors
        doors(self.turns, "act", "hand", "group_controls", "private_controls", "private_text")
        doors(self.lobby, "new_game", "join", "add_computer", "leave", "start", "cancel")
        doors(self.gathering, "press_join", "press_seat", "press_leave", "press_start")
        doors(self.gathering, "invite", "rematch")
        doors(self.listings, "status", "list_games", "mine")
        doors(self.stories, "history", "export_record", "replay_animation", "play_record")
        doors(self.endings, "resign", "offer_draw", "request_takeback", "answer_offer")
        doors(self.turn_clock, "set_timing", "pause", "resume", "give_time", "show_calls")
        doors(self.turn_clock, "set_notify", "set_call", "set_quiet", "set_digest")
        doors(self.turn_clock, "set_server_timing", "set_server_threads")
        doors(self.pages, "address", "switch")
        doors(self.server_data, "show_data", "upload_data", "clear_data")
        doors(self.standings, "leaderboard", "stats")
        doors(self.watchers, "watch", "unwatch")
        doors(self.away, "go_away")
        doors(self.notes, "note")
        doors(self.inbox, "inbox", "next_choice")
        doors(self.languages, "choose", "set_server")

    def new_outbox(
        self,
        send: Send,
        *,
        concurrency: int = outbox.CONCURRENCY,
        one_by_one: bool = False,
        lane_lease: float = LANE_LEASE,
        pacer: Pacer | None = None,
    ) -> Outbox:
        """An outbox sending this host's notices through a frontend's ``send`` (see
        :class:`~bot.service.delivery.outbox.Outbox` for the options), given the parts it
        uses: the desk, the boards' pictures, the lobby (a deleted channel's games pause),
        this host's name in its claims, the languages its deliveries are written in, and
        its admission (a lane being sent is work owed). It listens to the doorbell from
        now on."""
        return Outbox(
            self.desk, self.drawing, self.lobby, self.owner, send, readers=self.languages,
            concurrency=concurrency, one_by_one=one_by_one, lane_lease=lane_lease, pacer=pacer,
            owing=self.admission,
        )  # fmt: skip

    def new_scheduler(
        self,
        deliver: Callable[[Outcome], Awaitable[object]],
        clock: Callable[[], float] | None = None,
        *,
        concurrency: int = scheduler.CONCURRENCY,
    ) -> Scheduler:
        """The task that fires what falls due on this host (see
        :class:`~bot.service.timekeeping.scheduler.Scheduler`), delivering what each firing
        tells through ``deliver``; ``clock``: the host's unless given. It listens to the
        doorbell from now on."""
        return Scheduler(
            self.desk, self.turn_clock, self.digests, self.admission, deliver,
            clock or self.clock, concurrency=concurrency,
        )  # fmt: skip

    @property
    def computer_delay(self) -> float:
        """Seconds a computer 'thinks' before its move is played."""
        return self.deadlines.computer_delay

    @computer_delay.setter
    def computer_delay(self, seconds: float) -> None:
        self.deadlines.computer_delay = seconds

    @property
    def claim_lease(self) -> float:
        """Seconds this host's claims on due games last."""
        return self.turn_clock.claim_lease

    @claim_lease.setter
    def claim_lease(self, seconds: float) -> None:
        self.turn_clock.claim_lease = seconds

    async def dms_closed(self, user_id: int) -> bool:
        """Whether direct messages to ``user_id`` are known to fail."""
        return await self.store.dm_closed(user_id)

    async def mark_dms_closed(self, user_id: int) -> None:
        """Direct messages to ``user_id`` failed: from now on their private choices are
        offered behind a button in the game's channel."""
        await self.store.set_dm_closed(user_id, True)

    async def close(self) -> None:
        """Close the store; the host is not used afterwards."""
        await self.store.close()

    @staticmethod
    def rules(slug: str) -> str:
        return engine_for(slug).rules_help()
