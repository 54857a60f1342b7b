"""Reading never changes a game of Tet '68 (DESIGN §5): the read-only property of test_readonly.py, for the
second ruleset.

Random games of hue_street are played in two engines side by side: the *reader* asks every read-only method
before each act (``game.view`` of each side and the referee, ``game.actions`` of both sides, ``game.preview``
of offered moves, charges, shots, cones, M79 rounds and grenades, ``game.events``, ``los.check`` from a figure
to a figure and to a point, ``game.save``); the *plain* engine asks nothing. Both get the same actions, picked
at random from the reader's listing, and after every act or computer step their answers, state hashes and
every event must be the same; at the end the reader's save loads in the plain engine to the same hash.
"""

from __future__ import annotations

import random

from tests.engine.readonly_rulesets import Case, caught, three_games
from tests.engine.test_fog import fill
from tests.engine.test_fog_tet68 import LIKED, scenario


def concrete(offer: dict, rng: random.Random) -> dict:
    """An action from an offer, its aim point often on a figure the side sees (as a player aims)."""
    action = fill(offer, rng)
    if "at" in offer.get("params", {}) and offer.get("targets") and rng.random() < 0.7:
        t = rng.choice(offer["targets"])
        action["at"] = [t["x"], t["y"]]
    return action


def people(view: dict, side: str) -> tuple[list[str], list[str]]:
    return ([f["id"] for f in view["figures"] if f["side"] == side and f["alive"]],
            [f["id"] for f in view["figures"] if f["side"] != side])


CASE = Case(people, lambda offer, _view, rng: concrete(offer, rng),
            ("move", "charge", "fire", "snap_fire", "cone", "launch", "grenade"), (36, 24), LIKED)


def test_reading_everything_before_each_act_changes_nothing_in_hue_street():  # DESIGN §5
    tally = three_games(CASE, scenario, 610)
    assert not tally.divergences, "\n".join(tally.divergences)
    assert tally.games == 3 and tally.acts + tally.steps >= 40
    assert {"game.view", "game.actions", "game.preview", "game.events", "los.check", "game.save"} <= set(tally.reads)


def test_the_property_catches_a_read_that_changes_the_game():
    """The comparison itself: a read that spends a grenade (G-41) is caught."""
    def spends(reader, _method, params) -> None:
        for f in reader.game(params["game"]).state.figures.values():
            f.grenades = max(0, f.grenades - 1)

    assert caught(CASE, scenario(True), 610, spends).divergences
