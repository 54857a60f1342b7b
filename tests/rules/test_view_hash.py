"""A side's view hash (views.view_hash) pieced together from the summary's fixed JSON is the sha256 of
the whole view's JSON, byte for byte (DESIGN §6: a side's hash is of what it is shown)."""

from __future__ import annotations

import pytest

from game.rules.game import Game
from game.rules.scenario import resolve_scenario
from game.rules.turn import start_turn
from game.rules.views import view_hash
from tests.rules.test_changes import random_play


def _both_views(g: Game) -> None:
    for side in ("allied", "insurgent"):
        v = g.view(side)
        assert v["hash"] == view_hash(v) != ""


@pytest.mark.parametrize("sid", ["village_sweep", "rubber_plantation", "cu_chi", "thunder_road"])
def test_the_pieced_hash_is_the_hash_of_the_whole_view(sid):
    g = Game(resolve_scenario(sid), 4, start=False)
    start_turn(g)
    _both_views(g)
    random_play(g, 4, 40, each=_both_views)  # DESIGN §6: after every act of a random game
