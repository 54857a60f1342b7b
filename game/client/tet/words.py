"""Tet '68's words on screen: the status line (whose go, in which phase at which Initiative), and the
engine's previews said plainly (a move's share and who would see the man there, a shot's exposure and
chance, a cone, a grenade or an M79 round with what it would catch). Every figure comes from the view or
the engine's answer; nothing here weighs a rule.
"""

from __future__ import annotations


def names_of(view: dict) -> dict[str, str]:
    return {f["id"]: f.get("name", f["id"]) for f in view.get("figures") or []}


def exposure_text(result: dict) -> str:
    """'head and chest: the cover roll needs 2 or less' as the engine words it, or from its fields."""
    if result.get("text"):
        return str(result["text"])
    seen = result.get("seen") or []
    return f"{' and '.join(seen) or 'nothing'}: the cover roll needs {result.get('needs', '?')} or less"


def move_text(result: dict, names: dict) -> str:
    if not result.get("legal", True):
        return f"Not there: {result.get('reason') or 'the engine refuses it'}"
    parts = "; ".join(p.get("text", "") for p in result.get("parts") or [] if p.get("text"))
    seen = result.get("seen_by") or {}
    who = ", ".join(f"{names.get(k, k)} ({v})" for k, v in seen.items())
    return (f"{round(100 * float(result.get('share', 0)))}% of his move" + (f": {parts}" if parts else "")
            + (f"\nseen there by {who}" if who else "\nunseen there"))


def _caught(rows: list[dict], names: dict) -> str:
    return ", ".join(f"{names.get(r['id'], r['id'])} (exposure {r.get('exposure', '?')})" for r in rows) or "nobody"


def preview_text(result: dict, names: dict) -> tuple[str, tuple[str, str]]:
    """The engine's preview in words, and the number that matters most with what it is (for the panel)."""
    chance = result.get("chance")
    if "share" in result or "legal" in result and "chance" not in result:
        return move_text(result, names), (f"of his move ({result.get('ground', '')})",
                                          f"{round(100 * float(result.get('share', 0)))}%")
    if "exposure" in result:
        text = exposure_text(result)
        if "auto_chance" in result:
            text += f"\nautomatic (a cone): {result['auto_chance']}% on each man in it"
        if result.get("in_cone"):
            text += f"\nin the cone: {_caught(result['in_cone'], names)}"
        return text, (f"to hit {names.get(result.get('id'), result.get('id', ''))}", f"{chance}%")
    if "in_blast" in result:
        sc = result.get("scatter") or {}
        text = (f"{chance}% to land on the mark at {result.get('distance', 0):.1f}\"; else it scatters "
                f"{sc.get('dice', '')} (up to {sc.get('max', '?')}\")\n"
                f"the {result.get('radius', '?')}\" blast catches {_caught(result['in_blast'], names)}")
        if result.get("room"):
            text += f"\nin through the opening: into the {str(result['room']).replace('_', ' ')}"
        if "grenades" in result:
            text += f"\n{result['grenades']} grenades left"
        return text, ("to land on the mark", f"{chance}%")
    if "in_cone" in result:
        text = (f"a cone {result.get('width', 0):.1f}\" wide at {result.get('distance', 0):.1f}\": {chance}% on "
                f"each man in it\nin the cone: {_caught(result['in_cone'], names)}")
        return text, ("to hit each man in the cone", f"{chance}%")
    return "", ("", "")


def offer_text(offer: dict) -> str:
    label = offer.get("label") or offer["type"].replace("_", " ")
    targets = [t for t in offer.get("targets") or [] if "chance" in t]
    if targets:
        label += f" (best {max(t['chance'] for t in targets)}%)"
    return label


def go_line(view: dict, names: dict) -> str:
    """'Move phase, Initiative 2: Sgt Ames to move' from the view (the enemy's go says only whose)."""
    if view.get("over"):
        r = view.get("result") or {}
        return f"Game over: {r.get('reason', '')}"
    phase = str(view.get("phase", "")).capitalize()
    step = view.get("step")
    acting = [names.get(a, a) for a in view.get("acting") or []]
    verb = "to move" if view.get("phase") == "move" else "to fire"
    if "snap" in view:
        mover = (view.get("snap") or {}).get("mover")
        if not mover or mover not in names:
            return f"{phase} phase, Initiative {step}: the enemy has acted out of sight - let it go"
        return f"{phase} phase, Initiative {step}: {names[mover]} has moved in sight - snap fire, or let him go"
    if acting:
        return f"{phase} phase, Initiative {step}: {', '.join(acting)} {verb}"
    sides = (view.get("scenario") or {}).get("sides") or {}
    who = sides.get(view.get("to_act"), view.get("to_act") or "nobody")
    return f"{phase} phase, Initiative {step}: {who} {verb}"


def turn_line(view: dict) -> str:
    cleared = len(view.get("cleared") or [])
    total = len((view.get("scenario") or {}).get("buildings") or [])
    return (f"Turn {view.get('turn', '?')}/{view.get('turns', '?')}   {go_line(view, names_of(view))}"
            + (f"   houses cleared {cleared}/{total}" if total else ""))
