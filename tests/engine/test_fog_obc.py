"""One Brain-Cell's fog of war is a security boundary (DESIGN §6): the leak test, for the third ruleset.

Random games of hot_lz (as shipped, and with the platoon already on the ground before the trenches, where
the rifles, the MGs and the grenades reach) are played through the engine protocol with ``referee: true``,
so the test knows the truth. What a side may know is worked out here, independently of the game: the enemy
men and vehicles its men's eyes reach (the world's ray casts from the referee view's places and postures,
``tests.obc.test_engine.seen_by``), the men who fired or fought hand to hand this turn (read from the
referee's events), and the men riding in a vehicle it sees. Every message a side receives (its views, its
action lists and previews, the results of its acts and of the computer's steps, the events of the other
side's acts, ``los.check``, refusals) is scanned for any other enemy man's or vehicle's id or exact place,
a squad off the table on call (OBC-49) among them; and, for every enemy man, for his record: his squad,
wounds, pins, pending morale outcome (OBC-30, OBC-44). The same scan runs on what the computer player is
handed (``view`` and ``legal_actions``). Each side's event numbers run 1, 2, 3 with no gap; hidden and
made-up ids are refused in the same words.
"""

from __future__ import annotations

import collections
import copy
import math
import random
import tomllib
from typing import Any

from game.engine.client import InProcessEngine
from game.rules.scenario import SCENARIO_DIR
from game.rulesets.obc import sight
from game.rulesets.obc.scenario import build
from tests.engine import fog_rulesets as fog
from tests.engine.test_fog import fill, made_up
from tests.obc.test_engine import seen_by

SIDES = ("allied", "insurgent")
RAW = tomllib.loads((SCENARIO_DIR / "hot_lz.toml").read_text())
RECORD = ("squad", "wounds", "stunned", "panicked", "pending", "acted", "moved", "carrying", "locked")
"""An own man's record in the view that the enemy's never has (OBC-30, OBC-44, OBC-45)."""
LIKED = {"fire": 4.0, "grenade": 4.0, "move": 2.0, "carry": 2.0, "load": 2.0, "retreat": 2.0, "radio": 2.0,
         "debus": 3.0, "activate": 1.0, "hold": 0.5, "done": 0.3}


