"""The leak test's walk, scanner and probes (DESIGN §6) shared by the rulesets beside Dinky Dau (test_fog_tet68.py,
test_fog_obc.py): random games through the engine with every message a side gets scanned (:func:`play`, each
ruleset saying how through a :class:`Ruleset`); a message walked for a hidden enemy's id (as a value or a key)
or exact place, with each ruleset's own check of what an enemy record may carry; and hidden and made-up ids
refused in the same words, by the acts and previews a ruleset names and by ``los.check``."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.engine.client import EngineError, InProcessEngine
from tests.engine.test_fog import check_numbering, unnamed

SIDES = ("allied", "insurgent")


@dataclass(frozen=True)
class Ruleset:
    """What :func:`play` asks of a ruleset's leak test."""

    truth: Callable[[dict], Callable[[Any, str], tuple[dict, dict]]]
    """For a scenario, ``(call, game id)`` -> the referee's view and what each side knows."""
    secrets: Callable[[dict, dict, str], dict]
    """(referee view, known, side) -> the side's secrets (hidden ids, their places, the enemy's ids)."""
    scan: Callable[[Any, str, dict, str], None]
    """(message, side, secrets, where): fail on a leak."""
    probe: Callable[[Any, str, str, dict, dict, random.Random], None]
    """Hidden and made-up ids refused alike (``refused_alike``), now and then."""
    probe_rate: float
    choose: Callable[[Any, str, str, list[dict], random.Random], dict]
    """(call, game id, side, offers, rng) -> the action to send."""
    previews: tuple[str, ...]
    """The action types previewed before they are sent."""
    mine: Callable[[dict, str], list[str]]
    """(referee view, side) -> the side's own living pieces, to ask ``los.check`` from."""
    table: tuple[float, float]


def merge(a: dict, b: dict) -> dict:
    """The secrets kept both before and after an act: what a message about the act may not show."""
    return {k: a[k] & b[k] for k in a}


