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

import random
from typing import Any

from tests.engine.test_fog_obc import LIKED, concrete, scenario
from tests.engine.test_readonly import Process, Tally, _answer, first_difference

SIDES = ("allied", "insurgent")
PREVIEWABLE = ("move", "fire")


def read_everything(proc: Process, gid: str, rng: random.Random, tally: Tally, save: bool) -> tuple[dict, list, dict]:
    def ask(method: str, **params) -> Any:
        tally.read(method)
        return proc.call(method, {"game": gid, **params})

    views = {side: ask("game.view", side=side) for side in (*SIDES, "referee")}
    ref = views["referee"]
    offers: list[dict] = []
    for side in SIDES:
        listing = ask("game.actions", side=side)
        acts = listing["actions"] if isinstance(listing, dict) else []
        if side == ref["to_act"]:
            offers = acts
        previewable = [a for a in acts if a["type"] in PREVIEWABLE]
        for a in rng.sample(previewable, min(3, len(previewable))):
            ask("game.preview", side=side, action=concrete(a, views[side], rng))
        ask("game.events", side=side, since=rng.randint(0, max(0, views[side]["seq"])))
        mine = [m["id"] for m in views[side]["men"] if m["side"] == side and m["status"] == "ok" and m["on_table"]]
        theirs = [m["id"] for m in views[side]["men"] if m["side"] != side]
        if mine:
            ask("los.check", side=side, **{"from": rng.choice(mine), "to": rng.choice(theirs or mine)})
            ask("los.check", side=side, **{"from": rng.choice(mine),
                                           "to": [round(rng.uniform(0, 48), 2), round(rng.uniform(0, 48), 2)]})
    if save:
        ask("game.save")
    return ref, offers, views


def play(raw: dict, seed: int, players: dict, max_acts: int, tally: Tally, reader: Process, plain: Process) -> None:
    rng = random.Random(seed)
    reader.new_engine()
    plain.new_engine()
    new = {"scenario": raw, "seed": seed, "players": players, "referee": True, "side": "referee"}
    r0, p0 = reader.call("game.new", new), plain.call("game.new", new)
    assert isinstance(r0, dict), r0
    gid = r0["game"]
    tally.games += 1
    where = f"{raw['scenario']['id']} seed {seed}"
    assert _answer(r0) == _answer(p0), f"{where}: game.new differs"
    for n in range(max_acts):
        ref, offers, views = read_everything(reader, gid, rng, tally, save=n % 10 == 9)
        if ref["over"] or ref["to_act"] is None:
            break
        side = ref["to_act"]
        if players[side] == "ai":
            method, params = "game.step", {"game": gid, "side": "referee"}
            tally.steps += 1
        else:
            offer = rng.choices(offers, [LIKED.get(o["type"], 1.0) for o in offers])[0]
            method, params = "game.act", {"game": gid, "side": side, "action": concrete(offer, views[side], rng)}
            tally.acts += 1
        r, p = reader.call(method, params), plain.call(method, params)
        if isinstance(r, tuple):
            tally.refused += 1
        rg, pg = reader.game(gid), plain.game(gid)
        if rg.hash() != pg.hash() or rg.events != pg.events or _answer(r) != _answer(p):
            tally.divergences.append(f"{where}, after {method} {n} {params.get('action', '')}:\n  "
                                     + first_difference(rg, pg, _answer(r), _answer(p)))
            return
    doc = reader.call("game.save", {"game": gid})
    loaded = plain.call("game.load", {"save": doc["save"]})
    if not isinstance(loaded, dict) or loaded["hash"] != reader.game(gid).hash():
        tally.divergences.append(f"{where}: the reader's save does not load: {loaded}")


def test_reading_everything_before_each_act_changes_nothing_in_hot_lz():  # DESIGN §5
    tally = Tally()
    reader, plain = Process(), Process()
    for n, (close, ai) in enumerate(((True, False), (True, True), (False, True))):
        players = {"allied": "human", "insurgent": "ai" if ai else "human"}
        play(scenario(close), 710 + n, players, 30, tally, reader, plain)
    assert not tally.divergences, "\n".join(tally.divergences)
    assert tally.games == 3 and tally.acts + tally.steps >= 40
    assert {"game.view", "game.actions", "game.preview", "game.events", "los.check", "game.save"} <= set(tally.reads)


def test_the_property_catches_a_read_that_changes_the_game():
    """The comparison itself: a read that pins a man (OBC-30) is caught."""
    tally = Tally()
    reader, plain = Process(), Process()
    honest = reader.call

    def pins(method: str, params: dict) -> Any:
        if method == "game.actions" and params.get("side") == "allied":
            for m in reader.game(params["game"]).state.men.values():
                m.stunned += 1
        return honest(method, params)

    reader.call = pins  # type: ignore[method-assign]
    play(scenario(True), 710, {"allied": "human", "insurgent": "human"}, 10, tally, reader, plain)
    assert tally.divergences
