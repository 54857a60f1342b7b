"""A small in-process stand-in for the engine process, speaking the same methods (tests only).

It knows no rules: moves go wherever they are asked (within the action's ``max``), every element has
the same few actions, and the AI side simply passes. Faults can be scripted: ``die_after`` calls, the
process "dies" (every later call raises ``ConnectionError``); ``error_on`` a method, it answers a
JSON-RPC error.
"""

from __future__ import annotations

import copy
import math


class FakeEngineError(Exception):
    def __init__(self, code: int, message: str, data=None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


def sample_scenario(width: float = 72.0, height: float = 48.0) -> dict:
    return {
        "id": "fake_patrol", "title": "Patrol Clash at Ap Bau (test table)",
        "briefing": "A US rifle platoon sweeps toward a hamlet where VC cells wait in ambush.",
        "table": {"width": width, "height": height}, "weather": "clear", "time_of_day": "day",
        "features": [
            {"id": "jungle1", "type": "dense", "polygon": [[0, 30], [20, 28], [26, 40], [18, 48], [0, 48]]},
            {"id": "jungle2", "type": "secondary", "polygon": [[48, 0], [72, 0], [72, 16], [58, 18], [50, 10]]},
            {"id": "scrub1", "type": "light", "polygon": [[30, 20], [38, 18], [40, 26], [32, 28]]},
            {"id": "paddy1", "type": "paddy", "polygon": [[26, 2], [44, 2], [44, 14], [26, 14]]},
            {"id": "trail1", "type": "trail", "path": [[0, 10], [20, 16], [40, 30], [72, 34]], "width": 1.5},
            {"id": "stream1", "type": "stream", "path": [[60, 48], [56, 30], [66, 20], [72, 19]], "width": 2},
            {"id": "hill1", "type": "hill", "polygon": [[4, 2], [16, 0], [20, 8], [8, 12]], "height": 2.0},
            {"id": "hootch1", "type": "hootch", "point": [46, 38], "size": [3, 2], "rotation": 15},
            {"id": "hootch2", "type": "hootch", "point": [52, 42], "size": [3, 2], "rotation": -10},
        ],
    }


def sample_view(side: str = "allied") -> dict:
    stands, elements = [], []

    def element(eid, name, eside, kind, specs, **status):
        ids = []
        for i, (stype, model, size, x, y, facing) in enumerate(specs):
            sid = f"{eid}.{i + 1}"
            w, d = (1.97, 1.26) if size == "medium" else (1.26, 0.98)
            stands.append({"id": sid, "element": eid, "side": eside, "type": stype, "name": stype,
                           "model": model, "base": {"width": w, "depth": d}, "x": x, "y": y,
                           "facing": facing, "hits": 0, "wounded": False})
            ids.append(sid)
        elements.append({"id": eid, "side": eside, "name": name, "kind": kind, "stands": ids,
                         "in_command": True, "pinned": False, "winded": False, "activations": 0,
                         "moved": False, "hold": False, **status})

    element("a_hq", "Platoon HQ", "allied", "hq", [
        ("us_platoon_commander", "us_officer", "small", 12, 8, 60),
        ("us_rto", "us_rto", "small", 13.6, 8.2, 60),
        ("us_medic", "us_medic", "small", 12.4, 6.6, 60)])
    element("a_sq1", "1st Squad", "allied", "squad", [
        ("us_squad_leader", "us_squad_leader", "small", 20, 12, 45),
        ("us_rifle_team", "us_rifle_team", "medium", 22.5, 12.5, 45),
        ("us_rifle_team", "us_rifle_team", "medium", 19.5, 9.5, 45)])
    element("a_sq2", "2nd Squad", "allied", "squad", [
        ("us_squad_leader", "us_squad_leader", "small", 8, 16, 30),
        ("us_rifle_team", "us_rifle_team", "medium", 10.5, 17.5, 30),
        ("us_mg_team", "us_mg_team", "medium", 6.5, 18.5, 30)], pinned=True)
    element("i_c1", "VC Cell 1", "insurgent", "cell", [
        ("vc_rifle_cell", "vc_rifle_cell", "medium", 44, 30, 220),
        ("vc_rpd_team", "vc_rpd_team", "medium", 47, 31, 220)], winded=True)
    element("i_c2", "NVA Section", "insurgent", "cell", [
        ("nva_rifle_team", "nva_rifle_team", "medium", 36, 40, 250),
        ("nva_officer", "nva_officer", "small", 38.5, 41, 250)])
    stands[4]["wounded"] = True
    return {
        "game": "g1", "side": side, "turn": 1, "turns": 8, "phase": "engagement", "to_act": "allied",
        "hash": "0", "over": False, "result": None, "scenario": sample_scenario(),
        "sides": {"allied": {"cp": 4, "vp": 0}, "insurgent": {"ambush_tokens": 2, "vp": 0}},
        "elements": elements, "stands": stands,
        "blinds": [{"id": "b1", "side": "insurgent", "x": 60, "y": 26},
                   {"id": "b2", "side": "insurgent", "x": 28, "y": 36}],
        "markers": [{"id": "m1", "kind": "casualty", "x": 24, "y": 8},
                    {"id": "m2", "kind": "smoke", "x": 32, "y": 22, "radius": 1.2},
                    {"id": "m3", "kind": "target", "x": 50, "y": 34, "delay": 2}],
    }


class FakeEngine:
    """Answers ``call(method, **params)`` the way the engine process does, from a hand-made state."""

    def __init__(self, die_after: int | None = None, error_on: set[str] | None = None):
        self.calls: list[tuple[str, dict]] = []
        self.die_after = die_after
        self.error_on = error_on or set()
        self.dead = False
        self.state = sample_view()
        self.seq = 0
        self.closed = False

    def call(self, method: str, **params):
        self.calls.append((method, params))
        if self.dead or (self.die_after is not None and len(self.calls) > self.die_after):
            self.dead = True
            raise ConnectionError("engine process exited (code -9)")
        if method in self.error_on:
            raise FakeEngineError(2, f"internal error in {method}", {"reason": "scripted fault"})
        handler = getattr(self, "m_" + method.replace(".", "_"), None)
        if handler is None:
            raise FakeEngineError(-32601, "Method not found", {"method": method})
        return handler(**params)

    def close(self):
        self.closed = True

    # -- methods ---------------------------------------------------------------------------------
    def m_engine_hello(self):
        s = sample_scenario()
        return {"name": "fake", "version": "0", "protocol": 1, "rulesets": ["dinkydau"],
                "scenarios": [{k: s[k] for k in ("id", "title", "briefing", "table")}]}

    def _view(self, side):
        v = copy.deepcopy(self.state)
        v["side"] = side
        return v

    def m_game_new(self, scenario, seed=0, players=None, **_):
        self.state = sample_view()
        self.players = players or {}
        return {"game": "g1", "view": self._view("allied"), "events": [self._ev("turn", turn=1, text="Turn 1")]}

    def m_game_view(self, game, side):
        return self._view(side)

    def m_game_actions(self, game, side):
        if self.state["to_act"] != side:
            return {"actions": []}
        acts = [{"type": "pass", "cost": 0, "clause": "DD-2.6", "label": "Pass the impulse", "params": {}}]
        for e in self.state["elements"]:
            if e["side"] != side:
                continue
            acts.append({"type": "move", "element": e["id"], "mode": "patrol", "cost": 1, "clause": "DD-3.2",
                         "label": f"Patrol move {e['name']} up to 6\"",
                         "params": {"to": {"kind": "point", "max": 6.0}, "facing": {"kind": "angle", "optional": True}}})
            acts.append({"type": "hold", "element": e["id"], "cost": 1, "clause": "DD-2.9",
                         "label": f"{e['name']} holds (overwatch)", "params": {}})
        return {"actions": acts}

    def _ev(self, type_, **kw):
        self.seq += 1
        return {"seq": self.seq, "type": type_, **kw}

    def m_game_act(self, game, side, action):
        if action.get("type") == "move":
            eid = action["element"]
            to = action["to"]
            stands = [s for s in self.state["stands"] if s["element"] == eid]
            cx = sum(s["x"] for s in stands) / len(stands)
            cy = sum(s["y"] for s in stands) / len(stands)
            dist = math.hypot(to[0] - cx, to[1] - cy)
            if dist > 6.01:
                raise FakeEngineError(1, "too far", {"reason": f"{dist:.1f}\" is beyond 6\"", "clause": "DD-3.2"})
            moved = []
            facing = action.get("facing")
            for s in stands:
                frm = [s["x"], s["y"], s["facing"]]
                s["x"] += to[0] - cx
                s["y"] += to[1] - cy
                if facing is not None:
                    s["facing"] = facing
                moved.append({"id": s["id"], "from": frm, "to": [s["x"], s["y"], s["facing"]]})
            self.state["sides"]["allied"]["cp"] -= action.get("cost", 0)
            evs = [self._ev("move", element=eid, stands=moved, text=f"{eid} moves {dist:.1f}\"", clause="DD-3.2"),
                   self._ev("roll", purpose="spotting", side="insurgent", dice=[4, 2], target=5,
                            modifiers=[{"name": "in cover", "value": -1, "clause": "DD-4.3"}], result="fail",
                            clause="DD-4.12", text="Spotting roll 4, 2 vs 5: not spotted")]
            self.state["to_act"] = "insurgent"
            return {"events": evs, "view": self._view(side)}
        if action.get("type") == "pass":
            self.state["to_act"] = "insurgent"
            return {"events": [self._ev("pass", side=side, text="Allied pass", clause="DD-2.6")],
                    "view": self._view(side)}
        raise FakeEngineError(1, "illegal action", {"reason": "not available now", "clause": "DD-2.5"})

    def m_game_step(self, game):
        if self.state["to_act"] == "insurgent":
            self.state["to_act"] = "allied"
            return {"events": [self._ev("pass", side="insurgent", text="The insurgents wait.", clause="DD-2.6")],
                    "view": self._view("allied"), "waiting_for": "allied"}
        return {"events": [], "view": self._view("allied"), "waiting_for": self.state["to_act"]}

    def m_game_save(self, game):
        return {"save": {"format": 1, "state": copy.deepcopy(self.state)}}

    def m_game_load(self, save):
        self.state = copy.deepcopy(save["state"])
        return {"game": "g1", "view": self._view("allied")}

    def m_los_check(self, game, side, **params):
        a, b = params["from"], params["to"]
        pa = self._point(a)
        pb = self._point(b)
        d = math.hypot(pb[0] - pa[0], pb[1] - pa[1])
        return {"visible": d < 24, "fraction": 1.0 if d < 24 else 0.0, "distance": round(d, 2),
                "canopy_inches": {"dense": 1.5} if d > 10 else {}, "cutoff": 3.0, "limit": 24.0,
                "blocker": None if d < 24 else "range", "clause": "DD-4.1", "reason": "fake"}

    def _point(self, p):
        if isinstance(p, str):
            s = next(s for s in self.state["stands"] if s["id"] == p)
            return s["x"], s["y"]
        return p
