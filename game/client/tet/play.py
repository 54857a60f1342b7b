"""Playing Tet '68 on the table: the figure whose go it is, its offers, and each offer's parameters filled in
by their ``kind`` (the composer of offers into actions), asking the engine at every step.

Click one of the view's ``acting`` figures (or take the one the prompt names) and its offers show beside it.
Each parameter is filled by its kind: ``point`` with a ghost on the table that follows the mouse (a move's
cost, whether it is legal and who would see the man there, from ``game.preview``; a circle as wide as the
offer's ``radius``, a band as wide as its ``width``), ``choice`` with buttons (figure ids are ringed on the
table too and a click on the man picks him), ``flag`` with Yes / No. Aiming at a target asks the engine for
the exposure (``game.preview``, as ``los.check`` answers it): the places the firer's eye reaches are lit on
the target ("head and chest: the cover roll needs 2 or less"), with the chance to hit, before Confirm.
Every value, cost and chance comes from the engine; nothing here decides a rule.
"""

from __future__ import annotations

from game.client import geom
from game.client.hud import SIDE_INK
from game.client.tet.ghost import Ghost
from game.client.tet.words import exposure_text, names_of, offer_text, preview_text

SENT = ("type", "figure")
"""What of an offer goes back with the action; the rest describes it (its params are filled in)."""
ORDER = {"point": 1, "choice": 2, "flag": 3}


def action_of(offer: dict, values: dict) -> dict:
    """The action sent for an offer: its type and figure, and the values of its params filled in."""
    return {**{k: offer[k] for k in SENT if k in offer}, **values}


