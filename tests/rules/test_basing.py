"""Durability by stand type and blast spacing (DD-1.6, DD-1.9; G-20, G-25; DD-5.11, DD-8.10) with forced
dice on tiny tables: a Medium stand takes two hits, the first ringing it; a Small stand one; a template
hits every stand it touches, so bunched stands are caught together and spaced ones are not."""

from __future__ import annotations

import dataclasses

import pytest
from shapely.geometry import Point

from game.rules import fire, template
from game.rules.data import rulebook
from game.rules.state import base_of
from tests.builders import element, stand
from tests.rules.test_template import mortar, rolls, table

G20_HITS = {"medium": 2, "small": 1}
"""G-20: hits to remove, by stand class."""


def test_every_stand_types_hits_are_its_classs_durability():  # DD-1.6; G-20
    book = rulebook()
    foot = [s for s in book.stands.values() if not s.vehicle]  # a hull's durability is its roster HP (G-06)
    assert {s.id: s.hits for s in foot} == {s.id: G20_HITS[s.base] for s in foot}


def blast(x: float, y: float) -> template.Template:
    """One FP die on each stand under a 1" circle; no Look Out, Sir!, so the hit stays where it falls."""
    return dataclasses.replace(template.from_table("small", x, y), fp=1, look_out_sir=False, kind="test",
                               name="test blast")


def pool(g, eid: str, target: str) -> int:
    el = g.state.elements[eid]
    return sum(gr.dice for gr in fire.plan_fire(g, el, target, fire.Context("t", "t"), check_target=False).groups)


def test_a_medium_stand_is_ringed_by_its_first_hit_and_removed_by_its_second():  # DD-1.6; G-20; DD-5.11
    g = table([element("al", "allied", [stand("al_a", "us_rifle_team", 10, 10)]),
               element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 10, 30)], kind="cell")], los=True)
    assert pool(g, "al", "vc_a") == 3  # G-03: a rifle fireteam's 3 FP
    # to hit 6 (a hit), save 1 (open ground saves on 6 only: fails), Morale 6 (passes)
    g.dice.force([6, 1, 6])
    template.attack(g, blast(10, 10), side="insurgent")
    st = g.state.stands["al_a"]
    assert st.alive and st.hits == 1
    view = [s for s in g.view("allied")["stands"] if s["id"] == "al_a"][0]
    assert view["hits"] == 1 and view["wounded"] is True  # the Red Casualty Ring on the table
    assert pool(g, "al", "vc_a") == 2  # G-20: ringed, half its FP (3 -> 2, rounded up)
    g.dice.force([6, 1])  # a second unsaved hit; the element is gone, so no Morale test
    template.attack(g, blast(10, 10), side="insurgent")
    assert not st.alive and st.hits == 2
    assert [t.id for t in g.state.tokens] == ["cas_al_a"]  # removed: a Casualty Token in its place
    assert g.dice.forced_left == 0


def test_a_small_stand_is_removed_by_its_first_hit():  # DD-1.6; G-20; DD-5.8
    g = table([element("hq", "allied", [stand("pc", "us_platoon_commander", 10, 10)], kind="hq"),
               element("al", "allied", [stand("al_a", "us_rifle_team", 30, 10)])])
    g.dice.force([6, 1])
    template.attack(g, blast(10, 10), side="insurgent")
    assert not g.state.stands["pc"].alive and g.state.stands["pc"].hits == 1
    assert "pc" not in {s["id"] for s in g.view("allied")["stands"]}
    assert g.dice.forced_left == 0


def medium_pair(gap: float) -> tuple[list[dict], float]:
    """Two fireteams of one squad side by side (facing north: their 1.97" frontage along x), ``gap``
    inches between their bases; and the x midway between them."""
    w = rulebook().bases["medium"].width
    x2 = 10 + w + gap
    squad = element("sq", "allied", [stand("sq_a", "us_rifle_team", 10, 10), stand("sq_b", "us_rifle_team", x2, 10)])
    return [squad], (10 + x2) / 2


@pytest.mark.parametrize("size", ["small", "medium"])
def test_stands_spaced_wider_than_a_blast_are_never_caught_together(size):  # DD-1.9; G-25
    width = fire.combat().templates[size].diameter
    g = table(medium_pair(width + 0.25)[0])
    a, b = (base_of(g.book, g.state.stands[s]) for s in ("sq_a", "sq_b"))
    assert a.distance(b) == pytest.approx(width + 0.25)
    # every centre from one base to the other, every 0.05": the template touches one stand at most
    xs = [9.0 + 0.05 * k for k in range(int((g.state.stands["sq_b"].x - 9.0 + 1.0) / 0.05) + 1)]
    caught = [len(template.touched(g, template.from_table(size, x, 10))) for x in xs]
    assert max(caught) == 1 and min(caught) == 0


def test_bunched_stands_are_all_hit_by_one_template():  # DD-1.9; DD-8.10; G-25
    pair, mid = medium_pair(0.5)  # closer than 1": one mortar round covers both
    g = table(pair)
    t = mortar(mid, 10)
    assert t.polygon.intersects(Point(mid, 10)) and [s.id for s in template.touched(g, t)] == ["sq_a", "sq_b"]
    n = len(g.events)
    # each stand touched rolls the template's 3 FP of its own: all miss; the squad then tests Morale (6)
    g.dice.force([1, 2, 3] + [3, 2, 1] + [6])
    template.attack(g, t, side="insurgent")
    assert [(r["stand"], len(r["dice"])) for r in rolls(g, n, "to hit")] == [("sq_a", 3), ("sq_b", 3)]
    assert g.dice.forced_left == 0
