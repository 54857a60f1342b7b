"""One Brain-Cell's rolls in the dice tray, as a player reads them: the dice rolled (``rolls``) under the roll's
name and whose it is, the need ("needs 4+") where the roll has one, the modifiers by name and clause, and the
outcome the event gives (passed, failed, a hit count, an effect, a scatter's inches and heading).

``tray_rows(events, names, sides)`` turns the ruleset's ``roll`` events (``dice`` as notation: ``d6``,
``half_d6``, ``2d6``, ``d6+d8+d6``; ``rolls``; ``target_number``; ``success``; ``effect``) into the rows the
HUD's tray draws (``game.client.hud.HUD.show_rolls``). Every number comes from the event; nothing here weighs
a rule.
"""

from __future__ import annotations

from game.client.hud import INK, SIDE_INK


def _mods(ev: dict) -> str:
    return ", ".join(f"{m.get('name')} {m['value']:+}" + (f" ({m['clause']})" if m.get("clause") else "")
                     if isinstance(m.get("value"), int | float) and m.get("value") else str(m.get("name"))
                     for m in ev.get("modifiers") or [] if m.get("name"))


def _summary(ev: dict) -> str:
    purpose = ev.get("purpose")
    if purpose == "scatter":
        if ev.get("success"):
            return "ON TARGET"
        return f"{ev.get('result')}\" toward {ev.get('heading', 0):g} deg" if ev.get("heading") is not None else "SCATTERS"
    if ev.get("effect"):
        return str(ev["effect"]).upper()
    if "success" in ev:
        return "PASSED" if ev["success"] else "FAILED"
    if purpose == "MG burst":
        n = ev.get("result", 0)
        return f"{n} HIT{'S' * (n != 1)}"
    return ""  # the event's words say it (a first mover's two dice): see the mods line


def roll_row(ev: dict, names: dict, sides: dict) -> dict:
    who = ev.get("man") or ev.get("firer")
    purpose = str(ev.get("purpose", "roll"))
    title = f"{names.get(who, who)}: {purpose}" if who else purpose.capitalize()
    tn = ev.get("target_number")
    scored = ev.get("success") if "success" in ev else None
    dice = [(r, scored) for r in ev.get("rolls") or []] or [(ev.get("result", "?"), scored)]
    need = f"{tn}+" if tn is not None else str(ev.get("dice", "")).replace("half_d6", "d6/2")
    return {"key": (purpose, who, ev.get("seq")), "title": title, "ink": SIDE_INK.get(sides.get(who), INK),
            "dice": dice, "need": need, "summary": _summary(ev),
            "mods": _mods(ev) or str(ev.get("text", "")).partition(": ")[2], "results": [ev.get("result")],
            "need_value": tn, "purpose": purpose}


def tray_rows(events: list[dict], names: dict, sides: dict) -> list[dict]:
    """The tray's rows for a batch of OBC events, one a roll."""
    return [roll_row(e, names, sides) for e in events if e.get("type", "roll") == "roll"]
