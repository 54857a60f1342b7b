"""One Brain-Cell's mortar smoke (OBC-39, G-42) and the wind that carries it: a mixin of ``game.ObcGame``.

* The wind: the scenario's ``wind_from``; where it gives none, the game rolls the scatter die's direction at
  setup (a d8 read as the eight compass points, G-42) and it holds for the game.
* A smoke round: a mortar (not a blooper: "mortar smoke rounds") may fire smoke where it may fire a bomb; it
  scatters as a bomb does (OBC-27) and where it lands its 1" square's smoke flows 4" downwind (OBC-39): a
  cloud 1" wide from the landing point to 4" downwind. Engine reading of "last one turn": it stands until
  its mortar's squad next moves (a turn later, every squad moving once a turn), or at the latest to the end
  of the next turn.
* Smoke blocks line of sight through it as the Dinky Dau world's smoke does (``game.world.los`` Conditions:
  circles in plan, DD-5.34): the cloud is the circles of its 1" width every half inch along the drift. The
  clouds are public: both sides' views list them and both read the event.

What it leaves out: the bomb's aim and scatter (``acts``), the ray casts (``sight``, ``game.world.los``).
"""

from __future__ import annotations

import math

from game.world.los import Conditions

POINTS = ("east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east")
"""The scatter die's eight directions as compass points, its d8 in this order (G-42)."""


class Smoke:
    def _set_wind(self) -> None:
        """OBC-39, G-42: the scenario's wind, or the scatter die's direction rolled at setup."""
        from game.rulesets.obc.scenario import COMPASS

        sc = self.scenario
        if sc.wind_from is not None:
            frm, how = sc.wind_from, "the scenario's"
        else:
            d8 = self.dice.die(len(POINTS))
            frm, how = POINTS[d8 - 1], "rolled"
            self.emit({"type": "roll", "purpose": "wind", "dice": "d8", "rolls": [d8], "modifiers": [],
                       "result": d8, "clause": "OBC-39; G-42", "text": f"the wind: from the {frm} (scatter die {d8})"})
        self.state.wind = (COMPASS[frm] + 180.0) % 360.0
        self.emit({"type": "wind", "from": frm, "toward": self.state.wind, "clause": "OBC-39; G-42",
                   "text": f"the wind blows from the {frm} ({how})"})

    def may_smoke(self, m) -> bool:
        return self.t.weapons[m.weapon].kind == "bomb" and m.weapon.startswith("mortar")

    def lay_smoke(self, at: tuple[float, float], m) -> None:
        """OBC-39: the round's cloud, from where it landed to 4" downwind."""
        s, b = self.state, self.t.bombs
        ang = math.radians(s.wind)
        end = (round(at[0] + b.smoke_drift * math.cos(ang), 3), round(at[1] + b.smoke_drift * math.sin(ang), 3))
        n = 1 + sum(1 for c in s.smoke if c["turn"] == s.turn)  # named by the turn, never by the hidden firer
        cloud = {"id": f"smoke_{s.turn}_{n}", "from": [round(at[0], 3), round(at[1], 3)], "to": list(end),
                 "width": b.square, "squad": m.squad, "turn": s.turn}
        s.smoke.append(cloud)
        self.emit({"type": "smoke", **{k: cloud[k] for k in ("id", "from", "to", "width")}, "clause": "OBC-39",
                   "text": f"smoke from ({at[0]:.1f}, {at[1]:.1f}) drifts {b.smoke_drift:g}\" downwind"})

    def clear_smoke(self, squad: str | None = None) -> None:
        """OBC-39: a cloud clears when its mortar's squad next moves, or at the end of the turn after it."""
        s = self.state
        gone = [c for c in s.smoke if (squad is not None and c["squad"] == squad and c["turn"] < s.turn)
                or (squad is None and c["turn"] < s.turn - 1)]
        for c in gone:
            s.smoke.remove(c)
            self.emit({"type": "smoke_clears", "id": c["id"], "clause": "OBC-39", "text": "the smoke clears"})

    def smoke_circles(self) -> tuple[tuple[float, float, float], ...]:
        """The clouds as the world's smoke circles (x, y, radius): every half inch along each drift."""
        out = []
        for c in self.state.smoke:
            (x0, y0), (x1, y1) = c["from"], c["to"]
            n = max(1, math.ceil(math.dist((x0, y0), (x1, y1)) / (c["width"] / 2)))
            out += [(round(x0 + (x1 - x0) * k / n, 3), round(y0 + (y1 - y0) * k / n, 3), c["width"] / 2)
                    for k in range(n + 1)]
        return tuple(out)

    def conditions(self) -> Conditions:
        """What limits sight beyond the table now: the smoke (cached by the clouds standing)."""
        circles = self.smoke_circles()
        cached = self.__dict__.get("_conditions")
        if cached is None or cached[0] != circles:
            cached = (circles, Conditions(smoke=circles))
            self.__dict__["_conditions"] = cached
        return cached[1]
