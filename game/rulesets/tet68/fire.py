"""Fire in Tet '68 (TET-11-TET-19, C-30-C-32, G-41): every die an explained ``roll`` event.

* Statistics (TET-5, TET-6): Initiative d3 (+1 for officers, NCOs and Rambos), Weapon Skill 3d6 x 10 (4d6
  for them); d3 is a d6 halved, rounded up (G-41).
* The hit chance (TET-15) is the firer's WS times the multiplier of the range band (TET-11; the first band
  whose top is at or beyond the range, none past the last, none inside the M79's 4" arming distance, G-41),
  halved for a cone of automatic fire (TET-13). Each complete hundred is an automatic hit, and a d100 of
  the remainder "or less" one more (C-30: at or under).
* Each hit then takes the cover roll (TET-16, C-31, always made): a d6 at or under the target's exposure
  (``exposure.py``); a success costs the target d3 Initiative (TET-17): at 0 it may fire but not move,
  below 0 it is dead.
* Duckback (TET-19, C-32): fired on in a move phase by a higher-Initiative firer, a target the d100 hit
  but the cover roll saved ducks back: Initiative 0 for the rest of the turn.
* Figures of equal Initiative fire together (TET-8): ``volley`` rolls every shot first and applies the
  losses after all of them have fired.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from game.dice import Dice
from game.rulesets.tet68.tables import Tables, Weapon, tables


@dataclass
class Man:
    """A figure's statistics and state (TET-5, TET-6, TET-17, TET-19)."""

    id: str
    side: str
    name: str
    initiative: int
    ws: int
    weapon: str
    ducked: bool = False
    """Ducked back this turn (TET-19): its Initiative counts as 0 until the turn ends."""

    @property
    def alive(self) -> bool:
        return self.initiative >= 0

    @property
    def may_move(self) -> bool:
        return self.initiative > 0 and not self.ducked  # TET-17: at 0 it may fire but not move

    @property
    def acting_initiative(self) -> int:
        return 0 if self.ducked else self.initiative


@dataclass
class Shot:
    """One figure's fire at one target: what it rolled and what it did, to be applied (TET-8)."""

    firer: Man
    target: Man
    hits: int = 0
    losses: list[int] = field(default_factory=list)
    duckback: bool = False
    events: list[dict] = field(default_factory=list)


def d3(dice: Dice) -> tuple[int, int]:
    """(the d3, the d6 it was read from): a d6 halved, rounded up (TET-2, G-41)."""
    d6 = dice.d6()
    return math.ceil(d6 / 2), d6


def roll_man(dice: Dice, mid: str, side: str, name: str, weapon: str, leader: bool,
             t: Tables | None = None) -> tuple[Man, list[dict]]:
    """TET-5, TET-6: a new figure's Initiative and Weapon Skill, rolled."""
    t = t or tables()
    stat = t.stats["leader" if leader else "other"]
    ini, d6 = d3(dice)
    ws_dice = [dice.d6() for _ in range(stat.ws_dice)]
    man = Man(mid, side, name, ini + stat.initiative_plus, sum(ws_dice) * 10, weapon)
    events = [
        {"type": "roll", "purpose": "Initiative", "figure": mid, "dice": "d3", "rolls": [d6], "result": man.initiative,
         "modifiers": [{"name": "officer, NCO or Rambo", "value": stat.initiative_plus, "clause": "TET-5"}]
         if stat.initiative_plus else [], "clause": stat.clause, "text": f"{name} rolls Initiative {man.initiative}"},
        {"type": "roll", "purpose": "Weapon Skill", "figure": mid, "dice": f"{stat.ws_dice}d6x10", "rolls": ws_dice,
         "result": man.ws, "modifiers": [], "clause": stat.clause, "text": f"{name} rolls Weapon Skill {man.ws}"},
    ]
    return man, events


def band(weapon: Weapon, distance: float) -> int | None:
    """TET-11, G-41: the range band (0 Full .. 4 x1/16), or None: out of range or inside the arming distance."""
    if distance < weapon.min_range:
        return None
    return next((i for i, top in enumerate(weapon.bands) if distance <= top + 1e-9), None)


def chance(firer: Man, distance: float, auto: bool = False, t: Tables | None = None,
           weapon: str | None = None) -> tuple[int | None, list[dict]]:
    """TET-15: the percentage to hit (None: no shot) and the factors that make it, each with its clause;
    ``weapon``: another weapon's range bands (a grenade is thrown with the SMG's, G-41)."""
    t = t or tables()
    w = t.weapons[weapon or firer.weapon]
    b = band(w, distance)
    if b is None:
        why = (f"inside the {w.name}'s {w.min_range:g}\" arming distance" if distance < w.min_range else
               f"beyond the {w.name}'s {w.bands[-1]:g}\"")
        return None, [{"name": why, "value": 0, "clause": "TET-11; G-41"}]
    mult = t.fire.multipliers[b]
    pct = firer.ws * mult
    factors = [{"name": f"Weapon Skill {firer.ws}", "value": firer.ws, "clause": "TET-6"},
               {"name": f"{w.name} at {distance:.1f}\": x{_fraction(mult)}", "value": mult,
                "clause": "TET-11" if weapon is None else "TET-11; G-41"}]
    if auto:
        if not w.auto:
            return None, [{"name": f"the {w.name} fires no cone", "value": 0, "clause": "TET-12; TET-13"}]
        pct *= t.fire.auto_factor
        factors.append({"name": "automatic: a cone, half the chance", "value": t.fire.auto_factor, "clause": "TET-13"})
    return int(math.floor(pct + 1e-9)), factors


def _fraction(m: float) -> str:
    return "1" if m == 1 else f"1/{round(1 / m)}"


