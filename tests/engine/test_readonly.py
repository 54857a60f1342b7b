"""Reading never changes a game (DESIGN §5; issue 11): a property, tested.

``(scenario, seed, actions)`` fully determines every event and the state (DESIGN §5), so no read-only
call may change what a later action does. Random games are played in two engines side by side: the
*reader* asks every read-only method before each act (``game.view`` of each side and the referee,
``game.actions`` of both sides, ``game.preview`` of offered fire, area fire, assault and grenades,
``game.events``, ``los.check`` between stands and points, ``game.save``); the *plain* engine asks
nothing. Both get the same actions, picked at random from the reader's listing, and after every act
or AI step their answers, their state hashes and every event (all of them, before any filtering for a
side) must be the same. At the end the reader's save must load (DESIGN §5: loading replays and checks
the hash). Every shipped scenario is played: ``search_and_destroy`` and ``cu_chi`` against the Jungle Ghost
(DD-10.3, ``game.step`` for its turns), the others hot seat with the referee view.

The plain engine keeps process-wide caches of its own (:class:`Process`), as a second engine process
would: a save made in one process is loaded in another, so a sightline the reader's listings traced in
a batch (``Game.prefetch_los``) must equal the one the plain engine traces alone; and the reader's save
is loaded there.

``benchmarks/readonly_determinism.py`` plays the same games, many more of them.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

import game.rules.game as rules_game
from game.engine.session import Engine, RpcError
from game.rules.command import _command_status, command_status
from tests.engine.test_fog import fill

SIDES = ("allied", "insurgent")
PREVIEWABLE = ("fire", "fire_maneuver", "grazing_fire", "area_fire", "assault", "frag_grenade")
"""What ``game.preview`` answers (docs/protocol.md)."""
SCENARIOS = {
    "village_sweep": {"allied": "human", "insurgent": "human"},
    "rubber_plantation": {"allied": "human", "insurgent": "human"},
    "search_and_destroy": {"allied": "human", "insurgent": "ai"},  # a solo table: the Jungle Ghost (DD-10.3)
    "firebase_relief": {"allied": "human", "insurgent": "human"},  # fire support on call (DD chapter 8)
    "thunder_road": {"allied": "human", "insurgent": "human"},  # armour (DD chapter 7)
    "canal_assault": {"allied": "human", "insurgent": "human"},  # the river (DD-9A.6-9A.14)
    "cu_chi": {"allied": "human", "insurgent": "ai"},  # the tunnels (DD chapter 9B, the TUN module): the Ghost below
}
SUPPORT = ("call_fire", "mortar_fire", "call_air", "gunship_run")
"""Fire support (DD chapter 8): previewed over every scatter or deviation outcome (slow), so one a read."""
LIKED = ("fire", "spot", "recon_by_fire", "blind_move", "spring_reserve", "recon_sweep", "assault",
         "frag_grenade", "area_fire", "litter", "buddy_aid", *SUPPORT)
PROCESS_CACHES = ("_TABLES", "_RECENT", "_LOS_RESULTS", "_ELEVATIONS", "_LOS_CACHE")
"""game.rules.game's caches shared by every game in a process (ray scenes, traced sightlines, ground
heights), whichever of them this version has."""


class Process:
    """An engine as if in a process of its own: ``isolated``, with empty process-wide caches of its own
    (loading each table again, about a second each); else with this process's caches."""

    def __init__(self, isolated: bool = False):
        self.caches = {name: type(getattr(rules_game, name))() for name in PROCESS_CACHES
                       if isolated and hasattr(rules_game, name)}
        assert self.caches or not isolated, "game.rules.game's process-wide caches have moved: name them here"
        self.engine = Engine()

    def new_engine(self) -> None:
        self.engine = Engine()

    def call(self, method: str, params: dict) -> Any:
        """The engine's answer, or ("error", code, message) for a refusal (a refusal must match too)."""
        saved = {name: getattr(rules_game, name) for name in self.caches}
        for name, cache in self.caches.items():
            setattr(rules_game, name, cache)
        try:
            return self.engine.call(method, params)
        except RpcError as exc:
            return ("error", exc.code, exc.message)
        finally:
            for name, cache in saved.items():
                setattr(rules_game, name, cache)

    def game(self, gid: str):
        return self.engine.sessions[gid].game


@dataclass
class Tally:
    games: int = 0
    acts: int = 0
    steps: int = 0
    refused: int = 0
    reads: dict[str, int] = field(default_factory=dict)
    divergences: list[str] = field(default_factory=list)

    def read(self, method: str) -> None:
        self.reads[method] = self.reads.get(method, 0) + 1


