"""The briefing as a card at the start of a game: the scenario's title, its briefing, how it is won, and
"Click to begin"; a click or a key puts it away, B brings it back. Not a permanent panel: the table is
the screen.

The words are the scenario's (``view.scenario``: ``title``, ``briefing``, ``turns``, and ``objectives``
where the view names them); the card decides nothing.
"""

from __future__ import annotations

import panda3d.core as p3d
from direct.gui.DirectGui import DGG, DirectFrame, OnscreenText

from game.client.hud import ACCENT, DIM, INK, PANEL, SIDE_INK, _wrap


def victory_line(scenario: dict, side: str | None) -> str:
    """How the game is won, in one or two lines, from what the view says of the scenario."""
    if "victory" in scenario:  # a table kit's own words (kits.py)
        return str(scenario["victory"])
    turns = scenario.get("turns")
    objectives = [o for o in scenario.get("objectives") or [] if not side or o.get("side") in (None, side)]
    if objectives:
        goals = ";  ".join(f"{o.get('name', o.get('id'))} ({o['vp']} VP)" if o.get("vp") else
                           str(o.get("name", o.get("id"))) for o in objectives[:4])
        return f"Victory: {goals}" + (f", after {turns} turns." if turns else ".")
    return f"Victory: more Victory Points than the enemy after {turns} turns." if turns else \
        "Victory: more Victory Points than the enemy at the end."


class BriefingCard:
    """A card in the middle of the screen; ``close`` (a click on it, a key) takes it away."""

    def __init__(self, hud, scenario: dict, side: str | None, on_close=None):
        self.on_close = on_close
        s = hud.scale
        self.frame = DirectFrame(parent=hud.app.aspect2d, frameColor=(*PANEL[:3], 0.95),
                                 frameSize=(-1.15, 1.15, -0.72, 0.72), state=DGG.NORMAL)
        self.frame.set_scale(min(s, 1.3))
        self.frame.set_bin("gui-popup", 40)
        self.frame.bind(DGG.B1PRESS, lambda _event: self.close())
        title = str(scenario.get("title") or scenario.get("id") or "Briefing")
        body = _wrap(" ".join(str(scenario.get("briefing") or "").split()), 84)
        lines = body.count("\n") + 1
        size = 0.042 if lines <= 12 else 0.036
        heading = _wrap(title, 46)
        extra = 0.075 * heading.count("\n")
        half = 0.3 + lines * size * 0.6 + extra / 2
        self.frame["frameSize"] = (-1.2, 1.2, -half, half)
        OnscreenText(parent=self.frame, text=heading, pos=(0, half - 0.12), scale=0.068, fg=ACCENT)
        OnscreenText(parent=self.frame, text=body, pos=(-1.12, half - 0.22 - extra), scale=size, fg=INK,
                     align=p3d.TextNode.A_left)
        ink = SIDE_INK.get(side, INK) if side else INK
        OnscreenText(parent=self.frame, text=_wrap(victory_line(scenario, side), 64), pos=(0, -half + 0.22),
                     scale=0.044, fg=ink)
        OnscreenText(parent=self.frame, text="Click to begin", pos=(0, -half + 0.09), scale=0.058, fg=INK)
        OnscreenText(parent=self.frame, text="B: this briefing again", pos=(1.15, -half + 0.03), scale=0.028,
                     fg=DIM, align=p3d.TextNode.A_right)

    def close(self) -> None:
        if self.frame is None:
            return
        self.frame.destroy()
        self.frame = None
        if self.on_close is not None:
            self.on_close()

    @property
    def open(self) -> bool:
        return self.frame is not None