def play(eng: InProcessEngine, rs: Ruleset, rng: random.Random, raw: dict, seed: int, ai_insurgent: bool,
         actions: int, stats: dict) -> None:
    """One random game of ``raw``: each side's view, the computer's view and listing, every answer, refusal,
    preview, event feed and ``los.check`` scanned for what the side may not know; the numbering checked."""
    call = eng.call
    truth = rs.truth(raw)
    players = {"allied": "human", "insurgent": "ai" if ai_insurgent else "human"}
    gid = call("game.new", scenario=raw, seed=seed, players=players, referee=True, side="referee")["game"]
    numbered = {s: 0 for s in (*SIDES, "referee")}
    ref, known = truth(call, gid)
    before = {s: rs.secrets(ref, known, s) for s in SIDES}
    check_numbering(call, gid, numbered)
    for _ in range(actions):
        if ref["over"] or ref["to_act"] is None:
            break
        side = ref["to_act"]
        other = "insurgent" if side == "allied" else "allied"
        for s in SIDES:
            rs.scan(call("game.view", game=gid, side=s), s, before[s], "game.view")
            g = eng.engine.sessions[gid].game
            rs.scan(g.view(s), s, before[s], "the computer's view")
            rs.scan(g.legal_actions(s), s, before[s], "the computer's actions")
        if players[side] == "ai":
            res = call("game.step", game=gid, side=other)
            ref, known = truth(call, gid)
            after = {s: rs.secrets(ref, known, s) for s in SIDES}
            rs.scan(res, other, merge(before[other], after[other]), "game.step")
        else:
            if rng.random() < rs.probe_rate:
                rs.probe(call, gid, side, ref, before[side], rng)
            acts = call("game.actions", game=gid, side=side)
            rs.scan(acts, side, before[side], "game.actions")
            action = rs.choose(call, gid, side, acts["actions"], rng)
            if action["type"] in rs.previews:
                try:
                    rs.scan(call("game.preview", game=gid, side=side, action=action), side, before[side], "preview")
                except EngineError as exc:
                    rs.scan({"error": exc.message, "data": exc.data}, side, before[side], "preview refusal")
            try:
                res = call("game.act", game=gid, side=side, action=action)
            except EngineError as exc:
                rs.scan({"error": exc.message, "data": exc.data}, side, before[side], "refusal")
                stats["refused"] += 1
                continue
            ref, known = truth(call, gid)
            after = {s: rs.secrets(ref, known, s) for s in SIDES}
            rs.scan(res, side, merge(before[side], after[side]), "game.act")
            ev = call("game.events", game=gid, side=other, since=numbered[other])
            rs.scan(ev, other, merge(before[other], after[other]), "game.events")
            stats["kinds"].update(e["type"] if e["type"] != "roll" else e["purpose"] for e in res["events"])
            mine = rs.mine(ref, side)
            if mine:
                w, h = rs.table
                spot = [round(rng.uniform(0, w), 2), round(rng.uniform(0, h), 2)]  # a point asked is no secret
                try:
                    rs.scan(call("los.check", game=gid, side=side, **{"from": rng.choice(mine), "to": spot}), side,
                            after[side], "los.check")
                except EngineError as exc:
                    rs.scan({"error": exc.message}, side, after[side], "los.check refusal")
        check_numbering(call, gid, numbered)
        before = after
        stats["messages"] += 1
    stats["games"] += 1
    call("game.close", game=gid)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def scan(msg: Any, secret: dict, where: str, record: Callable[[dict, str], None]) -> None:
    """Fail on a hidden enemy's id or place in ``msg``; ``record(d, path)`` checks each dict for what the
    ruleset keeps to its owner (an enemy's roster, record, statistics)."""

    def walk(x: Any, path: str) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                assert k not in secret["ids"], f"{where}: hidden id {k!r} as a key at {path}"
                walk(v, f"{path}.{k}")
            record(x, path)
            xy = (x.get("x"), x.get("y"))
            if all(_number(v) for v in xy):
                assert (round(xy[0], 3), round(xy[1], 3)) not in secret["positions"], f"{where}: hidden place {xy}"
        elif isinstance(x, list):
            if len(x) in (2, 3) and all(_number(v) for v in x):
                assert (round(x[0], 3), round(x[1], 3)) not in secret["positions"], f"{where}: hidden place {x} at {path}"
            for i, v in enumerate(x):
                walk(v, f"{path}[{i}]")
        elif isinstance(x, str):
            assert x not in secret["ids"], f"{where}: hidden id {x!r} at {path}"

    walk(msg, "")


def refused_alike(call, gid: str, side: str, hidden: str, fake: str, templates: list[dict], previews: tuple[str, ...],
                  check: Callable[[Any, str], None], me: str) -> None:
    """Each template ("\\0" where an id goes) acted (and previewed, for the kinds ``previews`` names) with the
    hidden id and the made-up one: both refused, in the same words once the id is taken out, and the words
    pass ``check``; then ``los.check`` from ``me`` to each, refused alike."""
    for template in templates:
        for method in ("game.act", "game.preview"):
            if method == "game.preview" and template["type"] not in previews:
                continue
            got = []
            for ident in (hidden, fake):
                try:
                    call(method, game=gid, side=side, action={k: ident if v == "\0" else v for k, v in template.items()})
                except EngineError as exc:
                    got.append(unnamed({"message": exc.message, "data": exc.data}, ident))
                else:
                    raise AssertionError(f"{method} {template['type']} with {ident!r} was not refused")
            assert got[0] == got[1], f"{method} {template['type']}: {got}"
            check(got[0], f"refusal of {template['type']}")
    got = []
    for ident in (hidden, fake):
        try:
            call("los.check", game=gid, side=side, **{"from": me, "to": ident})
        except EngineError as exc:
            got.append(unnamed({"message": exc.message, "data": exc.data}, ident))
    assert len(got) == 2 and got[0] == got[1], got