def _answer(res: Any) -> Any:
    """An answer as compared: without the secret tokens a new or loaded game hands out."""
    return {k: v for k, v in res.items() if k != "tokens"} if isinstance(res, dict) else res


def read_everything(proc: Process, gid: str, rng: random.Random, tally: Tally, seen: dict[str, int],
                    save: bool) -> tuple[dict, list[dict]]:
    """Every read-only method, as a client might ask it; returns the referee view and the listing of
    the side to act."""

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
            ask("game.preview", side=side, action=fill(a, rng))
        support = [a for a in acts if a["type"] in SUPPORT and a.get("preview")]
        if support:
            ask("game.preview", side=side, action=fill(rng.choice(support), rng))
    for side in (*SIDES, "referee"):
        got = ask("game.events", side=side, since=rng.randint(0, seen.get(side, 0)))
        if isinstance(got, dict) and got["events"]:
            seen[side] = max(seen.get(side, 0), got["events"][-1]["seq"])
    for side in SIDES:
        view = views[side]
        if not isinstance(view, dict):
            continue
        mine = [s["id"] for s in view["stands"] if s["side"] == side]
        anyone = [s["id"] for s in view["stands"]]
        points = [[s["x"], s["y"]] for s in view["stands"]] + [[b["x"], b["y"]] for b in view["blinds"]]
        if mine:
            ask("los.check", side=side, **{"from": rng.choice(mine), "to": rng.choice(anyone)})
            if points:
                ask("los.check", side=side, **{"from": rng.choice(mine), "to": rng.choice(points)})
        if len(points) > 1:
            a, b = rng.sample(points, 2)
            ask("los.check", side=side, **{"from": a, "to": b})
    if save:
        ask("game.save")
    return ref, offers


def pick(offers: list[dict], rng: random.Random) -> dict:
    """A random offer, passing seldom and liking the actions that read the most of the state."""
    weights = [0.2 if a["type"] == "pass" else 3.0 if a["type"] in LIKED else 1.0 for a in offers]
    return fill(rng.choices(offers, weights)[0], rng)


def first_difference(reader: Any, plain: Any, r: Any, p: Any) -> str:
    """Where two games part: the first differing event, else the hash, else the answers."""
    for k, (x, y) in enumerate(zip(reader.events, plain.events, strict=False)):
        if x != y:
            return f"event {k}: reader {x}\n  plain  {y}"
    if len(reader.events) != len(plain.events):
        return f"{len(reader.events)} events read, {len(plain.events)} plain"
    if reader.hash() != plain.hash():
        return "the same events, different state hashes"
    return "the answers, at " + _where(r, p, "")


def _where(a: Any, b: Any, path: str) -> str:
    """The first place two answers differ, with the two values there."""
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return next((_where(a[k], b[k], f"{path}.{k}") for k in a if a[k] != b[k]), path)
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return next((_where(x, y, f"{path}[{i}]") for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y), path)
    return f"{path or '.'}: reader {a!r}, plain {b!r}"


def act_both(reader: Process, plain: Process, gid: str, method: str, params: dict, tally: Tally, where: str) -> bool:
    """Send one act or step to both engines; False, with the divergence recorded, once the two games differ
    (state hash, events or answer)."""
    r, p = reader.call(method, params), plain.call(method, params)
    if isinstance(r, tuple):
        tally.refused += 1
    rg, pg = reader.game(gid), plain.game(gid)
    if rg.hash() != pg.hash() or rg.events != pg.events or _answer(r) != _answer(p):
        tally.divergences.append(f"{where} {params.get('action', '')}:\n  "
                                 + first_difference(rg, pg, _answer(r), _answer(p)))
        return False
    return True


def save_loads(reader: Process, plain: Process, gid: str, tally: Tally, where: str) -> None:
    """The reader's save of the game loads in the plain engine to the same state (recorded if not)."""
    doc = reader.call("game.save", {"game": gid})
    loaded = plain.call("game.load", {"save": doc["save"]})
    if not isinstance(loaded, dict) or loaded["hash"] != reader.game(gid).hash():
        tally.divergences.append(f"{where}: the reader's save does not load: {loaded}")


