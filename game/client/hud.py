"""The heads-up display: a status pill, the selected piece's menu beside it, the newest events, dice,
prompts and overlays; the event log and the help on request.

Kept to a small share of the screen (at most 15 % of the pixels in play, measured by
``benchmarks/interface_share.py``): text over the table is outlined rather than boxed, and panels appear
only while there is something to choose. Everything hangs from ``aspect2d`` anchors, whose units follow
the window's height, so the HUD keeps its proportions from 1280x720 to 3840x2160; text sizes follow
PRESENCE.md's big-screen rule (about 0.04 for the player's text); ``scale`` (keys ``[`` and ``]``)
enlarges it further for a convention screen. Colours: the Okabe-Ito side pair, dice yellow for a hit
and struck-through grey for a miss, text at better than 7:1 on its panels. Texts come from the engine
(event ``text``, action ``label``, ``clause``); the HUD only lays them out.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import panda3d.core as p3d
from direct.gui.DirectGui import DGG, DirectButton, DirectFrame, OnscreenText

from game.client.captions import EventTicker


def hex_rgba(code: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    code = code.lstrip("#")
    return (int(code[0:2], 16) / 255, int(code[2:4], 16) / 255, int(code[4:6], 16) / 255, alpha)


INK = hex_rgba("#F2F2F2")
DIM = hex_rgba("#BFC3C7")
PANEL = hex_rgba("#101418", 0.9)
ACCENT = hex_rgba("#F0E442")
SIDE_INK = {"allied": hex_rgba("#56B4E9"), "insurgent": hex_rgba("#E69F00")}
"""Side colours, colour-blind safe (Okabe-Ito; PRESENCE.md): the same pair rings the pieces (pieces.py)."""
SIDE_NAME = {"allied": "Allied", "insurgent": "Insurgent"}

HELP = """\
DINKY DAU 3D - controls

Mouse    left: select an element or a Blind / place a move / pick a target
         right-drag: orbit      middle-drag or shift+right-drag: pan      wheel: zoom
Keys     W A S D / arrows: pan      Q E: turn      R F: tilt      + -: zoom
         T: top-down view      Space: focus on the selection      Home: whole table
         Tab: next element of yours      Esc: cancel
Tools    L: line of sight (click two points or stands)      M: tape measure (inches)
         C: lift / replace the jungle canopy      N: element names
         U: the tunnels beneath (cutaway; again: the torch-lit crawl; again: off)
Game     Enter: confirm      P: pass the impulse (when allowed)
         F5: save      F9: load the latest save      F11: fullscreen      [ ]: HUD size
         B: the briefing      J: the event log      G: the first-turn guide on / off
         H or F1: this help
"""


DIE_HIT = hex_rgba("#F0E442")
DIE_MISS = hex_rgba("#4D4D4D")
DIE_NEUTRAL = (0.95, 0.95, 0.92, 1)


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
        lines += [f"The volley cuts the assault down before it closes: {_pct(r.get('p_stall'))}",
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


MAX_TRAY = 1.25
"""The dice tray's widest, screen units (it stands at the right edge: the lines of modifiers wrap past it)."""


def _text_width(text: str, scale: float) -> float:
    """How wide ``text`` is drawn in the default font at ``scale``, screen units."""
    return p3d.TextNode("measure").calc_width(text) * scale


def _rows(text: str, wordwrap: float) -> int:
    """How many lines ``text`` takes in the default font wrapped at ``wordwrap`` (in its own units)."""
    node = p3d.TextNode("measure")
    node.set_wordwrap(wordwrap)
    node.set_text(text)
    return max(1, node.get_num_rows())


def _wrap(text: str, width: int) -> str:
    return "\n".join(textwrap.fill(line, width) if line else "" for line in text.splitlines())


LOG_ROWS = 16
"""Rows of text in the log box (J opens it; the three newest events are on the table anyway)."""
PANEL_W = 0.7
"""Width of the action menu, in aspect2d units before the HUD scale."""
GAP = 0.16
"""How far beside the selected piece the menu stands (aspect2d units)."""

_FONT: list = []


