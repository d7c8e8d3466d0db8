"""Who must decide now, and every action they may take, labelled for menus.

Labels appear on buttons in the channel, so they never name a secret: a King's man is its
leader and number, a face-down tile its slot letter. The one secret prompt (a tile that
cannot be carried) goes to its owner alone.
"""

from __future__ import annotations

from typing import assert_never

from engines.base import Choice, Prompt
from engines.dragonslayer import challenges, decisions, fight, losses, taking
from engines.dragonslayer.actions import unplaced
from engines.dragonslayer.model import load_urland
from engines.dragonslayer.moves import is_lair, kings_man_steps, magician_steps
from engines.dragonslayer.state import (
    ASHES,
    GAIN_DAY,
    Answer,
    Castle,
    Challenge,
    Decision,
    Drop,
    Keep,
    Lair,
    Lose,
    Plain,
    State,
    face_down,
    kings_man,
    kings_man_name,
    magician_name,
    name,
    place_of,
    where_words,
)


def prompts(state: State) -> list[Prompt]:
    if state["outcome"] is not None:
        return []
    if state["pending"]:
        return [_decision_prompt(state, state["pending"][0])]
    seat = state["seat"]
    who = magician_name(state, seat)
    if state["phase"] == "place":
        km = unplaced(state, seat)[0]
        return [Prompt(seat, "place", f"{who}: place {kings_man_name(km)} in a castle.")]
    if state["phase"] == "magician":
        days = state["days"]
        return [
            Prompt(
                seat,
                "move",
                f"{who} at {where_words(state['magicians'][seat]['where'])}: "
                f"{days} day{'s' if days != 1 else ''} left. Travel, take a tile, or be done.",
            )
        ]
    if state["active"] is not None:
        km = kings_man(state, state["active"])
        days = state["days"]
        left = f"{days} day{'s' if days != 1 else ''} left"
        text = f"{who}: {kings_man_name(km)} have {left}, or are done."
    else:
        text = f"{who}: move a King's men tile, or end the turn."
    return [Prompt(seat, "kings_men", text)]


def _decision_prompt(state: State, decision: Decision) -> Prompt:
    seat = decision["seat"]
    who = magician_name(state, seat)
    if decision["kind"] == "keep":
        return Prompt(seat, "keep", f"{who}: keep the tile you took, or put it back?", True)
    if decision["kind"] == "lose" and decision["what"] == "battle":
        count = decision["count"]
        return Prompt(seat, "lose", f"{who}: the Dragon takes {count} more; choose what is lost.")
    if decision["kind"] == "lose":
        what = losses.WHAT[decision["what"]]
        return Prompt(seat, "lose", f"{who}: choose a {what} to lose ({decision['reason']}).")
    if decision["kind"] == "drop":
        what = "weapon" if decision["what"] == "weapon" else "spell or magic item"
        return Prompt(seat, "drop", f"{who}: the party carries too much; drop a {what}.")
    if decision["kind"] == "castle":
        km = kings_man(state, decision["km"])
        whom = kings_man_name(km)
        if decision["magician"] is not None:
            whom += f" and {magician_name(state, decision['magician'])}"
        return Prompt(seat, "castle", f"{who}: choose the castle for {whom}.")
    if decision["kind"] == "challenge":
        km = kings_man(state, decision["km"])
        return Prompt(seat, "challenge", f"{who}: {kings_man_name(km)} may challenge.")
    if decision["kind"] == "answer":
        km = kings_man(state, decision["km"])
        return Prompt(
            seat, "answer", f"{who}: {kings_man_name(km)} challenge you. Accept or take the road?"
        )
    if decision["kind"] == "draw":
        return Prompt(seat, "draw", f"{who} is in the Lair: draw a Dragon Location tile.")
    if decision["kind"] == "lair":
        where = fight.location_name(decision["location"])
        allowed = fight.lair_choices(state, seat, decision["location"], bool(decision["items"]))
        asked = [_ASKED[a] for a in allowed]
        question = ", ".join(asked[:-1]) + " or " + asked[-1]
        return Prompt(seat, "lair", f"{who} drew '{where}': {question}?")
    if decision["kind"] == "battle":
        return Prompt(seat, "battle", f"{who}: place your things on the Battle Display and fight.")
    if decision["kind"] == "recover":
        return Prompt(seat, "recover", f"{who}: take abandoned weapons, then go to Morgenthorme.")
    return Prompt(seat, "escape", f"{who}: escape the castle with Gain One Day, or wait?")


