"""The rulesets the engine hosts, by id (the seam: ``game.rulesets.base``). A scenario names its ruleset
in ``[scenario] ruleset``; one that names none is a Dinky Dau scenario."""

from __future__ import annotations

import importlib
from typing import Any

from game.rulesets.base import ParamError, Problem, Ruleset, ScenarioError

DEFAULT = "dinky_dau"
BUILTIN = ("game.rulesets.dinky_dau", "game.rulesets.tet68.ruleset", "game.rulesets.obc.ruleset")
"""The modules that register the shipped rulesets."""
_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    if not ruleset.id or ruleset.id in _REGISTRY and _REGISTRY[ruleset.id] is not ruleset:
        raise ValueError(f"ruleset id {ruleset.id!r} is empty or taken")
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def unregister(rid: str) -> None:
    _REGISTRY.pop(rid, None)


def _load() -> None:
    for mod in BUILTIN:
        importlib.import_module(mod)


def all_rulesets() -> list[Ruleset]:
    _load()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def get(rid: str) -> Ruleset | None:
    _load()
    return _REGISTRY.get(rid)


def named_by(raw: Any, where: str) -> Ruleset:
    """The ruleset a raw scenario names (``[scenario] ruleset``), or ``ScenarioError`` saying which exist."""
    head = raw.get("scenario") if isinstance(raw, dict) else None
    rid = head.get("ruleset", DEFAULT) if isinstance(head, dict) else DEFAULT
    rs = get(rid) if isinstance(rid, str) else None
    if rs is None:
        known = ", ".join(r.id for r in all_rulesets())
        raise ScenarioError([Problem(where, "scenario.ruleset", f"unknown ruleset {str(rid)[:40]!r} (rulesets: {known})")])
    return rs


def of_scenario(scenario: Any) -> Ruleset:
    """The ruleset that built ``scenario``."""
    for rs in all_rulesets():
        if rs.owns(scenario):
            return rs
    raise LookupError(f"no ruleset owns {type(scenario).__name__}")


__all__ = ["DEFAULT", "ParamError", "Problem", "Ruleset", "ScenarioError", "all_rulesets", "get", "named_by",
           "of_scenario", "register", "unregister"]