def play(sid: str, seed: int, max_acts: int, tally: Tally, reader: Process, plain: Process) -> None:
    """One game in both engines (module docstring); a divergence is recorded in ``tally``."""
    players = SCENARIOS[sid]
    rng = random.Random(seed)
    reader.new_engine()
    plain.new_engine()
    new = {"scenario": sid, "seed": seed, "players": players, "referee": True, "side": "referee"}
    r0, p0 = reader.call("game.new", new), plain.call("game.new", new)
    assert isinstance(r0, dict), r0
    gid = r0["game"]
    tally.games += 1
    where = f"{sid} seed {seed}"
    if _answer(r0) != _answer(p0):
        tally.divergences.append(f"{where}: game.new differs")
        return
    seen: dict[str, int] = {}
    for n in range(max_acts):
        ref, offers = read_everything(reader, gid, rng, tally, seen, save=n % 10 == 9)
        if ref["over"] or ref["to_act"] is None:
            break
        side = ref["to_act"]
        if players[side] == "ai":
            method, params = "game.step", {"game": gid, "side": "referee"}
            tally.steps += 1
        else:
            method, params = "game.act", {"game": gid, "side": side, "action": pick(offers, rng)}
            tally.acts += 1
        if not act_both(reader, plain, gid, method, params, tally, f"{where}, after {method} {n}"):
            return
    save_loads(reader, plain, gid, tally, where)


# -- the tests ------------------------------------------------------------------------------------
SEEDS = {"village_sweep": (3, 11, 20), "rubber_plantation": (27, 4, 33), "search_and_destroy": (5, 8, 13),
         "firebase_relief": (7, 19), "thunder_road": (2, 9), "canal_assault": (3, 14), "cu_chi": (3, 12)}
"""The games of each scenario: rubber_plantation seed 27 is the issue-11 case."""
GAMES = SEEDS if os.environ.get("DINKYDAU_FULL_VOLUME") == "1" else {sid: seeds[:1] for sid, seeds in SEEDS.items()}
"""``make test`` plays the first seed of each scenario, ``benchmarks/full_volume.py`` (DINKYDAU_FULL_VOLUME=1)
all of them, and ``benchmarks/readonly_determinism.py`` many more."""
MAX_ACTS = 30


@pytest.fixture(scope="module")
def engines() -> tuple[Process, Process]:
    """The reader, in this process; the plain engine, as if in another (its tables loaded once)."""
    return Process(), Process(isolated=True)


@pytest.mark.parametrize("sid", sorted(SCENARIOS))
def test_reading_everything_before_each_act_changes_nothing(sid, engines):
    """DESIGN §5: the same scenario, seed and actions give the same events and hash, whatever a client
    reads in between (the issue-11 case: a listing asked first made an activation cost 2 CP, DD-1.14,
    instead of 1 CP, DD-2.6)."""
    tally = Tally()
    reader, plain = engines
    for seed in GAMES[sid]:
        play(sid, seed, MAX_ACTS, tally, reader, plain)
    assert not tally.divergences, "\n".join(tally.divergences)
    assert tally.games == len(GAMES[sid]) and tally.acts + tally.steps >= 20
    assert {"game.view", "game.actions", "game.events", "los.check", "game.save"} <= set(tally.reads)


def test_the_property_catches_a_read_that_changes_the_game():
    """The comparison itself: a read that spends a CP (as a cache answering a stale cost would) is
    caught at the first act after it."""
    tally = Tally()
    reader, plain = Process(), Process()
    honest = reader.call

    def spends(method: str, params: dict) -> Any:
        if method == "game.actions" and params.get("side") == "allied":
            g = reader.game(params["game"])
            g.state.sides["allied"].cp = max(0, g.state.sides["allied"].cp - 1)
        return honest(method, params)

    reader.call = spends  # type: ignore[method-assign]
    play("village_sweep", 3, 10, tally, reader, plain)
    assert tally.divergences


def test_command_status_equals_the_uncached_answer_through_random_games():
    """The command cache (DD-1.11, DD-2.6, G-16) answers exactly what the rules say, whatever was asked
    of it before: after every act of a random game on Blinds, for every Allied element, in the engine
    that has asked everything."""
    reader, plain = Process(), Process()
    tally = Tally()
    checked = 0
    original = reader.call

    def checking(method: str, params: dict) -> Any:
        nonlocal checked
        res = original(method, params)
        if method == "game.act":
            g = reader.game(params["game"])
            for el in g.state.elements.values():
                if el.side == "allied" and g.state.living(el):
                    assert command_status(g, el) == _command_status(g, el), el.id
                    checked += 1
        return res

    reader.call = checking  # type: ignore[method-assign]
    play("rubber_plantation", 27, 20, tally, reader, plain)
    assert not tally.divergences and checked > 20


def test_every_shipped_scenario_is_played():
    """DESIGN §5 holds on every table we ship: a new scenario joins SCENARIOS and SEEDS."""
    from game.rules.scenario import shipped_scenarios

    assert set(SCENARIOS) == set(shipped_scenarios()) == set(GAMES)
