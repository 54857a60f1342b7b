"""Co-op play (DD-10.16–10.17): seats on one side, one CP pool, one VP tally, through the protocol."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys

import pytest

from game.engine.client import EngineError, EngineProcess, EngineSocket, InProcessEngine
from game.rules import coop
from game.rules.dice import Dice, seed_streams
from game.rules.game import Game
from game.rules.scenario import resolve_scenario
from tests.engine.test_fog import plantation, play, scan, secrets
from tests.engine.test_full_game import check_roll, fill

NAMES = ["Ames", "Brody", "Cruz"]
BOTH_HUMAN = {"allied": {"seats": NAMES}, "insurgent": "human"}


@pytest.fixture
def engine():
    return InProcessEngine()


def new(engine, scenario="village_sweep", players=None, seed=3, **kw):
    return engine.call("game.new", scenario=scenario, seed=seed, players=players or BOTH_HUMAN, **kw)


def seats_of(view):
    return {s["name"]: s for s in view["seats"]}


# -- the assignment (DD-10.16) ------------------------------------------------------------------------
def test_default_assignment_village_sweep():
    """DD-10.16: seat 1 is the Platoon Commander (the HQ and every element no other seat takes); the
    others take one squad, vehicle or heavy-weapons attachment each, squads first."""
    els = resolve_scenario("village_sweep").elements
    team = coop.assign("allied", els, {"seats": NAMES})
    assert [(s.name, s.commands, s.commander) for s in team.seats] == [
        ("Ames", ("hq", "wpn"), True), ("Brody", ("sq1",), False), ("Cruz", ("sq2",), False)]
    four = coop.assign("allied", els, {"seats": ["A", "B", "C", "D"]})
    assert [s.commands for s in four.seats] == [("hq",), ("sq1",), ("sq2",), ("wpn",)]
    two = coop.assign("allied", els, {"seats": ["A", "B"]})
    assert [s.commands for s in two.seats] == [("hq", "sq2", "wpn"), ("sq1",)]


def test_default_assignment_rubber_plantation():
    """DD-10.16: the point man (a team, not a squad or attachment) stays with the Platoon Commander."""
    els = resolve_scenario("rubber_plantation").elements
    team = coop.assign("allied", els, {"seats": ["A", "B", "C", "D"]})
    assert [(s.name, s.commands) for s in team.seats] == [
        ("A", ("hq", "scout")), ("B", ("sq1",)), ("C", ("sq2",)), ("D", ("wpn",))]
    assert team.commander.name == "A" and [s.commander for s in team.seats] == [True, False, False, False]


@pytest.mark.parametrize("seats, field, words", [
    (["Ames"], "seats", "2–4 players"),
    (["A", "B", "C", "D", "E"], "seats", "2–4 players"),
    (["Ames", "ames"], "seats[1]", "unique"),
    (["Ames", ""], "seats[1]", "needs a name"),
    (["Ames", 7], "seats", "every seat as a name"),
    ([{"name": "A", "commands": ["hq", "sq1", "sq2"]}, {"name": "B", "commands": ["sq9"]}],
     "seats[1].commands", "no element 'sq9'"),
    ([{"name": "A", "commands": ["hq", "sq1", "sq2"]}, {"name": "B", "commands": ["vc1"]}],
     "seats[1].commands", "no element 'vc1'"),
    ([{"name": "A", "commands": ["hq", "sq1", "sq2"]}, {"name": "B", "commands": ["sq1", "wpn"]}],
     "seats[1].commands", "already commanded by seats[0]"),
    ([{"name": "A", "commands": ["sq1", "sq2"]}, {"name": "B", "commands": ["hq", "wpn"]}],
     "seats[1].commands", "Platoon Commander"),
    ([{"name": "A", "commands": ["hq", "sq1"]}, {"name": "B", "commands": ["sq2"]}], "seats", "'wpn'"),
    ([{"name": "A", "commands": ["hq", "sq1", "sq2", "wpn"]}, {"name": "B", "commands": []}],
     "seats[1].commands", "at least one element"),
    ([{"name": "A", "commands": ["hq", "sq1", "sq2", "wpn"]}, {"name": " B", "commands": ["x"]}],
     "seats[1].name", "spaces"),
    ([{"name": "A", "commands": ["hq", "sq1", "sq2"]}, {"name": "B", "commands": ["wpn"], "rank": 1}],
     "seats[1]", "unknown field 'rank'"),
])
def test_explicit_assignment_is_validated(engine, seats, field, words):
    """DD-10.16: every element exactly once, the HQ with the Platoon Commander, 2–4 unique names;
    a bad form is INVALID_PARAMS naming the field."""
    with pytest.raises(EngineError) as err:
        new(engine, players={"allied": {"seats": seats}, "insurgent": "ai"})
    assert err.value.code == -32602
    assert err.value.message.startswith(f"players.allied.{field}: "), err.value.message
    assert words in err.value.message
    assert err.value.data == {"field": f"players.allied.{field}"}
    assert not engine.engine.sessions  # nothing was created


def test_default_assignment_with_too_many_seats_for_the_attachments(engine):
    """DD-10.16: each player beside the Platoon Commander needs a squad, vehicle or heavy weapons."""
    with pytest.raises(EngineError, match=r"players\.allied\.seats: 4 players, .*only 2 squad"):
        new(engine, players={"allied": {"seats": ["A", "B", "C", "D"]}},
            scenario={**plantation(), "element": [e for e in plantation()["element"] if e["id"] != "wpn"]})


def test_explicit_assignment_is_used(engine):
    seats = [{"name": "Ames", "commands": ["hq", "sq1"]}, {"name": "Brody", "commands": ["sq2", "wpn"]}]
    v = new(engine, players={"allied": {"seats": seats}, "insurgent": "ai"})["view"]
    assert v["seats"] == [{"name": "Ames", "side": "allied", "commands": ["hq", "sq1"], "commander": True},
                          {"name": "Brody", "side": "allied", "commands": ["sq2", "wpn"], "commander": False}]
    assert v["players"] == {"allied": "human", "insurgent": "ai"}  # existing clients read "human"


# -- acting (DD-10.16) --------------------------------------------------------------------------------
def offer(engine, gid, element, seat=None, kind="hold"):
    acts = engine.call("game.actions", game=gid, side="allied", **({"seat": seat} if seat else {}))["actions"]
    return next(a for a in acts if a.get("element") == element and a["type"] == kind)


def test_a_seat_acts_only_with_its_own_elements(engine):
    gid = new(engine)["game"]
    hold = offer(engine, gid, "sq2")
    assert hold["seat"] == "Cruz"
    with pytest.raises(EngineError) as err:
        engine.call("game.act", game=gid, side="allied", seat="Brody", action=hold)
    assert err.value.code == 1 and err.value.clause == "DD-10.16"  # DD-10.16
    assert "Brody" in err.value.reason and "2nd Squad (sq2)" in err.value.reason and "Cruz" in err.value.reason
    out = engine.call("game.act", game=gid, side="allied", seat="Brody", action=offer(engine, gid, "sq1"))
    assert any(e["type"] == "activate" and e["element"] == "sq1" for e in out["events"])


def test_seat_param_errors(engine):
    gid = new(engine)["game"]
    hold = offer(engine, gid, "sq1")
    with pytest.raises(EngineError, match="param 'seat' is required.*Ames, Brody, Cruz") as err:
        engine.call("game.act", game=gid, side="allied", action=hold)
    assert err.value.code == -32602
    with pytest.raises(EngineError, match="no seat 'Zed' on the allied side") as err:
        engine.call("game.act", game=gid, side="allied", seat="Zed", action=hold)
    assert err.value.code == -32602
    with pytest.raises(EngineError, match="the insurgent side is not played in co-op"):
        engine.call("game.actions", game=gid, side="insurgent", seat="Ames")
    with pytest.raises(EngineError, match="param 'seat' should be str"):
        engine.call("game.act", game=gid, side="allied", seat=3, action=hold)
    with pytest.raises(EngineError, match="param 'seat' is required"):
        engine.call("game.act", game=gid, side="allied", seat=None, action=hold)
    assert engine.call("game.view", game=gid, side="allied")["seq"] == new(engine)["view"]["seq"]


def test_actions_carry_and_filter_by_seat(engine):
    """DD-10.16: each action names the seat commanding it; side-wide actions (null) belong to any seat."""
    gid = new(engine)["game"]
    every = engine.call("game.actions", game=gid, side="allied")["actions"]
    owners = {a.get("element"): a["seat"] for a in every}
    assert owners == {"hq": "Ames", "wpn": "Ames", "sq1": "Brody", "sq2": "Cruz", None: None}
    mine = engine.call("game.actions", game=gid, side="allied", seat="Brody")
    assert mine["seat"] == "Brody"
    assert {a.get("element") for a in mine["actions"]} == {"sq1", None}
    assert any(a["type"] == "pass" for a in mine["actions"])


def test_any_seat_may_pass_for_the_team(engine):
    gid = new(engine)["game"]
    out = engine.call("game.act", game=gid, side="allied", seat="Cruz", action={"type": "pass"})
    assert out["view"]["to_act"] == "insurgent"


def test_blinds_follow_the_elements_under_them(engine):
    """A Blind moves with the seat of the element under it; a Dummy Blind with the Platoon Commander."""
    gid = new(engine, scenario="rubber_plantation")["game"]
    acts = engine.call("game.actions", game=gid, side="allied")["actions"]
    owners = {a["blind"]: a["seat"] for a in acts if a["type"] == "blind_hold"}
    assert owners == {"A1": "Ames", "A2": "Brody", "A3": "Ames", "A4": "Cruz", "A5": "Ames", "A6": "Ames"}
    a4 = next(a for a in acts if a["type"] == "blind_hold" and a["blind"] == "A4")
    with pytest.raises(EngineError) as err:
        engine.call("game.act", game=gid, side="allied", seat="Brody", action=a4)
    assert err.value.clause == "DD-10.16" and "Blind A4" in err.value.reason
    engine.call("game.act", game=gid, side="allied", seat="Cruz", action=a4)


def test_elements_born_in_play_follow_their_stands_or_the_commander():
    """An element the rules do not know at set-up follows the element its stands came from (DD-1.5);
    with no such link, the Platoon Commander (DD-10.16)."""
    sc = resolve_scenario("village_sweep")
    g = Game(sc, 3)
    team = coop.assign("allied", sc.elements, {"seats": NAMES})
    sq1 = g.state.elements["sq1"]
    from dataclasses import replace

    g.state.elements["sq1_ft"] = replace(sq1, id="sq1_ft", name="1st Squad fireteam", stands=["sq1_b"])
    g.state.elements["new"] = replace(sq1, id="new", name="Stray", stands=[])
    assert coop.commander_of(team, g, "sq1_ft").name == "Brody"
    assert coop.commander_of(team, g, "new").name == "Ames"
    assert coop.commands(team, g)["Brody"] == ["sq1", "sq1_ft"]


# -- one CP pool, one VP tally (DD-10.16, DD-10.17) --------------------------------------------------
def test_the_cp_pool_is_shared(engine):
    """DD-10.16: an activation paid by one seat lowers the pool every seat sees and pays from."""
    gid = new(engine)["game"]
    cp = engine.call("game.view", game=gid, side="allied")["sides"]["allied"]["cp"]
    hold = offer(engine, gid, "sq1", seat="Brody")
    out = engine.call("game.act", game=gid, side="allied", seat="Brody", action=hold)
    assert out["view"]["sides"]["allied"]["cp"] == cp - hold["cost"]
    engine.call("game.act", game=gid, side="insurgent", action={"type": "pass"})
    view = engine.call("game.view", game=gid, side="allied")
    assert view["sides"]["allied"]["cp"] == cp - hold["cost"]
    cruz = engine.call("game.actions", game=gid, side="allied", seat="Cruz")["actions"]
    assert cruz and all(a["cost"] <= cp - hold["cost"] for a in cruz)
    paid = next(a for a in cruz if a.get("element") == "sq2" and a["type"] == "hold")
    after = engine.call("game.act", game=gid, side="allied", seat="Cruz", action=paid)["view"]
    assert after["sides"]["allied"]["cp"] == cp - hold["cost"] - paid["cost"]


def test_coop_changes_no_rule(engine):
    """DD-10.16–10.17: one CP pool, one VP tally per side are the engine's anyway (C-02 for casualty
    VP); the same actions give the same state, hash for hash, with seats or without."""
    rng = random.Random(5)
    a = new(engine, seed=9)["game"]
    b = new(engine, seed=9, players={"allied": "human", "insurgent": "human"})["game"]
    view = engine.call("game.view", game=a, side="allied")
    for _ in range(60):
        if view["over"]:
            break
        side = view["to_act"]
        acts = engine.call("game.actions", game=a, side=side)["actions"]
        action = fill(acts[rng.randrange(len(acts))], Dice(seed_streams(rng.randrange(10**6))))
        seat = {"seat": action.get("seat") or NAMES[0]} if side == "allied" else {}
        try:
            view = engine.call("game.act", game=a, side=side, action=action, **seat)["view"]
        except EngineError as err:
            with pytest.raises(EngineError) as twin:
                engine.call("game.act", game=b, side=side, action=action)
            assert twin.value.reason == err.reason
            continue
        other = engine.call("game.act", game=b, side=side, action=action)["view"]
        assert other["hash"] == view["hash"]
        assert other["sides"]["allied"]["vp"] == view["sides"]["allied"]["vp"]  # DD-10.17: one tally


# -- fog (DESIGN §6) ----------------------------------------------------------------------------------
def test_the_insurgent_learns_nothing_of_the_seats(engine):
    names = ["Seat-Avery-31", "Seat-Blake-32"]
    r = new(engine, players={"allied": {"seats": names}, "insurgent": "human"}, referee=True)
    gid = r["game"]
    ins = engine.call("game.view", game=gid, side="insurgent")
    assert "seats" not in ins and ins["players"] == {"allied": "human", "insurgent": "human"}
    ref = engine.call("game.view", game=gid, side="referee")
    assert [s["name"] for s in ref["seats"]] == names
    engine.call("game.act", game=gid, side="allied", seat=names[1], action=offer(engine, gid, "sq1"))
    seen = [engine.call("game.view", game=gid, side="insurgent"),
            engine.call("game.actions", game=gid, side="insurgent"),
            engine.call("game.events", game=gid, side="insurgent")]
    assert not any(n in json.dumps(seen) for n in names)


def test_the_leak_scan_on_a_coop_game():
    """The fog leak scan (tests/engine/test_fog.py) on co-op games, each allied action sent by the seat
    that commands it; and nothing the Insurgent receives names a seat."""
    names = ["Seat-Avery-31", "Seat-Blake-32", "Seat-Casey-33"]
    eng = InProcessEngine()
    to_insurgent = []

    def call(method, **params):
        if method == "game.new":
            params["players"] = {**params["players"], "allied": {"seats": names}}
        if method == "game.act" and params.get("side") == "allied":
            params["seat"] = params["action"].get("seat") or names[0]
        out = eng.call(method, **params)
        if params.get("side") == "insurgent":
            to_insurgent.append(out)
        return out

    for n in range(6):
        play(call, random.Random(700 + n), plantation(), seed=700 + n, ai_insurgent=(n % 3 == 2))
    assert to_insurgent and not any(name in json.dumps(to_insurgent) for name in names)
    ref = new(eng, scenario=plantation(), players={"allied": {"seats": names}, "insurgent": "human"},
              referee=True)
    gid = ref["game"]
    truth = eng.call("game.view", game=gid, side="referee")
    scan(eng.call("game.view", game=gid, side="insurgent"), "insurgent", secrets(truth, "insurgent"), "co-op")


# -- a whole game, saved and loaded (DD-10.16, DESIGN §5) ---------------------------------------------
@pytest.mark.parametrize("sid", ["village_sweep", "rubber_plantation"])
def test_a_whole_coop_game_through_the_engine_process(sid):
    """Each impulse a random seat of the team picks one of its own actions (or the side's); now and
    then a seat tries another seat's element and is refused (DD-10.16). Saved, loaded, same hash."""
    rng = Dice(seed_streams(41))
    pick = random.Random(41)
    acted = {n: 0 for n in NAMES}
    refused = foreign = 0
    with EngineProcess() as e:
        r = e.call("game.new", scenario=sid, seed=41, players=BOTH_HUMAN)
        gid, view = r["game"], r["view"]
        assert [s["name"] for s in view["seats"]] == NAMES
        while not view["over"]:
            side = view["to_act"]
            seat = pick.choice(NAMES) if side == "allied" else None
            params = {"seat": seat} if seat else {}
            acts = e.call("game.actions", game=gid, side=side, **params)["actions"]
            if seat and pick.random() < 0.1:
                others = [a for a in e.call("game.actions", game=gid, side=side)["actions"]
                          if a["seat"] not in (None, seat)]
                if others:
                    with pytest.raises(EngineError) as err:
                        e.call("game.act", game=gid, side=side, seat=seat, action=fill(others[0], rng))
                    assert err.value.clause == "DD-10.16" and seat in err.value.reason
                    foreign += 1
            assert all(a.get("seat") in (None, seat) for a in acts) if seat else True
            choice = acts[rng.below(len(acts))]
            try:
                out = e.call("game.act", game=gid, side=side, action=fill(choice, rng), **params)
            except EngineError as err:
                assert err.code == 1 and err.reason and err.clause, err
                refused += 1
                assert refused < 2000
                continue
            if seat:
                acted[seat] += 1
            for ev in out["events"]:
                if ev["type"] == "roll" and ev.get("dice"):
                    check_roll(ev)
            view = out["view"]
        result = view["result"]
        view = e.call("game.view", game=gid, side="allied")
        assert isinstance(result["vp"], int)  # DD-10.17: one tally for the team, no VP per seat
        assert all("vp" not in s for s in view["seats"])
        assert all("DD-3.17" in line for line in result["scoring"] if "casualty" in line)  # C-02
        save = e.call("game.save", game=gid)["save"]
        assert ({s["name"]: sorted(s["commands"]) for s in save["seats"]["allied"]}
                == {n: sorted(s["commands"]) for n, s in seats_of(view).items()})
        seated = [x for x in save["actions"] if x["side"] == "allied"]
        assert seated and all(x["seat"] in NAMES for x in seated)
        loaded = e.call("game.load", save=save)
        assert loaded["hash"] == save["hash"]
        assert loaded["view"]["hash"] == view["hash"]  # the side's own view, as before the save
        assert seats_of(loaded["view"]) == seats_of(view)
    assert min(acted.values()) > 0 and foreign > 0


def coop_save(engine, actions=6):
    """A short co-op game and its save: each seat in turn holds its element."""
    gid = new(engine)["game"]
    for seat, element in [("Brody", "sq1"), ("Cruz", "sq2"), ("Ames", "hq")][:actions]:
        engine.call("game.act", game=gid, side="allied", seat=seat, action=offer(engine, gid, element))
        engine.call("game.act", game=gid, side="insurgent", action={"type": "pass"})
    return engine.call("game.save", game=gid)["save"]


def test_save_and_load_check_the_seats(engine):
    save = coop_save(engine)
    assert engine.call("game.load", save=save)["hash"] == save["hash"]
    bad = json.loads(json.dumps(save))
    first = next(x for x in bad["actions"] if x.get("seat") == "Brody")
    first["seat"] = "Cruz"
    with pytest.raises(EngineError, match=r"actions\[0\] is refused on replay: Cruz does not command "
                                          r"1st Squad \(sq1\).*\(DD-10.16\)") as err:
        engine.call("game.load", save=bad)
    assert err.value.code == 3
    for mutate, words in [
        (lambda d: d["actions"][0].pop("seat"), r"actions\[0\]\.seat: None is not a seat"),
        (lambda d: d["actions"][0].update(seat="Zed"), r"actions\[0\]\.seat: 'Zed' is not a seat"),
        (lambda d: d["actions"][1].update(seat="Ames"), r"actions\[1\]\.seat: the insurgent side is not played"),
        (lambda d: d["seats"]["allied"][1].update(commands=["sq9"]), r"field 'seats\.allied\[1\]\.commands': no "
                                                                     r"element 'sq9'"),
        (lambda d: d["seats"]["allied"].pop(), r"field 'seats\.allied': no seat commands 'sq2'"),
        (lambda d: d["seats"].update(allied="Ames"), r"field 'seats\.allied': a list"),
        (lambda d: d["seats"].update(nobody=[]), r"field 'seats\.nobody': no such side"),
        (lambda d: d.update(seats=[]), r"field 'seats' must be an object"),
    ]:
        doc = json.loads(json.dumps(save))
        mutate(doc)
        with pytest.raises(EngineError, match=words) as err:
            engine.call("game.load", save=doc)
        assert err.value.code == 3


def test_a_save_without_seats_still_loads(engine):
    gid = new(engine, players={"allied": "human", "insurgent": "human"})["game"]
    engine.call("game.act", game=gid, side="allied", action=offer(engine, gid, "sq1"))
    save = engine.call("game.save", game=gid)["save"]
    assert "seats" not in save and all("seat" not in x for x in save["actions"])
    loaded = engine.call("game.load", save=save)
    assert loaded["hash"] == save["hash"] and "seats" not in loaded["view"]


# -- seats on separate machines: the TCP server shares one game ----------------------------------------
def test_two_connections_play_one_coop_game_over_tcp():
    """Two players, two connections to `dinkydau engine --listen`: each acts as its own seat, and sees
    the other's activation in the shared pool (DD-10.16)."""
    proc = subprocess.Popen([sys.executable, "-m", "game", "engine", "--listen", "127.0.0.1:0"],
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        port = int(re.search(r"listening on \S+:(\d+)", line).group(1))
        with EngineSocket("127.0.0.1", port) as brody:
            new_game = brody.call("game.new", scenario="village_sweep", seed=3, players=BOTH_HUMAN)
            gid = new_game["game"]
            cruz = EngineSocket("127.0.0.1", port, token=new_game["tokens"]["seats"]["allied"]["Cruz"])
            mine = brody.call("game.actions", game=gid, side="allied", seat="Brody")["actions"]
            hold = next(a for a in mine if a.get("element") == "sq1" and a["type"] == "hold")
            cp = brody.call("game.view", game=gid, side="allied")["sides"]["allied"]["cp"]
            with pytest.raises(EngineError) as err:
                cruz.call("game.act", game=gid, side="allied", seat="Cruz", action=hold)
            assert err.value.clause == "DD-10.16"
            brody.call("game.act", game=gid, side="allied", seat="Brody", action=hold)
            assert cruz.call("game.view", game=gid, side="allied")["sides"]["allied"]["cp"] == cp - hold["cost"]
            cruz.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stderr.close()
