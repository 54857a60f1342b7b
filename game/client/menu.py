"""The title menu: scenario, side, solo / hot-seat / co-op / watch, threat level, then the table.

It offers only what the chosen scenario's ruleset takes (``engine.hello``'s ruleset rows: ``coop`` and the
``options`` names, e.g. Dinky Dau's ``threat``); an engine whose rows say nothing of these gets every choice.
Co-op (DD-10.16, docs/coop.md) asks for the team: 2-4 names, the Platoon Commander first; the engine
assigns the elements and refuses a bad team with the field and the reason, shown here."""

from __future__ import annotations

import re
import textwrap

import panda3d.core as p3d
from direct.gui.DirectGui import DGG, DirectButton, DirectEntry, DirectFrame, OnscreenText

from game.client.hud import ACCENT, DIM, INK
from game.client.kits import DRAWS  # the rulesets this client draws (an engine may host more)
from game.client.team import parse_names


def drawable_scenarios(hello: dict) -> list[dict]:
    """The scenarios of ``engine.hello`` this client can put on the table."""
    return [s for s in hello.get("scenarios", []) if s.get("ruleset", "dinky_dau") in DRAWS]


def takes(hello: dict, scenario: dict | None) -> tuple[bool, set[str] | None]:
    """Whether the scenario's ruleset has co-op seats, and the names of its own options (None: unknown)."""
    name = (scenario or {}).get("ruleset", "dinky_dau")
    rows = [r for r in hello.get("rulesets") or [] if isinstance(r, dict)]  # an older engine lists only ids
    row = next((r for r in rows if r.get("id") == name), {})
    options = row.get("options")
    return bool(row.get("coop", True)), None if options is None else set(options)


MODES = [("solo", "Solo against the Jungle Ghost AI"), ("hotseat", "Hot-seat: two players, one screen"),
         ("coop", "Co-op: 2-4 players, one side"), ("watch", "Watch: AI against AI")]
SOLO = "Solo against the computer"
"""The solo button of a ruleset other than Dinky Dau: the Jungle Ghost (DD chapter 10) is Dinky Dau's own."""
TEAM = "Ames, Brody, Cruz"
THREATS = [(1, "Threat 1: light contact"), (2, "Threat 2: determined enemy"), (3, "Threat 3: main force")]


def side_names(scenario: dict | None) -> dict[str, str]:
    """What the scenario calls each side (``engine.hello``'s ``sides``), its head only ("2nd Platoon, C
    Company, 3/47th Infantry (Riverine)" is "2nd Platoon": the two buttons stand side by side), or Allied and
    Insurgent."""
    given = (scenario or {}).get("sides") or {}
    heads = {side: re.sub(r"\s*\([^)]*\)", "", str(given.get(side) or "")).split(",")[0].strip()
             for side in ("allied", "insurgent")}
    return {side: head or side.capitalize() for side, head in heads.items()}


def modes_for(scenario: dict | None, coop: bool) -> list[tuple[str, str]]:
    """The play modes the menu offers for a scenario, with their labels: co-op only where the ruleset has
    seats; the solo opponent named as Dinky Dau's Jungle Ghost only in Dinky Dau."""
    ruleset = (scenario or {}).get("ruleset", "dinky_dau")
    return [(m, SOLO if m == "solo" and ruleset != "dinky_dau" else label) for m, label in MODES
            if coop or m != "coop"]


