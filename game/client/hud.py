"""The heads-up display: status bar, event log, element and action panel, dice, prompts and overlays.

Everything hangs from ``aspect2d`` corners, whose units follow the window's height, so the HUD keeps
its proportions from 1280x720 to 3840x2160; ``scale`` (keys ``[`` and ``]``) enlarges it further for a
convention screen. Texts come from the engine (event ``text``, action ``label``, ``clause``); the HUD
only lays them out.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import panda3d.core as p3d
from direct.gui.DirectGui import DGG, DirectButton, DirectFrame, OnscreenText

INK = (0.95, 0.93, 0.86, 1)
DIM = (0.75, 0.74, 0.68, 1)
PANEL = (0.08, 0.09, 0.07, 0.78)
ACCENT = (1.0, 0.82, 0.35, 1)
SIDE_INK = {"allied": (0.55, 0.75, 1.0, 1), "insurgent": (1.0, 0.55, 0.45, 1)}
SIDE_NAME = {"allied": "Allied", "insurgent": "Insurgent"}

HELP = """\
DINKY DAU 3D - controls

Mouse    left: select an element / place a move / pick a target
         right-drag: orbit      middle-drag or shift+right-drag: pan      wheel: zoom
Keys     W A S D / arrows: pan      Q E: turn      R F: tilt      + -: zoom
         T: top-down view      Space: focus on the selection      Home: whole table
         Tab: next element of yours      Esc: cancel
Tools    L: line of sight (click two points or stands)      M: tape measure (inches)
         C: lift / replace the jungle canopy      N: element names
Game     Enter: confirm      P: pass the impulse (when allowed)
         F5: save      F9: load the latest save      F11: fullscreen      [ ]: HUD size
         H or F1: this help
