"""Every action playable from the table: a scripted player fills every parameter kind the engine offers
(a Blind or Echo marker, a casualty token, a choice, a fireteam, a squad-to-Echo map) with the mouse,
through the real engine process, and the engine's events come back (the Spotting roll, Recon by Fire,
Buddy Aid, a Litter Team, a sprung reserve). What the client draws and whether it asks for odds comes
from the offer (``preview``, a point's ``radius``, an angle's ``arc`` and ``reach``); and random games
through the engine offer no parameter kind the composer does not handle, and emit no event the
presenter neither plays nor declares log-only."""

from __future__ import annotations

import math
import random

from game.client import presenter as pr
from game.client.app import PARAM_KINDS

from .test_session import click_world, real_engine_or_skip


def _st(sid, stype, x, y, facing=90):
    return {"id": sid, "type": stype, "at": [x, y], "facing": facing}


def _box(x0, y0, x1, y1):
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def fog_table() -> dict:
    """Two Insurgent Blinds in the open in front of the 1st Squad (both Echoes at once, DD-4.9 (a)); the
    2nd Squad split between two copses (two fireteams, DD-4.18); a Green Ghost reserve with an ambush
    point in a thicket (DD-2.26, DD-4.8)."""
    return {
        "scenario": {"id": "client_fog", "title": "Fog at the wood's edge", "table": {"width": 40, "height": 36},
                     "turns": 2},
        "terrain": [{"id": "copse_w", "type": "light", "polygon": _box(21, 8, 25, 12)},
                    {"id": "copse_e", "type": "light", "polygon": _box(29, 8, 33, 12)},
                    {"id": "thicket", "type": "light", "polygon": _box(30, 26, 38, 34)}],
        "side": [{"id": "allied", "faction": "us_army"}, {"id": "insurgent", "faction": "vc_main_force"}],
        "blind": [{"id": "N1", "side": "insurgent", "at": [12, 22]},
                  {"id": "N2", "side": "insurgent", "at": [20, 22], "dummy": True}],
        "ambush_point": [{"id": "amb1", "at": [34, 30], "kind": "ambush"}],
        "element": [
            {"id": "hq", "side": "allied", "name": "HQ", "kind": "hq",
             "stand": [_st("pc", "us_platoon_commander", 6, 6), _st("rto", "us_rto", 7.3, 6)]},
            {"id": "wpn", "side": "allied", "name": "Gun Team", "kind": "weapons",
             "stand": [_st("mg", "us_mg_team", 4, 12)]},
            {"id": "sq1", "side": "allied", "name": "1st Squad", "kind": "squad",
             "stand": [_st("sl1", "us_squad_leader", 10, 8.5), _st("sc", "us_scout", 12, 10),
                       _st("a", "us_rifle_team", 14.1, 10)]},
            {"id": "sq2", "side": "allied", "name": "2nd Squad", "kind": "squad",
             "stand": [_st("sl2", "us_squad_leader", 23, 9), _st("c", "us_rifle_team", 23, 10.5),
                       _st("d", "us_rifle_team", 31, 10)]},
            {"id": "nv", "side": "insurgent", "name": "NVA Squad", "kind": "squad", "blind": "N1",
             "stand": [_st("n1", "nva_rifle_team", 12, 22, 270), _st("n2", "nva_rifle_team", 14.1, 22, 270)]},
            {"id": "gg", "side": "insurgent", "name": "Local cell", "kind": "cell", "reserve": True,
             "stand": [_st("g1", "vc_rifle_cell", 4, 30, 270), _st("g2", "vc_rifle_cell", 6.2, 30, 270)]},
        ]}


def casualty_table() -> dict:
    """A VC sniper 12" from the 1st Squad's scout, the Insurgents first: at seed 4 its shot kills the
    scout, whose casualty token lies in base contact with rifle team ``a`` (DD-6.1, DD-2.16)."""
    return {
        "scenario": {"id": "client_casualty", "title": "Man down", "table": {"width": 36, "height": 36},
                     "turns": 2, "first_side": "insurgent"},
        "terrain": [],
        "side": [{"id": "allied", "faction": "us_army"}, {"id": "insurgent", "faction": "vc_main_force"}],
        "element": [
            {"id": "hq", "side": "allied", "name": "HQ", "kind": "hq", "stand": [_st("pc", "us_platoon_commander", 30, 30)]},
            {"id": "sq1", "side": "allied", "name": "1st Squad", "kind": "squad",
             "stand": [_st("sc", "us_scout", 12, 16), _st("a", "us_rifle_team", 12, 17.14),
                       _st("b", "us_rifle_team", 14.1, 17.14)]},
            {"id": "vc", "side": "insurgent", "name": "VC Sniper", "kind": "cell", "stand": [_st("v1", "vc_sniper", 12, 4)]},
        ]}


