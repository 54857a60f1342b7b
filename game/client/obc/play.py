"""Playing One Brain-Cell on the table: the squad whose move it is, its men's and choppers' offers, and each
offer's parameters filled in by their ``kind``, asking the engine at every step.

The composer is Tet '68's (``game.client.tet.play.TetPlay``: a ``point`` with a ghost that follows the mouse
and the engine's preview of it, a ``choice`` with buttons or a click on a ringed man, a ``flag`` with Yes /
No); here an offer names its ``man`` or ``vehicle`` rather than a figure, a squad is chosen first (the
``activate`` offers, with ``done`` to end its move), and a chopper's ``height`` is chosen from buttons, one
for each height the engine offers (set down, so many inches up, or as it is).
Every value, cost and chance comes from the engine; nothing here decides a rule.
"""

from __future__ import annotations

from game.client import geom
from game.client.hud import SIDE_INK
from game.client.obc.words import names_of, preview_text, target_text
from game.client.tet.play import TetPlay

SENT = ("type", "man", "vehicle", "squad", "blind", "smoke", "target")
"""What of an offer goes back with the action (a carry's ``target``: the disabled man it picks up, OBC-42); the
rest describes it (its params are filled in, a shot's target among them)."""


def height_words(h: float, now: float | None) -> str:
    """A height button's words: set down, as it is, or so many inches up."""
    if now is not None and abs(h - now) < 1e-9:
        return f'as it is ({h:g}") (Enter)'
    return 'set down (0")' if h == 0 else f'{h:g}" up'


def who(offer: dict) -> str | None:
    return offer.get("man") or offer.get("vehicle")


def action_of(offer: dict, values: dict) -> dict:
    return {**{k: offer[k] for k in SENT if k in offer}, **values}


