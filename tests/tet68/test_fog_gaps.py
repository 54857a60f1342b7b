"""Tet '68's fog (DESIGN §6): the snap decision tells the mover's side nothing (C-32), and an enemy's copy of
a roll or a wound keeps the owner's roster to the owner (TET-5, TET-6, TET-15, TET-17)."""

from __future__ import annotations

from tests.tet68.test_blast import fire_phase, move_phase, street


def _moved(watcher_initiative: int):
    """Ames (Initiative 1) walks into the view of Loc, who may snap fire at Initiative 3, or not at 0."""
    g = move_phase(street(("ames", "allied", "m16", [2, 12], 1, 100),
                          ("loc", "insurgent", "ak47", [30, 12], watcher_initiative, 110)))
    if g.state.to_act == "insurgent" and g.state.step == 0:
        g.act("insurgent", {"type": "hold", "figure": "loc"})
    if g.state.to_act == "insurgent":
        g.act("insurgent", {"type": "pass"})
    before = len(g.events_for("allied", g.events))
    g.act("allied", {"type": "move", "figure": "ames", "to": [9, 12]})
    return g, before


def test_the_snap_decision_is_asked_whether_or_not_anyone_may_shoot():  # C-32; DESIGN §6
    watched, a = _moved(3)
    unwatched, b = _moved(0)
    assert [o["type"] for o in watched.legal_actions("insurgent")] == ["snap_fire", "pass"]
    assert [o["type"] for o in unwatched.legal_actions("insurgent")] == ["pass"]
    for g in (watched, unwatched):
        assert g.state.to_act == "insurgent"  # the pause is the same either way
    seen = [g.view("allied") for g in (watched, unwatched)]
    keys = ("to_act", "phase", "step", "acting", "seq")
    assert [v[k] for k in keys for v in seen[:1]] == [v[k] for k in keys for v in seen[1:]]
    told = [[{k: v for k, v in e.items() if k != "seq"} for e in g.events_for("allied", g.events)[n:]]
            for g, n in ((watched, a), (unwatched, b))]
    assert told[0] == told[1]
    assert "snap" not in seen[0]  # the mover's side is not told of the decision


def test_the_snap_decision_after_an_unseen_act_names_nobody():  # C-32; DESIGN §6
    g = move_phase(street(("ames", "allied", "m16", [2, 2], 1, 100),
                          ("loc", "insurgent", "ak47", [8, 20], 3, 110)))  # in the house, out of sight
    g.act("allied", {"type": "move", "figure": "ames", "to": [3, 2]})
    assert g.state.to_act == "insurgent" and g.view("insurgent")["snap"] == {"mover": None}
    assert g.legal_actions("insurgent") == [{"type": "pass", "clause": "C-32", "label": "no snap fire"}]


def test_an_enemy_reads_the_dice_and_the_target_number_not_the_roster():  # TET-6, TET-15, TET-17; DESIGN §6
    g = fire_phase(street(("ames", "allied", "m16", [2, 12], 1, 100),
                          ("loc", "insurgent", "ak47", [9, 12], 3, 110)))
    g.dice.force([40, 1, 3], faces=100)  # 110 x 1/2 = 55: a hit, cover 1, effect d6 3: d3 2
    g.act("insurgent", {"type": "fire", "figure": "loc", "target": "ames"})
    roll = {side: next(e for e in g.events_for(side, g.events) if e.get("purpose") == "to hit")
            for side in ("allied", "insurgent", "referee")}
    assert roll["allied"]["target_number"] == 55 and roll["allied"]["result"] == 40  # called out at the table
    ws = {side: next(m for m in roll[side]["modifiers"] if m["clause"] == "TET-6") for side in roll}
    assert ws["insurgent"]["value"] == 110 and ws["referee"]["value"] == 110
    assert ws["allied"]["value"] is None and "110" not in str(roll["allied"])  # Loc's roster is Loc's side's
    wound = {side: next(e for e in g.events_for(side, g.events) if e["type"] == "wound")
             for side in ("allied", "insurgent")}
    assert wound["allied"]["initiative"] == -1 and wound["allied"]["state"] == "dead"
    assert "initiative" not in wound["insurgent"] and wound["insurgent"]["loss"] == 2
    assert wound["insurgent"]["state"] == "dead"  # the dead are taken off the table: that is seen


def test_a_wound_that_leaves_a_man_standing_tells_the_enemy_only_the_loss():  # TET-17; DESIGN §6
    g = fire_phase(street(("ames", "allied", "m16", [2, 12], 3, 100),
                          ("loc", "insurgent", "ak47", [9, 12], 1, 110)))
    g.dice.force([40, 1, 1], faces=100)  # 100 x 1/2 = 50: a hit, cover 1, effect d3 1
    g.act("allied", {"type": "fire", "figure": "ames", "target": "loc"})
    seen = next(e for e in g.events_for("allied", g.events) if e["type"] == "wound")
    own = next(e for e in g.events_for("insurgent", g.events) if e["type"] == "wound")
    assert own["initiative"] == 0 and own["state"] == "may fire, not move"
    assert seen["state"] == "hit" and "initiative" not in seen and "Initiative 0" not in seen["text"]
    enemy = next(f for f in g.view("allied")["figures"] if f["id"] == "loc")
    assert "initiative" not in enemy and "ws" not in enemy  # the view and the events agree
