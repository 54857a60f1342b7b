"""One rules check (issue 12): ``Game.check`` makes every check ``Game.act`` makes, and changes nothing.

``act`` is ``check`` then the plan resolved; ``odds.preview`` and the computer players' ``SideView.check``
(game/ai/facade.py) ask ``check`` too, so they cannot drift from ``act`` (the AI's own copy of the checks
had: it accepted Take Five (DD-3.7) and Rally (DD-2.16) for an element neither Winded nor Pinned, and a
move by an element held in Hold Position (DD-1.16), which ``act`` refuses).

Over random games of the three shipped scenarios (two hot seat, ``search_and_destroy`` against the
Jungle Ghost; both sides), for the actions offered and for broken variants of them (an enemy, hidden or
made-up element, not Winded, not Pinned, out of CP or Ambush Tokens, already moved or activated, Hold
Position, a bad target, a bad mode, the wrong impulse, the game over ...):

* ``check`` refuses exactly when ``act`` refuses, with the same reason and clause, and an action it
  accepts ``act`` carries out (on a copy of the game);
* ``check`` changes nothing: the state hash, the dice streams, the forced dice and the events;
* the AI's ``SideView.check`` answers what ``check`` answers;
* ``odds.preview`` refuses what ``check`` refuses, in the same words (previewable types); of what
  ``check`` accepts it refuses only fire from under a Blind (its stands are not on the table, DD-4.11).
"""

from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass, field

import pytest

from game.ai.facade import SideView
from game.ai.players import take_turn
from game.rules import odds
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.players import before_ai_acts, new_game
from game.rules.scenario import resolve_scenario

HOT_SEAT = {"allied": "human", "insurgent": "human"}
SOLO = {"allied": "human", "insurgent": "ai"}
GAMES = [("village_sweep", 11, HOT_SEAT), ("rubber_plantation", 12, HOT_SEAT), ("search_and_destroy", 14, SOLO)]
"""``search_and_destroy`` is a solo table: its Insurgent force is the Jungle Ghost's (DD-10.3), whose
offers are checked before the Ghost takes its turn."""
STEPS = 30 if os.environ.get("DINKYDAU_FULL_VOLUME") == "1" else 16
"""Impulses played per game (each checks a few offers and some thirty broken variants of them): 16 in
``make test``, 30 in ``benchmarks/full_volume.py``."""


def footprint(g: Game) -> tuple:
    """Everything a pure read must leave as it was: the state (its hash holds the dice streams), the
    streams and the forced dice as the Dice object has them, the events and their numbering."""
    return g.hash(), dict(g.dice.streams), g.dice.forced_left, len(g.events), g.state.seq, len(g._numbers)


def refusal(fn, *args) -> tuple[str, str] | None:
    try:
        fn(*args)
    except IllegalAction as exc:
        return exc.reason, exc.clause
    return None


def copy_of(g: Game) -> Game:
    return Game.restore(g.scenario, g.snapshot(), g.book)


def fill(offer: dict, rng: random.Random) -> dict:
    """A concrete action from an offer: a random point within its reach, a random choice."""
    out = {k: v for k, v in offer.items() if k not in ("params", "label")}
    for name, p in offer.get("params", {}).items():
        if p.get("kind") == "point" and "from" in p:
            fx, fy = p["from"]
            reach, ang = p["max"] * rng.uniform(0.1, 1.05), rng.uniform(0, 2 * math.pi)
            out[name] = [round(fx + reach * math.cos(ang), 2), round(fy + reach * math.sin(ang), 2)]
        elif p.get("choices") and not p.get("optional"):
            out[name] = rng.choice(p["choices"])
    return out


@dataclass
class Tally:
    checked: int = 0
    refused: int = 0
    accepted: int = 0
    previewed: int = 0
    no_odds_from_blind: int = 0
    reasons: dict[str, int] = field(default_factory=dict)


def agree(g: Game, side: str, action, tally: Tally, f: SideView | None = None) -> None:
    """``check``, ``act``, the AI's check and ``preview`` agree on one action; the reads change nothing."""
    before = footprint(g)
    got = refusal(g.check, side, action)
    assert footprint(g) == before, f"check changed the game: {action}"
    if side in ("allied", "insurgent"):  # a computer player plays a side; ask its view of this game
        f = f or SideView.of(g, side)
        assert f.check(action) == (got[0] if got else None), f"the AI's check disagrees on {action}: {got}"
        assert footprint(g) == before
    previewable = isinstance(action, dict) and action.get("type") in odds.PREVIEWABLE
    if previewable:
        seen = refusal(odds.preview, g, side, action)
        assert footprint(g) == before, f"preview changed the game: {action}"
        tally.previewed += 1
        if got is not None:
            assert seen == got, f"preview refused {action} as {seen}, check as {got}"
        elif seen is not None:  # DD-4.11: no odds for fire from under a Blind, the one extra refusal
            el = g.state.elements[action["element"]]
            assert el.blind is not None and seen == (f"{el.name} is not on the table", "DD-2.5"), (action, seen)
            tally.no_odds_from_blind += 1
    tally.checked += 1
    if got is not None:
        tally.refused += 1
        tally.reasons[got[1]] = tally.reasons.get(got[1], 0) + 1
        assert refusal(g.act, side, action) == got, f"act and check refuse {action} differently"
        assert footprint(g) == before, f"a refused act changed the game: {action}"
    else:
        tally.accepted += 1
        other = copy_of(g)
        assert refusal(other.act, side, action) is None, f"check accepted {action}, act refused it"