class TetPlay:
    """The composer of one table (see the module docstring); the app calls it through the kit."""

    def __init__(self, app):
        self.app = app
        self.pending: dict | None = None
        self.nodes: list = []
        self.ghost = None
        self.asking = False  # a preview on its way (the ghost asks again when it comes back)
        self.want: tuple | None = None

    @property
    def pieces(self):
        return self.app.scene.pieces

    # -- what the side may do ------------------------------------------------------------------------
    def offers_of(self, fid: str | None) -> list[dict]:
        return [a for a in self.app.actions if a.get("figure") == fid]

    def side_offers(self) -> list[dict]:
        return [a for a in self.app.actions if not a.get("figure")]

    def refresh_panel(self) -> None:
        app = self.app
        if self.pending is not None or app.hud is None:
            return
        sel = self.pieces.selected
        names = names_of(app.view)
        side_rows = [(a.get("label") or a["type"], lambda a=a: self.choose(a), True) for a in self.side_offers()]
        if sel is None:
            acting = [f for f in app.view.get("acting") or [] if self.offers_of(f)]
            if acting or side_rows:
                rows = [(f"{names.get(f, f)}", lambda f=f: self.select(f), True) for f in acting]
                verb = "to move" if app.view.get("phase") == "move" else "to fire"
                title = f"{', '.join(names.get(f, f) for f in acting)} {verb}" if acting else "Your go"
                app.hud.show_panel(title, "click him on the table, or here:" if acting else "", rows + side_rows,
                                   title_color=SIDE_INK.get(app.viewing, (1, 1, 1, 1)))
            else:
                app.hud.hide_panel()
            return
        f = self.pieces.elements.get(sel, {})
        body = [f.get("weapon", "").upper(), f.get("pose", "").replace("_", " ")]
        if "initiative" in f:
            body.append(f"Initiative {f['initiative']}, Weapon Skill {f.get('ws', '?')}")
        if f.get("ducked"):
            body.append("ducked back")
        if not f.get("alive", True):
            body.append("dead")
        offers = self.offers_of(sel)
        if not offers:
            body.append("not his go" if f.get("side") == app.viewing else "enemy")
        rows = [(offer_text(a), lambda a=a: self.choose(a), True) for a in offers]
        app.hud.show_panel(f.get("name", sel), ", ".join(b for b in body if b), rows + side_rows,
                           title_color=SIDE_INK.get(f.get("side"), (1, 1, 1, 1)))

    def select(self, fid: str | None) -> None:
        self.pieces.select(fid)
        self.refresh_panel()

    # -- composing -----------------------------------------------------------------------------------
    def choose(self, offer: dict) -> None:
        self.cancel()
        params = list((offer.get("params") or {}).items())
        figures = self.pieces.figures

        def order(kv):  # whom first (a choice among figures), then where, then how (a pose, a flag)
            kind, choices = kv[1].get("kind"), kv[1].get("choices") or []
            whom = kind == "choice" and any(str(c) in figures for c in choices)
            return 0 if whom else ORDER.get(kind, 2)

        params.sort(key=order)
        self.pending = {"offer": offer, "values": {}, "todo": params}
        if offer.get("figure"):
            self.pieces.select(offer["figure"])
        self.next_param()

    def next_param(self) -> None:
        p = self.pending
        if p is None:
            return
        self._clear_nodes()
        app = self.app
        offer = p["offer"]
        label = offer.get("label") or offer["type"]
        if not p["todo"]:
            self._final()
            return
        name, spec = p["todo"][0]
        kind = spec.get("kind")
        if kind == "point":
            here = self.pieces.position(offer.get("figure") or "")
            self.ghost = Ghost(app.scene, (here.x, here.y) if here is not None else None, spec, self.pieces)
            app.hud.hide_panel()
            reach = spec.get("max") or offer.get("reach")
            app.hud.set_prompt(f"{label}: click where" + (f' (up to {reach:g}")' if reach else "")
                               + "   Esc: cancel")
        elif kind == "choice":
            choices = list(spec.get("choices") or [])
            names = names_of(app.view)
            figures = [c for c in choices if c in self.pieces.figures]
            targets = {t["id"]: t for t in offer.get("targets") or []}
            if figures:
                self._ring(figures)
            rows = []
            for c in choices:
                t = targets.get(c)
                extra = f": exposure {t['exposure']}, {t['chance']}%" if t else ""
                rows.append((f"{names.get(c, str(c).replace('_', ' '))}{extra}", lambda c=c: self.fill(c), True))
            keep = self._keep(name)
            app.hud.show_panel(label, f"choose the {name}" + (" (or click the ringed man)" if figures else ""),
                               rows + keep + [("Cancel", self.cancel, True)])
            app.hud.set_prompt(f"{label}: choose the {name}   Esc: cancel")
        elif kind == "flag":
            words = {"auto": ("Automatic: a cone", "Single shots")}.get(name, ("Yes", "No"))
            app.hud.show_panel(label, f"{name}?", [(words[0], lambda: self.fill(True), True),
                                                   (words[1], lambda: self.fill(False), True),
                                                   ("Cancel", self.cancel, True)])
            app.hud.set_prompt(f"{label}: {name}?   Esc: cancel")
        else:
            app.hud.set_prompt(f"{label}: this table cannot set a '{kind}' yet")

    def _keep(self, name: str) -> list:
        """A pose may stay as it is: the engine keeps it when the action names none."""
        if name != "pose":
            return []
        f = self.pieces.elements.get((self.pending or {}).get("offer", {}).get("figure") or "", {})
        return [(f"Keep: {f.get('pose', 'as is').replace('_', ' ')} (Enter)", lambda: self.fill(None), True)]

    def fill(self, value) -> None:
        p = self.pending
        if p is None or not p["todo"]:
            return
        name, spec = p["todo"].pop(0)
        if value is not None:
            p["values"][name] = value
        if name == "target" and value is not None and "auto" in dict(p["todo"]):
            t = next((t for t in p["offer"].get("targets") or [] if t["id"] == value), {})
            if "auto_chance" not in t:  # this weapon fires no cone: the engine says so by giving no chance
                p["todo"] = [kv for kv in p["todo"] if kv[0] != "auto"]
        if self.ghost is not None:
            if p["todo"] or not p["offer"].get("preview"):
                self.ghost.destroy()
                self.ghost = None
        self.next_param()

    def _final(self) -> None:
        """All filled: the engine's preview (where the offer has one) before Confirm, or the action goes."""
        p = self.pending
        action = self._action(p["offer"], p["values"])
        p["final"] = action
        if not self._previews(p["offer"]):
            self.send()
            return
        self.app.hud.set_prompt("asking the engine...")
        self.app.link.request("game.preview", {"game": self.app.game, "side": self.app.viewing, "action": action},
                              self.app._cb(self._previewed), self._refused)

    def _action(self, offer: dict, values: dict) -> dict:
        """The action sent for an offer and the values filled in (``action_of``)."""
        return action_of(offer, values)

    def _previews(self, offer: dict) -> bool:
        """Whether the engine previews the offer's action before Confirm."""
        return bool(offer.get("preview"))

    def _previewed(self, result: dict) -> None:
        p = self.pending
        if p is None:
            return
        p["preview"] = result
        a = p["final"]
        names = names_of(self.app.view)
        if "exposure" in result:
            self.show_exposure(a.get("target"), result)
        if self.ghost is None and (result.get("corners") or result.get("in_blast")):  # the cone, the blast
            self.ghost = Ghost(self.app.scene, None, {"from": result.get("apex")}, self.pieces)
            self.ghost.follow(*(result.get("aim") or result.get("at") or a.get("at") or [0, 0])[:2])
            self.ghost.tell(result)
        body, big = preview_text(result, names)
        clause = f"\n[{result.get('clause')}]" if result.get("clause") else ""
        self._confirm_menu(a.get("label") or p["offer"].get("label") or a["type"], body + clause, result, big)

    def _confirm_menu(self, title: str, text: str, result: dict, big) -> None:
        """The engine's preview with Confirm (enabled where it allows the action) and Cancel."""
        ok = result.get("legal", True)
        from game.client.actions_menu import Row

        self.app.hud.show_menu(title, text, [Row("action", "Confirm (Enter)", callback=self.send, enabled=ok),
                                             Row("action", "Cancel (Esc)", callback=self.cancel)], big=big)
        self.app.hud.set_prompt(("From the engine.   Enter: confirm" if ok else "The engine refuses it.")
                                + "   Esc: cancel")

    def _refused(self, fault) -> None:
        if self.pending is None:
            return
        self.app.hud.set_prompt(f"The engine says: {getattr(fault, 'reason', fault)}")
        self.app.hud.show_panel("Not allowed", f"{getattr(fault, 'reason', fault)} [{getattr(fault, 'clause', '')}]",
                                [("Cancel", self.cancel, True)])

    def show_exposure(self, target, result: dict) -> None:
        """The places the firer's eye reaches on the target, lit on him, and the line of the shot."""
        self.pieces.mark_places(result.get("places") or [])
        firer = (self.pending or {}).get("offer", {}).get("figure")
        eye, tpos = self.pieces.eye(firer or ""), self.pieces.position(str(target or ""))
        if eye is not None and tpos is not None:
            seen = [pl["point"] for pl in result.get("places") or [] if pl.get("seen") and pl.get("point")]
            end = seen[0] if seen else (tpos.x, tpos.y, 1.2)
            z = tpos.z + float(end[2]) if len(end) > 2 else tpos.z + 1.2
            line = geom.lines("aim", [[eye, (end[0], end[1], z)]], (1.0, 0.35, 0.25, 0.8), 2.0)
            line.reparent_to(self.app.scene.overlays)
            self.nodes.append(line)

    def send(self) -> None:
        p = self.pending
        if p is None or "final" not in p:
            return
        action = p["final"]
        self.cancel(keep_prompt=True)
        self.app.send_action(action)

    def cancel(self, keep_prompt: bool = False) -> bool:
        had = self.pending is not None
        self.pending = None
        self._clear_nodes()
        self.pieces.clear_marks()
        if self.ghost is not None:
            self.ghost.destroy()
            self.ghost = None
        if had and not keep_prompt:
            self.app.hud.set_prompt("")
            self.refresh_panel()
        return had

    def confirm(self) -> bool:
        p = self.pending
        if p is None:
            return False
        if "preview" in p and p["preview"].get("legal", True):
            self.send()
        elif p["todo"] and p["todo"][0][0] == "pose":
            self.fill(None)
        return True

    # -- the mouse -----------------------------------------------------------------------------------
    def click(self, ray) -> None:
        app = self.app
        hit = self.pieces.pick(*ray)
        p = self.pending
        if p is not None and p["todo"]:
            name, spec = p["todo"][0]
            kind = spec.get("kind")
            if kind == "point":
                ground = app.ground_point(ray)
                if ground is not None:
                    x, y = self.ghost.follow(*ground) if self.ghost is not None else ground
                    self.fill([round(x, 2), round(y, 2)])
            elif kind == "choice" and hit is not None and hit[1] in (spec.get("choices") or []):
                self.fill(hit[1])
            return
        if p is not None:
            return
        app.select_element(hit[1] if hit is not None else None)

    def hover(self) -> None:
        app = self.app
        ray = app.mouse_ray()
        if ray is None:
            return
        hit = self.pieces.pick(*ray)
        self.pieces.hover(hit[1] if hit else None)
        p = self.pending
        if p is None or not p["todo"]:
            return
        name, spec = p["todo"][0]
        if spec.get("kind") == "point" and self.ghost is not None:
            ground = app.ground_point(ray)
            if ground is not None:
                self.hover_at(*ground)
        elif spec.get("kind") == "choice" and name == "target" and hit is not None and hit[1] in (spec.get("choices") or []):
            self.aim_at(hit[1])

    def hover_at(self, x: float, y: float) -> None:
        """The ghost follows the mouse; the engine is asked what the move there would cost and who would see."""
        p = self.pending
        if p is None or self.ghost is None:
            return
        at = self.ghost.follow(x, y)
        if p["offer"].get("preview"):
            self.want = at
            self._ask_ghost()

    def _ask_ghost(self) -> None:
        """The engine's preview of the point under the mouse (a move's inches, an aim allowed), one at a time."""
        p = self.pending
        if self.asking or p is None or self.want is None or self.ghost is None or not self._previews(p["offer"]):
            return
        at, self.want = self.want, None
        name = p["todo"][0][0] if p["todo"] else "to"
        action = self._action(p["offer"], {**p["values"], name: [round(at[0], 2), round(at[1], 2)]})
        self.asking = True

        def done(result):
            self.asking = False
            if self.ghost is not None and self.pending is p:
                self.ghost.tell(result)
                text = self._preview_words(result)
                self.app.hud.set_prompt(text.replace("\n", "  |  ") + "   click: here   Esc: cancel")
                self._ask_ghost()

        def failed(fault):
            self.asking = False
            if self.ghost is not None and self.pending is p:
                self.ghost.tell({"legal": False})
                self.app.hud.set_prompt(f"Not there: {getattr(fault, 'reason', fault)}   Esc: cancel")

        self.app.link.request("game.preview", {"game": self.app.game, "side": self.app.viewing, "action": action},
                              self.app._cb(done), failed)

    def _preview_words(self, result: dict) -> str:
        """A preview in this table's words (the ghost's prompt)."""
        return preview_text(result, names_of(self.app.view))[0]

    def aim_at(self, target: str) -> None:
        """Aiming at ``target``: the engine's exposure shown on him before the shot is chosen."""
        p = self.pending
        if p is None or p.get("aimed") == target or self.asking:
            return
        p["aimed"] = target
        self.asking = True
        action = action_of(p["offer"], {**p["values"], "target": target})

        def done(result):
            self.asking = False
            if self.pending is p and p.get("aimed") == target:
                self.pieces.mark_places(result.get("places") or [])
                name = names_of(self.app.view).get(target, target)
                self.app.hud.set_prompt(f"{name}: {exposure_text(result)}; to hit {result.get('chance', '?')}%"
                                        "   click him to aim   Esc: cancel")

        def failed(fault):
            self.asking = False

        self.app.link.request("game.preview", {"game": self.app.game, "side": self.app.viewing, "action": action},
                              self.app._cb(done), failed)

    # -- drawing -------------------------------------------------------------------------------------
    def _ring(self, fids: list[str]) -> None:
        for fid in fids:
            pos = self.pieces.position(fid)
            if pos is None:
                continue
            node = geom.lines("choice", [geom.circle_points(pos.x, pos.y, 0.7, pos.z + 0.12, 40)],
                              (1.0, 0.35, 0.25, 1.0), 4.0)
            node.reparent_to(self.app.scene.overlays)
            self.nodes.append(node)

    def _clear_nodes(self) -> None:
        for n in self.nodes:
            n.remove_node()
        self.nodes = []
