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
from collections.abc import Callable

from bot.service.admission import Admission
from bot.service.away import Away
from bot.service.clock import TurnClock
from bot.service.computers import Computers, TurnDeadlines
from bot.service.desk import Desk
from bot.service.digest import Digests
from bot.service.doorbell import Doorbell
from bot.service.drawing import Animator, Drawer, Drawing, Renderer
from bot.service.endings import Endings
from bot.service.gathering import Gathering
from bot.service.inbox import Inbox
from bot.service.listings import Listings
from bot.service.lobby import Lobby
from bot.service.notes import Notes
from bot.service.server_data import ServerData
from bot.service.standings import Standings
from bot.service.story import StoryTeller
from bot.service.tables import (
    engine_for,
    replay,
)
from bot.service.turns import Turns
from bot.service.watchers import Watchers
from bot.service.web_pages import Pages
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
        pictures (see :class:`~bot.service.drawing.Drawing`); ``admission`` bounds the
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
        self.states = self.desk.states
        self.drawing = Drawing(renderer, drawer, animator)
        self.deadlines = TurnDeadlines()
        self.server_data = ServerData(store, clock)
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
        self.standings = Standings(store)
        self.pages = Pages(self.desk, self.drawing)
        self.notes = Notes(self.desk)
        self.inbox = Inbox(self.desk, self.turns)
        self.digests = Digests(self.desk, self.inbox)
        self._admit_clicks()

        # Finding games, and what frontends remember.
        self.table = self.desk.table
        self.find = self.desk.find
        self.tell = self.desk.tell
        # Turns: what a seat may do, and playing it.
        self.act = self.turns.act
        self.controls_for = self.turns.controls_for
        self.action_choices = self.turns.action_choices
        self.group_controls = self.turns.group_controls
        self.private_controls = self.turns.private_controls
        self.private_text = self.turns.private_text
        self.hand = self.turns.hand
        # Where games stand.
        self.status = self.listings.status
        self.list_games = self.listings.list_games
        self.mine = self.listings.mine
        self.game_choices = self.listings.game_choices
        self.story_choices = self.listings.story_choices
        # The lobby.
        self.new_game = self.lobby.new_game
        self.join = self.lobby.join
        self.add_computer = self.lobby.add_computer
        self.leave = self.lobby.leave
        self.member_left = self.lobby.member_left
        self.channel_gone = self.lobby.channel_gone
        self.move_to = self.lobby.move_to
        self.startable = self.lobby.startable
        self.start = self.lobby.start
        self.cancel = self.lobby.cancel
        self.new_game_roles = self.lobby.new_game_roles
        self.role_choices = self.lobby.role_choices
        # Gathering a table.
        self.press_join = self.gathering.press_join
        self.press_seat = self.gathering.press_seat
        self.press_leave = self.gathering.press_leave
        self.press_start = self.gathering.press_start
        self.invite = self.gathering.invite
        self.rematch = self.gathering.rematch
        # Private notes.
        self.note = self.notes.note
        # The inbox: a player's games on every server.
        self.games_servers = self.inbox.servers
        self.games_inbox = self.inbox.inbox
        self.next_choice = self.inbox.next_choice
        # Web pages.
        self.page_address = self.pages.address
        self.set_server_pages = self.pages.switch
        # The turn clock.
        self.set_timing = self.turn_clock.set_timing
        self.set_server_timing = self.turn_clock.set_server_timing
        self.set_server_threads = self.turn_clock.set_server_threads
        self.pause = self.turn_clock.pause
        self.resume = self.turn_clock.resume
        self.set_notify = self.turn_clock.set_notify
        self.set_call = self.turn_clock.set_call
        self.set_quiet = self.turn_clock.set_quiet
        self.set_digest = self.turn_clock.set_digest
        self.show_calls = self.turn_clock.show_calls
        self.give_time = self.turn_clock.give_time
        self.claim = self.turn_clock.claim
        self.release = self.turn_clock.release
        self.unclaim = self.turn_clock.unclaim
        self.due_games = self.turn_clock.due_games
        self.next_wakeup = self.turn_clock.next_wakeup
        self.fire_due = self.turn_clock.fire_due
        self.fire_claimed = self.turn_clock.fire_claimed
        # Computer seats.
        self.play_computers = self.computers.play_computers
        self.play_all_computers = self.computers.play_all_computers
        # Endings by agreement.
        self.resign = self.endings.resign
        self.offer_draw = self.endings.offer_draw
        self.request_takeback = self.endings.request_takeback
        self.answer_offer = self.endings.answer_offer
        self.offer_standing = self.endings.offer_standing
        # A game's story.
        self.history = self.stories.history
        self.export_record = self.stories.export_record
        self.replay_animation = self.stories.replay_animation
        self.play_record = self.stories.play_record
        self.finished_list = self.stories.finished_list
        self.finished_lines = self.stories.finished_lines
        # Ratings.
        self.leaderboard = self.standings.leaderboard
        self.stats = self.standings.stats
        self.recompute_ratings = self.standings.recompute_ratings
        # A server's corrected data, and the rules.
        self.opening_data = self.server_data.opening_data
        self.upload_data = self.server_data.upload_data
        self.show_data = self.server_data.show_data
        self.clear_data = self.server_data.clear_data
        self.rules_sections = self.server_data.rules_sections
        self.game_title = self.server_data.game_title
        self.games_overview = self.server_data.games_overview
        # Watchers and time away.
        self.watch = self.watchers.watch
        self.unwatch = self.watchers.unwatch
        self.watched_choices = self.watchers.watched_choices
        self.status_update = self.watchers.status_update
        self.go_away = self.away.go_away
        self.away_now = self.away.away_now
        # Pictures.
        self.draw = self.drawing.draw

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
