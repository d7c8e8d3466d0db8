"""Sending a lane's backlog as what is still true: superseded notices fold into newer ones.

When a lane falls behind (Discord paces the channel, a burst of computer moves, a busy
host), its waiting notices often say the same thing several times over: a status message
edited five times, a turn post edited after every step, turns that passed before their post
went out. :func:`plan` turns the waiting notices of one lane, in stored order, into the
sends that leave the channel showing what it would show had every one been sent (the
newest position, who must act, the newest status), with the turns in between told in brief:

- a game's status updates: only the newest is sent, after the lane's posts when it edits a
  status message already out;
- a turn's post and its later steps (:class:`ChannelPost` with the same ``turn``): one send,
  the newest text and controls, the newest board any of them carried; a new post when the
  turn's opening post is among them (pinging whom the opening pinged), else an edit;
- turns of a game that a newer turn in the same backlog has passed: told in brief at the
  top of the newest turn's post (as much of their stories as fits in a turn post's length;
  when some is left out, how many turns there were and that ``/game history`` shows every
  move), without their pictures, controls or pings, since the newest turn's post shows
  the board and asks who must act now (a burst of a thousand computer moves reaches its
  channel as a handful of sends, not a thousand). A passed turn whose post is already out
  is edited to its whole story, its controls taken away;
- a game's plain posts waiting one after another (a lobby opened, seats taken, a note
  from the clock): one post, their texts a line apart, with everyone they mention and
  the last one's controls, as long as it stays within a turn post's length; a lobby's
  posts that its game's first turn post follows go on top of that post instead, since
  their Join and Start are no longer true (a turn post grown long keeps, below them, its
  first line and its newest lines);
- everything else (secret prompts, results told privately, an offer's settling) goes as
  it is, each once.

A board left out is never drawn: boards are drawn when sent. Each send names the stored
entry it goes in place of and the entries it covers, which are recorded as sent with it in
one transaction; it carries the nonce of the oldest of them (:attr:`Planned.nonce_entry`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.service.notices import ChannelPost, Sendable, StatusUpdate
from bot.service.play.turn_posts import TURN_POST_LIMIT, retired
from bot.service.seating.table_controls import LOBBY
from bot.service.text import Text, as_text, fitted, lines_of, said_plural
from bot.store import OutboxEntry


@dataclass(frozen=True)
class Planned:
    """One send of a lane's plan: ``notice`` under ``entry``'s nonce; ``covers``: the other
    entries it makes unnecessary."""

    entry: OutboxEntry
    notice: Sendable
    covers: tuple[OutboxEntry, ...] = ()

    @property
    def nonce_entry(self) -> OutboxEntry:
        """The entry whose nonce the send carries: the oldest it tells for. Any earlier
        send of part of what it tells went under that nonce too (a turn's opening, a
        game's first status, the first of a lobby's posts), so a message an unrecorded
        send made is answered again by Discord, never made a second time."""
        return min((self.entry, *self.covers), key=lambda e: e.id)


Waiting = tuple[OutboxEntry, Sendable]


def plan(waiting: list[Waiting]) -> list[Planned]:
    """The sends that tell everything ``waiting`` (one lane's notices, in stored order)
    tells, each superseded notice folded into a newer one (see the module docstring)."""
    sends: dict[int, Planned] = {}  # by the index in ``waiting`` where the send goes
    covered: set[int] = set()
    _fold_statuses(waiting, sends, covered)
    _fold_turns(waiting, sends, covered)
    _join_posts(waiting, sends, covered)
    planned = [
        sends.get(index) or Planned(entry, notice)
        for index, (entry, notice) in enumerate(waiting)
        if index in sends or index not in covered
    ]
    return sorted(planned, key=_edits_status)


def _edits_status(send: Planned) -> bool:
    """Whether ``send`` edits a status message already out. Such an edit leaves the
    channel's order as it is, so it goes after the lane's posts: the newest position is
    shown first, and while the lane waits for its pace a newer status folds into it.

    The edit retiring a passed turn's post keeps its place before the next turn's post: it
    finds its message as the game's turn post, which that next post becomes once out."""
    return isinstance(send.notice, StatusUpdate) and send.entry.status_message_id is not None


def _fold_statuses(waiting: list[Waiting], sends: dict[int, Planned], covered: set[int]) -> None:
    newest: dict[int, list[int]] = {}
    for index, (_, notice) in enumerate(waiting):
        if isinstance(notice, StatusUpdate):
            newest.setdefault(notice.game_id, []).append(index)
    for indexes in newest.values():
        *older, last = indexes
        if older:
            entry, notice = waiting[last]
            sends[last] = Planned(entry, notice, tuple(waiting[i][0] for i in older))
            covered.update(older)


def _turn_post(notice: Sendable) -> ChannelPost | None:
    return notice if isinstance(notice, ChannelPost) and notice.of_turn else None


def _fold_turns(waiting: list[Waiting], sends: dict[int, Planned], covered: set[int]) -> None:
    turns: dict[int, dict[int, list[int]]] = {}  # game -> turn -> indexes, in order
    for index, (_, notice) in enumerate(waiting):
        if (post := _turn_post(notice)) is not None:
            assert post.turn is not None
            turns.setdefault(post.game_id, {}).setdefault(post.turn, []).append(index)
    for by_turn in turns.values():
        *passed, newest = by_turn.values()
        told: list[list[int]] = []  # passed turns whose post is not out yet
        for indexes in passed:
            if _post_of(waiting, indexes).edit:
                _edit_passed(waiting, indexes, sends, covered)
            else:
                told.append(indexes)
        post = _post_of(waiting, newest)
        if told:  # the turns in between are told in brief, at the top of the newest post
            post = _with_brief(waiting, told, post)
        groups = [*told, newest]
        entries = [waiting[i][0] for indexes in groups for i in indexes]
        sends[groups[0][0]] = Planned(entries[0], post, tuple(entries[1:]))
        covered.update(i for indexes in groups for i in indexes)


def _post_of(waiting: list[Waiting], indexes: list[int]) -> ChannelPost:
    """One turn's notices as one: the newest text, controls and board, posted anew (with
    the opening's pings) when the opening is among them."""
    posts = [_turn_post(waiting[i][1]) for i in indexes]
    opening, newest = posts[0], posts[-1]
    assert opening is not None and newest is not None
    board = next((p.board for p in reversed(posts) if p is not None and p.board), None)
    return replace(
        newest,
        board=board,
        edit=opening.edit,
        mentions=() if opening.edit else opening.mentions,
        final=any(p is not None and p.final for p in posts),
    )


def _plain(notice: Sendable) -> ChannelPost | None:
    """A post that tells something and asks nothing of a turn: neither a turn's post, nor
    an offer or its settling (found again by its own message), nor a game's last post. It
    may carry the lobby's Join, Leave and Start."""
    if not isinstance(notice, ChannelPost) or notice.of_turn or notice.final or notice.edit:
        return None
    if notice.settles is not None or any(c.prompt.kind != LOBBY for c in notice.controls):
        return None
    return notice


def _join_posts(waiting: list[Waiting], sends: dict[int, Planned], covered: set[int]) -> None:
    """Plain posts of one game that would go one after another go as one; a lobby's posts
    that its game's first turn post follows go on top of that post (its Join and Start
    are no longer true)."""
    order = [i for i in range(len(waiting)) if i in sends or i not in covered]
    run: list[int] = []
    for index in order:
        post = None if index in sends else _plain(waiting[index][1])
        if post is not None and run and _joins(waiting, run, post):
            run.append(index)
            continue
        _join(waiting, run, sends, covered, index)
        run = [index] if post is not None else []
    _join(waiting, run, sends, covered, None)


def _joins(waiting: list[Waiting], run: list[int], post: ChannelPost) -> bool:
    first = waiting[run[0]][1]
    assert isinstance(first, ChannelPost)
    return post.game_id == first.game_id and _length(waiting, run) + _size(post) <= (
        TURN_POST_LIMIT
    )


def _size(post: ChannelPost) -> int:
    return len(as_text(post.text).plain()) + 1


def _length(waiting: list[Waiting], run: list[int]) -> int:
    return sum(_size(n) for i in run if isinstance(n := waiting[i][1], ChannelPost))


def _join(
    waiting: list[Waiting],
    run: list[int],
    sends: dict[int, Planned],
    covered: set[int],
    follows: int | None,
) -> None:
    """Send the ``run`` of plain posts as one post, or on top of the turn post at
    ``follows`` when the run is its game's lobby."""
    joined = [p for i in run if isinstance(p := waiting[i][1], ChannelPost)]
    if follows is not None and joined and _on_top(waiting, run, joined, sends, follows):
        covered.update(run)
    elif len(joined) > 1:
        controls = next((p.controls for p in reversed(joined) if p.controls), ())
        post = replace(joined[0], text=_text(joined), mentions=_mentions(joined), controls=controls)
        sends[run[0]] = Planned(waiting[run[0]][0], post, _rest(waiting, run))
        covered.update(run)


def _on_top(
    waiting: list[Waiting],
    run: list[int],
    joined: list[ChannelPost],
    sends: dict[int, Planned],
    follows: int,
) -> bool:
    """Put a lobby's posts on top of its game's turn post at ``follows``, if that is
    what follows them and all fits in one post."""
    planned = sends.get(follows) or Planned(*waiting[follows])
    turn = planned.notice
    if not isinstance(turn, ChannelPost) or not _lobby_before(joined, turn):
        return False
    text = _atop(joined, turn)
    if text is None:
        return False
    post = replace(turn, text=text, mentions=_mentions([*joined, turn]))
    covers = (*(waiting[i][0] for i in run), *planned.covers)
    sends[follows] = Planned(planned.entry, post, covers)
    return True


def _atop(posts: list[ChannelPost], turn: ChannelPost) -> Text | None:
    """``posts`` above ``turn``'s text within a turn post's length, or None when they
    would not fit. A long turn keeps its first line and its newest lines, as a turn that
    told many passed turns in brief does already: the lobby is what a reader needs to
    make sense of what follows."""
    above = [line for p in posts for line in lines_of(p.text)]
    lines = [*above, *lines_of(turn.text)]
    keep = len(above) + 1
    if sum(len(line.plain()) + 1 for line in lines[:keep]) + 2 > TURN_POST_LIMIT:
        return None
    return Text.of("\n").join(fitted(lines, TURN_POST_LIMIT, keep=keep))


def _text(posts: list[ChannelPost]) -> Text:
    return Text.of("\n").join([as_text(p.text) for p in posts])


def _mentions(posts: list[ChannelPost]) -> tuple[int, ...]:
    return tuple(dict.fromkeys(u for p in posts for u in p.mentions))


def _lobby_before(posts: list[ChannelPost], turn: ChannelPost) -> bool:
    """Whether ``posts`` are a lobby's and ``turn`` opens a turn of their game."""
    opens = turn.of_turn and not turn.edit and not turn.passed
    lobby = all(any(c.prompt.kind == LOBBY for c in p.controls) for p in posts)
    return opens and lobby and turn.game_id == posts[0].game_id


def _rest(waiting: list[Waiting], indexes: list[int]) -> tuple[OutboxEntry, ...]:
    return tuple(waiting[i][0] for i in indexes[1:])


def _edit_passed(
    waiting: list[Waiting], indexes: list[int], sends: dict[int, Planned], covered: set[int]
) -> None:
    """A passed turn whose post is out: edited to its whole story, without controls or a
    new picture (the newest turn's post shows the board)."""
    sends[indexes[0]] = Planned(
        waiting[indexes[0]][0], retired(_post_of(waiting, indexes)), _rest(waiting, indexes)
    )
    covered.update(indexes)


def _with_brief(waiting: list[Waiting], turns: list[list[int]], newest: ChannelPost) -> ChannelPost:
    """The newest turn's post with the passed ``turns`` told above it: as much of their
    stories as fits, and, when some is left out, how many turns there were and where every
    move is. The post's own story stays the newest turn's, which its next step goes on from."""
    passed = [_post_of(waiting, indexes) for indexes in turns]
    lines = [line for p in passed for line in lines_of(p.story or p.text)]
    lines += lines_of(newest.text)
    if sum(len(line.plain()) + 1 for line in lines) > TURN_POST_LIMIT:
        pointer = said_plural(
            "({count} turns were played meanwhile; `/game history game:{game}` shows every move.)",
            "({count} turns were played meanwhile; `/game history game:{game}` shows every move.)",
            len(passed),
            game=newest.game_id,
        )
        lines = fitted([pointer, *lines], TURN_POST_LIMIT)
    return replace(newest, text=Text.of("\n").join(lines))