def own_elements(g: Game, side: str) -> list:
    return [e for e in g.state.elements.values() if e.side == side and g.state.on_table(e)]


def broken(g: Game, side: str, picks: list[dict], rng: random.Random) -> list[tuple[Game, str, object]]:
    """Variants of the offered actions that the rules should refuse (most of them), on this game or on
    a copy with one thing changed."""
    s = g.state
    other = s.other(side)
    out: list[tuple[Game, str, object]] = []
    mine = own_elements(g, side)
    enemies = own_elements(g, other)
    hidden = [e.id for e in s.elements.values() if e.side == other and not s.on_table(e)]
    el = rng.choice(mine) if mine else None
    if el is not None:
        # DD-3.7 Take Five needs Winded; DD-2.16 Rally needs Pinned; G-32 Hold is always there.
        out += [(g, side, {"type": t, "element": el.id}) for t in ("take_five", "rally", "hold")]
        out.append((g, side, {"type": "hold", "element": el.id, "emergency": True}))  # DD-1.15
        out.append((g, side, {"type": "move", "mode": "teleport", "element": el.id, "to": [1, 1]}))  # DD-2.8
        out.append((g, side, {"type": "move", "mode": "patrol", "element": el.id}))  # DD-2.8: no 'to'
        out.append((g, side, {"type": "move", "mode": "sprint", "element": el.id, "to": [-5, -5]}))
        # A copy where the element is Winded and held in Hold Position (DD-1.16), or Pinned, or has used
        # its move and its activations (G-28 (2)).
        held = copy_of(g)
        e2 = held.state.elements[el.id]
        e2.winded = e2.hold_position = True
        out += [(held, side, {"type": t, "element": el.id}) for t in ("take_five", "rally", "hold")]
        out.append((held, side, {"type": "move", "mode": "patrol", "element": el.id, "to": [1, 1]}))
        winded = copy_of(g)
        winded.state.elements[el.id].winded = True
        winded.state.elements[el.id].pinned = True
        out += [(winded, side, {"type": t, "element": el.id}) for t in ("take_five", "rally")]
        out.append((winded, side, {"type": "move", "mode": "sprint", "element": el.id, "to": [1, 1]}))  # G-32
        spent = copy_of(g)
        spent.state.elements[el.id].move_actions = g.book.turn.max_move_actions
        used = copy_of(g)
        used.state.elements[el.id].activations = g.book.turn.max_activations
        for a in picks:
            if a.get("element") == el.id:
                out += [(spent, side, a), (used, side, a)]
                held2 = copy_of(g)
                held2.state.elements[el.id].hold_position = True
                out.append((held2, side, a))
    for a in picks:
        if "element" in a:
            for wrong in ([enemies[0].id] if enemies else []) + hidden[:1] + ["zz_nobody", 7]:
                out.append((g, side, {**a, "element": wrong}))  # DD-2.5
            out.append((g, side, {**a, "emergency": not a.get("emergency", False)}))  # DD-1.15 / cost
        if "target" in a:
            own = [st.id for st in s.side_stands(side)][:1]
            out += [(g, side, {**a, "target": t}) for t in own + ["zz_nobody", None]]
        if "blind" in a:
            theirs = [b for b in s.blinds if s.blinds[b].side == other][:1]
            out += [(g, side, {**a, "blind": b}) for b in theirs + ["zz_nobody"]]
        if "to" in a:
            out.append((g, side, {**a, "to": [a["to"][0] + 40, a["to"][1] + 40]}))  # too far / off the table
            out.append((g, side, {**a, "to": "north"}))
        out.append((g, other, a))  # DD-2.5: not its impulse
        out.append((g, "martian", a))  # DD-2.5: no such side
        # Out of CP (Allied, DD-1.14) or of Ambush Tokens for a second activation (G-28 (4)).
        poor = copy_of(g)
        poor.state.sides[side].cp = 0
        poor.state.sides[side].ambush_tokens = 0
        if a.get("element") in poor.state.elements:
            poor.state.elements[a["element"]].activations = 1
        out.append((poor, side, a))
    over = copy_of(g)
    over.state.over = True  # DD-2.34
    late = copy_of(g)
    late.state.phase = "consolidation"  # DD-2.1
    for a in picks[:1]:
        out += [(over, side, a), (late, side, a)]
    out += [(g, side, "fire"), (g, side, {"type": "airstrike"}), (g, side, {"element": "x"})]  # DESIGN §4
    out += [(g, side, {"type": "spring_reserve", "element": el.id if el else "x", "point": "nowhere"}),
            (g, side, {"type": "litter_drop", "token": "zz"}), (g, side, {"type": "blind_hold", "blind": "zz"})]
    return out


