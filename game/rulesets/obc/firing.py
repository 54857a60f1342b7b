"""One Brain-Cell fire (OBC-19 - OBC-41, C-33, C-34, G-42), as pure functions of the tables and the dice:
rifles and SMGs man by man, the MG's casualties in its 3" burst square, the fire effects of each hit, bombs
on 1" squares, large-calibre guns against vehicles and armour, grenades. Each returns its events.

What it leaves out: who may fire and at what (``game``: sight, orders, moves), and applying a result to a
man or a vehicle (``game``, ``morale``).
"""

from __future__ import annotations

from game.dice import Dice
from game.rulesets.obc.dice import mod, test, total
from game.rulesets.obc.tables import Tables


def column(cover: str, posture: str, blind: bool = False) -> str:
    """OBC-21, OBC-26: the table's column for a target: cover (soft, hard) counts before posture (engine
    reading: a man in cover is in cover lying or standing); speculative fire reads the blind columns."""
    if blind:
        return "hard_blind" if cover == "hard" else "soft_blind"
    return cover if cover in ("soft", "hard") else posture


def rifle_need(t: Tables, weapon: str, distance: float, col: str) -> tuple[str, int] | None:
    """OBC-20, OBC-21: (the range band, the score needed), or None: out of range or a blank in the table."""
    band = t.weapons[weapon].band(distance)
    if band is None or col == "hard_blind":
        return None
    need = t.rifle_need(band, col)
    return (band, need) if need else None


def rifle_mods(t: Tables, still: bool, fleeting: bool, out_of_command: bool, wounded: bool) -> list[dict]:
    """OBC-19, OBC-17, OBC-30: the modifiers of a rifle or SMG shot, each with its clause."""
    m = t.rifle_mods
    out = []
    if still:
        out.append(mod("firer has not moved", m.still, "OBC-19"))
    if fleeting:
        out.append(mod("fleeting target", m.fleeting, "OBC-19; G-42"))
    if out_of_command:
        out.append(mod("out of command", m.out_of_command, "OBC-17"))
    if wounded:
        out.append(mod("wounded firer", m.wounded, "OBC-30"))
    return out


def chance(need: int, mods: list[dict]) -> float:
    """The chance a d6 plus ``mods`` makes ``need``."""
    net = need - sum(m["value"] for m in mods)
    return max(0, min(6, 7 - net)) / 6


def rifle_shot(dice: Dice, firer: str, target: str, band: str, need: int, mods: list[dict], who: str = ""
               ) -> tuple[bool, list[dict]]:
    ok, _, ev = test(dice, "to hit", need, mods, "OBC-19; OBC-21", who or firer, firer=firer, target=target)
    ev["band"] = band
    return ok, [ev]


def mg_half(t: Tables, fleeting: bool, moved_half: bool, vehicle: str | None, vehicle_moved: float) -> list[str]:
    """OBC-24, OBC-12, OBC-13, C-34: why an MG burst is at half effect (none: full)."""
    m = t.movement
    why = []
    if fleeting:
        why.append("fleeting target (OBC-24)")
    if moved_half:
        why.append("the gunner moved half distance (OBC-24)")
    if vehicle == "tank" and vehicle_moved > m.tank_fast:
        why.append(f"the tank moved over {m.tank_fast:g}\" (OBC-12, C-34)")
    elif vehicle == "chopper" and vehicle_moved > m.chopper_fast:
        why.append(f"the chopper moved over {m.chopper_fast:g}\" (OBC-13, C-34)")
    elif vehicle in ("lorry", "apc") and vehicle_moved >= m.vehicle_fast:
        why.append(f"the vehicle moved {m.vehicle_fast:g}\" or more (OBC-24, C-34)")
    return why


def mg_burst(dice: Dice, t: Tables, firer: str, band: str, col: str, half: list[str], who: str = "",
             out_of_command: bool = False) -> tuple[int, list[dict]]:
    """OBC-23, OBC-24, OBC-26: the casualties (hits) of one burst: the total of the dice named, or one on a
    single score; half effect rounds down, or -1 on a single score. A gunner out of command (OBC-17: -1 to
    all firing) takes the -1 on a single score's roll, or one hit off the dice's total (engine reading: the
    table's entries are hits, the -1 comes off them)."""
    entry = t.mg_entry(band, col)
    if entry == "-":
        return 0, []
    command = [mod("out of command", t.rifle_mods.out_of_command, "OBC-17")] if out_of_command else []
    if entry.endswith("+"):
        mods = [mod(w, t.mg_rules.half_single, "OBC-24") for w in half[:1]] + command
        ok, _, ev = test(dice, "MG burst", int(entry[0]), mods, "OBC-23; OBC-26", who or firer, firer=firer)
        ev.update({"band": band, "column": col, "entry": entry, "hits": int(ok)})
        return int(ok), [ev]
    value, rolls = total(dice, entry)
    halved = value // 2 if half else value
    hits = max(0, halved + sum(c["value"] for c in command))
    return hits, [{"type": "roll", "purpose": "MG burst", "firer": firer, "dice": entry, "rolls": rolls,
                   "modifiers": [mod(f"half effect: {w}", 0, "OBC-24") for w in half] + command, "result": hits,
                   "band": band, "column": col, "entry": entry, "clause": "OBC-23; OBC-24; OBC-26",
                   "text": f"{who or firer}: MG burst, {entry} at {band} range against {col}: {value}"
                           + (f", halved: {halved}" if half else "")
                           + (f", {command[0]['value']:+d} out of command: {hits}" if command else "")
                           + f" hit{'s' * (hits != 1)}"}]


