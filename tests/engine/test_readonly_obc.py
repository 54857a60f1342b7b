"""Reading never changes a game of One Brain-Cell (DESIGN §5): the read-only property of test_readonly.py, for
the third ruleset.

Random games of hot_lz are played in two engines side by side: the *reader* asks every read-only method
before each act (``game.view`` of each side and the referee, ``game.actions`` of both sides, ``game.preview``
of offered moves and shots, ``game.events``, ``los.check`` from a man to a man and to a point, ``game.save``);
the *plain* engine asks nothing. Both get the same actions, picked at random from the reader's listing, and
after every act or computer step their answers, state hashes and every event must be the same; at the end
the reader's save loads in the plain engine to the same hash.
"""

from __future__ import annotations

from tests.engine.readonly_rulesets import Case, caught, three_games
from tests.engine.test_fog_obc import LIKED, concrete, scenario


def people(view: dict, side: str) -> tuple[list[str], list[str]]:
    return ([m["id"] for m in view["men"] if m["side"] == side and m["status"] == "ok" and m["on_table"]],
            [m["id"] for m in view["men"] if m["side"] != side])


CASE = Case(people, concrete, ("move", "fire"), (48, 48), LIKED)


def test_reading_everything_before_each_act_changes_nothing_in_hot_lz():  # DESIGN §5
    tally = three_games(CASE, scenario, 710)
    assert not tally.divergences, "\n".join(tally.divergences)
    assert tally.games == 3 and tally.acts + tally.steps >= 40
    assert {"game.view", "game.actions", "game.preview", "game.events", "los.check", "game.save"} <= set(tally.reads)


def test_the_property_catches_a_read_that_changes_the_game():
    """The comparison itself: a read that pins a man (OBC-30) is caught."""
    def pins(reader, _method, params) -> None:
        for m in reader.game(params["game"]).state.men.values():
            m.stunned += 1

    assert caught(CASE, scenario(True), 710, pins).divergences
