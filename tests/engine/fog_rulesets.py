"""The leak test's scanner and probes (DESIGN §6) shared by the rulesets beside Dinky Dau (test_fog_tet68.py,
test_fog_obc.py): a message walked for a hidden enemy's id (as a value or a key) or exact place, with each
ruleset's own check of what an enemy record may carry; and hidden and made-up ids refused in the same words,
by the acts and previews a ruleset names and by ``los.check``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.engine.client import EngineError
from tests.engine.test_fog import unnamed


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
