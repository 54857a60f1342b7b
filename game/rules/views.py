"""What one side may know: the single function that renders state toward a side (DESIGN §6).

A side sees all of its own forces, its own Blinds with their contents and its own Reserve Hand. Of
the enemy it sees the Confirmed contacts, the stands on the table as miniatures (DD-4.11), and the
enemy Blinds as bare markers: id, side, position, contact state ("blind" or "echo", DD-4.9) and
whether it is in Hold/Conceal, never its contents, stand count or whether it is a Dummy (DD-4.7,
DD-10.1). Green Ghost reserves (DD-4.8) and the secret ambush markers and tunnel trapdoors they are
sprung at (DD-2.26) are absent from the Allied view. The enemy's CP and Ambush Tokens stay private.
The referee view (only for games created with one, game.engine.session) shows all.

The markers and tokens on the table (DD-1.17, G-15) are the view's: the status markers are flags of
its elements and stands (Pinned, the Red Casualty Ring, Winded, Low Ammo, Overwatch...), the tokens
and chapter markers are its ``markers``, the Blinds and Echoes its ``blinds``, the delay dice its
``clocks``. ``game/data/markers.toml`` lists each G-15 marker the built chapters use and where the view
shows it (``game.rules.markers``).

The AI is handed exactly this (game/ai), and the hot-seat hand-over renders the same function for the
side taking over, so nothing reaches a player that is not in here. tests/engine/test_fog.py scans
every message for hidden facts.

A view is its reader's own: it shares no object with the state, so nothing done to it reaches the
game (tests/ai/test_boundary.py).
"""

from __future__ import annotations

import copy
import hashlib
import pickle
from typing import TYPE_CHECKING

import orjson

from game.rules.command import command_status
from game.rules.reactions import overwatch_marker_view
from game.rules.terrain_changes import view_of as terrain_view

if TYPE_CHECKING:
    from game.rules.game import Game


def _feature(f) -> dict:
    d: dict = {"id": f.id, "type": f.type}
    if f.polygon is not None:
        d["polygon"] = [list(p) for p in f.polygon]
    elif f.path is not None:
        d["path"] = [list(p) for p in f.path]
        d["width"] = f.width
    else:
        d["point"] = list(f.point)
        if f.size is not None:
            d["size"] = list(f.size)
        else:
            d["radius"] = f.radius
    d["rotation"] = f.rotation
    d["height"] = f.height
    return d


def conditions(g: Game) -> dict:
    """The weather and the light, and what they do (DD-9A.1, DD-9A.5; G-07, G-23): for the view, where
    there is something to say (a rolled weather, or any weather or time of day with an effect)."""
    from game.rules.night import describe_time
    from game.rules.weather import describe

    w, t = describe(g), describe_time(g)
    return {"weather": w, "time_of_day": t} if w["rolled"] is not None or w["effects"] or t["effects"] else {}


def scenario_summary(g: Game) -> dict:
    sc = g.scenario
    cond = conditions(g)
    fixed = _fixed_summary(g)
    return {
        "id": sc.id, "title": sc.title, "source": sc.source, "briefing": sc.briefing,
        # the weather played: the scenario's, or the one rolled at setup (DD-9A.5)
        "table": {"width": sc.width, "height": sc.height}, "weather": g.state.weather,
        **({"conditions": cond} if cond else {}),
        "time_of_day": sc.time_of_day, "turns": sc.turns, "special_rules": list(sc.special_rules),
        **fixed,
    }