CASUALTY_SEED = 4


def _offer(app, kind, element=None, **match):
    """The side's offer of ``kind`` (for ``element``), an ordinary activation before an emergency one."""
    for a in sorted(app.actions, key=lambda a: bool(a.get("emergency"))):
        if a["type"] == kind and (element is None or a.get("element") == element) \
                and all(a.get(k) == v for k, v in match.items()):
            return a
    raise AssertionError(f"no {kind} offer for {element}: {[(a['type'], a.get('element')) for a in app.actions]}")


def _table(make_app, scenario, side, seed, size=(320, 180)):
    from game.client.presenter import INSTANT

    app = make_app(size=size)
    app.open_game_sync(scenario, side=side, mode="hotseat", seed=seed)
    app.autosave_enabled = False
    app.presenter.set_speed(INSTANT)
    app.frame_camera("top")
    app.settle()
    seen: list[dict] = []
    app.listeners.append(lambda events: seen.extend(events))
    return app, seen


def _hand_to(app, side):
    """The hot-seat hand-over: the next player takes the table."""
    app.settle()
    assert app.view.get("to_act") == side, (app.view.get("to_act"), app.hud.prompt.getText())
    app._take_over(side)
    app.settle()
    assert app.viewing == side and app.actions


def _click_marker(app, what, ident):
    nodes = app.scene.pieces.blinds if what == "blind" else app.scene.pieces.markers
    p = nodes[ident].get_pos()
    click_world(app, p.x, p.y, p.z + 0.05)


def _buttons(app):
    return [b["text"] for b in app.hud.buttons]