class TitleMenu:
    def __init__(self, app, args):
        self.app = app
        self.scenarios: list[dict] = []
        self.hello: dict = {}
        self.choice = {"scenario": 0, "side": args.side, "mode": args.mode, "threat": args.threat,
                       "team": getattr(args, "coop", None) or TEAM}
        self.root = DirectFrame(parent=app.base.aspect2d, frameColor=(0.05, 0.07, 0.05, 1),
                                frameSize=(-4, 4, -1.2, 1.2))
        self.inner = self.root.attach_new_node("menu")
        self.inner.set_scale(app.settings.ui_scale)
        OnscreenText(parent=self.inner, text="DINKY DAU", pos=(0, 0.72), scale=0.16, fg=ACCENT,
                     shadow=(0, 0, 0, 1))
        OnscreenText(parent=self.inner, text="Vietnam 1965-1972   |   15mm skirmish on a living table",
                     pos=(0, 0.6), scale=0.045, fg=DIM)
        self.message = OnscreenText(parent=self.inner, text="asking the engine for scenarios...",
                                    pos=(0, -0.86), scale=0.04, fg=DIM, mayChange=True)
        self.widgets: list = []
        app.link.request("engine.hello", {}, self._on_hello, self._on_error)

    def set_message(self, text: str) -> None:
        self.message.setText(text)

    def _on_error(self, fault) -> None:
        reason = getattr(fault, "reason", None) or getattr(fault, "message", str(fault))
        self.set_message(f"The engine did not answer: {reason}")

    def _on_hello(self, hello: dict) -> None:
        self.hello = hello
        self.scenarios = drawable_scenarios(hello)
        self.set_message(f"{hello.get('name', 'engine')} {hello.get('version', '')}"
                         f" - {len(self.scenarios)} scenarios")
        self._draw()

    def _button(self, text, pos, cmd, selected=False, scale=0.042, width=None):
        b = DirectButton(parent=self.inner, text=text, text_scale=scale, pos=pos, command=cmd,
                         relief=DGG.FLAT, pad=(0.03, 0.02), text_fg=(0.1, 0.1, 0.05, 1) if selected else INK,
                         frameColor=ACCENT if selected else (0.2, 0.25, 0.17, 1),
                         text_align=p3d.TextNode.A_center)
        self.widgets.append(b)
        return b

    def _draw(self) -> None:
        for w in self.widgets:
            w.destroy()
        self.widgets = []
        self.team_entry = None
        y = 0.45
        rows = self.scenarios[:9]
        step = 0.1 if len(rows) <= 6 else 0.082  # every table the client draws fits (two rulesets' worth)
        for i, s in enumerate(rows):
            t = s.get("table", {})
            label = f"{s.get('title', s['id'])}   ({t.get('width', '?')}\" x {t.get('height', '?')}\")"
            self._button(label, (-0.55, 0, y), lambda i=i: self._set("scenario", i), i == self.choice["scenario"],
                         scale=0.042 if len(rows) <= 6 else 0.036)
            y -= step
        if self.scenarios:
            brief = self.scenarios[self.choice["scenario"]].get("briefing", "")
            t = OnscreenText(parent=self.inner, text=textwrap.fill(brief, 48), pos=(0.75, 0.45), scale=0.036,
                             fg=DIM, align=p3d.TextNode.A_center)
            self.widgets.append(t)
        y = min(y, -0.05) - 0.05
        names = side_names(self.scenarios[self.choice["scenario"]] if self.scenarios else None)
        for k, side in enumerate(("allied", "insurgent")):
            self._button(f"Command the {names[side]}", (-0.45 + 0.9 * k, 0, y),
                         lambda s=side: self._set("side", s), self.choice["side"] == side)
        y -= 0.11
        coop, options = takes(self.hello, self.scenarios[self.choice["scenario"]] if self.scenarios else None)
        modes = modes_for(self.scenarios[self.choice["scenario"]] if self.scenarios else None, coop)
        if self.choice["mode"] not in dict(modes):
            self.choice["mode"] = "solo"
        left = -0.4 * (len(modes) - 1)
        for k, (mode, label) in enumerate(modes):
            self._button(label, (left + 0.8 * k, 0, y), lambda m=mode: self._set("mode", m),
                         self.choice["mode"] == mode, scale=0.034)
        y -= 0.11
        if self.choice["mode"] == "coop":
            t = OnscreenText(parent=self.inner, text="Team (2-4 names, the Platoon Commander first):",
                             pos=(-0.55, y - 0.01), scale=0.034, fg=DIM, align=p3d.TextNode.A_right)
            self.widgets.append(t)
            self.team_entry = DirectEntry(parent=self.inner, initialText=self.choice["team"], scale=0.04,
                                          width=18, pos=(-0.5, 0, y - 0.01), numLines=1, focus=0,
                                          command=lambda text: self._set("team", text),
                                          focusOutCommand=self._keep_team)
            self.widgets.append(self.team_entry)
            y -= 0.1
        for k, (threat, label) in enumerate(THREATS if options is None or "threat" in options else ()):
            self._button(label, (-0.9 + 0.75 * k, 0, y), lambda t=threat: self._set("threat", t),
                         self.choice["threat"] == threat, scale=0.034)
        self._button("  START  ", (0, 0, -0.74), self._start, True, scale=0.06)

    def _set(self, key, value) -> None:
        self._keep_team()
        self.choice[key] = value
        self._draw()

    def _keep_team(self) -> None:
        entry = getattr(self, "team_entry", None)
        if entry is not None and not entry.is_empty():
            self.choice["team"] = entry.get()

    def _start(self) -> None:
        if not self.scenarios:
            return
        self._keep_team()
        s = self.scenarios[self.choice["scenario"]]
        self.set_message(f"setting up {s.get('title', s['id'])}...")
        team = parse_names(self.choice["team"]) if self.choice["mode"] == "coop" else None
        self.app.start_game(s["id"], self.choice["side"], self.choice["mode"], self.choice["threat"], team=team)

    def destroy(self) -> None:
        self._keep_team()
        for w in self.widgets:
            w.destroy()
        self.team_entry = None
        self.root.destroy()