def allocate(hits: int, men: list[str], cap: int) -> list[str]:
    """G-42: one hit per man in the square (``men`` nearest the aim first), nobody a second before every
    man has one, and hits beyond ``cap`` times the men lost."""
    if not men:
        return []
    hits = min(hits, cap * len(men))
    return [men[i % len(men)] for i in range(hits)]


def effect(dice: Dice, t: Tables, man: str, who: str, ignore_pin: bool = False, clause: str = "OBC-29") -> tuple[str | None, dict]:
    """OBC-29: a d6 for one hit: pinned, wounded, disabled or dead (``ignore_pin``: OBC-32, a pin is nothing)."""
    d6 = dice.d6()
    row = t.effect(d6)
    result = None if ignore_pin and row.id == "pinned" else row.id
    return result, {"type": "roll", "purpose": "fire effect", "man": man, "dice": "d6", "rolls": [d6],
                    "modifiers": [], "result": d6, "effect": result or "none", "clause": f"{clause}; {row.clause}",
                    "text": f"{who}: fire effect {d6}: {result or 'no effect'}"}


def in_square(cx: float, cy: float, side: float, x: float, y: float) -> bool:
    """G-42: a square aligned to the table, centred on the aim point."""
    h = side / 2
    return cx - h <= x <= cx + h and cy - h <= y <= cy + h


def lcg_hit(dice: Dice, t: Tables, firer: str, distance: float, who: str = "") -> tuple[bool, list[dict]]:
    """OBC-34, C-33: a large-calibre gun or rocket launcher hits on floor(range / 6) + 1; 1 or less hits
    without a roll; past its reach never."""
    need = t.lcg_need(distance)
    if need is None:
        return False, []
    if need <= 1:
        return True, [{"type": "rule", "purpose": "to hit", "firer": firer, "clause": "OBC-34; C-33",
                       "text": f"{who or firer}: under {t.large_calibre.step:g}\", a sure hit"}]
    ok, _, ev = test(dice, "to hit (large calibre)", need, [], "OBC-34; C-33", who or firer, firer=firer)
    ev["distance"] = round(distance, 2)
    return ok, [ev]


def armour_effect(dice: Dice, t: Tables, firer: str, distance: float, aspect: str, fast_tank: bool) -> tuple[str, list[dict]]:
    """OBC-35 (the 0-10" row as G-42 reads it), OBC-12: no effect, immobilised for two moves, or destroyed."""
    m = t.armour_mods
    mods = []
    if aspect == "rear":
        mods.append(mod("shot into the rear", m.rear, "OBC-35"))
    elif aspect == "front":
        mods.append(mod("shot at the front", m.front, "OBC-35"))
    if fast_tank:
        mods.append(mod("the firing tank moved over 6\"", m.fast_tank, "OBC-12"))
    d6 = dice.d6()
    score = d6 + sum(x["value"] for x in mods)
    result = t.armour_effect(distance, score) or "none"
    row = t.armour_row(distance)
    return result, [{"type": "roll", "purpose": "effect on armour", "firer": firer, "dice": "d6", "rolls": [d6],
                     "modifiers": mods, "result": score, "effect": result, "band": row.id if row else None,
                     "clause": "OBC-35" + ("; G-42" if row and row.id == "close" else ""),
                     "text": f"{firer}: effect on armour {d6} -> {score}: {result}"}]


def grenade(dice: Dice, t: Tables, thrower: str, what: str) -> tuple[bool, list[dict]]:
    """OBC-41: 4+ destroys a lorry, a room or a hootch; 5+ an immobilised tank or APC."""
    need = t.grenades[what]
    ok, _, ev = test(dice, f"grenade into a {what}", need.need, [], need.clause, thrower, firer=thrower)
    return ok, [ev]


def occupants(dice: Dice, t: Tables, man: str, who: str) -> tuple[bool, dict]:
    """OBC-31: an occupant of a destroyed soft vehicle: 1-3 dead, 4-6 escapes."""
    d6 = dice.d6()
    dead = d6 <= t.soft_vehicle.occupant_dead
    return dead, {"type": "roll", "purpose": "occupant", "man": man, "dice": "d6", "rolls": [d6], "modifiers": [],
                  "target_number": t.soft_vehicle.occupant_dead + 1, "result": d6, "success": not dead,
                  "clause": "OBC-31", "text": f"{who}: {'killed' if dead else 'escapes'} ({d6})"}


def riders_killed(dice: Dice, man_count: int, vehicle: str) -> tuple[int, dict]:
    """OBC-33: men riding on a tank or APC that is hit: 1d6 of them killed."""
    d6 = dice.d6()
    n = min(d6, man_count)
    return n, {"type": "roll", "purpose": "riders killed", "vehicle": vehicle, "dice": "d6", "rolls": [d6],
               "modifiers": [], "result": n, "clause": "OBC-33", "text": f"{vehicle}: {n} riders killed"}