def test_spotting_a_reserve_a_fireteam_and_recon_by_fire_from_the_table(make_app, tmp_path):
    real_engine_or_skip()
    app, seen = _table(make_app, fog_table(), "allied", 1)
    assert {b["id"]: b["state"] for b in app.view["blinds"]} == {"N1": "echo", "N2": "echo"}

    # what is drawn comes from the offer: the beaten zone's circle, the Overwatch arc, its reach and the
    # corridor's width; and whether odds are asked for
    area = _offer(app, "area_fire", "wpn")
    assert area["preview"] is True and area["params"]["at"]["radius"] == 1.5  # DD-5.27: a 3" circle
    app.choose_action(area)
    assert app.pending["tool"].radius == area["params"]["at"]["radius"]
    app.cancel()
    ow = _offer(app, "set_overwatch", "sq1")
    facing, corridor = ow["params"]["facing"], ow["params"]["corridor"]
    assert ow["preview"] is False and (facing["arc"], facing["reach"], corridor["width"]) == (90.0, 24.0, 2.0)
    app.choose_action(ow)
    lo, hi = app.pending["tool"].arc.get_tight_bounds()
    assert abs(max(hi.x, hi.y, -lo.x, -lo.y) - facing["reach"]) < 0.2  # drawn out to the offer's reach
    assert abs((hi.x - lo.x) - 2 * facing["reach"] * math.sin(math.radians(facing["arc"] / 2))) < 0.2  # 90° wide
    assert "90° arc" in app.hud.panel_body.getText()
    app._corridor_instead()
    assert app.pending["tool"].width == corridor["width"]
    app.cancel()

    # Spotting Test (DD-4.12): the Echoes are ringed; a click on one names it; the scout's optional
    # second Echo is skipped with Enter; the engine says spotting has no odds, so the action goes at once
    spot = _offer(app, "spot", "sq1")
    assert spot["preview"] is False and spot["params"]["target"]["kind"] == "blind"
    app.select_element("sq1")
    app.choose_action(spot)
    assert app.scene.pieces.highlight_choices.get_num_children() >= 4  # a ring and a fill round each Echo
    assert any("Echo N1" in t for t in _buttons(app))
    app.screenshot(str(tmp_path / "blind_pick.png"))
    _click_marker(app, "blind", "N1")
    assert app.pending["values"] == {"target": "N1"} and app.pending["todo"][0][0] == "second"
    assert any(t.startswith("Skip") for t in _buttons(app))
    app.confirm()
    app.settle()
    rolls = [e for e in seen if e["type"] == "roll" and str(e.get("purpose", "")).startswith("Spotting")]
    assert rolls and rolls[0]["element"] == "sq1", seen

    # Springing a reserve (DD-2.26): a side action (the reserve has no stands on the table); its ambush
    # point is a choice, ringed on the table, picked by a click there
    _hand_to(app, "insurgent")
    spring = _offer(app, "spring_reserve", "gg")
    assert spring in app.side_actions() and spring["params"]["point"]["kind"] == "choice"
    app.choose_action(spring)
    assert any("amb1" in t for t in _buttons(app)) and app.scene.pieces.highlight_choices is not None
    app.screenshot(str(tmp_path / "choice.png"))
    click_world(app, 34.3, 30.2, app.scene.table.height_at(34.3, 30.2))
    app.settle()
    assert any(e["type"] == "reserve_deployed" and e["element"] == "gg" for e in seen), seen

    # A split squad's fireteam spots (DD-4.18): the offer names the team; Done sends it as listed
    _hand_to(app, "allied")
    echoes = [b["id"] for b in app.view["blinds"] if b["state"] == "echo"]
    team = _offer(app, "spot", "sq2")
    assert team["params"]["team"]["kind"] == "stands"
    app.choose_action(team)
    _click_marker(app, "blind", echoes[0])
    app.confirm()  # no second Echo
    assert app.pending["todo"][0][0] == "team" and app.pending["stands"] == ["sl2", "c"]
    assert app.scene.pieces.highlight_choices is not None
    click_world(app, 23, 10.5, app.scene.table.height_at(23, 10.5) + 0.1)  # drop a stand: Done is refused
    assert app.pending["stands"] == ["sl2"] and not app.hud.buttons[2]["state"] == "normal"
    app.confirm()
    assert app.pending is not None and app.pending["todo"][0][0] == "team"
    app._toggle_stand("c")
    before = len(seen)
    app.confirm()
    app.settle()
    assert any(e["type"] == "roll" and str(e.get("purpose", "")).startswith("Spotting") and e["element"] == "sq2"
               for e in seen[before:]), (app.hud.prompt.getText(), app.log_history[-4:])

    # Recon by Fire (DD-4.25) on an Echo still there: its roll, and the firer goes Low on Ammo
    _hand_to(app, "insurgent")
    app.quick_pass()
    _hand_to(app, "allied")
    echoes = [b["id"] for b in app.view["blinds"] if b["state"] == "echo"]
    rbf = _offer(app, "recon_by_fire", "hq")
    target = next(c for c in rbf["params"]["target"]["choices"] if c in echoes)
    app.choose_action(rbf)
    _click_marker(app, "blind", target)
    app.settle()
    assert any(e["type"] == "fire" and e.get("kind") == "recon_by_fire" and e.get("blind") == target for e in seen)
    assert any(e["type"] == "roll" and e.get("purpose") == "Recon by Fire" for e in seen)
    assert next(e for e in app.view["elements"] if e["id"] == "hq")["low_ammo"]


def test_a_recon_sweep_assigns_squads_to_echoes_by_clicks(make_app):
    real_engine_or_skip()
    app, seen = _table(make_app, fog_table(), "allied", 1)
    sweep = _offer(app, "recon_sweep", "hq")
    assert sweep["params"]["assign"]["kind"] == "map"
    app.choose_action(sweep)
    key = app.pending["map"]["left"][0]
    assert key == "sq1" and any("engine's choice" in t for t in _buttons(app))
    _click_marker(app, "blind", "N2")
    if app.pending is not None:  # other squads may sweep too: Enter leaves them to the engine
        assert app.pending["map"]["value"] == {"sq1": "N2"}
        app.confirm()
    app.settle()
    assert any(e["type"] == "roll" and e.get("element") == "sq1" and str(e.get("purpose", "")).startswith("Spotting")
               for e in seen), seen


