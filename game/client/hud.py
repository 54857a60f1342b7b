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


def _wrap(text: str, width: int) -> str:
    return "\n".join(textwrap.fill(line, width) if line else "" for line in text.splitlines())


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
        self.anchors = [self.top, self.top_right, self.bottom, self.left, self.dice_anchor]
        self.status = OnscreenText(parent=self.top, text="", pos=(0.04, -0.07), scale=0.048, fg=INK,
                                   align=p3d.TextNode.A_left, shadow=(0, 0, 0, 1), mayChange=True)
        self.status_bg = DirectFrame(parent=self.top, frameColor=PANEL, frameSize=(0, 4.0, -0.11, 0))
        self.status_bg.set_bin("background", 0)
        self.busy = OnscreenText(parent=self.top_right, text="", pos=(-0.04, -0.07), scale=0.042,
                                 fg=ACCENT, align=p3d.TextNode.A_right, mayChange=True, shadow=(0, 0, 0, 1))
        self.log_frame = DirectFrame(parent=self.top_right, frameColor=PANEL, frameSize=(-0.98, 0, -0.9, 0),
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
        self.overlay: DirectFrame | None = None
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

    def set_busy(self, text: str) -> None:
        self.busy.setText(text)

    def log(self, text: str, color=INK) -> None:
        self.log_lines.append((text, color))
        self.log_lines = self.log_lines[-200:]
        self._render_log()

    def _render_log(self) -> None:
        lines: list[str] = []
        for text, _ in self.log_lines[-40:]:
            lines.extend(_wrap(text, 46).splitlines())
        self.log_text.setText("\n".join(lines[-25:]))

    # -- element panel ---------------------------------------------------------------------------
    def show_panel(self, title: str, body: str, actions: list[tuple[str, Callable[[], None], bool]],
                   title_color=INK) -> None:
        self.panel_title.setText(title)
        self.panel_title.setFg(title_color)
        self.panel_body.setText(_wrap(body, 48))
        for b in self.buttons:
            b.destroy()
        self.buttons = []
        lines = max(1, self.panel_body.textNode.get_num_rows()) if body else 0
        y = -0.14 - 0.035 * lines - 0.02
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
    def show_dice(self, event: dict, seconds: float = 6.0) -> None:
        if self.dice_frame is not None:
            self.dice_frame.destroy()
        f = DirectFrame(parent=self.dice_anchor, frameColor=PANEL, frameSize=(-0.75, 0.75, -0.05, 0.36),
                        pos=(-0.79, 0, 0.12))
        purpose = str(event.get("purpose", "roll")).replace("_", " ")
        title = f"{purpose.capitalize()}"
        if event.get("side"):
            title = f"{SIDE_NAME.get(event['side'], event['side'])}: {title}"
        OnscreenText(parent=f, text=title, pos=(0, 0.3), scale=0.04, fg=INK)
        dice = list(event.get("dice") or [])[:12]
        target = event.get("target")
        x0 = -0.07 * (len(dice) - 1)
        for k, d in enumerate(dice):
            ok = isinstance(target, int | float) and isinstance(d, int | float) and d >= target
            DirectFrame(parent=f, frameColor=(0.95, 0.95, 0.9, 1) if ok or target is None else (0.7, 0.7, 0.68, 1),
                        frameSize=(-0.05, 0.05, -0.05, 0.05), pos=(x0 + 0.14 * k, 0, 0.2))
            OnscreenText(parent=f, text=str(d), pos=(x0 + 0.14 * k, 0.185), scale=0.05, fg=(0.1, 0.1, 0.1, 1))
        mods = ", ".join(f"{m.get('name')} {m.get('value'):+}" + (f" [{m['clause']}]" if m.get("clause") else "")
                         for m in event.get("modifiers") or [] if isinstance(m.get("value"), int | float))
        lines = []
        if target is not None:
            lines.append(f"target {target}" + (f"   result: {event.get('result')}" if event.get("result") else ""))
        if mods:
            lines.append(mods)
        if event.get("clause"):
            lines.append(f"[{event['clause']}]")
        OnscreenText(parent=f, text=_wrap("\n".join(lines), 70), pos=(0, 0.09), scale=0.03, fg=DIM)
        self.dice_frame = f
        self.app.taskMgr.do_method_later(seconds, self._hide_dice, "hide-dice", extraArgs=[f])

    def _hide_dice(self, frame) -> None:
        if self.dice_frame is frame:
            frame.destroy()
            self.dice_frame = None

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
        self.hide_overlay()
        if self.help_frame is not None:
            self.help_frame.destroy()
        if self.dice_frame is not None:
            self.dice_frame.destroy()
        for b in self.buttons:
            b.destroy()
        for a in self.anchors:
            a.remove_node()
        self.root.remove_node()
