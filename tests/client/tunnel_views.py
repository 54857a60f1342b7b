"""A fake table with a tunnel network, a village and traps, as the engine's views give them (tests only):
the Insurgent sees the whole network, the Allied side only the sections it found (TUN-24)."""

from __future__ import annotations

import copy

from .fake_engine import FakeEngine, sample_view

# (id, section_kind, x, y, depth, extra)
SECTIONS = [
    ("e1", "entrance", 40.0, 30.0, 1.4, {"concealed": False}),
    ("t1", "tunnel", 44.0, 28.0, 2.0, {}),
    ("j1", "junction", 48.0, 26.0, 2.2, {}),
    ("d1", "dugout", 52.0, 30.0, 2.6, {"capacity": 4, "use": "hospital"}),
    ("d2", "dugout", 49.0, 21.0, 2.6, {"capacity": 6, "use": "storeroom", "trapped": True}),
    ("s1", "spider_hole", 55.0, 24.0, 1.0, {"concealed": True}),
    ("e2", "entrance", 46.0, 34.0, 1.4, {"concealed": True}),
]
LINKS = [("e1", "t1"), ("t1", "j1"), ("j1", "d1"), ("j1", "d2"), ("j1", "s1"), ("d1", "e2")]
ALLIED_KNOWS = ("e1", "t1", "j1")


def section_markers(side: str, states: dict | None = None) -> list[dict]:
    knows = {s[0] for s in SECTIONS} if side != "allied" else set(ALLIED_KNOWS)
    adj: dict[str, list[str]] = {}
    for a, b in LINKS:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    out = []
    for sid, kind, x, y, depth, extra in SECTIONS:
        if sid not in knows:
            continue
        m = {"id": sid, "kind": "tunnel_section", "section_kind": kind, "x": x, "y": y, "depth": depth,
             "links": sorted(o for o in adj.get(sid, []) if o in knows), "state": (states or {}).get(sid, "open"),
             "concealed": bool(extra.get("concealed", False)), "surface": kind in ("entrance", "spider_hole")}
        for k in ("capacity", "use"):
            if k in extra:
                m[k] = extra[k]
        if side != "allied":
            m["trapped"] = bool(extra.get("trapped", False))
        out.append(m)
    return out


def village_markers(side: str) -> list[dict]:
    out = [{"id": "c1", "kind": "civilian", "x": 47.5, "y": 36.5, "state": "alive", "treated": False},
           {"id": "c2", "kind": "civilian", "x": 50.5, "y": 40.5, "state": "hurt", "treated": True},
           {"id": "c3", "kind": "civilian", "x": 44.0, "y": 39.0, "state": "dead", "treated": False},
           {"id": "k1", "kind": "cache", "contents": "weapons", "x": 53.5, "y": 43.5, "state": "found"},
           {"id": "bt1", "kind": "booby_trap", "x": 38.0, "y": 33.0, "state": "found"},
           {"id": "bt2", "kind": "booby_trap", "x": 36.0, "y": 27.0, "state": "sprung", "result": "punji"}]
    if side != "allied":
        out += [{"id": "k2", "kind": "cache", "contents": "rice", "x": 45.0, "y": 41.5, "state": "hidden"},
                {"id": "bt3", "kind": "booby_trap", "x": 42.0, "y": 36.0, "state": "hidden"}]
    return out


def tunnel_view(side: str = "allied", rat_in: str | None = "t1", garrison_in: str | None = "d1",
                states: dict | None = None) -> dict:
    """The fake patrol's view with the network; ``a_sq1`` (its first two stands) as the rats in ``rat_in``,
    ``i_c1`` as the garrison in ``garrison_in`` (the Allied view shows the garrison only where it knows the
    section: TUN-12)."""
    view = copy.deepcopy(sample_view(side))
    view["markers"] = [m for m in view["markers"] if m["kind"] != "target"]
    view["markers"] += section_markers(side, states) + village_markers(side)
    for e in view["elements"]:
        if e["id"] == "a_sq1" and rat_in:
            e["underground"] = rat_in
        if e["id"] == "i_c1" and garrison_in and (side != "allied" or garrison_in in ALLIED_KNOWS):
            e["underground"] = garrison_in
    return view


class TunnelEngine(FakeEngine):
    """The fake engine, its views carrying the network (Allied: the found sections only)."""

    side_views = True

    def _view(self, side):
        v = tunnel_view(side)
        v["to_act"] = self.state["to_act"]
        return v