def test_buddy_aid_and_a_litter_team_from_the_table(make_app):
    real_engine_or_skip()
    app, seen = _table(make_app, casualty_table(), "insurgent", CASUALTY_SEED)
    # the sniper's shot: the target is a ringed stand; the engine offers odds for it (preview)
    shot = _offer(app, "fire", "vc")
    assert shot["preview"] is True
    app.choose_action(shot)
    p = app.scene.pieces.stands["sc"].node.get_pos()
    click_world(app, p.x, p.y, p.z + 0.1)
    app.settle()
    assert app.pending.get("confirm") and "At least one hit" in app.hud.panel_body.getText()
    app.confirm()
    app.settle()
    assert any(e["type"] == "casualty" and e.get("stand") == "sc" for e in seen), seen

    # Buddy Aid (DD-2.16): the wounded token is ringed and clicked (it lies against rifle team a); the
    # optional helper is left to the engine; rifle team a rolls 4+
    _hand_to(app, "allied")
    token = next(m for m in app.view["markers"] if m["kind"] == "casualty_token")
    aid = _offer(app, "buddy_aid", "sq1")
    assert aid["preview"] is False and aid["params"]["token"]["kind"] == "token"
    app.choose_action(aid)
    assert app.scene.pieces.highlight_choices is not None
    _click_marker(app, "marker", token["id"])
    assert app.pending["values"] == {"token": token["id"]} and app.pending["todo"][0][0] == "stand"
    app.confirm()  # Enter: the engine picks the stand giving aid
    app.settle()
    roll = next(e for e in seen if e["type"] == "roll" and e.get("purpose") == "Buddy Aid")
    assert roll["target"] == 4 and roll["element"] == "sq1"

    # a Litter Team (DD-6.2): the token, then the stand that carries it (the Allies are out of CP: the
    # Insurgents pass into the next turn, where they move first)
    for _ in range(3):
        _hand_to(app, "insurgent")
        app.quick_pass()
        app.settle()
        if app.view.get("to_act") == "allied":
            break
    _hand_to(app, "allied")
    litter = _offer(app, "litter", "sq1")
    app.choose_action(litter)
    _click_marker(app, "marker", token["id"])
    assert app.pending["todo"][0][0] == "stand"
    p = app.scene.pieces.stands["a"].node.get_pos()
    click_world(app, p.x, p.y + 0.3, p.z + 0.1)
    app.settle()
    assert any(e["type"] == "litter" and e.get("on") and e.get("stand") == "a" and e.get("token") == token["id"]
               for e in seen), seen
    # setting the casualty down is a free side action (G-33 (1)): the token, under its bearer, is clicked
    _hand_to(app, "insurgent")
    app.quick_pass()
    _hand_to(app, "allied")
    drop = _offer(app, "litter_drop")
    assert drop in app.side_actions() and drop["params"]["token"]["choices"] == [token["id"]]
    app.choose_action(drop)
    _click_marker(app, "marker", token["id"])
    app.settle()
    assert any(e["type"] == "litter" and e.get("on") is False and e.get("token") == token["id"] for e in seen)
    assert app.view["to_act"] == "allied"  # the impulse goes on
    app.settle(0.3)  # the next listing comes after the batch has played

    # Pop Smoke (DD-6.7): the colour is a choice with the engine's default; the LZ is drawn as the
    # offer's circle (a clear 6" opening, DD-6.6)
    smoke = _offer(app, "pop_smoke", "sq1")
    app.choose_action(smoke)
    assert app.pending["todo"][0][0] == "colour" and any("default: violet" in t for t in _buttons(app))
    app.hud.buttons[[b["text"] for b in app.hud.buttons].index("green")]["command"]()
    assert app.pending["values"] == {"colour": "green"}
    assert app.pending["tool"].radius == smoke["params"]["at"]["radius"] == 3.0
    app.cancel()


# -- the contract: what the engine offers and emits, the client handles -------------------------------
def _fill(offer: dict, rng: random.Random) -> dict:
    """A concrete action from an offer, every parameter kind filled at random (optional ones sometimes)."""
    out = {k: v for k, v in offer.items() if k not in ("params", "label", "preview")}
    for name, p in (offer.get("params") or {}).items():
        kind, choices = p.get("kind"), p.get("choices")
        if p.get("optional") and rng.random() < 0.5:
            continue
        if kind == "point" and p.get("from"):
            reach = (p.get("max") or 3.0) * rng.uniform(0.2, 0.95)
            ang = rng.uniform(0, 2 * math.pi)
            out[name] = [round(p["from"][0] + reach * math.cos(ang), 2), round(p["from"][1] + reach * math.sin(ang), 2)]
        elif kind == "angle":
            out[name] = round(rng.uniform(0, 360), 1)
        elif kind == "stands" and choices:
            out[name] = list(choices)
        elif kind == "map" and isinstance(choices, dict):
            out[name] = {k: rng.choice(v) for k, v in choices.items() if v}
        elif kind == "flag":
            out[name] = rng.random() < 0.5
        elif isinstance(choices, list) and choices:
            out[name] = rng.choice(choices)
    return out