class ObcPlay(TetPlay):
    """The composer of one OBC table (see the module docstring)."""

    def offers_of(self, fid: str | None) -> list[dict]:
        return [a for a in self.app.actions if fid is not None and who(a) == fid]

    def side_offers(self) -> list[dict]:
        return [a for a in self.app.actions if not who(a)]

    def refresh_panel(self) -> None:
        app = self.app
        if self.pending is not None or app.hud is None:
            return
        names = names_of(app.view)
        side_rows = [(a.get("label") or a["type"], lambda a=a: self.choose(a), True) for a in self.side_offers()]
        sel = self.pieces.selected
        ink = SIDE_INK.get(app.viewing, (1, 1, 1, 1))
        if sel is None:
            acting = sorted({who(a) for a in app.actions if who(a)})
            rows = [(names.get(f, f), lambda f=f: self.select(f), True) for f in acting]
            if rows or side_rows:
                title = "Choose a squad to move" if not acting else "Your squad's men and choppers"
                app.hud.show_panel(title, "click a man on the table, or here:" if acting else "", rows + side_rows,
                                   title_color=ink)
            else:
                app.hud.hide_panel()
            return
        m = self.pieces.men.get(sel) or self.pieces.vehicles.get(sel) or {}
        body = [str(m.get("weapon") or m.get("kind") or "").upper(), str(m.get("posture") or "")]
        if m.get("status") not in (None, "ok"):
            body.append(str(m["status"]))
        if "height" in m:
            body.append(f'{m["height"]:g}" up')
        offers = self.offers_of(sel)
        if not offers:
            body.append("not his move" if m.get("side") == app.viewing else "enemy")
        rows = [(a.get("label") or a["type"], lambda a=a: self.choose(a), True) for a in offers]
        app.hud.show_panel(m.get("name", sel), ", ".join(b for b in body if b), rows + side_rows,
                           title_color=SIDE_INK.get(m.get("side"), (1, 1, 1, 1)))

    def choose(self, offer: dict) -> None:
        """The composer's offer: its man or vehicle as the ``figure``, a point's reach as its ``max``, the
        targets kept apart (their rows are this table's words)."""
        params = {k: ({**v, "max": offer.get("reach")} if v.get("kind") == "point" and offer.get("reach") else v)
                  for k, v in (offer.get("params") or {}).items()}
        shown = {k: v for k, v in offer.items() if k != "targets"}
        super().choose({**shown, "params": params, "shots": offer.get("targets") or [],
                        **({"figure": who(offer)} if who(offer) else {})})

    def next_param(self) -> None:
        p = self.pending
        if p is not None and p["todo"] and p["todo"][0][0] == "target" and p["offer"].get("shots"):
            self._clear_nodes()
            label = p["offer"].get("label") or p["offer"]["type"]
            names = names_of(self.app.view)
            shots = p["offer"]["shots"]
            self._ring([t["id"] for t in shots if t["id"] in self.pieces.figures])
            rows = [(target_text(t, names), lambda c=t["id"]: self.fill(c), True) for t in shots]
            self.app.hud.show_panel(label, "choose the target (or click the ringed man)",
                                    rows + [("Cancel", self.cancel, True)])
            self.app.hud.set_prompt(f"{label}: choose the target   Esc: cancel")
            return
        if p is not None and p["todo"] and p["todo"][0][0] == "height":
            self._clear_nodes()
            name, spec = p["todo"][0]
            label = p["offer"].get("label") or p["offer"]["type"]
            rows = [(height_words(h, spec.get("default")), lambda h=h: self.fill(h), True)
                    for h in spec.get("choices") or []]
            self.app.hud.show_panel(label, f"the {name}", rows + [("Cancel", self.cancel, True)])
            self.app.hud.set_prompt(f"{label}: choose the {name}   Esc: cancel")
            return
        super().next_param()

    def _final(self) -> None:
        """An offer that says where the man will go (a retreat out of command, OBC-17) shows that way and waits
        for Confirm; the others as the composer sends them."""
        p = self.pending
        path = p["offer"].get("path") if p is not None else None
        if not path:
            super()._final()
            return
        p["final"] = self._action(p["offer"], p["values"])
        self._draw_path(path)
        inches = sum(((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5 for a, b in zip(path, path[1:], strict=False))
        why = ", ".join(str(d.get("name")) for d in p["offer"].get("deductions") or [] if d.get("name"))
        self._confirm_menu(p["offer"].get("label") or p["offer"]["type"],
                           f'{inches:.1f}" toward the table edge' + (f" ({why})" if why else "")
                           + f'\n[{p["offer"].get("clause", "")}]', {"legal": True}, None)

    def _draw_path(self, path: list) -> None:
        """The way an offer says a man will go (a retreat out of command, OBC-17: to where it ends, toward the
        table edge), drawn on the ground while the player confirms it."""
        height_at = self.app.scene.table.height_at
        pts = [(float(x), float(y), height_at(float(x), float(y)) + 0.15) for x, y in path]
        line = geom.lines("way", [pts], (1.0, 0.82, 0.35, 0.9), 3.0)
        line.reparent_to(self.app.scene.overlays)
        end = pts[-1]
        ring = geom.lines("way-end", [geom.circle_points(end[0], end[1], 0.5, end[2], 32)], (1.0, 0.82, 0.35, 0.9),
                          3.0)
        ring.reparent_to(self.app.scene.overlays)
        self.nodes += [line, ring]

    def confirm(self) -> bool:
        p = self.pending
        if p is not None and p["todo"] and p["todo"][0][0] == "height":
            spec = p["todo"][0][1]
            if spec.get("default") in (spec.get("choices") or []):
                self.fill(spec["default"])
                return True
        return super().confirm()

    # the action sent names the man or the vehicle (the composer's ``figure`` is the table's own)
    def _action(self, offer: dict, values: dict) -> dict:
        return action_of(offer, values)

    def _previews(self, offer: dict) -> bool:
        return bool(offer.get("preview")) and not offer.get("blind")  # the engine previews no blind fire

    def _previewed(self, result: dict) -> None:
        p = self.pending
        if p is None:
            return
        p["preview"] = result
        a = p["final"]
        body, big = preview_text(result, names_of(self.app.view))
        clause = f"\n[{result.get('clause')}]" if result.get("clause") else f"\n[{p['offer'].get('clause', '')}]"
        self._confirm_menu(p["offer"].get("label") or a["type"], body + clause, result, big if big[0] else None)

    def _preview_words(self, result: dict) -> str:
        return preview_text(result, names_of(self.app.view))[0]

    def aim_at(self, target: str) -> None:
        """Hovering a target: what the offer says of the shot at him (the engine's range, column and need)."""
        p = self.pending
        t = next((t for t in (p or {}).get("offer", {}).get("shots") or [] if t["id"] == target), None)
        if t is not None:
            self.app.hud.set_prompt(target_text(t, names_of(self.app.view)) + "   click him to aim   Esc: cancel")
