"""One post per turn, each thing said once.

The post that opens a turn (with its board) is the turn's post. Every later step of that
turn (a roll and the move it allows, a King's man's march, a computer's several steps, each
secret answer of a round) updates it in place: a :class:`ChannelPost` with ``edit=True``
carrying the whole text, the turn's story so far read back from the outbox plus what the
step told, and the calls to act now. A frontend edits the game's remembered board post with
it (posting it anew if that message is gone), so an update sent twice changes nothing.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace

from bot.service import wire
from bot.service.notices import ChannelPost
from bot.service.text import Text, fitted, lines_of, said
from bot.store import GameRecord, PostStore
from engines.base import Event, Prompt, Result

TURN_POST_LIMIT = 1800
"""Characters of a turn's post (Discord holds 2,000; mentions and links grow when written):
a long turn keeps its first line and its newest steps."""


class RecentPosts:
    """The turn post each game's last action stored, by the version that action made, so
    the turn's next step need not read it back from the outbox (a game written since,
    here or by another process, is read back as before). The newest games only."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._posts: OrderedDict[int, tuple[int, ChannelPost | None]] = OrderedDict()

    def keep(self, game_id: int, version: int, post: ChannelPost | None) -> None:
        """``post`` (None: the game ended with it) was stored by the write that made
        ``version``."""
        self._posts[game_id] = (version, None if post is None or post.final else post)
        self._posts.move_to_end(game_id)
        while len(self._posts) > self._size:
            self._posts.popitem(last=False)

    async def current(self, store: PostStore, record: GameRecord) -> ChannelPost | None:
        """:func:`current`, from what was kept when it is of the record's version."""
        kept = self._posts.get(record.id)
        if kept is not None and kept[0] == record.version:
            return kept[1]
        return await current(store, record)


LOOKS = (3, 10)
"""How many of a game's newest notices in its channel are read to find its turn post: a
few first (an action stores the post with at most a retirement and a status around it),
then more. Each is decoded, and a turn post tells a whole turn."""


async def current(store: PostStore, record: GameRecord) -> ChannelPost | None:
    """The game's turn post as last stored (its latest step), if the outbox still has it
    (among its :data:`LOOKS` newest notices in the channel) and the game did not end with
    it."""
    for limit in LOOKS:
        bodies = await store.recent_notices(record.id, f"c{record.channel_id}", limit)
        for body in bodies:
            if body.get("kind") == "post" and body.get("turn") is not None:
                if body.get("passed"):
                    continue
                post = wire.load(body)
                return post if isinstance(post, ChannelPost) and not post.final else None
        if len(bodies) < limit:
            return None
    return None


def told(events: list[Event], result: Result | None) -> list[str]:
    """The public lines of an action's events; the result is left out of them, since the
    game's ending line says it."""
    lines = [e.text for e in events if e.public]
    if result is None:
        return lines
    return [line for text in lines if (line := text.replace(result.text, "").strip())]


def step_story(
    earlier: ChannelPost, headline: str | Text, lines: list[str], prompts: list[Prompt]
) -> Text:
    """The turn's story after one more step: what it was, then what the step told (a line
    the next question repeats is left out; a computer's headline only when it says why)."""
    why = [headline] if headline and ":" in str(headline) else []
    new = [line for line in lines if not _asked_again(line, prompts)]
    story = lines_of(Text.of("\n").join([earlier.story, *why, *new]))
    # kept as the post shows it (its first line and its newest steps), so a turn of many
    # steps, computers playing on alone, never carries a story longer than one post
    return Text.of("\n").join(fitted(story, TURN_POST_LIMIT))


def retired(post: ChannelPost) -> ChannelPost:
    """``post`` once its turn has passed: edited in place to its whole story, no longer
    calling anyone to act, without controls or a new picture (the next turn's post shows
    the board). Stored with the action that passed the turn, so the frontend needs nothing
    but this to take the old controls away."""
    story = post.story or post.text
    return replace(
        post, text=story, board=None, controls=(), mentions=(), edit=True, final=False,
        passed=True,
    )  # fmt: skip


def text(story: Text, calls: list[Text]) -> Text:
    """A turn post's text: its story, then the calls to act, within the post's limit."""
    return Text.of("\n").join(fitted([*lines_of(story), *calls], TURN_POST_LIMIT))


def summary(public: str, lines: list[str]) -> str:
    """The public summary in a post: without its "Last: …" when the post tells what
    happened itself."""
    return public.split(" Last: ")[0] if lines else public


def ending_line(result: Result, winners: str | Text) -> Text:
    """The line that ends a game: its result, then who won (a 🏆 only when somebody did;
    no congratulations, since the winner may be a computer)."""
    if not result.winners:
        return Text.of(result.text)
    several = len(result.winners) > 1
    if " win" in f" {result.text.lower()}":  # the text says who won: name them, once
        named = (
            said("Winners: {winners}.", winners=winners)
            if several
            else said("Winner: {winners}.", winners=winners)
        )
    else:
        named = (
            said("{winners} win.", winners=winners)
            if several
            else said("{winners} wins.", winners=winners)
        )
    return Text.of(f"🏆 {result.text} ", named)


def _asked_again(line: str, prompts: list[Prompt]) -> bool:
    """Whether a prompt now says ``line`` again (a roll the next question starts with)."""
    said = line.rstrip(".")
    return any(p.text.startswith(said) for p in prompts)