def test_random_games_offer_only_kinds_the_client_handles_and_emit_only_events_it_shows():
    from game.engine.client import EngineError, InProcessEngine
    from game.rules.contract import contract
    from tests.engine.test_fog import plantation_with_reserves

    # every kind the engine's contract declares, the composer says how it fills
    assert set(contract().kinds) <= set(PARAM_KINDS), set(contract().kinds) - set(PARAM_KINDS)
    e = InProcessEngine()
    kinds: set[str] = set()
    types: set[str] = set()
    offered: set[str] = set()
    shot = [("insurgent", {"type": "fire", "element": "vc", "target": "sc"})]  # a casualty token to tend
    tables = [(fog_table(), 1, []), (casualty_table(), CASUALTY_SEED, shot), (plantation_with_reserves(), 5, []),
              ("village_sweep", 7, [])]
    for n, (table, seed, script) in enumerate(tables):
        rng = random.Random(n)
        new = e.call("game.new", scenario=table, seed=seed, players={"allied": "human", "insurgent": "human"},
                     referee=True, side="referee")
        gid = new["game"]
        types |= {ev["type"] for ev in new["events"]}
        for side, action in script:
            e.call("game.act", game=gid, side=side, action=action)
        for _ in range(40):
            v = e.call("game.view", game=gid, side="referee")
            if v["over"] or v["to_act"] is None:
                break
            acts = e.call("game.actions", game=gid, side=v["to_act"])["actions"]
            for a in acts:
                assert isinstance(a.get("preview"), bool), a
                kinds |= {p.get("kind") for p in (a.get("params") or {}).values()}
                offered.add(a["type"])
            weights = [0.1 if a["type"] == "pass" else 0.5 if a["type"] in ("move", "blind_move", "hold") else 2.0
                       for a in acts]
            try:
                e.call("game.act", game=gid, side=v["to_act"], action=_fill(rng.choices(acts, weights)[0], rng))
            except EngineError:
                pass
        types |= {ev["type"] for ev in e.call("game.events", game=gid, side="referee")["events"]}
        e.call("game.close", game=gid)
    assert {"spot", "recon_by_fire", "buddy_aid", "litter", "spring_reserve"} <= offered, offered
    assert {"blind", "token", "choice", "map", "stands"} <= kinds, kinds
    assert kinds <= set(PARAM_KINDS), kinds - set(PARAM_KINDS)
    assert pr.unhandled(types) == [], pr.unhandled(types)


def test_the_composer_asks_for_every_kind_it_declares(make_app):
    """A hand-made offer of each declared kind: the composer asks for it, never "cannot set yet"."""
    from .fake_engine import FakeEngine

    app = make_app(FakeEngine)
    app.open_game_sync("fake_patrol")
    el = "a_sq1"
    sid = app.scene.pieces.elements[el]["stands"][0]
    specs = {"element": {"choices": [el]}, "stand": {"choices": [sid]}, "blind": {"choices": ["b1"]},
             "token": {"choices": ["m1"]}, "feature": {"choices": ["hootch1"]}, "choice": {"choices": ["red", "green"]},
             "mode": {"choices": ["patrol"]}, "flag": {}, "stands": {"choices": [sid]},
             "map": {"keys": [el], "choices": {el: ["b1"]}}, "point": {"max": 6.0, "from": [10, 10], "radius": 1.5},
             "angle": {"arc": 90.0, "reach": 24.0}, "segment": {"width": 2.0}, "placements": {}}
    assert set(specs) == set(PARAM_KINDS)
    for k, spec in specs.items():
        app.choose_action({"type": "probe", "element": el, "label": f"probe {k}", "cost": 0,
                           "params": {"x": {"kind": k, **spec}}})
        assert app.pending is not None and app.pending["todo"], k
        assert "cannot set" not in app.hud.prompt.getText(), (k, app.hud.prompt.getText())
        app.cancel()