"""


DIE_HIT = (0.45, 0.9, 0.45, 1)
DIE_MISS = (0.9, 0.42, 0.36, 1)
DIE_NEUTRAL = (0.95, 0.95, 0.9, 1)


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def die_scored(d, need, result, n_dice: int) -> bool | None:
    """Did this die score? From the event's own pass/fail for a single die, else against ``need`` with a
    natural 6 always and a natural 1 never (G-31); None when the roll has no score to beat (a total)."""
    if not isinstance(d, int | float):
        return None
    if n_dice == 1 and result in ("pass", "fail"):
        return result == "pass"
    if not isinstance(need, int | float):
        return None
    return d == 6 or (d != 1 and d >= need)


def roll_rows(events: list[dict]) -> list[dict]:
    """Group ``roll`` events into dice-tray rows (consecutive rolls of one purpose, side and element)."""
    rows: list[dict] = []
    for ev in events:
        if ev.get("type", "roll") != "roll":
            continue
        dice = list(ev.get("dice") or [])
        need = ev.get("need", ev.get("target"))
        purpose = str(ev.get("purpose", "roll")).replace("_", " ")
        key = (purpose, ev.get("side"), ev.get("element"), need)
        marks = [(d, die_scored(d, need, ev.get("result"), len(dice))) for d in dice]
        mods = ", ".join(f"{m.get('name')} {m.get('value'):+}" + (f" ({m['clause']})" if m.get("clause") else "")
                         for m in ev.get("modifiers") or [] if isinstance(m.get("value"), int | float))
        if rows and rows[-1]["key"] == key and not mods and not rows[-1]["mods"] and len(rows[-1]["dice"]) < 28:
            row = rows[-1]
            row["dice"].extend(marks)
            row["results"].append(ev.get("result"))
        else:
            side = SIDE_NAME.get(ev.get("side"), ev.get("side") or "")
            row = {"key": key, "dice": marks, "results": [ev.get("result")], "mods": mods,
                   "title": f"{side}: {purpose}" if side else purpose.capitalize(),
                   "ink": SIDE_INK.get(ev.get("side"), INK), "need_value": need, "purpose": purpose}
            rows.append(row)
        row["need"] = f"need {need}+" if isinstance(need, int | float) else ""
        if ev.get("clause"):
            row["need"] += f"  [{str(ev['clause']).split(';')[0]}]"
        row["summary"] = _roll_summary(row)
    return rows


def _roll_summary(row: dict) -> str:
    scored = [ok for _, ok in row["dice"] if ok is not None]
    results = row["results"]
    n = len(row["dice"])
    if all(r in ("pass", "fail") for r in results):
        passed = sum(1 for r in results if r == "pass")
        if len(results) == 1:
            word = {"save": "saved", "look out sir": "deflected"}.get(row["purpose"].lower(), "passed")
            miss = {"save": "not saved", "look out sir": "it stands"}.get(row["purpose"].lower(), "failed")
            return word.upper() if passed else miss.upper()
        if row["purpose"].lower() == "save":
            return f"{passed} of {len(results)} saved"
        return f"{passed} of {len(results)} passed"
    if scored:
        hits = sum(1 for ok in scored if ok)
        if len(results) == 1 and isinstance(results[0], int) and not isinstance(results[0], bool):
            hits = results[0]
        return f"{hits} hit{'s' if hits != 1 else ''} of {n} {'die' if n == 1 else 'dice'}"
    if len(results) == 1 and results[0] is not None:
        return f"= {results[0]}"
    return ""


def _pct(p) -> str:
    if not isinstance(p, int | float):
        return "?"
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < 0.01:
        return "<1%"
    if p > 0.99:
        return ">99%"
    return f"{p * 100:.0f}%"


def _dist_ge(dist: dict | None, k: int) -> float:
    return sum(float(p) for n, p in (dist or {}).items() if int(n) >= k)


def describe_odds(r: dict, names: dict[str, str] | None = None) -> str:
    """A ``game.preview`` answer in plain words: the chance of a hit, hits expected, a casualty ring, a
    stand lost, the target pinned (assaults: stall / win / lose; grenades: lands, then as fire)."""
    names = names or {}
    if "if_it_lands" in r:
        inner = describe_odds(r["if_it_lands"], names)
        return f"The grenade lands: {_pct(r.get('p_lands'))}\nIf it lands:\n{inner}"
    if "p_attacker_wins" in r:
        lines = []
        if r.get("volley"):
            v = r["volley"]
            lines.append(f"Their volley first: at least one hit on you {_pct(_dist_ge(v.get('hits'), 1))}")
        lines += [f"The assault stalls at 2\" (you are pinned): {_pct(r.get('p_stall'))}",
                  f"You win the melee: {_pct(r.get('p_attacker_wins'))}",
                  f"They win: {_pct(r.get('p_defender_wins'))}"]
        if r.get("note"):
            lines.append(str(r["note"]))
        return "\n".join(lines)
    if "hits" not in r:
        return ", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in r.items() if not isinstance(v, dict | list))
    groups = r.get("groups") or []
    pool = " + ".join(f"{g.get('dice')} dice at {g.get('need')}+" for g in groups) or f"{r.get('dice')} dice"
    lines = [f"{pool}   (about {float(r.get('expected_hits', 0)):.1f} hits expected)"]
    mods = sorted({f"{m.get('name')} {m.get('value'):+}" for g in groups for m in g.get("modifiers") or []
                   if isinstance(m.get("value"), int | float)})
    if mods:
        lines.append("modifiers: " + ", ".join(mods))
    lines.append(f"At least one hit: {_pct(_dist_ge(r.get('hits'), 1))}")
    lines.append(f"A casualty ring: {_pct(_dist_ge(r.get('rings'), 1))}")
    lost = r.get("stands_lost")
    line = f"A stand lost: {_pct(_dist_ge(lost, 1))}"
    if _dist_ge(lost, 2) >= 0.005:
        line += f"   (two or more: {_pct(_dist_ge(lost, 2))})"
    lines.append(line)
    for eid, e in sorted((r.get("elements") or {}).items()):
        who = names.get(eid, eid)
        if e.get("already_pinned"):
            lines.append(f"{who} retreats (already pinned): {_pct(e.get('p_retreat'))}")
        else:
            lines.append(f"{who} pinned: {_pct(e.get('p_pinned'))}")
        if (e.get("p_eliminated") or 0) >= 0.005:
            lines.append(f"{who} wiped out: {_pct(e.get('p_eliminated'))}")
    return "\n".join(lines)


def _wrap(text: str, width: int) -> str:
    return "\n".join(textwrap.fill(line, width) if line else "" for line in text.splitlines())


LOG_ROWS = 16
"""Rows of text in the log box."""


class Hud:
    def __init__(self, app, scale: float = 1.0):
        self.app = app
        self.scale = scale
        self.root = app.aspect2d.attach_new_node("hud")
        self.top = app.a2dTopLeft.attach_new_node("hud-top")
        self.top_right = app.a2dTopRight.attach_new_node("hud-top-right")
        self.bottom = app.a2dBottomCenter.attach_new_node("hud-bottom")
        self.left = app.a2dTopLeft.attach_new_node("hud-left")
        self.dice_anchor = app.a2dBottomRight.attach_new_node("hud-dice")
        self.bottom_left = app.a2dBottomLeft.attach_new_node("hud-team")
        self.anchors = [self.top, self.top_right, self.bottom, self.left, self.dice_anchor, self.bottom_left]
        self.status = OnscreenText(parent=self.top, text="", pos=(0.04, -0.07), scale=0.048, fg=INK,
                                   align=p3d.TextNode.A_left, shadow=(0, 0, 0, 1), mayChange=True)
        self.status_bg = DirectFrame(parent=self.top, frameColor=PANEL, frameSize=(0, 4.0, -0.11, 0))
        self.status_bg.set_bin("background", 0)
        self.busy = OnscreenText(parent=self.top_right, text="", pos=(-0.04, -0.07), scale=0.042,
                                 fg=ACCENT, align=p3d.TextNode.A_right, mayChange=True, shadow=(0, 0, 0, 1))
        self.log_frame = DirectFrame(parent=self.top_right, frameColor=PANEL, frameSize=(-0.98, 0, -0.62, 0),
                                     pos=(-0.02, 0, -0.13))
        self.log_text = OnscreenText(parent=self.log_frame, text="", pos=(-0.95, -0.045), scale=0.032, fg=INK,
                                     align=p3d.TextNode.A_left, mayChange=True, wordwrap=29)
        self.log_lines: list[tuple[str, tuple]] = []
        self.panel = DirectFrame(parent=self.left, frameColor=PANEL, frameSize=(0, 0.98, -1.0, 0),
                                 pos=(0.02, 0, -0.13))
        self.panel_title = OnscreenText(parent=self.panel, text="", pos=(0.03, -0.06), scale=0.045, fg=INK,
                                        align=p3d.TextNode.A_left, mayChange=True, wordwrap=20)
        self.panel_body = OnscreenText(parent=self.panel, text="", pos=(0.03, -0.12), scale=0.032, fg=DIM,
                                       align=p3d.TextNode.A_left, mayChange=True, wordwrap=29)
        self.buttons: list[DirectButton] = []
        self.prompt = OnscreenText(parent=self.bottom, text="", pos=(0, 0.16), scale=0.045, fg=ACCENT,
                                   shadow=(0, 0, 0, 1), mayChange=True)
        self.hint = OnscreenText(parent=self.bottom, text="H: help   L: line of sight   M: tape   "
                                 "T: top view   F5/F9: save/load", pos=(0, 0.04), scale=0.032, fg=DIM,
                                 shadow=(0, 0, 0, 1), mayChange=True)
        self.dice_frame: DirectFrame | None = None
        self.team_frame = DirectFrame(parent=self.bottom_left, frameColor=PANEL, frameSize=(0, 1.0, 0, 0.3),
                                      pos=(0.02, 0, 0.3))
        self.team_text = OnscreenText(parent=self.team_frame, text="", pos=(0.03, -0.05), scale=0.032, fg=INK,
                                      align=p3d.TextNode.A_left, mayChange=True)
        self.team_frame.hide()
        self.banner_text = OnscreenText(parent=self.root, text="", pos=(0, 0.55), scale=0.13, fg=ACCENT,
                                        shadow=(0, 0, 0, 1), mayChange=True)
        self.banner_text.hide()
        self.caption_frame = DirectFrame(parent=self.bottom, frameColor=(0.03, 0.04, 0.03, 0.8),
                                         frameSize=(-1.7, 1.7, -0.02, 0.2), pos=(0, 0, 0.26))
        self.caption = OnscreenText(parent=self.caption_frame, text="", pos=(0, 0.06), scale=0.085, fg=INK,
                                    shadow=(0, 0, 0, 1), mayChange=True)
        self.caption_sub = OnscreenText(parent=self.caption_frame, text="", pos=(0, -0.1), scale=0.05, fg=ACCENT,
                                        shadow=(0, 0, 0, 1), mayChange=True)
        self.caption_frame.hide()
        self.overlay: DirectFrame | None = None
        self.overlay_title = ""
        self.help_frame: DirectFrame | None = None
        self.apply_scale()

    # -- layout ----------------------------------------------------------------------------------
    def apply_scale(self) -> None:
        for a in self.anchors:
            a.set_scale(self.scale)

    def set_scale(self, scale: float) -> None:
        self.scale = max(0.6, min(2.5, scale))
        self.apply_scale()

    # -- status and log --------------------------------------------------------------------------
    def set_status(self, view: dict, viewing: str | None, mode: str) -> None:
        sides = view.get("sides", {})
        a, i = sides.get("allied", {}), sides.get("insurgent", {})
        to_act = view.get("to_act")
        parts = [f"Turn {view.get('turn', '?')}/{view.get('turns', '?')}",
                 str(view.get("phase", "")).capitalize()]
        if view.get("over"):
            parts.append("GAME OVER")
        elif to_act:
            parts.append(f"{SIDE_NAME.get(to_act, to_act)} to act")
        if "cp" in a:
            parts.append(f"Allied CP {a['cp']}")
        if "ambush_tokens" in i:
            parts.append(f"Ambush tokens {i['ambush_tokens']}")
        parts.append(f"VP {a.get('vp', 0)} - {i.get('vp', 0)}")
        if viewing:
            parts.append(f"you: {SIDE_NAME.get(viewing, viewing)} ({mode})")
        self.status.setText("   |   ".join(parts))

    def set_team(self, text: str) -> None:
        """The co-op seat list (game.client.team.team_text), bottom left; hidden when empty."""
        self.team_text.setText(text)
        if not text:
            self.team_frame.hide()
            return
        rows = text.count("\n") + 1
        height = 0.05 + 0.04 * rows
        self.team_frame["frameSize"] = (0, 1.0, -height, 0)
        self.team_frame.set_pos(0.02, 0, height + 0.02)
        self.team_frame.show()

    def set_busy(self, text: str) -> None:
        self.busy.setText(text)

    def log(self, text: str, color=INK) -> None:
        self.log_lines.append((text, color))
        self.log_lines = self.log_lines[-200:]
        self._render_log()

    def _render_log(self) -> None:
        """The newest entries that fit in the box, each whole (an entry longer than the box keeps its
        opening lines)."""
        shown: list[list[str]] = []
        room = LOG_ROWS
        for text, _ in reversed(self.log_lines[-40:]):
            rows = _wrap(text, 46).splitlines()
            if len(rows) > room:
                if not shown:
                    shown.append(rows[:room])
                break
            shown.append(rows)
            room -= len(rows)
        self.log_text.setText("\n".join(row for rows in reversed(shown) for row in rows))

    # -- element panel ---------------------------------------------------------------------------
    def show_panel(self, title: str, body: str, actions: list[tuple[str, Callable[[], None], bool]],
                   title_color=INK) -> None:
        self.panel_title.setText(title)
        self.panel_title.setFg(title_color)
        drop = 0.05 * (max(1, self.panel_title.textNode.get_num_rows()) - 1)  # a long title wraps: the rest moves down
        self.panel_body.setPos(0.03, -0.12 - drop)
        self.panel_body.setText(_wrap(body, 48))
        for b in self.buttons:
            b.destroy()
        self.buttons = []
        lines = max(1, self.panel_body.textNode.get_num_rows()) if body else 0
        y = -0.14 - drop - 0.035 * lines - 0.02
        for label, callback, enabled in actions[:14]:
            b = DirectButton(parent=self.panel, text=_wrap(label, 44), text_scale=0.03, text_align=p3d.TextNode.A_left,
                             text_fg=INK if enabled else DIM, frameColor=(0.22, 0.26, 0.18, 0.95) if enabled
                             else (0.2, 0.2, 0.2, 0.7), pad=(0.02, 0.012), pos=(0.04, 0, y),
                             command=callback if enabled else None, relief=DGG.FLAT,
                             frameSize=(-0.01, 0.9, -0.028 - 0.03 * label.count("\n"), 0.04))
            b["state"] = DGG.NORMAL if enabled else DGG.DISABLED
            self.buttons.append(b)
            y -= 0.085 + 0.03 * _wrap(label, 44).count("\n")
        height = max(0.3, -y + 0.02)
        self.panel["frameSize"] = (0, 0.98, -height, 0)
        self.panel.show()

    def hide_panel(self) -> None:
        for b in self.buttons:
            b.destroy()
        self.buttons = []
        self.panel.hide()

    def set_prompt(self, text: str) -> None:
        self.prompt.setText(text)

    # -- dice ------------------------------------------------------------------------------------
    def show_dice(self, event: dict, seconds: float = 10.0) -> None:
        """One roll on its own (kept for callers that show a single event)."""
        self.show_rolls([event], seconds)

    def show_rolls(self, events: list[dict], seconds: float = 10.0) -> None:
        """The rolls of one action, as rows of dice: each die green when it scored, red when it did
        not, with the score needed, the modifiers and their clauses, and the result in words. Rolls of
        the same kind in a row (a stand's saves, say) share one row, so a pool reads as a pool."""
        rows = roll_rows(events)[-5:]
        if not rows:
            return
        if self.dice_frame is not None:
            self.dice_frame.destroy()
        width, per_row = 1.16, 12
        heights = [0.2 + (0.045 if r["mods"] else 0.0) + 0.07 * (max(len(r["dice"]) - 1, 0) // per_row) for r in rows]
        total = sum(heights) + 0.03
        f = DirectFrame(parent=self.dice_anchor, frameColor=PANEL, frameSize=(-width, 0, 0, total),
                        pos=(-0.02, 0, 0.1))
        y = total - 0.015
        for r, h in zip(rows, heights, strict=True):
            OnscreenText(parent=f, text=r["title"], pos=(-width + 0.03, y - 0.04), scale=0.036,
                         fg=r["ink"], align=p3d.TextNode.A_left)
            OnscreenText(parent=f, text=r["summary"], pos=(-0.03, y - 0.04), scale=0.036, fg=ACCENT,
                         align=p3d.TextNode.A_right)
            for k, (d, ok) in enumerate(r["dice"]):
                cx = -width + 0.07 + 0.085 * (k % per_row)
                cy = y - 0.11 - 0.07 * (k // per_row)
                fill = DIE_NEUTRAL if ok is None else DIE_HIT if ok else DIE_MISS
                DirectFrame(parent=f, frameColor=fill, frameSize=(-0.034, 0.034, -0.034, 0.034), pos=(cx, 0, cy))
                OnscreenText(parent=f, text=str(d), pos=(cx, cy - 0.016), scale=0.046, fg=(0.08, 0.08, 0.08, 1))
            dy = y - 0.11 - 0.07 * (max(len(r["dice"]) - 1, 0) // per_row)
            OnscreenText(parent=f, text=r["need"], pos=(-width + 0.04 + 0.085 * min(len(r["dice"]), per_row), dy - 0.014),
                         scale=0.032, fg=DIM, align=p3d.TextNode.A_left)
            if r["mods"]:
                OnscreenText(parent=f, text=_short(r["mods"], 72), pos=(-width + 0.03, dy - 0.08), scale=0.028,
                             fg=DIM, align=p3d.TextNode.A_left)
            y -= h
        self.dice_frame = f
        self._later(seconds, self._hide_dice, "dice", f)

    def _hide_dice(self, frame) -> None:
        if self.dice_frame is frame:
            frame.destroy()
            self.dice_frame = None

    def _later(self, seconds: float, fn, tag: str, *args) -> None:
        name = f"hud-{id(self)}-{tag}"
        self.app.taskMgr.remove(name)
        self.app.taskMgr.do_method_later(seconds, lambda task: fn(*args), name)

    # -- banners and captions --------------------------------------------------------------------
    def banner(self, text: str, color=ACCENT, seconds: float = 2.5) -> None:
        """A big word across the upper middle of the screen (AMBUSH!, CLOSE ASSAULT, a unit eliminated)."""
        self.banner_text.setText(text)
        self.banner_text.setFg(color)
        self.banner_text.show()
        self._later(seconds, self.banner_text.hide, "banner")

    def set_caption(self, text: str, sub: str = "") -> None:
        """Attract mode: a caption big enough to read across a room, and a line under it."""
        if not text and not sub:
            self.caption_frame.hide()
            return
        self.caption.setText(_wrap(text, 44))
        self.caption_sub.setText(sub)
        rows = max(1, self.caption.textNode.get_num_rows())
        self.caption_frame["frameSize"] = (-1.7, 1.7, -0.11, 0.04 + 0.095 * rows)
        self.caption.setPos(0, 0.095 * rows - 0.06)
        self.caption_sub.setPos(0, -0.075)
        self.caption_frame.show()

    # -- overlays --------------------------------------------------------------------------------
    def show_overlay(self, title: str, body: str, buttons: list[tuple[str, Callable[[], None]]],
                     opaque: bool = False) -> DirectFrame:
        self.hide_overlay()
        f = DirectFrame(parent=self.app.aspect2d, frameColor=(0.04, 0.05, 0.04, 1.0 if opaque else 0.86),
                        frameSize=(-4, 4, -1.1, 1.1), state=DGG.NORMAL)
        f.set_bin("gui-popup", 50)
        inner = f.attach_new_node("inner")
        inner.set_scale(self.scale)
        OnscreenText(parent=inner, text=title, pos=(0, 0.45), scale=0.09, fg=ACCENT, shadow=(0, 0, 0, 1))
        OnscreenText(parent=inner, text=_wrap(body, 70), pos=(0, 0.3), scale=0.045, fg=INK)
        x = -0.45 * (len(buttons) - 1)
        for label, cb in buttons:
            DirectButton(parent=inner, text=label, text_scale=0.05, pos=(x, 0, -0.45), command=cb,
                         frameColor=(0.25, 0.3, 0.2, 1), text_fg=INK, pad=(0.05, 0.03), relief=DGG.FLAT)
            x += 0.9
        self.overlay = f
        self.overlay_title = title
        return f

    def hide_overlay(self) -> None:
        if self.overlay is not None:
            self.overlay.destroy()
            self.overlay = None

    def toggle_help(self) -> None:
        if self.help_frame is not None:
            self.help_frame.destroy()
            self.help_frame = None
            return
        f = DirectFrame(parent=self.app.aspect2d, frameColor=(0.03, 0.04, 0.03, 0.92),
                        frameSize=(-1.45, 1.45, -0.75, 0.8))
        f.set_scale(self.scale)
        f.set_bin("gui-popup", 60)
        OnscreenText(parent=f, text=HELP, pos=(-1.35, 0.68), scale=0.042, fg=INK, align=p3d.TextNode.A_left,
                     font=p3d.TextNode.get_default_font())
        self.help_frame = f

    def destroy(self) -> None:
        for tag in ("dice", "banner"):
            self.app.taskMgr.remove(f"hud-{id(self)}-{tag}")
        self.hide_overlay()
        if self.help_frame is not None:
            self.help_frame.destroy()
        if self.dice_frame is not None:
            self.dice_frame.destroy()
            self.dice_frame = None
        self.caption_frame.destroy()
        for b in self.buttons:
            b.destroy()
        for f in (self.status_bg, self.log_frame, self.panel, self.team_frame):
            f.destroy()  # a DirectGUI item outlives its node unless destroyed (a leak per game, issue 11)
        for a in self.anchors:
            a.remove_node()
        self.root.remove_node()
