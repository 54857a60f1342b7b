"""Small tactical helpers shared by the Jungle Ghost and the Allied autopilot: all from a SideView.

Distances here are centre to centre (a planning estimate); the engine measures base edge to base edge
when it checks the action.
"""

from __future__ import annotations

import math

from game.ai.facade import SideView

COVER_VALUE = {"open": 0.0, "water": -1.0, "light": 1.0, "medium": 2.0, "heavy": 3.0}


def dist(a, b) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def strip(action: dict) -> dict:
    """An offered action as it is sent: without its parameter description and label."""
    return {k: v for k, v in action.items() if k not in ("params", "label")}


class Picture:
    """The side's view, indexed: own elements and stands, known enemy stands and markers."""

    def __init__(self, f: SideView):
        v = f.view
        self.f = f
        self.side = f.side
        self.stands = {s["id"]: s for s in v["stands"]}
        self.elements = {e["id"]: e for e in v["elements"]}
        self.mine = {e["id"]: e for e in v["elements"] if e["side"] == f.side and e["stands"]}
        self.foes = [s for s in v["stands"] if s["side"] != f.side]
        self.markers = [b for b in v["blinds"] if b["side"] != f.side]
        self.w = v["scenario"]["table"]["width"]
        self.h = v["scenario"]["table"]["height"]
        self.by_element: dict[str, list[dict]] = {}
        for a in f.actions:
            if "element" in a:
                self.by_element.setdefault(a["element"], []).append(a)

    def own_stands(self, eid: str) -> list[dict]:
        return [self.stands[s] for s in self.mine[eid]["stands"] if s in self.stands]

    def centre(self, eid: str) -> tuple[float, float]:
        st = self.own_stands(eid) or [self.stands[s] for s in self.elements[eid]["stands"]]
        return (sum(s["x"] for s in st) / len(st), sum(s["y"] for s in st) / len(st))

    def foe_points(self) -> list[tuple[float, float]]:
        return [(s["x"], s["y"]) for s in self.foes]

    def known(self) -> list[tuple[float, float]]:
        """Everything of the enemy this side knows of: stands and markers."""
        return self.foe_points() + [(b["x"], b["y"]) for b in self.markers]

    def nearest_foe(self, p, include_markers: bool = False):
        pts = self.known() if include_markers else self.foe_points()
        if not pts:
            return None, math.inf
        q = min(pts, key=lambda t: (dist(p, t), t))
        return q, dist(p, q)

    def offer(self, eid: str, kind: str, **match) -> dict | None:
        for a in self.by_element.get(eid, []):
            if a["type"] == kind and not a.get("emergency") and all(a.get(k) == v for k, v in match.items()):
                return a
        return None

    def blind_move(self, blind_id: str, mode: str = "patrol") -> dict | None:
        """The offered move of one of our Blind markers (DD-4.7), if any."""
        return next((a for a in self.f.actions if a["type"] == "blind_move" and a.get("blind") == blind_id
                     and a.get("mode") == mode), None)

    def fp(self, eid: str) -> int:
        total = 0
        for s in self.own_stands(eid) if eid in self.mine else [self.stands[x] for x in self.elements[eid]["stands"]]:
            t = self.f.stand_type(s["type"])
            total += math.ceil(t["fp"] / 2) if s.get("hits") and t["hits"] > 1 else t["fp"]
        return total

    def cover_at(self, x: float, y: float) -> float:
        return COVER_VALUE.get(self.f.terrain(x, y)["cover"], 0.0)


def ring_points(frm, reach: float, w: float, h: float, n: int = 16, fractions=(1.0, 0.66, 0.33)):
    """Candidate destinations for an element centre: n directions at a few fractions of the reach."""
    out = []
    for fr in fractions:
        for k in range(n):
            ang = 2 * math.pi * k / n
            x = frm[0] + reach * fr * math.cos(ang)
            y = frm[1] + reach * fr * math.sin(ang)
            if 1.5 <= x <= w - 1.5 and 1.5 <= y <= h - 1.5:
                out.append((round(x, 2), round(y, 2)))
    return out


def move_action(offer: dict, to, facing: float | None = None) -> dict:
    a = strip(offer)
    a["to"] = [round(to[0], 2), round(to[1], 2)]
    if facing is not None:
        a["facing"] = round(facing % 360, 1)
    return a


def bearing(a, b) -> float:
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360


def expected(res: dict, key: str) -> float:
    """The mean of a distribution {"k": p} from an odds preview."""
    return sum(int(k) * p for k, p in (res.get(key) or {}).items())


def p_pin(res: dict) -> float:
    return max((e.get("p_pinned", 0.0) for e in (res.get("elements") or {}).values()), default=0.0)
