"""Tet '68's fog of war is a security boundary (DESIGN §6): the leak test, for the second ruleset.

Random games of hue_street (as shipped, and with the Marines set down in the middle of the street, where the
windows, the grenades and the charges reach them) are played through the engine protocol with ``referee:
true``, so the test knows the truth. What a side may know is worked out here, independently of the game:
the enemy figures some living figure of its own sees (ray casts from the referee view's places and poses
past the scenario's walls, TET-16) or that fired or fought this turn (read from the referee's events).
Every message a side receives (its views, its action lists and previews, the results of its acts and of
the computer's steps, the events of the other side's acts, ``los.check``, refusals) is scanned for any
other enemy figure's id or exact place; and, for every enemy figure, for its roster: Initiative, Weapon
Skill, grenades left (TET-5, TET-6, G-41), in a view, a wound or a roll's modifiers. The same scan runs on
what the computer player is handed (``view`` and ``legal_actions``). Each side's event numbers run 1, 2, 3
with no gap; hidden and made-up ids are refused in the same words.
"""

from __future__ import annotations

import copy
import random
import tomllib
from typing import Any

from game.engine.client import InProcessEngine
from game.rules.scenario import SCENARIO_DIR
from tests.engine import fog_rulesets as fog
from tests.engine.test_fog import fill, made_up
from tests.tet68.test_game import seen_by

SIDES = ("allied", "insurgent")
RAW = tomllib.loads((SCENARIO_DIR / "hue_street.toml").read_text())
ROSTER = ("initiative", "ws", "grenades", "may_move", "fired", "ducked")
"""An own figure's record in the view that the enemy's never has (TET-5, TET-6, G-41)."""
LIKED = {"cone": 4.0, "launch": 4.0, "grenade": 4.0, "charge": 6.0, "fire": 3.0, "snap_fire": 3.0, "pass": 1.0,
         "move": 2.0, "hold": 0.5}


def scenario(close: bool) -> dict:
    raw = copy.deepcopy(RAW)
    raw["scenario"]["turns"] = 3
    if close:  # the Marines in the middle of the street, the houses at arm's length
        raw["scenario"]["id"] = "hue_street_close"
        spots = iter([[14.0, 12.0], [15.2, 11.0], [15.2, 13.0], [13.0, 12.8], [16.5, 12.0], [13.0, 11.0]])
        for f in raw["figure"]:
            if f["side"] == "allied":
                f["at"] = next(spots)
    return raw


def truth(call, gid: str) -> tuple[dict, dict]:
    """The referee's view, and for each side the enemy figures it may know of (module docstring)."""
    ref = call("game.view", game=gid, side="referee")
    events = call("game.events", game=gid, side="referee")["events"]
    turn = max((i for i, e in enumerate(events) if e["type"] == "turn"), default=0)
    acted = {e.get("firer") for e in events[turn:] if e.get("firer")}
    known = {side: seen_by(ref, side) | {f["id"] for f in ref["figures"] if f["side"] != side and f["id"] in acted}
             for side in SIDES}
    return ref, known


def secrets(ref: dict, known: dict, side: str) -> dict:
    enemy = [f for f in ref["figures"] if f["side"] != side]
    hidden = [f for f in enemy if f["alive"] and f["id"] not in known[side]]
    public = {(round(f["x"], 3), round(f["y"], 3)) for f in ref["figures"] if f not in hidden}
    return {"ids": {f["id"] for f in hidden},
            "positions": {(round(f["x"], 3), round(f["y"], 3)) for f in hidden} - public,
            "enemy": {f["id"] for f in enemy}}


def scan(msg: Any, side: str, secret: dict, where: str) -> None:
    """Fail on a hidden enemy's id or place, or on an enemy's roster, in a message sent to ``side``."""

    def roster(x: dict, path: str) -> None:
        if x.get("id") in secret["enemy"] and "side" in x:
            assert not set(ROSTER) & set(x), f"{where}: an enemy's roster at {path}: {x}"
        if x.get("type") == "wound" and x.get("figure") in secret["enemy"]:
            assert "initiative" not in x, f"{where}: an enemy's Initiative left at {path}: {x}"
        if x.get("type") == "roll" and x.get("figure") in secret["enemy"]:
            assert x.get("purpose") not in ("Initiative", "Weapon Skill"), f"{where}: an enemy's statistics"
        if x.get("type") == "roll" and x.get("firer") in secret["enemy"]:
            assert all(m.get("value") is None for m in x.get("modifiers", ()) if m.get("clause") == "TET-6"), \
                f"{where}: an enemy's Weapon Skill at {path}: {x}"

    fog.scan(msg, secret, where, roster)