def shoot(dice: Dice, firer: Man, target: Man, distance: float, exposure: int, auto: bool = False,
          move_phase: bool = False, t: Tables | None = None) -> Shot:
    """One shot, rolled (TET-15, TET-16, TET-17, TET-19): the losses are kept on the shot, applied later."""
    t = t or tables()
    shot = Shot(firer, target)
    pct, factors = chance(firer, distance, auto, t)
    if pct is None or exposure <= 0:
        reason = factors[0]["name"] if pct is None else "not to be seen: wholly behind the walls"
        shot.events.append({"type": "no_shot", "firer": firer.id, "target": target.id, "reason": reason,
                            "clause": "TET-11; TET-16; G-41", "text": f"{firer.name} has no shot at {target.name}: {reason}"})
        return shot
    sure, rest = divmod(pct, 100)
    roll = dice.die(100)
    extra = rest > 0 and roll <= rest
    shot.hits = sure + int(extra)
    shot.events.append({"type": "roll", "purpose": "to hit", "firer": firer.id, "target": target.id, "dice": "d100",
                        "target_number": rest, "automatic_hits": sure, "modifiers": factors, "result": roll,
                        "success": extra, "hits": shot.hits, "clause": "TET-15; C-30",
                        "text": f"{firer.name} needs {rest} or less on the d100 ({pct}%"
                                + (f": {sure} sure hit{'s' * (sure > 1)}" if sure else "") + f"), rolls {roll:02d}"})
    saved = 0
    for k in range(shot.hits):
        cover = dice.d6()
        through = cover <= exposure
        shot.events.append({"type": "roll", "purpose": "cover", "firer": firer.id, "target": target.id, "dice": "d6",
                            "target_number": exposure, "modifiers": [], "result": cover, "success": through,
                            "clause": "TET-16; C-31", "text": f"cover roll {k + 1}: needs {exposure} or less, "
                                                              f"rolls {cover}: {'hit' if through else 'saved by cover'}"})
        if not through:
            saved += 1
            continue
        loss, d6 = d3(dice)
        shot.losses.append(loss)
        shot.events.append({"type": "roll", "purpose": "effect", "firer": firer.id, "target": target.id, "dice": "d3",
                            "rolls": [d6], "modifiers": [], "result": loss, "clause": "TET-17; TET-2; G-41",
                            "text": f"{target.name} loses {loss} Initiative"})
    # TET-19, C-32: hit on the d100, saved by the cover roll, in a move phase by a higher-Initiative firer
    shot.duckback = (move_phase and saved > 0 and not shot.losses
                     and firer.acting_initiative > target.acting_initiative)
    return shot


def strike(dice: Dice, man: Man, foe: Man, t: Tables | None = None) -> Shot:
    """Hand-to-hand (G-41): a d100 against the full Weapon Skill (each complete hundred a sure hit, as
    TET-15), no cover roll; each hit a d3 loss (TET-17)."""
    shot = Shot(man, foe)
    sure, rest = divmod(man.ws, 100)
    roll = dice.die(100)
    extra = rest > 0 and roll <= rest
    shot.hits = sure + int(extra)
    shot.events.append({"type": "roll", "purpose": "hand-to-hand", "firer": man.id, "target": foe.id, "dice": "d100",
                        "target_number": rest, "automatic_hits": sure,
                        "modifiers": [{"name": f"Weapon Skill {man.ws}", "value": man.ws, "clause": "TET-6"},
                                      {"name": "hand-to-hand: full Weapon Skill, no cover roll", "value": 1,
                                       "clause": "G-41"}],
                        "result": roll, "success": extra, "hits": shot.hits, "clause": "G-41; TET-15",
                        "text": f"{man.name} fights {foe.name} hand to hand: needs {rest} or less"
                                + (f" ({sure} sure hit{'s' * (sure > 1)})" if sure else "") + f", rolls {roll:02d}"})
    for _ in range(shot.hits):
        loss, d6 = d3(dice)
        shot.losses.append(loss)
        shot.events.append({"type": "roll", "purpose": "effect", "firer": man.id, "target": foe.id, "dice": "d3",
                            "rolls": [d6], "modifiers": [], "result": loss, "clause": "TET-17; G-41",
                            "text": f"{foe.name} loses {loss} Initiative"})
    return shot


def apply(shot: Shot) -> list[dict]:
    """The shot's losses and duckback on its target (TET-17, TET-19)."""
    tgt = shot.target
    out = []
    for loss in shot.losses:
        if not tgt.alive:
            break
        tgt.initiative -= loss
        state = "dead" if tgt.initiative < 0 else "may fire, not move" if tgt.initiative == 0 else "fights on"
        out.append({"type": "wound", "figure": tgt.id, "loss": loss, "initiative": tgt.initiative, "state": state,
                    "clause": "TET-17", "text": f"{tgt.name} is down to Initiative {tgt.initiative}: {state}"})
    if shot.duckback and tgt.alive:
        tgt.ducked = True
        out.append({"type": "duckback", "figure": tgt.id, "clause": "TET-19; C-32",
                    "text": f"{tgt.name} ducks back: Initiative 0 for the rest of the turn"})
    return out


def volley(dice: Dice, shots: list[dict[str, Any]], t: Tables | None = None) -> list[dict]:
    """TET-8: figures of equal Initiative fire together; the casualties are applied after all have fired.
    ``shots``: [{firer, target, distance, exposure, auto?}], in the order their dice are rolled."""
    rolled = [shoot(dice, s["firer"], s["target"], s["distance"], s["exposure"], s.get("auto", False), t=t)
              for s in shots]
    events = [e for s in rolled for e in s.events]
    for s in rolled:
        events += apply(s)
    return events
