"""Tet '68's rolls in the dice tray, as a player reads them at the table: "to hit d100: 07, needs 20 or
less - HIT", a cover roll, the d3 loss, the Initiative and Weapon Skill each figure rolls at the start, a
scatter's distance and clock direction, hand-to-hand.

``tray_rows(events, names, sides)`` turns the ruleset's ``roll`` events (``dice`` as notation, ``rolls``,
``result``, ``target_number`` read "or less", ``success``: TET-15, TET-16, TET-17, G-41) into the rows the
HUD's tray draws (``game.client.hud.HUD.show_rolls``: title, ink, dice as (value, scored), need, mods,
summary). Every number comes from the event; nothing here weighs a rule. Dinky Dau's rows are the HUD's own
``roll_rows``.
"""

from __future__ import annotations

from game.client.hud import INK, SIDE_INK

RANKS = ("Lt", "Sgt", "Cpl", "LCpl", "PFC", "Pvt")
SHORT = (("Weapon Skill", "WS"), (" (on the firer's roster)", " unseen"), ("hand-to-hand: full WS, no cover roll", "no cover"))


def _mods(ev: dict) -> str:
    """The factors behind the number, short enough for the tray's line: 'WS 90 TET-6, SMG at 8.6": x1/16 TET-11'."""
    out = []
    for m in ev.get("modifiers") or []:
        if not m.get("name"):
            continue
        name = str(m["name"])
        for long, short in SHORT:
            name = name.replace(long, short)
        out.append(name + (f" {m['clause']}" if m.get("clause") else ""))
    return ", ".join(out)


def _plain(name: str) -> str:
    """A name without its rank, for the tray's title ('PFC Davies': 'Davies')."""
    head, _, rest = str(name).partition(" ")
    return rest if head in RANKS and rest else str(name)


def _clause(ev: dict) -> str:
    return f"  [{str(ev.get('clause', '')).split(';')[0]}]" if ev.get("clause") else ""


def _or_less(n, sure: int = 0) -> str:
    if n is None:
        return ""
    hits = f"{sure} sure hit{'s' * (sure > 1)}"
    if not n and sure:  # TET-15: every hundred of the chance a sure hit, nothing over to roll for
        return f"need no roll: {hits}"
    return f"need {n} or less" + (f", {hits}" if sure else "")


def _row(title: str, ink, dice: list, need: str, summary: str, mods: str = "", key=None) -> dict:
    return {"key": key or (title,), "title": title, "ink": ink, "dice": dice, "need": need, "summary": summary,
            "mods": mods, "results": [], "need_value": None, "purpose": title}


def _d3(ev: dict) -> int:
    """The d3 itself: the result less the modifiers' sum (TET-5's +1 for a leader)."""
    plus = sum(m["value"] for m in ev.get("modifiers") or [] if isinstance(m.get("value"), int | float))
    return int(ev.get("result", 0) - plus)


def _roster(events: list[dict], names: dict, sides: dict) -> list[dict]:
    """TET-5, TET-6: the start's rolls, a side's Initiatives in one row and its Weapon Skills in another,
    the dice in the order of the names below them."""
    rows = []
    for purpose, label in (("Initiative", "Initiative d3 (+1 a leader)"), ("Weapon Skill", "Weapon Skill d6s x10")):
        mine = [e for e in events if e.get("purpose") == purpose]
        by_side: dict[str, list[dict]] = {}
        for e in mine:
            by_side.setdefault(sides.get(e.get("figure"), ""), []).append(e)
        for side, evs in by_side.items():
            who = ", ".join(str(names.get(e.get("figure"), e.get("figure"))).split()[-1] for e in evs)
            rows.append(_row(label, SIDE_INK.get(side, INK), [(e.get("result"), None) for e in evs], "",
                             f"{len(evs)} figure{'s' * (len(evs) != 1)}", who, key=(purpose, side)))
    return rows


def roll_row(ev: dict, names: dict, sides: dict) -> dict | None:
    """One roll as the player reads it (None: not a roll the tray shows)."""
    purpose = ev.get("purpose")
    name = lambda fid: _plain(names.get(fid, fid or ""))  # noqa: E731
    ink = SIDE_INK.get(sides.get(ev.get("firer") or ev.get("figure")), INK)
    roll, tn, sure = ev.get("result"), ev.get("target_number"), int(ev.get("automatic_hits") or 0)
    roll = "?" if roll is None else roll  # a roll told without its die
    if purpose in ("to hit", "hand-to-hand"):
        at = f" {name(ev['target'])}" if ev.get("target") else ""
        verb = "fights" if purpose == "hand-to-hand" else "to hit" if at else "lands"
        hits = int(ev.get("hits", 0))
        if at or purpose == "hand-to-hand":
            summary = f"{hits} HITS" if hits > 1 else "HIT" if hits else "MISS"
        else:
            summary = "ON THE MARK" if ev.get("success") else "SCATTERS"
        shown = f"{roll:02d}" if isinstance(roll, int) else "?"
        who = name(ev.get("firer") or ev.get("figure"))
        return _row(f"{who} {verb}{at}: d100", ink, [(shown, bool(ev.get("success")))],
                    _or_less(tn, sure) + _clause(ev), summary, _mods(ev))
    if purpose == "cover":
        return _row(f"{name(ev.get('target'))}: cover d6", SIDE_INK.get(sides.get(ev.get("target")), INK),
                    [(roll, bool(ev.get("success")))], _or_less(tn) + _clause(ev),
                    "HIT" if ev.get("success") else "SAVED")
    if purpose == "effect":
        return _row(f"{name(ev.get('target'))}: loss d3", SIDE_INK.get(sides.get(ev.get("target")), INK),
                    [(roll, None)], "", f"-{roll} Initiative", str(ev.get("clause", "")).split(";")[0])
    if purpose == "scatter":
        inches, hour = (list(ev.get("rolls") or []) + ["?", "?"])[:2]
        return _row(f"scatter {ev.get('dice', '')}", INK, [(inches, None), (hour, None)], "",
                    f"{inches}\" to {hour} o'clock", "12 o'clock: straight on along the line of fire")
    return None


def tray_rows(events: list[dict], names: dict, sides: dict) -> list[dict]:
    """The tray's rows for a batch of Tet '68 events (the start's rolls first, by side)."""
    rolls = [e for e in events if e.get("type", "roll") == "roll"]
    start = [e for e in rolls if e.get("purpose") in ("Initiative", "Weapon Skill")]
    rows = _roster(start, names, sides) if start else []
    rows += [r for r in (roll_row(e, names, sides) for e in rolls if e not in start) if r is not None]
    return rows
