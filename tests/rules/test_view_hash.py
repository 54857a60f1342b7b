"""A side's view hash (views.view_hash) is the sha256 of the JSON of what the side is shown, keys sorted
(DESIGN §6: a side's hash is of what it is shown, never of the hidden state)."""

from __future__ import annotations

import hashlib
import json

import pytest

from game.rules.game import Game
from game.rules.scenario import resolve_scenario
from game.rules.turn import start_turn
from game.rules.views import view_hash
from tests.rules.test_changes import random_play


def _reference(view: dict) -> str:
    """The view's hash worked out another way: the standard library's JSON, keys sorted, compact."""
    shown = {k: v for k, v in view.items() if k != "hash"}
    return hashlib.sha256(json.dumps(shown, sort_keys=True, separators=(",", ":"),
                                     ensure_ascii=False).encode()).hexdigest()


def _both_views(g: Game) -> None:
    for side in ("allied", "insurgent"):
        v = g.view(side)
        assert v["hash"] == view_hash(v) == _reference(v) != ""


@pytest.mark.parametrize("sid", ["village_sweep", "rubber_plantation", "cu_chi", "thunder_road"])
def test_the_hash_is_of_the_view_as_shown(sid):
    g = Game(resolve_scenario(sid), 4, start=False)
    start_turn(g)
    _both_views(g)
    random_play(g, 4, 40, each=_both_views)  # DESIGN §6: after every act of a random game


def test_the_hash_reads_every_shown_value_and_no_key_order():
    g = Game(resolve_scenario("village_sweep"), 4)
    v = g.view("allied")
    reordered = dict(reversed(list(v.items())))
    assert view_hash(reordered) == v["hash"]
    moved = {**v, "stands": [{**v["stands"][0], "x": v["stands"][0]["x"] + 0.01}, *v["stands"][1:]]}
    assert view_hash(moved) != v["hash"]