def legal_actions(state: State, seat: int) -> list[Choice]:
    if state["outcome"] is not None:
        return []
    if state["pending"]:
        decision = state["pending"][0]
        if decision["seat"] != seat:
            return []
        return _decision_choices(state, decision)
    if seat != state["seat"]:
        return []
    if state["phase"] == "place":
        km = unplaced(state, seat)[0]
        return [
            Choice(f"place {p.key}", f"{kings_man_name(km)} → {p.name}", to=p.key)
            for p in load_urland().of_kind("castle")
        ]
    if state["phase"] == "magician":
        return _magician(state, seat)
    return _kings_men(state, seat)


def _magician(state: State, seat: int) -> list[Choice]:
    days = state["days"]
    choices = []
    for step in magician_steps(state, seat):
        if step.days <= days:
            plural = "s" if step.days > 1 else ""
            words = where_words(step.to).removeprefix("the ")
            label = f"Go to {words} ({step.days} day{plural})"
            entered = f"enters {_lower_the(where_words(step.to))}" if is_lair(step.to) else ""
            choices.append(
                Choice(f"go {step.key}", label, to=spot(step.to), outcome=entered,
                       notable=bool(entered))
            )  # fmt: skip
    place = place_of(state["magicians"][seat]["where"])
    if taking.takes_tiles(place) and days >= 1:
        for letter, _ in face_down(state, place):
            choices.append(Choice(f"take {letter}", f"Take face-down tile {letter} (1 day)"))
    if GAIN_DAY in state["parties"][seat]["kept"] and not state["rest"]:
        choices.append(Choice("gain", "Use Gain One Day (+1 day)"))
    choices.append(Choice("done", "Done: the King's men move"))
    return choices


def _kings_men(state: State, seat: int) -> list[Choice]:
    urland = load_urland()
    if state["active"] is not None:
        movers = [kings_man(state, state["active"])]
    else:
        movers = [
            km
            for km in state["kings_men"]
            if km["seat"] == seat and km["at"] and km["key"] not in state["finished"]
        ]
    choices = []
    if state["active"] is None or state["days"] > 0:
        for km in movers:
            group = f"k{km['number']}"
            for place in kings_man_steps(state, km["key"]):
                label = f"{kings_man_name(km)} → {urland.places[place].name}"
                told = _may_challenge(state, place)
                choices.append(Choice(f"{group} {place}", label, group, place, told, bool(told)))
    if state["active"] is not None:
        choices.append(Choice("done", f"{kings_man_name(movers[0])} stop here"))
    else:
        choices.append(Choice("done", "End the turn"))
    return choices


def spot(position: str) -> str:
    """Where a magician's position is drawn, as a choice's ``to`` names it: a place by its
    key (``"morgenthorme"``, as the view's ``where["key"]`` and King's men's ``at`` name
    it), a sea zone as ``"sea:<zone key>"`` (the view's ``where`` of kind ``sea``); ``""``
    for anything else. A magician taking the road out of a challenge goes ``to``
    ``"road:<from>:<towards>"``, where it then stands. All of these are names
    ``render.dragonslayer.locate`` finds."""
    kind, _, rest = position.partition(":")
    if kind == "place":
        return rest
    return position if kind == "sea" else ""


def _lower_the(words: str) -> str:
    """A name inside a sentence: "The Dragon's Lair" -> "the Dragon's Lair"."""
    return "the " + words[4:] if words.startswith("The ") else words


def _may_challenge(state: State, place: str) -> str:
    """What entering ``place`` allows a King's man: to challenge the magicians there."""
    seats = challenges.challengeable(state, place)
    if not seats:
        return ""
    names = [magician_name(state, s) for s in seats]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return f"may challenge {listed}"


def _keep(state: State, decision: Keep) -> list[Choice]:
    choices = [Choice("return", f"Put the {name(decision['tile'])} back face down")]
    for key in decisions.swap_options(state, decision["seat"], decision["tile"]):
        choices.append(Choice(f"swap {key}", f"Keep it; leave the {name(key)} here"))
    return choices


def _lose(state: State, decision: Lose) -> list[Choice]:
    return [
        Choice(f"lose {k}", f"Lose {name(k)}")
        for k in losses.options(state, decision["seat"], decision["what"])
    ]


def _drop(state: State, decision: Drop) -> list[Choice]:
    return [
        Choice(f"drop {k}", f"Drop the {name(k)}")
        for k in losses.drop_options(state, decision["seat"], decision["what"])
    ]


def _castle(state: State, decision: Castle) -> list[Choice]:
    return [Choice(f"castle {p.key}", p.name, to=p.key) for p in load_urland().of_kind("castle")]


def _challenge(state: State, decision: Challenge) -> list[Choice]:
    choices = [
        Choice(f"challenge {state['roles'][s]}", f"Challenge {magician_name(state, s)}")
        for s in decision["candidates"]
    ]
    if not decision["started"]:
        choices.append(Choice("pass", "No challenge"))
    return choices


