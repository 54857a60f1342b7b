"""The turn sequence (DD-2.1–2.5, DD-2.31–2.34; G-21, G-28, G-29, G-30).

Each turn runs three phases: Tension (fire-support clocks tick, the Allied CP roll, Insurgent Ambush
Tokens), Engagement (the sides alternate, one element at a time; two passes in a row end the phase),
and Consolidation & Fade (bleed, fade, pinned tests, cleanup, the turn limit).

The core's own steps are ``CORE_STEPS``; the chapters add theirs through the chapter seam
(``game.rules.chapters``), each at its place in the order: CASEVAC's Dustoff leaves before the Bleed
(DD-6.12), the Jungle Ghost's Doom Clock after the Ambush Tokens and its Fade after the Bleed (DD ch. 10),
and a clock that runs out is resolved by the chapter that owns its kind (DD-2.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules import chapters
from game.rules.chapters import Step
from game.rules.dice import Modifier
from game.rules.morale import morale_test

if TYPE_CHECKING:
    from game.rules.game import Game

def start_turn(g: Game) -> None:
    s = g.state
    s.turn += 1
    g.emit({"type": "turn", "turn": s.turn, "turns": s.turns, "clause": "DD-2.1",
            "text": f"Turn {s.turn} of {s.turns}"})
    tension(g)
    engagement_start(g)


def tension(g: Game) -> None:
    """Phase 1 (DD-2.2–2.4, G-21): the core's steps and the chapters' (``CORE_STEPS``)."""
    s = g.state
    s.phase = "tension"
    g.emit({"type": "phase", "phase": "tension", "clause": "DD-2.2", "text": "Tension phase"})
    chapters.run_steps(g, "tension", CORE_STEPS)


def tick_clocks(g: Game) -> None:
    """DD-2.2: every pending clock drops by 1; those reaching 0 resolve this turn, each by the chapter
    that owns its kind (a Dustoff touches down, DD-6.8; a fire mission lands, DD-8.7)."""
    s = g.state
    for clock in list(s.clocks):
        clock.turns -= 1
        g.emit({"type": "clock", "clock": clock.id, "turns": clock.turns, "clause": "DD-2.2",
                "text": f"{clock.name}: {clock.turns} turn(s) to go"}, visible=clock.side)
        if clock.turns <= 0:
            s.clocks.remove(clock)
            chapters.clock_owner(clock.kind).on_clock(g, clock)


def allied_cp(g: Game) -> None:
    """Allied CP (DD-2.3): 1d6 per active officer, +1 for an RTO in base contact with the commander,
    +1 per surviving Squad Leader. Unspent CP is lost in Phase 3 (G-28 (3))."""
    from game.rules.command import commander, in_base_contact

    s = g.state
    # Officers under a Blind are on the table, only unseen (DD-4.7): they roll too; a reserve does not.
    # An element embarked in a vehicle (DD-7.12) is on the table inside it, with the vehicle's radio
    # (G-06, G-16): its officer rolls and its Squad Leader counts (docs/vehicles.md).
    from game.rules.vehicles import carrier_of

    stands = [st for st in s.stands.values()
              if st.side == "allied" and st.alive
              and (not s.elements[st.element].reserve or carrier_of(g, s.elements[st.element]) is not None)]
    officers = [st for st in stands if g.book.stands[st.type].officer and not s.elements[st.element].pinned]
    dice = g.dice.roll(len(officers))
    mods: list[Modifier] = []
    pc = commander(g, "allied")
    if pc is not None and g.book.stands[pc.type].officer:
        rtos = [st for st in stands if g.book.stands[st.type].role == "rto" and not s.elements[st.element].reserve]
        if any(in_base_contact(g, r, pc) for r in rtos):
            mods.append(Modifier("RTO in base contact with the commander", 1, "DD-2.3"))
    for sl in (st for st in stands if g.book.stands[st.type].squad_leader):
        mods.append(Modifier(f"Squad Leader {sl.id}", 1, "DD-2.3"))
    total = sum(dice) + sum(m.value for m in mods)
    s.sides["allied"].cp = total
    g.emit({
        "type": "roll", "purpose": "Command Points", "side": "allied", "element": None, "dice": dice,
        "target": None, "modifiers": [m.to_dict() for m in mods], "need": None, "result": total,
        "clause": "DD-2.3",
        "text": f"Allied CP: {len(officers)}d6 for active officers {dice}"
        + "".join(f", {m.name} {m.value:+d}" for m in mods) + f" = {total} CP",
    }, visible="allied")  # the CP pool is private (DESIGN §6)


def insurgent_tokens(g: Game) -> None:
    """Insurgent Ambush Tokens (DD-2.4, G-29): +2 a turn, +1 with two intact tunnel entrances,
    up to 6."""
    t = g.book.turn
    side = g.state.sides["insurgent"]
    income = t.ambush_tokens_income + (t.ambush_tokens_tunnel_bonus if side.tunnel_entrances >= 2 else 0)
    before = side.ambush_tokens
    side.ambush_tokens = min(t.ambush_tokens_max, before + income)
    g.emit({"type": "tokens", "side": "insurgent", "income": income, "tokens": side.ambush_tokens,
            "clause": "DD-2.4; G-29",
            "text": f"Insurgent Ambush Tokens: {before} + {income} = {side.ambush_tokens} (max {t.ambush_tokens_max})"},
           visible="insurgent")


def engagement_start(g: Game) -> None:
    """Phase 2 (DD-2.5, G-28 (6)): the first side takes the first impulse."""
    s = g.state
    s.phase = "engagement"
    s.passes = 0
    s.impulse = 0
    g.emit({"type": "phase", "phase": "engagement", "clause": "DD-2.5",
            "text": "Engagement phase: the sides alternate, one element at a time"})
    s.to_act = s.first_side
    g.begin_impulse()


def consolidation(g: Game) -> None:
    """Phase 3 (DD-2.31–2.34, G-21)."""
    s = g.state
    s.phase = "consolidation"
    s.to_act = None
    g.emit({"type": "phase", "phase": "consolidation", "clause": "DD-2.31",
            "text": "Consolidation & Fade phase"})
    chapters.run_steps(g, "consolidation", CORE_STEPS)
    if s.over:
        return
    # Cleanup (G-21 3.3): unspent CP is lost; activation counts reset; sprint memory moves on.
    if s.sides["allied"].cp:
        g.emit({"type": "cp", "side": "allied", "cp": 0, "lost": s.sides["allied"].cp, "clause": "G-28 (3)",
                "text": f"{s.sides['allied'].cp} unspent Allied CP lost"}, visible="allied")
    s.sides["allied"].cp = 0
    for el in s.elements.values():
        el.activations = 0
        el.move_actions = 0
        el.sprinted_last_turn = el.sprinted_this_turn
        el.sprinted_this_turn = False
        el.hold_position = False
        el.last_move = None
    if s.turn >= s.turns:
        end_game(g, f"the turn limit ({s.turns}) is reached", "DD-2.34")
    elif check_wipeout(g):
        pass
    else:
        start_turn(g)


def rally_pinned(g: Game) -> None:
    """DD-2.33: every Pinned element tests Morale; a pass removes the pin."""
    for el in g.state.elements.values():
        if el.pinned and g.state.on_table(el):
            if morale_test(g, el, "rally at end of turn", "DD-2.33"):
                el.pinned = False
                g.emit({"type": "status", "element": el.id, "status": "pinned", "on": False, "clause": "DD-2.33",
                        "text": f"{el.name} rallies: the Pinned marker is removed"},
                       visible=g.visibility_of_element(el))


def bleed(g: Game) -> None:
    """Bleed & Triage (DD-2.31, DD-6.4–6.5, DD-3.15 as C-01 reads it): each untended, unstabilised Allied Casualty Token
    rolls 1d6 and dies on 1–2 (rules.toml [bleed]); a token in base contact with a friend does not
    roll; one with a Medic in contact is Stabilized."""
    from game.rules.state import base_of, token_shape

    s = g.state
    for tok in s.tokens:
        if tok.side != "allied" or tok.state != "wounded":
            continue
        spot = token_shape(tok)
        near = [st for st in s.side_stands("allied")
                if base_of(g.book, st).distance(spot) <= g.book.command.base_contact]
        if any(g.book.stands[st.type].role == "medic" for st in near):
            tok.state = "stabilized"
            g.emit({"type": "casualty", "token": tok.id, "state": "stabilized", "clause": "DD-6.5; C-01",
                    "text": f"Casualty {tok.id}: a Medic in contact stabilizes it"})
            continue
        if near:
            g.emit({"type": "casualty", "token": tok.id, "state": "wounded", "clause": "DD-6.4; C-01",
                    "text": f"Casualty {tok.id}: tended by a friend, no bleed roll"})
            continue
        survives = g.book.bleed.survives_on  # rules.toml [bleed]: KIA on 1-2 (DD-6.4)
        die = g.dice.d6()
        dead = die < survives
        g.emit({"type": "roll", "purpose": "Bleed", "side": "allied", "element": None, "dice": [die],
                "target": survives, "modifiers": [], "need": survives, "result": "fail" if dead else "pass",
                "clause": "DD-6.4; C-01",
                "text": f"Casualty {tok.id} bleeds: rolled {die}, " + ("KIA" if dead else "clings to life")})
        if dead:
            tok.state = "kia"


def check_wipeout(g: Game) -> bool:
    """A side with nothing left ends the game at once: no living stand (on the table, under a Blind or
    in reserve) and no Blind that may still hold something (a Shadow Blind, DD-10.3)."""
    s = g.state
    for side in ("allied", "insurgent"):
        alive = any(st.alive and st.side == side for st in s.stands.values())
        hidden = any(b.side == side and not b.dummy for b in s.blinds.values())
        if not alive and not hidden:
            end_game(g, f"the {side} side has no stands left", "DD-2.34")
            return True
    return False


def objective_met(g: Game, obj) -> bool:
    """Is a scenario objective met now (G-30)? ``hold``: a stand of the side has its centre in the area
    and no enemy stand does; ``clear``: no enemy stand and no enemy Blind in the area."""
    from shapely.geometry import Polygon

    from game.world import shapes

    area = Polygon(obj.polygon)
    enemy = g.state.other(obj.side)
    inside = [st for st in g.state.stands.values()
              if st.alive and g.state.elements[st.element].blind is None
              and not getattr(g.state.elements[st.element], "reserve", False) and area.covers(shapes.point(st.x, st.y))]
    if any(st.side == enemy for st in inside):
        return False
    if obj.kind == "clear":
        return not any(b.side == enemy and area.covers(shapes.point(b.x, b.y)) for b in g.state.blinds.values())
    return any(st.side == obj.side for st in inside)


def end_game(g: Game, reason: str, clause: str) -> None:
    """Score the game (G-30, C-02) and end it."""
    s = g.state
    v = g.book.victory  # rules.toml [victory]
    vp = s.sides["allied"].vp
    lines = []
    for tok in s.tokens:
        if tok.side != "allied":
            continue
        if tok.state == "kia":
            vp += v.kia
            lines.append(f"KIA casualty {tok.id} {v.kia:+d} (DD-3.17)" + (
                ", extracted: no refund (C-02)" if tok.extracted else ""))
        elif tok.state in ("wounded", "stabilized"):
            vp += v.left_on_table
            lines.append(f"casualty {tok.id} left on the table {v.left_on_table:+d} (DD-3.17, C-02)")
    for ch in chapters.chapters(g):  # a chapter's own VP lines (G-30: lost vehicles, game.rules.vehicles)
        for delta, line in getattr(ch, "score", lambda g: [])(g):
            vp += delta
            lines.append(line)
    for obj in g.scenario.objectives:
        if objective_met(g, obj):
            sign = 1 if obj.side == "allied" else -1
            vp += sign * obj.vp
            lines.append(f"{obj.side.capitalize()} objective '{obj.name}' {'held' if obj.kind == 'hold' else 'cleared'}"
                         f" {sign * obj.vp:+d} (G-30)")
    winner = "allied" if vp >= v.allied_win else "insurgent" if vp <= v.insurgent_win else None
    s.over = True
    s.phase = "over"
    s.to_act = None
    s.result = {"winner": winner, "vp": vp, "reason": reason, "scoring": lines}
    g.emit({"type": "game_over", "winner": winner, "vp": vp, "reason": reason, "scoring": lines,
            "clause": f"{clause}; G-30",
            "text": f"Game over: {reason}. Net VP {vp:+d}: "
            + ("Allied victory" if winner == "allied" else "Insurgent victory" if winner else "a draw")})


CORE_STEPS = (
    Step("tension", 10, tick_clocks, "DD-2.2"),
    Step("tension", 20, allied_cp, "DD-2.3"),
    Step("tension", 30, insurgent_tokens, "DD-2.4"),
    Step("consolidation", 20, bleed, "DD-2.31"),
    Step("consolidation", 40, rally_pinned, "DD-2.33"),
)
"""The core's steps of the turn sequence. Chapters' steps fall between them by ``order``: 10 before the
Bleed (CASEVAC departure, DD-6.12), 30 after it (the Jungle Ghost's Fade, DD-10.11), 40+ in Tension
after the Ambush Tokens (the Doom Clock, DD-10.15)."""