def scenario(close: bool) -> dict:
    raw = copy.deepcopy(RAW)
    raw["scenario"]["turns"] = 3
    if close:  # the platoon on the ground before the trenches, the choppers gone
        raw["scenario"]["id"] = "hot_lz_close"
        raw["squad"] = [q for q in raw["squad"] if q["id"] not in ("chalk_1", "chalk_2", "chalk_3")]
        for n, q in enumerate(q for q in raw["squad"] if q["side"] == "allied" and q.get("aboard")):
            q.pop("aboard")
            for k, m in enumerate(q["men"]):
                m["at"] = [12.0 + 8.0 * n + 0.9 * (k % 5), 18.0 + 1.2 * (k // 5)]
    return raw


def truth(call, gid: str, los) -> tuple[dict, dict]:
    """The referee's view, and for each side the enemy ids it may know of (module docstring)."""
    ref = call("game.view", game=gid, side="referee")
    events = call("game.events", game=gid, side="referee")["events"]
    turn = max((i for i, e in enumerate(events) if e["type"] == "turn"), default=0)
    acted = {e["firer"] for e in events[turn:] if e.get("firer")} | \
        {m for e in events[turn:] if e["type"] == "hth" for m in e["men"]}
    known = {}
    for side in SIDES:
        k = seen_by(ref, side, los) | {m["id"] for m in ref["men"] if m["side"] != side and m["id"] in acted}
        k |= {m["id"] for m in ref["men"] if m["side"] != side and m["aboard"] in k}  # riding in a seen vehicle
        known[side] = k
    return ref, known


def secrets(ref: dict, known: dict, side: str) -> dict:
    reserve = {q["id"] for q in ref["squads"] if q["reserve"]}
    gone = {v["id"] for v in ref["vehicles"] if v["status"] == "gone"}
    things = [m for m in ref["men"] if m["side"] != side and m["aboard"] not in gone and m["status"] != "gone"] + \
             [v for v in ref["vehicles"] if v["side"] != side and v["status"] != "gone"]
    hidden = [t for t in things if t["id"] not in known[side] and (t.get("on_table", True) or t["squad"] in reserve)]
    public = {(round(t["x"], 3), round(t["y"], 3)) for t in ref["men"] + ref["vehicles"] if t not in hidden}
    for f in ref["scenario"]["features"]:  # the table is public: a man standing at a hootch's centre is no leak
        for p in [f.get("point")] + list(f.get("path") or []) + list(f.get("polygon") or []):
            if p:
                public.add((round(p[0], 3), round(p[1], 3)))
    on_call = {q["id"] for q in ref["squads"] if q["side"] != side and q["reserve"]}  # off the table (OBC-49)
    return {"ids": {t["id"] for t in hidden} | on_call,
            "positions": {(round(t["x"], 3), round(t["y"], 3)) for t in hidden} - public,
            "enemy": {m["id"] for m in ref["men"] if m["side"] != side}}


def scan(msg: Any, side: str, secret: dict, where: str) -> None:
    """Fail on a hidden enemy's id or place, or on an enemy man's record, in a message sent to ``side``."""

    def record(x: dict, path: str) -> None:
        if x.get("id") in secret["enemy"] and "side" in x:
            assert not set(RECORD) & set(x), f"{where}: an enemy man's record at {path}: {x}"

    fog.scan(msg, secret, where, record)


def probe(call, gid: str, side: str, ref: dict, secret: dict, rng: random.Random) -> None:
    """A hidden enemy id and a made-up one in every id slot: refused alike, nothing hidden said (DESIGN §6)."""
    hidden_men = sorted(x for x in secret["ids"] if x in {m["id"] for m in ref["men"]})
    if not hidden_men:
        return
    hidden = rng.choice(hidden_men)
    fake = made_up(hidden, {m["id"] for m in ref["men"]} | {v["id"] for v in ref["vehicles"]})
    mine = [m for m in ref["men"] if m["side"] == side and m["status"] == "ok" and m["on_table"]]
    me = mine[0]["id"] if mine else "nobody"
    at = [mine[0]["x"], mine[0]["y"]] if mine else [1.0, 1.0]
    templates = [{"type": "move", "man": "\0", "to": at}, {"type": "fire", "man": me, "target": "\0"},
                 {"type": "grenade", "man": me, "into": "\0"}, {"type": "carry", "man": me, "target": "\0"},
                 {"type": "move", "vehicle": "\0", "to": at}, {"type": "retreat", "man": "\0"}]
    fog.refused_alike(call, gid, side, hidden, fake, templates, ("move", "fire"),
                      lambda got, where: scan(got, side, secret, where), me)


def concrete(offer: dict, view: dict, rng: random.Random) -> dict:
    """An action from an offer: a man's move within his reach, a bomb or blind fire often on a seen man (a
    chopper's height is one the engine offers, as ``fill`` picks a choice)."""
    action = fill(offer, rng)
    if offer["type"] == "move" and "man" in offer:
        m = next((m for m in view["men"] if m["id"] == offer["man"]), None)
        if m is not None:
            r, a = offer["reach"] * rng.uniform(0.2, 1.0), rng.uniform(0, 6.283)
            action["to"] = [round(min(max(m["x"] + r * math.cos(a), 0.0), 48.0), 2),
                            round(min(max(m["y"] + r * math.sin(a), 0.0), 48.0), 2)]
    theirs = [m for m in view["men"] if m["side"] != view["side"]]
    if "at" in offer.get("params", {}) and theirs and rng.random() < 0.7:
        t = rng.choice(theirs)
        action["at"] = [t["x"], t["y"]]
    return action


def act_at_random(call, gid: str, side: str, offers: list[dict], rng: random.Random) -> dict:
    offer = rng.choices(offers, [LIKED.get(o["type"], 1.0) for o in offers])[0]
    return concrete(offer, call("game.view", game=gid, side=side), rng)


def game_truth(raw: dict):
    """The referee's truth for games of ``raw``, its line of sight built once."""
    los = sight.table(build(raw, "t"))
    return lambda call, gid: truth(call, gid, los)


RULESET = fog.Ruleset(
    truth=game_truth, secrets=secrets,
    scan=scan, probe=probe, probe_rate=0.1, choose=act_at_random, previews=("fire", "move"),
    mine=lambda ref, side: [m["id"] for m in ref["men"] if m["side"] == side and m["status"] == "ok" and m["on_table"]],
    table=(48, 48))


def test_no_hidden_fact_reaches_a_side_in_hot_lz():  # DESIGN §6; OBC-13, OBC-30, OBC-44, OBC-49, G-42
    eng = InProcessEngine()
    stats = {"games": 0, "messages": 0, "refused": 0, "kinds": collections.Counter()}
    for n in range(4):
        fog.play(eng, RULESET, random.Random(5200 + n), scenario(close=n % 2 == 0), 5200 + n,
                 ai_insurgent=n % 4 >= 2, actions=60, stats=stats)
    assert stats["games"] == 4 and stats["messages"] > 100
    assert {"to hit", "fire effect"} <= set(stats["kinds"]), stats["kinds"]  # the games came to blows


def test_the_scanner_catches_leaks():
    secret = {"ids": {"vw1", "dustoff"}, "positions": {(17.0, 26.5)}, "enemy": {"vw1", "vw2"}}
    for bad in ({"men": [{"id": "vw1"}]}, {"to": [17.0, 26.5]}, {"call": "dustoff"},
                {"men": [{"id": "vw2", "side": "insurgent", "pending": "panic"}]}):
        try:
            scan(bad, "allied", secret, "self-test")
        except AssertionError:
            continue
        raise AssertionError(f"not caught: {bad}")
    scan({"men": [{"id": "vw2", "side": "insurgent", "x": 1, "y": 2}]}, "allied", secret, "ok")
