"""One Brain-Cell's words on screen: the status line (the turn, whose move it is, which squad is moving) and
the engine's previews said plainly (a move's inches of its allowance and what they were spent on, the cover
and ground there; a shot's range band, the target's column and the need; a bomb's aim allowed or not). Every
figure comes from the view or the engine's answer; nothing here weighs a rule.
"""

from __future__ import annotations


def names_of(view: dict) -> dict[str, str]:
    out = {m["id"]: m.get("name", m["id"]) for m in view.get("men") or []}
    out.update({v["id"]: v.get("name", v["id"]) for v in view.get("vehicles") or []})
    return out


def status_line(view: dict, viewing: str | None) -> str:
    """'Turn 2/8   US Army to move: 1st Squad (Clear the village)' from the view."""
    sc = view.get("scenario") or {}
    sides = sc.get("sides") or {}
    head = f"Turn {view.get('turn', '?')}/{view.get('turns', '?')}   "
    if view.get("over"):
        r = view.get("result") or {}
        return head + f"Game over: {r.get('reason', '')}"
    to_act = view.get("to_act")
    who = sides.get(to_act, to_act or "nobody")
    squads = {q["id"]: q for q in view.get("squads") or []}
    active = squads.get(view.get("active") or "")
    if active:
        return head + f"{who}: {active.get('name')} is moving ({active.get('order', '')})"
    if to_act == viewing:
        return head + f"{who}: your move - choose a squad"
    return head + f"{who} to move"


def preview_text(result: dict, names: dict) -> tuple[str, tuple[str, str]]:
    """The engine's preview in words, and the figure that matters most with what it is (for the panel)."""
    if not result.get("legal", True):
        return f"Not allowed: {result.get('reason') or 'the engine refuses it'}", ("", "")
    if "allowance" in result:
        spent = "; ".join(f"{d.get('name')} {d.get('inches', 0):g}\" [{d.get('clause')}]"
                          for d in result.get("deductions") or [])
        text = f"{float(result.get('distance', 0)):.1f}\" of {float(result['allowance']):g}\" ({result.get('going', '')})"
        if spent:
            text += f"\n{spent}"
        if result.get("ground"):
            text += f"\nthere: {result['ground']}, cover {result.get('cover', 'none')}"
        return text, (f"of {float(result['allowance']):g}\"", f"{float(result.get('distance', 0)):.1f}\"")
    if "entry" in result:
        who = names.get(result.get("id"), result.get("id", ""))
        text = (f"{who}: {float(result.get('distance', 0)):.1f}\", {result.get('band', '')} range, "
                f"against {result.get('column', '')}: {result.get('entry')}")
        for h in result.get("half") or []:
            text += f"\nhalf effect: {h}"
        for m in result.get("modifiers") or []:
            text += f"\n{m.get('name')} {m.get('value', '')} [{m.get('clause', '')}]"
        return text, (f"against {who}", str(result.get("entry")))
    return "The engine allows it.", ("", "")


def target_text(t: dict, names: dict) -> str:
    """A target row of a fire offer: who, how far, and what is needed."""
    return f"{names.get(t['id'], t['id'])}: {float(t.get('distance', 0)):.0f}\", {t.get('column', '')}, {t.get('entry', '')}"
