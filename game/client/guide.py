"""The first-turn guide: short hints for someone who has never played, each advancing when they do it.

"Click a squad", then "Spot before you cross the paddy", "Move: click a point inside the ring", "Fire:
pick a target you can see", "End the impulse". A hint the player cannot follow now (no Spot offered: no
Echo in sight) gives way to the next that they can; while an action is being filled in, the hint says
how to fill it. Shown in the first turn of a solo game (a walk-up player in attract mode gets one too);
G hides it (and brings it back). What may be done comes from the engine's offers (``app.actions``) and
their groups (``actions_menu.group_of``); the guide decides no rule.
"""

from __future__ import annotations

import panda3d.core as p3d
from direct.gui.DirectGui import OnscreenText

from game.client.actions_menu import group_of

STEPS = [
    ("select", "Click one of your squads", "your stands wear a blue rim; its actions open beside it"),
    ("Spot", "Spot before you cross the paddy", "Spot tests whether a ? marker is the enemy"),
    ("Move", "Move: click a point inside the ring", "choose Move in the menu; the ring is how far it goes"),
    ("Fire", "Fire: pick a target you can see", "the odds show before you confirm"),
    ("pass", "End the impulse when you are done", "Pass (P): the enemy moves, then you again"),
]
FILLING = {"point": "Click a point inside the ring", "blind": "Click a ringed ? marker",
           "stand": "Click a ringed stand", "element": "Click a ringed stand", "angle": "Click toward where to face",
           "token": "Click the ringed casualty token", "feature": "Click the outlined building"}


class FirstTurnGuide:
    """Hints at the top of the screen; ``note`` records what the player did, ``refresh`` redraws."""

    def __init__(self, app, parent: p3d.NodePath, font, ink, dim, accent):
        self.app = app
        self.done: set[str] = set()
        self.hidden = False
        self.finished = False
        self.root = parent.attach_new_node("guide")
        self.head = OnscreenText(parent=self.root, text="", pos=(0, -0.1), scale=0.05, fg=accent, font=font,
                                 mayChange=True)
        self.sub = OnscreenText(parent=self.root, text="", pos=(0, -0.158), scale=0.036, fg=ink,
                                shadow=(0, 0, 0, 1), mayChange=True)
        self.skip = OnscreenText(parent=self.root, text="G: hide these hints", pos=(0, -0.205), scale=0.03,
                                 fg=dim, shadow=(0, 0, 0, 1), mayChange=True)
        self.text = ""

    # -- what the player did ---------------------------------------------------------------------
    def note(self, what: str, action: dict | None = None) -> None:
        """``selected`` (one of their own pieces) or ``acted`` (an action the engine took)."""
        if what == "selected":
            self.done.add("select")
        elif what == "acted" and action is not None:
            self.done.add("select")
            self.done.add(group_of(action) or "pass")
        self.refresh()

    def toggle(self) -> None:
        self.hidden = not self.hidden
        self.refresh()

    # -- what to say -----------------------------------------------------------------------------
    def active(self) -> bool:
        app = self.app
        view = app.view
        if self.finished or app.mode != "solo" or view.get("over"):
            return False
        if isinstance(view.get("turn"), int) and view["turn"] > 1:
            self.finished = True  # the first turn is over: the player knows the way now
            return False
        return len(self.done) < len(STEPS)

    def hint(self) -> tuple[str, str] | None:
        """The hint for now: how to fill the action being filled in, else the first step not done that
        the engine's offers allow (else the first not done)."""
        app = self.app
        if not self.active() or not app.human(app.view.get("to_act")):
            return None
        p = app.pending
        if p is not None and p.get("todo"):
            kind = p["todo"][0][1].get("kind")
            if kind in FILLING:
                optional = p["todo"][0][1].get("optional")
                return FILLING[kind], "Enter: keep it as it is   Esc: cancel" if optional else "Esc: cancel"
        offered = {group_of(a) or "pass" for a in app.actions}
        todo = [s for s in STEPS if s[0] not in self.done]
        for key, head, sub in todo:
            if key == "select" or key in offered:
                return head, sub
        return (todo[0][1], todo[0][2]) if todo else None

    def refresh(self) -> None:
        h = None if self.hidden else self.hint()
        text = "" if h is None else h[0]
        if text == self.text and (h is not None) == (not self.root.is_hidden()):
            return
        self.text = text
        if h is None:
            self.root.hide()
            return
        self.head.setText(h[0])
        self.sub.setText(h[1])
        self.root.show()

    def destroy(self) -> None:
        self.root.remove_node()