def _fixed_summary(g: Game) -> dict:
    """The parts of the summary that never change in a game (the features, the scenario card, the
    scale), each view its own copy: made once a game (and again for another scenario or rulebook)."""
    sc, book = g.scenario, g.book
    kept = g.__dict__.get("_fixed_summary")
    if kept is None or kept[0] is not sc or kept[1] is not book:
        fixed = {
            "features": [_feature(f) for f in sc.features],
            # the scenario card every player reads (G-30): what each objective is worth, and the net VP
            # that wins (rules.toml [victory])
            "objectives": [{"id": o.id, "name": o.name, "side": o.side, "kind": o.kind, "vp": o.vp,
                            "polygon": [list(p) for p in o.polygon]} for o in sc.objectives],
            "victory": {"allied_win": book.victory.allied_win, "insurgent_win": book.victory.insurgent_win,
                        "clause": "G-30"},
            # what an inch and a turn stand for (rules.toml [scale]): the table above and every distance are
            # inches (DD-1.1), a turn is 2-3 minutes (DD-1.3)
            "scale": {"unit": book.scale.unit, "metres_per_inch": book.scale.metres_per_inch,
                      "figure_scale": book.scale.figure_scale, "turn_minutes": list(book.scale.turn_minutes),
                      "clause": book.scale.clause},
        }
        kept = g.__dict__["_fixed_summary"] = (sc, book, pickle.dumps(fixed, pickle.HIGHEST_PROTOCOL))
    return pickle.loads(kept[2])


def render_view(g: Game, side: str) -> dict:
    s = g.state
    referee = side == "referee"
    sides: dict = {}
    for sid, st in s.sides.items():
        mine = referee or sid == side
        d: dict = {"name": st.name, "faction": st.faction, "vp": st.vp}
        if mine:
            d.update({"cp": st.cp, "ambush_tokens": st.ambush_tokens})
        sides[sid] = d
    elements = []
    stands = []
    from game.rules.underground import shown_section

    for el in s.elements.values():
        mine = referee or el.side == side
        below = shown_section(g, side, el) if el.reserve else None  # in the tunnels (TUN-12, TUN-24)
        if not mine and el.hidden and below is None:
            continue  # under a Blind (only the marker, DD-4.7) or in the Reserve Hand (nothing, DD-4.8)
        living = s.living(el)
        if not living and not mine:
            continue
        e = {"id": el.id, "side": el.side, "name": el.name, "kind": el.kind,
             "stands": [st.id for st in living], "pinned": el.pinned, "winded": el.winded,
             "overwatch": copy.deepcopy(overwatch_marker_view(g, el)), "low_ammo": el.low_ammo,
             "exposed": el.exposed_turn == s.turn, "illuminated": el.illuminated_turn == s.turn}
        if below is not None:
            e["underground"] = below  # the section it is in: its owner's, the enemy's where it sees (TUN-12)
        if mine:
            cmd = command_status(g, el) if living and not el.hidden else {"in_command": None}
            e.update({"quality": el.quality, "blind": el.blind, "reserve": el.reserve,
                      "activations": el.activations,
                      "moved": el.move_actions > 0, "hold": el.hold_position, "conceal": el.conceal,
                      "in_command": cmd["in_command"], "command": cmd})
        if mine and el.reserve:
            from game.rules.vehicles import carrier_of

            carrier = carrier_of(g, el)
            if carrier is not None:
                e["embarked"] = carrier.id  # aboard its own side's vehicle (DD-7.12): the owner's secret
                e["reserve"] = False  # off the table aboard a hull, not in a Reserve Hand (DD-4.8)
        if el.reserve:
            # Off the table, in the Reserve Hand (DD-4.8): no positions, and no stand records, so a
            # reader that walks "stands" finds only pieces on the table.
            e["reserve_stands"] = e["stands"]
            e["stands"] = []
            if below is not None:  # in a section the side sees (TUN-12): what its stands are, not where
                e["below"] = [{"id": st.id, "type": st.type, "name": g.book.stands[st.type].name,
                               "model": g.book.stands[st.type].model, "side": st.side,
                               "wounded": 0 < st.hits < g.book.stands[st.type].hits} for st in living]
            elements.append(e)
            continue
        elements.append(e)
        for st in living:
            t = g.book.stands[st.type]
            b = g.book.bases[t.base]
            stands.append({
                "id": st.id, "element": el.id, "side": st.side, "type": st.type, "name": t.name, "model": t.model,
                "role": t.role, "base": {"id": b.id, "width": b.width, "depth": b.depth},
                "x": st.x, "y": st.y, "facing": st.facing, "hits": st.hits,
                "wounded": st.hits > 0 and st.hits < t.hits,
                **({"blind": el.blind} if el.blind is not None else {}),
                **({"vehicle": vehicle_view(g, st, mine)} if t.vehicle else {}),
            })
    blinds = []
    for b in s.blinds.values():
        d = {"id": b.id, "side": b.side, "x": b.x, "y": b.y, "state": b.state, "conceal": b.conceal}
        if referee or b.side == side:
            acts = b.activations if b.act_turn == s.turn else 0
            d.update({"dummy": b.dummy, "elements": list(b.elements), "stealth": b.stealth,
                      "activations": acts})
        blinds.append(d)
    from game.rules.casevac import carried_by, token_fields
    from game.rules.chapters import markers as chapter_markers

    markers = [
        {"id": t.id, "kind": "casualty_token", "side": t.side, "x": t.x, "y": t.y, "state": t.state,
         **token_fields(g, t, side)}
        for t in s.tokens if t.state != "extracted" and not t.extracted
    ]
    markers += chapter_markers(g, side)  # each chapter's: the Dustoff smoke, the landed UH-1 (DD-6.7)...
    for st in stands:
        tok = carried_by(g, st["id"])
        if tok is not None:
            st["litter"] = tok.id  # a Litter Team and the casualty it carries (DD-6.2)
    markers += [{"id": m["id"], "kind": "dust_cloud", "x": m["x"], "y": m["y"], "radius": m["radius"]}
                for m in s.smoke if (m["turn"], m["impulse"]) == (s.turn, s.impulse)]
    clocks = [c.to_view() for c in s.clocks if referee or c.side in ("all", side)]
    structures = copy.deepcopy(s.structures)
    secret: dict = {}
    if referee or side == "insurgent":
        secret = {"ambush_points": copy.deepcopy(s.ambush_points),
                  "reserves": [e.id for e in s.elements.values()
                               if e.reserve and e.side == "insurgent" and s.living(e)]}
    view = {
        "side": side, "turn": s.turn, "turns": s.turns, "phase": s.phase, "to_act": s.to_act,
        "impulse": s.impulse, "hash": s.hash() if referee else "", "over": s.over, "result": copy.deepcopy(s.result),
        "seq": g.seq_for(side),  # the side's own event numbering: no gaps for hidden events (DESIGN §6)
        "scenario": scenario_summary(g), "sides": sides, "elements": elements, "stands": stands,
        "blinds": blinds, "markers": markers, "clocks": clocks, "structures": structures,
        "civic_drift": s.civic_drift,
        "terrain_changes": terrain_view(s),  # craters and burnt jungle: public (DD ch. 8, G-01 T12c, G-19)
        **secret,
    }
    if not referee:
        view["hash"] = view_hash(view)
    return view


