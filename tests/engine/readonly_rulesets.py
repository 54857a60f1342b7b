"""The read-only property (DESIGN §5) for a ruleset other than Dinky Dau: random games played in two engines
side by side, the *reader* asking every read-only method before each act and the *plain* engine asking
nothing; after every act or computer step their answers, state hashes and events must be the same, and at the
end the reader's save loads in the plain engine to the same hash (test_readonly.py's ``Process`` and
``Tally``). What a ruleset brings is a ``Case``: how its view lists the people, how an offer is made an
action, which offers to preview, the table's size and which offers a random player likes."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.engine.test_readonly import Process, Tally, _answer, act_both, save_loads

SIDES = ("allied", "insurgent")


@dataclass(frozen=True)
class Case:
    people: Callable[[dict, str], tuple[list[str], list[str]]]
    """(the side's own able ids, the enemy ids it sees) in its view."""
    concrete: Callable[[dict, dict, random.Random], dict]
    """An action from an offer, given the side's view."""
    previewable: tuple[str, ...]
    size: tuple[float, float]
    liked: dict[str, float] = field(default_factory=dict)


def read_everything(case: Case, proc: Process, gid: str, rng: random.Random, tally: Tally,
                    save: bool) -> tuple[dict, list, dict]:
    """Every read-only method, asked: views of both sides and the referee, listings, previews of offers,
    events, line of sight from a man to a man and to a point, and (``save``) the save."""
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
        previewable = [a for a in acts if a["type"] in case.previewable]
        for a in rng.sample(previewable, min(3, len(previewable))):
            ask("game.preview", side=side, action=case.concrete(a, views[side], rng))
        ask("game.events", side=side, since=rng.randint(0, max(0, views[side]["seq"])))
        mine, theirs = case.people(views[side], side)
        if mine:
            ask("los.check", side=side, **{"from": rng.choice(mine), "to": rng.choice(theirs or mine)})
            ask("los.check", side=side, **{"from": rng.choice(mine), "to": [round(rng.uniform(0, case.size[0]), 2),
                                                                            round(rng.uniform(0, case.size[1]), 2)]})
    if save:
        ask("game.save")
    return ref, offers, views


def play(case: Case, raw: dict, seed: int, players: dict, max_acts: int, tally: Tally, reader: Process,
         plain: Process) -> None:
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
        ref, offers, views = read_everything(case, reader, gid, rng, tally, save=n % 10 == 9)
        if ref["over"] or ref["to_act"] is None:
            break
        side = ref["to_act"]
        if players[side] == "ai":
            method, params = "game.step", {"game": gid, "side": "referee"}
            tally.steps += 1
        else:
            offer = rng.choices(offers, [case.liked.get(o["type"], 1.0) for o in offers])[0]
            method, params = "game.act", {"game": gid, "side": side, "action": case.concrete(offer, views[side], rng)}
            tally.acts += 1
        if not act_both(reader, plain, gid, method, params, tally, f"{where}, after {method} {n}"):
            return
    save_loads(reader, plain, gid, tally, where)


def three_games(case: Case, scenario: Callable[[bool], dict], first_seed: int) -> Tally:
    """Three games of the property: close with both sides at random, close against the computer, the table as
    shipped against the computer; 30 acts or steps each."""
    tally = Tally()
    reader, plain = Process(), Process()
    for n, (close, ai) in enumerate(((True, False), (True, True), (False, True))):
        players = {"allied": "human", "insurgent": "ai" if ai else "human"}
        play(case, scenario(close), first_seed + n, players, 30, tally, reader, plain)
    return tally


def caught(case: Case, raw: dict, seed: int, meddle: Callable[[Process, str, dict], None]) -> Tally:
    """The comparison itself: ``meddle`` changes the reader's game on each of its Allied listings."""
    tally = Tally()
    reader, plain = Process(), Process()
    honest = reader.call

    def meddling(method: str, params: dict) -> Any:
        if method == "game.actions" and params.get("side") == "allied":
            meddle(reader, method, params)
        return honest(method, params)

    reader.call = meddling  # type: ignore[method-assign]
    play(case, raw, seed, {"allied": "human", "insurgent": "human"}, 10, tally, reader, plain)
    return tally
