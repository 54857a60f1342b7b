"""What an offer tells a client to draw and ask (docs/protocol.md, game.actions): ``preview`` is true
exactly where ``game.preview`` answers the action, and the geometry in the params is the rule's own
(the beaten zone, the LZ, the Overwatch arc and corridor, read from the rules' tables)."""

from __future__ import annotations

import random

from game.engine.client import EngineError, InProcessEngine
from game.rules.casevac import load_casevac
from game.rules.fire import combat
from tests.engine.test_fog import fill, plantation_with_reserves


def _games(e, n_actions=30):
    """Offers met in a few random games, each with the game it was offered in (still open)."""
    for n, (table, seed) in enumerate([("village_sweep", 3), (plantation_with_reserves(), 5), ("village_sweep", 11)]):
        rng = random.Random(n)
        gid = e.call("game.new", scenario=table, seed=seed, players={"allied": "human", "insurgent": "human"},
                     referee=True, side="referee")["game"]
        for _ in range(n_actions):
            v = e.call("game.view", game=gid, side="referee")
            if v["over"] or v["to_act"] is None:
                break
            side = v["to_act"]
            acts = e.call("game.actions", game=gid, side=side)["actions"]
            yield gid, side, acts, rng
            try:
                e.call("game.act", game=gid, side=side, action=fill(rng.choice(acts), rng))
            except EngineError:
                pass
        e.call("game.close", game=gid)


def test_preview_is_true_exactly_where_game_preview_answers():
    e = InProcessEngine()
    answered = refused = 0
    for gid, side, acts, rng in _games(e):
        for offer in rng.sample(acts, min(len(acts), 6)):
            assert isinstance(offer["preview"], bool), offer
            try:
                e.call("game.preview", game=gid, side=side, action=fill(offer, rng))
                ok, why = True, ""
            except EngineError as exc:
                ok, why = False, exc.message
            if offer["preview"]:
                # the action itself may be refused (a point out of range), never for having no odds
                assert ok or ("no odds for action" not in why and "is not on the table" not in why), (offer, why)
                answered += ok
            else:
                assert not ok, offer
                refused += 1
    assert answered >= 5 and refused >= 20, (answered, refused)


def test_the_geometry_in_the_params_is_the_rules_own():
    e = InProcessEngine()
    seen = set()
    bz, ow, lz = combat().beaten_zone, combat().overwatch, load_casevac().dustoff
    for _, _, acts, _ in _games(e, 12):
        for a in acts:
            p = a["params"]
            if a["type"] == "area_fire":
                assert p["at"]["radius"] == bz.diameter / 2 and a["preview"] is not bool(a.get("from_blind"))
            elif a["type"] == "pop_smoke":
                assert p["at"]["radius"] == lz.lz_radius and p["colour"]["default"] == lz.default_colour
            elif a["type"] == "set_overwatch":
                assert (p["facing"]["arc"], p["corridor"]["width"]) == (ow.arc, ow.corridor_width)
                assert p["facing"]["reach"] >= 24.0
            elif a["type"] in ("move", "blind_move"):
                assert "radius" not in p["to"]  # a destination has no template
            else:
                continue
            seen.add(a["type"])
    assert {"area_fire", "set_overwatch", "move", "blind_move"} <= seen, seen