def vehicle_view(g: Game, st, mine: bool) -> dict:
    """A vehicle stand's state for a side (DD chapter 7): what anyone sees of the hull; its passengers
    only for its own side (DESIGN §6: the enemy never learns who is inside)."""
    from game.rules.vehicles import rec_of, roster

    rec = rec_of(g, st)
    if rec is None:
        return {}
    vt = roster()[rec.roster]
    out = {"roster": rec.roster, "hp": rec.hp, "hp_max": vt.hp, "class": vt.klass, "buttoned": rec.buttoned,
           "stunned": rec.stunned, "mobility_kill": rec.mobility_kill, "weapons_out": rec.weapons_out,
           "wreck": rec.wreck, "abandoned": rec.abandoned}
    if vt.kind == "craft":  # the river (DD-9A.9, DD-9A.12): its ramp, run aground
        from game.rules.riverine import boat_view

        out.update(boat_view(g, st))
    if mine:
        out["passengers"] = list(rec.passengers)
    return out


def view_hash(view: dict) -> str:
    """A side's ``hash``: of what the side is shown, never of the whole state. The state's hash changes
    with everything hidden too (a secret order, a Blind's contents), so a side that saw it change would
    learn that the enemy did something unseen; the referee's view carries the state's own hash.

    The sha256 of the view's JSON, keys sorted (compact, UTF-8: ``orjson``, as the protocol writes it)."""
    return hashlib.sha256(orjson.dumps({k: v for k, v in view.items() if k != "hash"},
                                       option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)).hexdigest()
