"""The engine's contract, declared once (``game/data/contract.toml``; DESIGN §4).

Every action a side may send, with its fields and their kinds; every event the engine emits, with
its fields; the fields of a view. From it the wire types each action field (``game.engine.wire``),
docs/protocol.md's tables are generated (``python -m game.rules.contract --write-docs``, and
``--check`` says where they differ), and tests/engine/test_contract.py plays games to show that the
engine offers, emits and shows nothing the contract does not declare.
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "contract.toml"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
COMMON_EVENT_FIELDS = ("seq", "type", "text", "clause")
CHAPTERS = {
    "core": "Action types of the core rules",
    "4": "Chapter 4 (the Green Fog, `docs/fog.md`) adds actions for Blinds and detection",
    "5": "Chapter 5 (firefights, `docs/combat.md`) adds",
    "6": "Chapter 6 (casualties and CASEVAC, `docs/casevac.md`) adds",
    "7": "Chapter 7 (vehicles and armour, `docs/vehicles.md`) adds",
    "8": "Chapter 8 (fire support, `docs/fire_support.md`) adds",
    "9A": "Chapter 9A (night and weather, `docs/night.md`; the river, `docs/riverine.md`) adds",
    "9B": "Chapter 9B (booby traps, tunnels and the village, `docs/tunnels.md`, `docs/village.md`) adds",
    "TUN": "The Tunnel Warfare module (the network beneath the table, `docs/tunnels.md`) adds",
}


@dataclass(frozen=True)
class Field:
    name: str
    kind: str
    """How a client picks it (an offer's param ``kind``): element, stand, blind, point, angle, ..."""
    wire: str
    """What the value is on the wire: id, point, angle, placements, segment, ids, map, flag."""
    optional: bool
    doc: str


@dataclass(frozen=True)
class Action:
    type: str
    chapter: str
    clause: str
    fields: tuple[Field, ...]

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)


@dataclass(frozen=True)
class Event:
    type: str
    fields: tuple[str, ...]
    doc: str


@dataclass(frozen=True)
class Contract:
    kinds: dict[str, str]
    actions: dict[str, Action]
    common: tuple[Field, ...]
    events: dict[str, Event]
    views: dict[str, tuple[str, ...]]

    def wire_kinds(self) -> dict[str, str]:
        """Each field name an action may carry, with its wire type (one per name, whatever the action)."""
        out: dict[str, str] = {"type": "id"}
        for f in (*self.common, *(f for a in self.actions.values() for f in a.fields)):
            out.setdefault(f.name, f.wire)
        return out


class ContractError(ValueError):
    """The contract file is malformed; the message names the entry."""


def _field(name: str, spec: object, kinds: dict[str, str], where: str) -> Field:
    if not (isinstance(spec, list) and len(spec) == 2 and all(isinstance(x, str) for x in spec)):
        raise ContractError(f"{DATA.name}: {where}.{name}: expected [kind, doc]")
    kind, doc = spec
    if kind not in kinds:
        raise ContractError(f"{DATA.name}: {where}.{name}: unknown kind {kind!r} (kinds: {', '.join(kinds)})")
    optional = doc.startswith("?")
    return Field(name, kind, kinds[kind], optional, doc.lstrip("? ").strip())


@cache
def contract() -> Contract:
    raw = tomllib.loads(DATA.read_text(encoding="utf-8"))
    kinds = raw["kinds"]
    actions = {}
    for t, spec in raw["actions"].items():
        if spec.get("chapter") not in CHAPTERS:
            raise ContractError(f"{DATA.name}: actions.{t}.chapter: one of {', '.join(CHAPTERS)}")
        fields = tuple(_field(n, f, kinds, f"actions.{t}.fields") for n, f in spec.get("fields", {}).items())
        actions[t] = Action(t, spec["chapter"], spec["clause"], fields)
    common = tuple(_field(n, f, kinds, "common_action_fields") for n, f in raw["common_action_fields"].items())
    events = {t: Event(t, tuple(e["fields"]), e["doc"]) for t, e in raw["events"].items()}
    views = {k: tuple(v) for k, v in raw["views"].items()}
    return Contract(kinds, actions, common, events, views)


# -- the documentation's tables ---------------------------------------------------------------------

def _action_row(a: Action) -> str:
    parts = []
    for f in a.fields:
        text = f"`{f.name}` *{f.kind}*" + (f" ({f.doc})" if f.doc else "")
        parts.append(("optional " if f.optional else "") + text)
    return f"| `{a.type}` | {', '.join(parts) or '—'} | {a.clause} |"


def tables() -> dict[str, str]:
    """The generated tables, by the name of their marker in docs/protocol.md."""
    c = contract()
    out = {}
    for chapter in CHAPTERS:
        rows = [_action_row(a) for a in c.actions.values() if a.chapter == chapter]
        out[f"actions-{chapter}"] = "\n".join(["| type | fields | clause |", "|---|---|---|", *rows])
    rows = [f"| `{e.type}` | {', '.join(f'`{x}`' for x in e.fields) or '—'} | {e.doc} |" for e in c.events.values()]
    out["events"] = "\n".join(["| type | fields | what |", "|---|---|---|", *rows])
    return out


MARK = re.compile(r"(<!-- contract:(?P<name>[\w-]+) -->\n)(?P<body>.*?)(\n<!-- /contract -->)", re.S)


def render(text: str) -> str:
    """The documentation with every marked table regenerated."""
    made = tables()
    return MARK.sub(lambda m: m.group(1) + made.get(m.group("name"), m.group("body")) + m.group(4), text)


def check_docs(path: Path = DOCS) -> list[str]:
    """Where the documentation's tables differ from the contract (empty when they agree)."""
    text = path.read_text(encoding="utf-8")
    found = {m.group("name"): m.group("body") for m in MARK.finditer(text)}
    problems = [f"{path.name}: no table marked '{name}'" for name in tables() if name not in found]
    for name, body in tables().items():
        if name in found and found[name] != body:
            problems.append(f"{path.name}: the '{name}' table differs from {DATA.name} "
                            f"(python -m game.rules.contract --write-docs)")
    return problems


def main(argv: list[str]) -> int:
    if argv == ["--write-docs"]:
        DOCS.write_text(render(DOCS.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    problems = check_docs()
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
