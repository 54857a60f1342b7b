"""A side's view hash (views.view_hash) pieced together from the summary's fixed JSON is the sha256 of
the whole view's JSON, byte for byte (DESIGN §6: a side's hash is of what it is shown)."""

from __future__ import annotations

import math

import pytest

from game.rules.dice import Dice, seed_streams
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.scenario import resolve_scenario
from game.rules.turn import start_turn
from game.rules.views import view_hash


@pytest.mark.parametrize("sid", ["village_sweep", "rubber_plantation", "cu_chi", "thunder_road"])
def test_the_pieced_hash_is_the_hash_of_the_whole_view(sid):
    g = Game(resolve_scenario(sid), 4, start=False)
    start_turn(g)
    rng = Dice(seed_streams(4))
    for _ in range(40):
        if g.state.over:
            break
        for side in ("allied", "insurgent"):
            v = g.view(side)
            assert v["hash"] == view_hash(v) != ""
        side = g.state.to_act
        acts = g.legal_actions(side)
        pick = acts[rng.below(len(acts))]
        a = {k: x for k, x in pick.items() if k not in ("params", "label")}
        to = pick.get("params", {}).get("to")
        if to and "from" in to:
            r, th = to["max"] * rng.uniform("ai"), rng.uniform("ai") * 2 * math.pi
            a["to"] = [to["from"][0] + r * math.cos(th), to["from"][1] + r * math.sin(th)]
        try:
            g.act(side, a)
        except IllegalAction:
            pass