def _answer(state: State, decision: Answer) -> list[Choice]:
    choices = [Choice("accept", "Accept the challenge")]
    if not state["magicians"][decision["seat"]]["delayed"]:
        urland = load_urland()
        for place in urland.neighbours(decision["place"]):
            # The magician ends on the road itself, named as its position is.
            label = f"Take the road to {urland.places[place].name}"
            road = f"road:{decision['place']}:{place}"
            choices.append(Choice(f"road {place}", label, to=road))
    return choices


def _escape(state: State, decision: Plain) -> list[Choice]:
    return [
        Choice("escape", "Escape: use Gain One Day"),
        Choice("wait", "Wait: lose this turn"),
    ]


_ASKED = {
    "fight": "fight the Dragon",
    "recover": "recover",
    "done": "go to Morgenthorme",
    "redraw": "draw again",
}
"""How a ``lair`` prompt names each choice the draw allows."""


def _draw(state: State, decision: Plain) -> list[Choice]:
    return [Choice("draw", "Draw a Dragon Location tile")]


def _lair(state: State, decision: Lair) -> list[Choice]:
    seat, location = decision["seat"], decision["location"]
    allowed = fight.lair_choices(state, seat, location, bool(decision["items"]))
    return [Choice(action, _lair_label(state, decision, action)) for action in allowed]


def _lair_label(state: State, decision: Lair, action: str) -> str:
    if action == "fight":
        return f"Fight the Dragon at {fight.location_row(decision['location'])}"
    if action == "recover":
        return _recover_label(state, decision["seat"])
    if action == "done":
        return "Go to Morgenthorme"
    return f"Discard it (the {name(decision['items'][0])}) and draw again"


def _recover_label(state: State, seat: int) -> str:
    ashes = ASHES in state["parties"][seat]["things"]
    weapons = any(state["abandoned"].values())
    if ashes and weapons:
        return "Recover abandoned weapons, and Ulrich for the Ashes"
    return "Turn Ulrich's Ashes into Ulrich" if ashes else "Recover abandoned weapons"


def _battle(state: State, decision: Plain) -> list[Choice]:
    seat = decision["seat"]
    choices = []
    for boxes in fight.placements(state, seat):
        sums = fight.strengths(state, seat, boxes)
        lost, levels, wiped = fight.outcome_of(state, seat, boxes)
        placed = ", ".join(f"{name(k)} {box}" for k, box in boxes.items())
        action = " ".join(["fight", *(f"{k}={box}" for k, box in boxes.items())])
        result = "wiped out" if wiped else f"lose {lost}, Dragon -{levels}"
        label = f"combat {sums['combat']['total']}, magic {sums['magic']['total']}: {result}"
        told = _battle_outcome(state, lost, levels, wiped)
        label = f"{placed}: {label}" if placed else f"Fight: {label}"
        choices.append(Choice(action, label, outcome=told, notable=bool(told)))
    return choices


def _battle_outcome(state: State, lost: int, levels: int, wiped: bool) -> str:
    """What a placement's Matrix reading does (as :func:`fight.resolve` and
    :func:`fight.ended` carry it out): the Dragon slain, the party wiped out, or both (a
    draw with the Dragon)."""
    slain = not wiped and levels >= state["dragon"]
    if levels >= state["dragon"] and wiped and levels:
        return "kills the Dragon but the party is wiped out: a draw"
    if slain:
        return "slays the Dragon and wins the game"
    return "the party is wiped out" if wiped else ""


def _recover(state: State, decision: Plain) -> list[Choice]:
    return [
        *(Choice(f"recover {k}", f"Recover the {name(k)}")
          for k in fight.recoverable(state, decision["seat"])),
        Choice("done", "Done: go to Morgenthorme"),
    ]  # fmt: skip


def _decision_choices(state: State, decision: Decision) -> list[Choice]:
    if decision["kind"] == "draw":
        return _draw(state, decision)
    if decision["kind"] == "lair":
        return _lair(state, decision)
    if decision["kind"] == "battle":
        return _battle(state, decision)
    if decision["kind"] == "recover":
        return _recover(state, decision)
    if decision["kind"] == "keep":
        return _keep(state, decision)
    if decision["kind"] == "lose":
        return _lose(state, decision)
    if decision["kind"] == "drop":
        return _drop(state, decision)
    if decision["kind"] == "castle":
        return _castle(state, decision)
    if decision["kind"] == "challenge":
        return _challenge(state, decision)
    if decision["kind"] == "answer":
        return _answer(state, decision)
    if decision["kind"] == "escape":
        return _escape(state, decision)
    assert_never(decision)
