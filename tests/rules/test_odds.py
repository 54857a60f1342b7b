"""Odds preview (DESIGN §4): exact probabilities against hand-computed cases and seeded rolls."""

from __future__ import annotations

import math
import pickle

import pytest

from game.rules import fire, odds
from game.rules.dice import Dice
from game.rules.errors import IllegalAction
from tests.rules.test_fire import CELL, SQUAD, make


def test_sniper_on_commander_hand_computed():
    hq = ("hq", "allied", [("pc", "us_platoon_commander", 22, 8), ("rto", "us_rto", 24, 8)])
    snp = ("snp", "insurgent", [("snp_1", "vc_sniper", 22, 30)])
    g = make([hq, snp], first="insurgent")
    before = g.hash()
    res = odds.preview(g, "insurgent", {"type": "fire", "element": "snp", "target": "pc"})
    assert g.hash() == before  # a preview changes nothing
    # 1 die at 4+ (DD-5.3): 1/2. Open ground saves on 6 (DD-5.6): removed 1/2 x 5/6.
    assert res["hits"]["1"] == pytest.approx(0.5)
    assert res["stands"]["pc"]["p_removed"] == pytest.approx(5 / 12)
    # DD-5.19: any hit (1/2), saved or not, tests the HQ (the RTO survives): 4+ fails 1/2 -> 1/4.
    assert res["elements"]["hq"]["p_pinned"] == pytest.approx(1 / 4)


def test_two_dice_heavy_cover_hand_computed():
    bunker = {"id": "bk", "type": "bunker", "point": [22, 20], "size": [4, 3]}
    mg = ("mg", "allied", [("mg_1", "us_mg_team", 22, 10)])
    sl = ("hq", "allied", [("sl", "us_squad_leader", 26, 8)])
    cell = ("vc", "insurgent", [("vc_a", "vc_rifle_cell", 22, 20)])
    g = make([mg, sl, cell], terrain=[bunker])
    res = odds.preview(g, "allied", {"type": "fire", "element": "mg", "target": "vc_a"})
    # 4 dice at 6+ (heavy cover -2, DD-5.4): p = 1/6 each; save 4+ (DD-5.6): unsaved 1/2.
    p_unsaved_per_die = (1 / 6) * 0.5
    p0 = (1 - p_unsaved_per_die) ** 4
    p1 = 4 * p_unsaved_per_die * (1 - p_unsaved_per_die) ** 3
    assert res["stands"]["vc_a"]["p_removed"] == pytest.approx(1 - p0 - p1)
    assert res["stands"]["vc_a"]["p_ring"] == pytest.approx(p1)
    assert res["groups"][0]["need"] == 6


def test_preview_refuses_what_act_refuses():
    g = make([SQUAD, CELL])
    with pytest.raises(IllegalAction):
        odds.preview(g, "allied", {"type": "fire", "element": "sq", "target": "sq_a"})
    with pytest.raises(IllegalAction):
        odds.preview(g, "allied", {"type": "move", "element": "sq"})


def test_preview_matches_seeded_rolls():
    """10,000 real resolutions against the exact preview: every probability within 4 standard errors
    (plus 0.002 for rounding)."""
    g = make([SQUAD, CELL])
    res = odds.preview(g, "allied", {"type": "fire", "element": "sq", "target": "vc_a"})
    attack = fire.plan_fire(g, g.state.elements["sq"], "vc_a", fire.Context())
    snap = pickle.dumps(g.state)  # the state before the fire, put back whole for each resolution
    n = 10_000
    lost = {}
    pinned = 0
    removed_a = 0
    for i in range(n):
        g.state = pickle.loads(snap)
        g.state.rng["rules"] = (i * 0x9E3779B97F4A7C15 + 12345) & ((1 << 64) - 1)
        g.dice = Dice(g.state.rng)
        g.events = []
        out = fire.resolve_attack(g, attack)
        k = len(out.killed)
        lost[k] = lost.get(k, 0) + 1
        pinned += g.state.elements["vc"].pinned
        removed_a += not g.state.stands["vc_a"].alive

    def close(p, count):
        tol = 4 * math.sqrt(max(p * (1 - p), 1e-9) / n) + 0.002
        assert abs(count / n - p) <= tol, (p, count / n, tol)

    for k, p in res["stands_lost"].items():
        close(p, lost.get(int(k), 0))
    close(res["elements"]["vc"]["p_pinned"], pinned)
    close(res["stands"]["vc_a"]["p_removed"], removed_a)
    assert sum(res["stands_lost"].values()) == pytest.approx(1.0)
