"""Tet '68's rolls in the dice tray as a player reads them (TET-5, TET-6, TET-15, TET-16, TET-17, G-41): a
d100 or a d6 against a number "or less", the d3 loss, the start's Initiative and Weapon Skill, a scatter's
distance and clock direction, hand-to-hand; never the characters of the dice notation as dice."""

from __future__ import annotations

from game.client.tet.tray import tray_rows
from game.dice import Dice, seed_streams
from game.engine.client import InProcessEngine
from game.rulesets.tet68 import blast, fire


def plain(name: str) -> str:
    return name.split(" ", 1)[1] if name.split(" ")[0] in ("Sgt", "Cpl", "LCpl", "PFC") else name


def _game_events(steps: int = 60) -> tuple[list[dict], dict, dict]:
    eng = InProcessEngine()
    g = eng.call("game.new", scenario="hue_street", seed=3, players={"allied": "ai", "insurgent": "ai"}, referee=True)
    events = list(g["events"])
    for _ in range(steps):
        events += eng.call("game.step", game=g["game"]).get("events", [])
    figs = g["view"]["figures"]
    return events, {f["id"]: f["name"] for f in figs}, {f["id"]: f["side"] for f in figs}


def test_the_tray_reads_tets_rolls_as_the_table_does():
    events, names, sides = _game_events()
    rolls = [e for e in events if e.get("type") == "roll"]
    rows = tray_rows(rolls, names, sides)
    assert all(str(d) not in ("d", "x") for r in rows for d, _ in r["dice"])  # the notation is never a die
    shots = [e for e in rolls if e["purpose"] == "to hit" and e.get("target")]
    assert shots
    for ev in shots:  # TET-15: d100, needs N or less (each full hundred a sure hit), HIT or MISS
        (row,) = tray_rows([ev], names, sides)
        assert row["dice"] == [(f"{ev['result']:02d}", ev["success"])]
        assert row["need"].startswith(f"need {ev['target_number']} or less")
        assert (", 1 sure hit" in row["need"]) == (ev["automatic_hits"] == 1)
        assert row["summary"] == ("MISS" if not ev["hits"] else "HIT" if ev["hits"] == 1 else f"{ev['hits']} HITS")
        assert row["title"] == f"{plain(names[ev['firer']])} to hit {plain(names[ev['target']])}: d100"
    covers = [e for e in rolls if e["purpose"] == "cover"]
    assert covers
    for ev in covers:  # TET-16: the cover roll, d6, needs the exposure or less
        (row,) = tray_rows([ev], names, sides)
        assert row["dice"] == [(ev["result"], ev["success"])] and row["need"].startswith(f"need {ev['target_number']} or less")
        assert row["summary"] == ("HIT" if ev["success"] else "SAVED") and "cover d6" in row["title"]
    loss = next(e for e in rolls if e["purpose"] == "effect")  # TET-17: the d3 loss
    (row,) = tray_rows([loss], names, sides)
    assert row["dice"] == [(loss["result"], None)] and row["summary"] == f"-{loss['result']} Initiative"


def test_the_starts_initiative_and_weapon_skill_read_by_side():  # TET-5, TET-6
    events, names, sides = _game_events(0)
    start = [e for e in events if e.get("purpose") in ("Initiative", "Weapon Skill")]
    rows = tray_rows(start, names, sides)
    allied = [f for f in names if sides[f] == "allied"]
    ini = next(r for r in rows if r["key"] == ("Initiative", "allied"))
    assert [d for d, _ in ini["dice"]] == [next(e["result"] for e in start if e["purpose"] == "Initiative"
                                               and e["figure"] == f) for f in allied]
    assert ini["mods"].split(", ") == [names[f].split()[-1] for f in allied]
    ws = next(r for r in rows if r["key"] == ("Weapon Skill", "allied"))
    assert [d for d, _ in ws["dice"]] == [e["result"] for e in start if e["purpose"] == "Weapon Skill"
                                          and sides[e["figure"]] == "allied"]


def test_a_scatter_and_hand_to_hand():  # G-41
    dice = Dice(seed_streams(5))
    _, ev = blast.scatter(dice, (0.0, 0.0), (5.0, 0.0))
    (row,) = tray_rows([ev], {}, {})
    inches, hour = ev["rolls"]
    assert row["dice"] == [(inches, None), (hour, None)] and row["summary"] == f"{inches}\" to {hour} o'clock"
    a = fire.Man("a", "allied", "Sgt Ames", 2, 160, "m16")
    b = fire.Man("b", "insurgent", "Hoy Loc", 1, 60, "ak47")
    shot = fire.strike(dice, a, b)
    rows = tray_rows(shot.events, {"a": "Sgt Ames", "b": "Hoy Loc"}, {"a": "allied", "b": "insurgent"})
    h2h = shot.events[0]
    assert rows[0]["title"] == "Ames fights Hoy Loc: d100"  # the rank left to the log and rows[0]["need"].startswith("need 60 or less, 1 sure hit")
    assert rows[0]["summary"] == ("2 HITS" if h2h["hits"] == 2 else "HIT")
    assert [r["summary"] for r in rows[1:]] == [f"-{e['result']} Initiative" for e in shot.events[1:]]
