"""Co-op on the client (DD-10.16–10.17): one shared screen, the title menu, and one seat joining a game
over TCP. The seat check is the engine's; the client shows whose element is whose and sends each action
as the seat the engine names."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

import pytest

from game.client.app import engine_factory, parse_args
from game.client.team import acting_seat, element_title, parse_names, team_text

from .fake_engine import FakeEngine
from .test_demo import run_until
from .test_session import real_engine_or_skip

TEAM = ["Ames", "Brody", "Cruz"]
SEATS = [{"name": "Ames", "side": "allied", "commands": ["hq", "wpn"], "commander": True},
         {"name": "Brody", "side": "allied", "commands": ["sq1"], "commander": False},
         {"name": "Cruz", "side": "allied", "commands": ["sq2"], "commander": False}]


def test_seats_in_words():
    assert parse_names(" Ames, Brody,,Cruz ") == TEAM
    assert element_title(SEATS, "sq1", "1st Squad") == "1st Squad — Sgt. Brody"
    assert element_title(SEATS, "hq", "Platoon HQ") == "Platoon HQ — Lt. Ames"
    assert element_title([], "sq1", "1st Squad") == "1st Squad"
    text = team_text(SEATS, {"sides": {"allied": {"cp": 4, "vp": -2}}}, {"sq1": "1st Squad"}, "Cruz", "sq1")
    assert text.splitlines()[0] == "Team — shared CP 4, VP -2"  # DD-10.16–10.17: one pool, one tally
    assert "> Sgt. Brody: 1st Squad" in text and "Sgt. Cruz  (you): sq2" in text
    assert "Lt. Ames (Platoon Commander): hq, wpn" in text


def test_the_seat_an_action_goes_as():
    """DD-10.16: the engine names each action's seat; a side-wide one goes as the selected element's
    seat (the team chose it), else the Platoon Commander's; a networked client always sends its own."""
    assert acting_seat(SEATS, {"type": "hold", "element": "sq2", "seat": "Cruz"}, None, "sq1") == "Cruz"
    assert acting_seat(SEATS, {"type": "pass", "seat": None}, None, "sq1") == "Brody"
    assert acting_seat(SEATS, {"type": "pass", "seat": None}, None, None) == "Ames"
    assert acting_seat(SEATS, {"type": "pass"}, "Cruz", "sq1") == "Cruz"
    assert acting_seat([], {"type": "pass"}, None, None) is None


def test_command_line():
    args = parse_args(["play", "village_sweep", "--coop", "Ames,Brody,Cruz"])
    assert args.coop == "Ames,Brody,Cruz" and engine_factory(args) is None
    args = parse_args(["--connect", "127.0.0.1:7777", "--game", "g1", "--token", "abc"])
    assert callable(engine_factory(args))
    for bad in (["--game", "g1"], ["--seat", "Brody"], ["--connect", "nowhere"], ["--token", "abc"],
                ["--connect", "127.0.0.1:7777", "--game", "g1"]):  # joining a game takes the seat's token
        with pytest.raises(ValueError):
            engine_factory(parse_args(bad))


def test_coop_on_one_shared_screen(make_app):
    real_engine_or_skip()
    app = make_app()
    app.open_game_sync("village_sweep", mode="coop", team=TEAM, seed=3)
    assert [s["name"] for s in app.seats] == TEAM
    assert app.players == {"allied": "human", "insurgent": "ai"}
    app.select_element("sq1")
    assert app.hud.panel_title.getText() == "1st Squad — Sgt. Brody"
    team = app.hud.team_text.getText()
    assert "shared CP" in team and "> Sgt. Brody" in team and not app.hud.team_frame.is_hidden()
    cp = app.view["sides"]["allied"]["cp"]
    hold = next(a for a in app.element_actions("sq2") if a["type"] == "hold")
    assert hold["seat"] == "Cruz"
    app.send_action(hold)  # sq1 is selected, but the action is 2nd Squad's: it goes as Cruz
    app.settle(seconds=0.5)
    log = app.link.call("game.save", game=app.game)["save"]["actions"]
    assert log[0]["seat"] == "Cruz" and log[0]["action"]["element"] == "sq2"
    view = app.link.call("game.view", game=app.game, side="allied")
    assert view["sides"]["allied"]["cp"] <= cp - hold["cost"]


def test_the_title_menu_offers_coop(make_app):
    engine = FakeEngine()
    app = make_app(lambda: engine)
    app.show_menu(argparse.Namespace(side="allied", mode="solo", threat=2))
    app.settle(seconds=0.1)
    assert app.menu.team_entry is None
    app.menu._set("mode", "coop")
    app.menu.team_entry.set("Ames, Brody")
    app.menu._start()
    app.settle(seconds=0.3)
    assert engine.players["allied"] == {"seats": ["Ames", "Brody"]}


@pytest.fixture
def tcp_engine():
    proc = subprocess.Popen([sys.executable, "-m", "game", "engine", "--listen", "127.0.0.1:0"],
                            stderr=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r"listening on \S+:(\d+)", proc.stderr.readline()).group(1))
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stderr.close()


def test_a_seat_joins_over_tcp(make_app, tcp_engine):
    """`dinkydau play --connect HOST:PORT --game g1 --token T`: the token names Brody's seat, only
    Brody's actions are offered, the other seats' elements show as teammates', and what a teammate does
    arrives by polling."""
    from game.engine.client import EngineSocket

    with EngineSocket("127.0.0.1", tcp_engine) as cruz:
        new = cruz.call("game.new", scenario="village_sweep", seed=3,
                        players={"allied": {"seats": TEAM}, "insurgent": "ai"})
        gid, brody_token = new["game"], new["tokens"]["seats"]["allied"]["Brody"]
        app = make_app(lambda: EngineSocket("127.0.0.1", tcp_engine, token=brody_token))
        app.join_game(gid, "allied", None)
        assert run_until(app, lambda: bool(app.actions), 20)
        assert app.my_seat == "Brody" and app.hud.overlay is None  # the token said which seat
        assert {a.get("seat") for a in app.actions} <= {"Brody", None}
        assert {a.get("element") for a in app.actions} == {"sq1", None}
        app.select_element("sq2")
        body = " ".join(app.hud.panel_body.getText().split())
        assert "a teammate's element: Sgt. Cruz commands it" in body and "no actions" not in body
        acts = cruz.call("game.actions", game=gid, side="allied", seat="Cruz")["actions"]
        cruz.call("game.act", game=gid, side="allied", seat="Cruz",
                  action=next(a for a in acts if a.get("element") == "sq2" and a["type"] == "hold"))
        assert run_until(app, lambda: any("2nd Squad holds" in line for line in app.log_history), 20), \
            app.log_history[-5:]
        app.close_game()  # leaves the shared game to the others
        assert cruz.call("game.view", game=gid, side="allied")["game"] == gid