def play(scenario: str, seed: int, players: dict[str, str], tally: Tally) -> None:
    g = new_game(resolve_scenario(scenario), seed, players=players)
    rng = random.Random(seed)
    for _ in range(STEPS):
        if g.state.over or g.state.to_act is None:
            break
        side = g.state.to_act
        other = g.state.other(side)
        if players[side] == "ai":
            before_ai_acts(g)  # the rules catch up first, as take_turn does (DD-10.6–10.8)
            if g.state.over or g.state.to_act != side:
                continue
        offers = g.legal_actions(side)
        views = {side: SideView.of(g, side), other: SideView.of(g, other)}
        picks = [fill(o, rng) for o in rng.sample(offers, min(4, len(offers)))]
        for a in picks:
            agree(g, side, a, tally, views[side])
        for game, who, a in broken(g, side, picks, rng):
            agree(game, who, a, tally, views.get(who) if game is g else None)
        if players[side] == "ai":
            take_turn(g, side)
            continue
        weights = [0.2 if o["type"] == "pass" else 1.0 for o in offers]
        action = fill(rng.choices(offers, weights)[0], rng)
        if refusal(g.act, side, action) is not None:
            g.act(side, {"type": "pass"})


@pytest.mark.parametrize("scenario, seed, players", GAMES, ids=[f"{s}-{'solo' if p is SOLO else 'hotseat'}"
                                                                for s, _, p in GAMES])
def test_check_refuses_exactly_what_act_refuses_and_changes_nothing(scenario, seed, players):
    tally = Tally()
    play(scenario, seed, players, tally)
    assert tally.checked >= 300, tally
    assert tally.accepted >= 20 and tally.refused >= 100, tally
    # The broken variants reach the checks they were made for.
    for clause in ("DD-2.5", "DD-3.7", "DD-2.16", "DD-1.16", "DD-1.15", "G-28 (2)", "DESIGN §4"):
        assert tally.reasons.get(clause), (clause, tally.reasons)


def hot_seat(scenario: str = "village_sweep", seed: int = 3) -> Game:
    return new_game(resolve_scenario(scenario), seed, players=HOT_SEAT)


def test_the_ai_check_no_longer_accepts_take_five_or_rally_that_act_refuses():
    """The drift this fixes: the AI's own copy of the checks accepted these; ``act`` refuses them."""
    g = hot_seat()
    side = g.state.to_act
    el = own_elements(g, side)[0]
    assert not el.winded and not el.pinned
    f = SideView.of(g, side)
    assert refusal(g.check, side, {"type": "take_five", "element": el.id}) == (f"{el.name} is not Winded", "DD-3.7")
    assert f.check({"type": "take_five", "element": el.id}) == f"{el.name} is not Winded"
    assert refusal(g.check, side, {"type": "rally", "element": el.id}) == (f"{el.name} is not Pinned", "DD-2.16")
    assert f.check({"type": "rally", "element": el.id}) == f"{el.name} is not Pinned"
    el.hold_position = True  # DD-1.16: failed its emergency check; it may only hold
    held = (f"{el.name} failed its emergency check and may only hold position", "DD-1.16")
    move = {"type": "move", "mode": "patrol", "element": el.id, "to": [1, 1]}
    assert refusal(g.check, side, move) == held
    assert f.check(move) == held[0]
    assert f.check({"type": "hold", "element": el.id}) is None
    assert f.check({"type": "pass"}) is None and SideView.of(g, g.state.other(side)).check({"type": "pass"}) == (
        f"it is the {side} side's impulse, not the {g.state.other(side)} side's")


def test_check_returns_the_plan_act_resolves():
    g = hot_seat()
    side = g.state.to_act
    offer = next(o for o in g.legal_actions(side) if o["type"] == "move")
    action = fill(offer, random.Random(1))
    action["to"] = offer["params"]["to"]["from"]  # stay put: always legal
    before = footprint(g)
    plan = g.check(side, action)
    assert footprint(g) == before
    assert (plan.side, plan.type, plan.element.id, plan.option["cost"]) == (side, "move", action["element"],
                                                                            offer["cost"])
    assert plan.detail is not None  # the move's placements (movement.plan_move)
    assert g.check(side, {"type": "pass"}).element is None
    events = g.act(side, action)
    assert [e for e in events if e["type"] == "activate"]