def outlined_font():
    """The default font with a dark outline, so text reads over any terrain without a panel behind it."""
    if not _FONT:
        font = p3d.TextNode.get_default_font()
        if isinstance(font, p3d.DynamicTextFont):
            font = font.make_copy()
            font.set_outline((0.04, 0.05, 0.06, 1), 0.35, 0.15)
        _FONT.append(font)
    return _FONT[0]


class Hud:
    """The interface over the table, kept small: a status pill (top left), the selected piece's menu beside
    it (``show_panel`` / ``show_menu``, placed by ``anchor``), a prompt and the newest events (lower third),
    the dice tray while a roll is fresh (bottom right); the event log (J) and the help (H) on request."""

    def __init__(self, app, scale: float = 1.0, clock=None):
        import time

        self.app = app
        self.scale = scale
        self.font = outlined_font()
        self.tray_rows: Callable[[list[dict]], list[dict]] = roll_rows
        """How a batch's rolls become dice-tray rows: Dinky Dau's here; a table kit sets its ruleset's own."""
        self.anchor: Callable[[], tuple[float, float] | None] | None = None
        """Where the selected piece is on screen (pixels), or None: the menu stands beside it."""
        self.root = app.aspect2d.attach_new_node("hud")
        self.top = app.a2dTopLeft.attach_new_node("hud-top")
        self.top_centre = app.a2dTopCenter.attach_new_node("hud-top-centre")
        self.top_right = app.a2dTopRight.attach_new_node("hud-top-right")
        self.bottom = app.a2dBottomCenter.attach_new_node("hud-bottom")
        self.left = app.a2dTopLeft.attach_new_node("hud-left")
        self.dice_anchor = app.a2dBottomRight.attach_new_node("hud-dice")
        self.bottom_left = app.a2dBottomLeft.attach_new_node("hud-team")
        self.menu_root = self.root.attach_new_node("hud-menu")
        self.anchors = [self.top, self.top_centre, self.top_right, self.bottom, self.left, self.dice_anchor,
                        self.bottom_left, self.menu_root]
        self.status_bg = DirectFrame(parent=self.top, frameColor=PANEL, frameSize=(0, 1.0, -0.085, 0),
                                     pos=(0.02, 0, -0.02))
        self.status = OnscreenText(parent=self.top, text="", pos=(0.045, -0.078), scale=0.04, fg=INK,
                                   align=p3d.TextNode.A_left, mayChange=True)
        self.busy = OnscreenText(parent=self.top_right, text="", pos=(-0.04, -0.07), scale=0.034,
                                 fg=ACCENT, align=p3d.TextNode.A_right, mayChange=True, font=self.font)
        self.log_frame = DirectFrame(parent=self.top_right, frameColor=PANEL, frameSize=(-0.98, 0, -0.62, 0),
                                     pos=(-0.02, 0, -0.13))
        self.log_text = OnscreenText(parent=self.log_frame, text="", pos=(-0.95, -0.045), scale=0.032, fg=INK,
                                     align=p3d.TextNode.A_left, mayChange=True, wordwrap=29)
        self.log_frame.hide()  # J opens it
        self.log_lines: list[tuple[str, tuple]] = []
        self.panel = DirectFrame(parent=self.menu_root, frameColor=PANEL, frameSize=(0, PANEL_W, -0.3, 0))
        self.panel_title = OnscreenText(parent=self.panel, text="", pos=(0.03, -0.058), scale=0.044, fg=INK,
                                        align=p3d.TextNode.A_left, mayChange=True, wordwrap=17)
        self.panel_body = OnscreenText(parent=self.panel, text="", pos=(0.03, -0.11), scale=0.03, fg=DIM,
                                       align=p3d.TextNode.A_left, mayChange=True)
        self.panel_size = (PANEL_W, 0.3)
        self.buttons: list[DirectButton] = []
        self.panel_items: list = []  # headings and price labels drawn with the buttons
        self.prompt = OnscreenText(parent=self.bottom, text="", pos=(0, 0.13), scale=0.044, fg=ACCENT,
                                   mayChange=True, font=self.font)
        self.hint = OnscreenText(parent=self.bottom, text="H help   B briefing   J log   L sight   M tape   "
                                 "T top view", pos=(0, 0.035), scale=0.03, fg=DIM, mayChange=True, font=self.font)
        self.ticker = EventTicker(self.bottom_left, self.font, clock or time.monotonic, INK, ACCENT, DIM)
        self.ticker.root.set_pos(0.05, 0, 0.26)
        self.dice_frame: DirectFrame | None = None
        self.team_frame = DirectFrame(parent=self.bottom_left, frameColor=PANEL, frameSize=(0, 1.0, 0, 0.3),
                                      pos=(0.02, 0, 0.3))
        self.team_text = OnscreenText(parent=self.team_frame, text="", pos=(0.03, -0.05), scale=0.032, fg=INK,
                                      align=p3d.TextNode.A_left, mayChange=True)
        self.team_frame.hide()
        self.banner_text = OnscreenText(parent=self.root, text="", pos=(0, 0.55), scale=0.12, fg=ACCENT,
                                        mayChange=True, font=self.font)
        self.banner_text.hide()
        self.caption_frame = DirectFrame(parent=self.bottom, relief=None, pos=(0, 0, 0.3))
        self.caption = OnscreenText(parent=self.caption_frame, text="", pos=(0, 0.06), scale=0.1, fg=INK,
                                    mayChange=True, font=self.font)
        self.caption_sub = OnscreenText(parent=self.caption_frame, text="", pos=(0, -0.1), scale=0.05, fg=DIM,
                                        mayChange=True, font=self.font)
        self.caption_frame.hide()
        self.overlay: DirectFrame | None = None
        self.overlay_title = ""
        self.help_frame: DirectFrame | None = None
        self.apply_scale()

    # -- layout ----------------------------------------------------------------------------------
    def apply_scale(self) -> None:
        for a in self.anchors:
            a.set_scale(self.scale)
        self.place_panel()

    def set_scale(self, scale: float) -> None:
        self.scale = max(0.6, min(2.5, scale))
        self.apply_scale()

    def window_aspect(self) -> tuple[float, float, float]:
        win = getattr(self.app, "win", None)
        w, h = (win.get_x_size(), win.get_y_size()) if win is not None else (1280, 720)
        return w, h, w / max(h, 1)

    def place_panel(self) -> None:
        """Stand the menu beside the selected piece (right of it, or left where the window ends), inside
        the window and clear of the status pill; with no piece, at the left edge."""
        if self.panel.is_hidden():
            return
        w, h, aspect = self.window_aspect()
        pw, ph = self.panel_size[0] * self.scale, self.panel_size[1] * self.scale
        where = self.anchor() if self.anchor is not None else None
        top_limit, bottom_limit = 1.0 - 0.13 * self.scale, -1.0 + 0.2 * self.scale
        if where is None:
            x, y = -aspect + 0.03, 1.0 - 0.14 * self.scale
        else:
            ax, ay = (where[0] / w * 2 - 1) * aspect, 1 - where[1] / h * 2
            x = ax + GAP if ax + GAP + pw <= aspect - 0.02 else ax - GAP - pw
            y = ay + ph * 0.35
        x = max(-aspect + 0.02, min(aspect - 0.02 - pw, x))
        y = max(bottom_limit + ph, min(top_limit, y))
        self.menu_root.set_pos(x, 0, y)

    # -- status and log --------------------------------------------------------------------------
    def set_status(self, view: dict, viewing: str | None, mode: str) -> None:
        sides = view.get("sides", {})
        a, i = sides.get("allied", {}), sides.get("insurgent", {})
        to_act = view.get("to_act")
        parts = [f"Turn {view.get('turn', '?')}/{view.get('turns', '?')}"]
        if view.get("over"):
            parts.append("GAME OVER")
        elif to_act:
            parts.append(f"{SIDE_NAME.get(to_act, to_act)} to act")
        if "cp" in a:
            parts.append(f"CP {a['cp']}")
        if "ambush_tokens" in i and i["ambush_tokens"]:
            parts.append(f"Ambush tokens {i['ambush_tokens']}")
        parts.append(f"VP {a.get('vp', 0)}-{i.get('vp', 0)}")
        self.show_status("   ".join(parts), SIDE_INK.get(to_act, INK) if to_act == viewing and viewing else INK)

    def show_status(self, text: str, color=INK) -> None:
        """The status line, top left: a ruleset's own words (game.client.kits)."""
        self.status.setText(text)
        self.status.setFg(color)
        width = self.status.textNode.get_width() * 0.04
        self.status_bg["frameSize"] = (0, width + 0.05, -0.085, 0)

    def set_team(self, text: str) -> None:
        """The co-op seat list (game.client.team.team_text), bottom left; hidden when empty."""
        self.team_text.setText(text)
        if not text:
            self.team_frame.hide()
            self.ticker.root.show()
            return
        rows = text.count("\n") + 1
        height = 0.05 + 0.04 * rows
        self.team_frame["frameSize"] = (0, 1.0, -height, 0)
        self.team_frame.set_pos(0.02, 0, height + 0.02)
        self.team_frame.show()
        self.ticker.root.set_z(height + 0.3)

    def set_busy(self, text: str) -> None:
        self.busy.setText(text)

    def log(self, text: str, color=INK, event: dict | None = None) -> None:
        """An entry in the log (J); an engine event also goes to the ticker over the table."""
        self.log_lines.append((text, color))
        self.log_lines = self.log_lines[-200:]
        self._render_log()
        if event is not None:
            self.ticker.add(event, color)

    def toggle_log(self) -> None:
        self.log_frame.show() if self.log_frame.is_hidden() else self.log_frame.hide()

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

    # -- the menu beside the selected piece ------------------------------------------------------
    def show_panel(self, title: str, body: str, actions: list[tuple[str, Callable[[], None], bool]],
                   title_color=INK) -> None:
        """A choice to make (a target, a colour, confirm): buttons under a title, beside the piece."""
        from game.client.actions_menu import Row

        self.show_menu(title, body, [Row("action", label, callback=cb, enabled=ok) for label, cb, ok in actions],
                       title_color)

    def show_menu(self, title: str, body: str, rows: list, title_color=INK, big: tuple[str, str] | None = None) -> None:
        """Draw ``rows`` (``actions_menu.Row``: headings, offers with their price, side actions) under a
        title and a small body; ``big`` = (words, number): the chance that matters, large."""
        self._clear_panel()
        self.panel_title.setText(title)
        self.panel_title.setFg(title_color)
        drop = 0.05 * (max(1, self.panel_title.textNode.get_num_rows()) - 1)
        y = -0.085 - drop
        if big and big[1]:
            t = OnscreenText(parent=self.panel, text=big[1], pos=(0.03, y - 0.07), scale=0.08, fg=ACCENT,
                             align=p3d.TextNode.A_left)
            words = OnscreenText(parent=self.panel, text=_wrap(big[0], 24), pos=(0.06 + t.textNode.get_width() * 0.08,
                                 y - 0.045), scale=0.032, fg=INK, align=p3d.TextNode.A_left)
            self.panel_items += [t, words]
            y -= 0.1
        self.panel_body.setText(_wrap(body, 46))
        self.panel_body.setPos(0.03, y - 0.03)
        if body:
            y -= 0.03 + 0.034 * max(1, self.panel_body.textNode.get_num_rows())
        y -= 0.015
        for row in rows[:16]:
            y = self._row(row, y)
        height = -y + 0.02
        self.panel_size = (PANEL_W, height)
        self.panel["frameSize"] = (0, PANEL_W, -height, 0)
        self.panel.show()
        self.place_panel()

    def _row(self, row, y: float) -> float:
        if row.kind == "heading":
            t = OnscreenText(parent=self.panel, text=row.label, pos=(0.035, y - 0.03), scale=0.027, fg=ACCENT,
                             align=p3d.TextNode.A_left)
            self.panel_items.append(t)
            return y - 0.038
        small = row.kind == "side"
        scale = 0.034 if small else 0.04
        label = _wrap(row.label, 34 if small else 26)
        lines = label.count("\n")
        hgt = 0.054 + 0.04 * lines
        enabled = row.enabled
        b = DirectButton(parent=self.panel, text=row.label, text_scale=scale, text_align=p3d.TextNode.A_left,
                         text_wordwrap=(PANEL_W - 0.19) / scale,
                         text_fg=INK if enabled else DIM, text_pos=(0.02, -0.038),
                         frameColor=(0.17, 0.21, 0.25, 0.95) if enabled else (0.14, 0.15, 0.16, 0.7),
                         pos=(0.02, 0, y), command=row.callback if enabled else None, relief=DGG.FLAT,
                         frameSize=(0, PANEL_W - 0.04, -hgt + 0.004, 0))
        b["state"] = DGG.NORMAL if enabled else DGG.DISABLED
        self.buttons.append(b)
        price = "  ".join(p for p in (row.note, row.cost) if p)
        if price:
            t = OnscreenText(parent=b, text=price, pos=(PANEL_W - 0.06, -0.037), scale=0.03,
                             fg=ACCENT if row.cost else DIM, align=p3d.TextNode.A_right)
            self.panel_items.append(t)
        return y - hgt - 0.006

    def _clear_panel(self) -> None:
        for b in self.buttons:
            b.destroy()
        self.buttons = []
        for t in self.panel_items:
            t.destroy()
        self.panel_items = []

    def hide_panel(self) -> None:
        self._clear_panel()
        self.panel.hide()

    def set_prompt(self, text: str) -> None:
        self.prompt.setText(text)

    # -- dice ------------------------------------------------------------------------------------
    def show_dice(self, event: dict, seconds: float = 10.0) -> None:
        """One roll on its own (kept for callers that show a single event)."""
        self.show_rolls([event], seconds)

    def show_rolls(self, events: list[dict], seconds: float = 7.0) -> None:
        """The rolls of one action, as rows of dice: a die that scored is yellow with a dark digit, one
        that missed is grey and struck through (shape as well as hue, for colour-blind eyes), with the
        score needed large, the modifiers and their clauses small, and the result in words. Rolls of the
        same kind in a row (a stand's saves, say) share one row, so a pool reads as a pool."""
        rows = self.tray_rows(events)[-4:]
        if not rows:
            return
        if self.dice_frame is not None:
            self.dice_frame.destroy()
        per_row, cell, small = 10, 0.075, 0.026
        most = max(min(len(r["dice"]), per_row) for r in rows)
        mods = [_short(r["mods"], 140) for r in rows]  # (two lines at most)
        # as wide as the dice need, or the longest line of modifiers (up to MAX_TRAY; longer ones wrap)
        width = min(max(0.6, 0.06 + cell * most + 0.3, *(_text_width(m, small) + 0.06 for m in mods)), MAX_TRAY)
        wrap = (width - 0.06) / small
        lines = [_rows(m, wrap) if m else 0 for m in mods]
        heights = [0.17 + (0.04 + 0.03 * (n - 1) if n else 0.0) + cell * (max(len(r["dice"]) - 1, 0) // per_row)
                   for r, n in zip(rows, lines, strict=True)]
        total = sum(heights) + 0.02
        f = DirectFrame(parent=self.dice_anchor, frameColor=PANEL, frameSize=(-width, 0, 0, total),
                        pos=(-0.02, 0, 0.1))
        y = total - 0.01
        for r, h, m in zip(rows, heights, mods, strict=True):
            OnscreenText(parent=f, text=_short(r["title"], 30), pos=(-width + 0.03, y - 0.035), scale=0.03,
                         fg=r["ink"], align=p3d.TextNode.A_left)
            OnscreenText(parent=f, text=r["summary"], pos=(-0.03, y - 0.035), scale=0.032, fg=INK,
                         align=p3d.TextNode.A_right)
            for k, (d, ok) in enumerate(r["dice"]):
                cx = -width + 0.065 + cell * (k % per_row)
                cy = y - 0.095 - cell * (k // per_row)
                self._die(f, cx, cy, d, ok)
            dy = y - 0.095 - cell * (max(len(r["dice"]) - 1, 0) // per_row)
            need = r["need"].split("  [")[0]
            if need:
                OnscreenText(parent=f, text=need.replace("need", "needs"), pos=(-0.03, dy - 0.022), scale=0.05,
                             fg=ACCENT, align=p3d.TextNode.A_right)
            if m:
                OnscreenText(parent=f, text=m, pos=(-width + 0.03, dy - 0.075), scale=small, fg=DIM,
                             align=p3d.TextNode.A_left, wordwrap=wrap)
            y -= h
        self.dice_frame = f
        self._later(seconds, self._hide_dice, "dice", f)

    @staticmethod
    def _die(parent, cx: float, cy: float, d, ok) -> None:
        fill = DIE_NEUTRAL if ok is None else DIE_HIT if ok else DIE_MISS
        ink = (0.92, 0.92, 0.92, 1) if ok is False else (0.08, 0.08, 0.08, 1)
        DirectFrame(parent=parent, frameColor=fill, frameSize=(-0.03, 0.03, -0.03, 0.03), pos=(cx, 0, cy))
        OnscreenText(parent=parent, text=str(d), pos=(cx, cy - 0.015), scale=0.042, fg=ink)
        if ok is False:  # struck through: a miss reads as a miss without its colour
            strike = DirectFrame(parent=parent, frameColor=(0.95, 0.95, 0.95, 1), frameSize=(-0.036, 0.036, -0.004, 0.004),
                                 pos=(cx, 0, cy))
            strike.set_r(-40)

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

    def set_caption(self, text: str, sub: str = "", number: str = "") -> None:
        """Attract mode: a caption big enough to read across a room (outlined, no panel behind it), the
        number that matters under it in the accent colour, and a small line (the turn, the clause)."""
        if not text and not sub:
            self.caption_frame.hide()
            return
        self.caption.setText(_wrap(text, 36))
        rows = max(1, self.caption.textNode.get_num_rows())
        self.caption.setPos(0, 0.1 * (rows - 1) + 0.02)
        self.caption_sub.setText(f"{number}   {sub}".strip() if number else sub)
        self.caption_sub.setFg(ACCENT if number else DIM)
        self.caption_sub.setPos(0, -0.07)
        self.caption_frame.show()

    # -- overlays --------------------------------------------------------------------------------
    def show_overlay(self, title: str, body: str, buttons: list[tuple[str, Callable[[], None]]],
                     opaque: bool = False) -> DirectFrame:
        self.hide_overlay()
        f = DirectFrame(parent=self.app.aspect2d, frameColor=(0.04, 0.05, 0.06, 1.0 if opaque else 0.88),
                        frameSize=(-4, 4, -1.1, 1.1), state=DGG.NORMAL)
        f.set_bin("gui-popup", 50)
        inner = f.attach_new_node("inner")
        inner.set_scale(self.scale)
        OnscreenText(parent=inner, text=title, pos=(0, 0.45), scale=0.09, fg=ACCENT)
        OnscreenText(parent=inner, text=_wrap(body, 70), pos=(0, 0.3), scale=0.045, fg=INK)
        x = -0.45 * (len(buttons) - 1)
        for label, cb in buttons:
            DirectButton(parent=inner, text=label, text_scale=0.05, pos=(x, 0, -0.45), command=cb,
                         frameColor=(0.2, 0.26, 0.32, 1), text_fg=INK, pad=(0.05, 0.03), relief=DGG.FLAT)
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
        f = DirectFrame(parent=self.app.aspect2d, frameColor=(0.04, 0.05, 0.06, 0.94),
                        frameSize=(-1.45, 1.45, -0.8, 0.8))
        f.set_scale(self.scale)
        f.set_bin("gui-popup", 60)
        OnscreenText(parent=f, text=HELP, pos=(-1.35, 0.68), scale=0.04, fg=INK, align=p3d.TextNode.A_left,
                     font=p3d.TextNode.get_default_font())
        self.help_frame = f

    def update(self) -> None:
        """Per frame: the ticker fades old events; the menu follows its piece as the camera moves."""
        self.ticker.update()
        self.place_panel()

    def destroy(self) -> None:
        for item in getattr(self, "extras", []):  # buttons other modules put on the HUD (underground.py)
            item.destroy()
        for tag in ("dice", "banner"):
            self.app.taskMgr.remove(f"hud-{id(self)}-{tag}")
        self.hide_overlay()
        if self.help_frame is not None:
            self.help_frame.destroy()
        if self.dice_frame is not None:
            self.dice_frame.destroy()
            self.dice_frame = None
        self.caption_frame.destroy()
        self._clear_panel()
        self.ticker.destroy()
        for f in (self.status_bg, self.log_frame, self.panel, self.team_frame):
            f.destroy()  # a DirectGUI item outlives its node unless destroyed (a leak per game, issue 11)
        for a in self.anchors:
            a.remove_node()
        self.root.remove_node()