def probe(call, gid: str, side: str, ref: dict, secret: dict, rng: random.Random) -> None:
    """A hidden enemy id and a made-up one in every id slot: refused alike, nothing hidden said (DESIGN §6)."""
    if not secret["ids"]:
        return
    hidden = rng.choice(sorted(secret["ids"]))
    fake = made_up(hidden, {f["id"] for f in ref["figures"]})
    mine = [f for f in ref["figures"] if f["side"] == side and f["alive"]]
    me = mine[0]["id"] if mine else "nobody"
    at = [mine[0]["x"], mine[0]["y"]] if mine else [1.0, 1.0]
    templates = [{"type": "move", "figure": "\0", "to": at}, {"type": "charge", "figure": me, "target": "\0"},
                 {"type": "fire", "figure": me, "target": "\0"}, {"type": "snap_fire", "figure": "\0"},
                 {"type": "grenade", "figure": "\0", "at": at}]
    fog.refused_alike(call, gid, side, hidden, fake, templates, ("move", "charge", "fire", "snap_fire", "grenade"),
                      lambda got, where: scan(got, side, secret, where), me)


def choose(_call, _gid: str, side: str, offers: list[dict], rng: random.Random) -> dict:
    action = fill(rng.choices(offers, [LIKED.get(o["type"], 1.0) for o in offers])[0], rng)
    if action["type"] in ("cone", "launch", "grenade") and offers and rng.random() < 0.7:
        targets = next(o for o in offers if o["type"] == action["type"]
                       and o["figure"] == action["figure"]).get("targets")
        if targets:  # aim at someone seen, as a player would
            t = rng.choice(targets)
            action["at"] = [t["x"], t["y"]]
    return action


RULESET = fog.Ruleset(
    truth=lambda _raw: truth, secrets=secrets, scan=scan, probe=probe, probe_rate=0.15, choose=choose,
    previews=("fire", "snap_fire", "cone", "launch", "grenade", "move", "charge"),
    mine=lambda ref, side: [f["id"] for f in ref["figures"] if f["side"] == side and f["alive"]], table=(36, 24))


def test_no_hidden_fact_reaches_a_side_in_hue_street():  # DESIGN §6; TET-5, TET-6, TET-16, TET-17, C-32, G-41
    eng = InProcessEngine()
    stats = {"games": 0, "messages": 0, "refused": 0, "kinds": __import__("collections").Counter()}
    for n in range(6):
        fog.play(eng, RULESET, random.Random(4100 + n), scenario(close=n % 3 != 2), 4100 + n, ai_insurgent=n % 2 == 1,
                 actions=40, stats=stats)
    assert stats["games"] == 6 and stats["messages"] > 100
    assert {"to hit", "cover", "burst"} <= set(stats["kinds"]), stats["kinds"]  # the games came to blows


def test_the_scanner_catches_leaks():
    secret = {"ids": {"loc"}, "positions": {(10.2, 15.3)}, "enemy": {"loc", "minh"}}
    for bad in ({"figures": [{"id": "loc"}]}, {"to": [10.2, 15.3]},
                {"figures": [{"id": "minh", "side": "insurgent", "ws": 120}]},
                {"type": "wound", "figure": "minh", "initiative": 0},
                {"type": "roll", "firer": "minh", "modifiers": [{"clause": "TET-6", "value": 90}]}):
        try:
            scan(bad, "allied", secret, "self-test")
        except AssertionError:
            continue
        raise AssertionError(f"not caught: {bad}")
    scan({"figures": [{"id": "minh", "side": "insurgent", "x": 1, "y": 2}]}, "allied", secret, "ok")
