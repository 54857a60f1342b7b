"""The contract (game/data/contract.toml, DESIGN §4) against the engine and the documentation: every
action the engine takes, every offer's params, every event and every view field is declared once,
and docs/protocol.md's tables are the contract's own."""

from __future__ import annotations

import random

import pytest

from game.engine.client import EngineError, InProcessEngine
from game.rules import contract as contract_mod
from game.rules.contract import COMMON_EVENT_FIELDS, contract
from game.rules.game import action_types
from tests.engine.test_fog import fill, plantation_with_reserves

OFFER_KEYS = {"type", "cost", "tokens", "emergency", "clause", "cost_clause", "label", "params", "side", "seat",
              "from_blind", "preview"}
"""What an offer carries beside the action's own fields (docs/protocol.md, game.actions)."""


def offer_problems(offer: dict, c=None) -> list[str]:
    c = c or contract()
    spec = c.actions.get(offer["type"])
    if spec is None:
        return [f"offer of undeclared action type {offer['type']!r}"]
    out = []
    names = {f.name for f in spec.fields} | {f.name for f in c.common}
    for key in set(offer) - OFFER_KEYS - names:
        out.append(f"{offer['type']}: field {key!r} is not declared")
    for name, param in (offer.get("params") or {}).items():
        field = spec.field(name)
        if field is None:
            out.append(f"{offer['type']}: param {name!r} is not declared")
        elif param.get("kind") != field.kind:
            out.append(f"{offer['type']}.{name}: offered as {param.get('kind')!r}, declared {field.kind!r}")
    return out


def event_problems(ev: dict, c=None) -> list[str]:
    c = c or contract()
    spec = c.events.get(ev.get("type"))
    if spec is None:
        return [f"event of undeclared type {ev.get('type')!r}"]
    extra = set(ev) - set(COMMON_EVENT_FIELDS) - set(spec.fields)
    return [f"{ev['type']}: field {k!r} is not declared" for k in sorted(extra)]


def view_problems(view: dict, c=None) -> list[str]:
    c = c or contract()
    out = [f"view: field {k!r} is not declared" for k in sorted(set(view) - set(c.views["view"]))]
    for part in ("elements", "stands", "blinds", "markers"):
        for x in view.get(part) or []:
            out += [f"view.{part}: field {k!r} is not declared" for k in sorted(set(x) - set(c.views[part]))]
    for x in (view.get("sides") or {}).values():
        out += [f"view.sides: field {k!r} is not declared" for k in sorted(set(x) - set(c.views["sides"]))]
    out += [f"view.scenario: field {k!r} is not declared"
            for k in sorted(set(view.get("scenario") or {}) - set(c.views["scenario"]))]
    return sorted(set(out))


def test_every_action_type_is_declared_and_every_declared_one_exists():
    assert set(action_types()) == set(contract().actions)


def test_the_documentation_tables_are_the_contract():
    assert contract_mod.check_docs() == []


def test_a_field_name_has_one_kind_whatever_the_action():
    seen: dict[str, str] = {}
    for a in contract().actions.values():
        for f in a.fields:
            assert seen.setdefault(f.name, f.wire) == f.wire, (a.type, f.name)


@pytest.fixture(scope="module")
def played():
    """Offers, events and views of random games on every shipped scenario and a table with reserves."""
    e = InProcessEngine()
    offers, events, views = [], [], []
    tables = ["village_sweep", "rubber_plantation", "search_and_destroy", plantation_with_reserves()]
    for n in range(8):
        rng = random.Random(50 + n)
        sc = tables[n % len(tables)]
        ai = sc == "search_and_destroy" or n % 2
        players = {"allied": "human", "insurgent": "ai" if ai else "human"}
        new = e.call("game.new", scenario=sc, seed=70 + n, players=players, referee=True, side="referee")
        gid = new["game"]
        views.append(new["view"])
        for _ in range(70):
            v = e.call("game.view", game=gid, side="referee")
            if v["over"] or v["to_act"] is None:
                break
            side = v["to_act"]
            if players[side] == "ai":
                e.call("game.step", game=gid)
                continue
            acts = e.call("game.actions", game=gid, side=side)["actions"]
            offers += acts
            weights = [0.2 if a["type"] == "pass" else 1.0 for a in acts]
            try:
                views.append(e.call("game.act", game=gid, side=side, action=fill(rng.choices(acts, weights)[0], rng))["view"])
            except EngineError:
                pass
        events += e.call("game.events", game=gid, side="referee")["events"]
        views += [e.call("game.view", game=gid, side=s) for s in ("allied", "insurgent", "referee")]
        e.call("game.close", game=gid)
    return offers, events, views


def test_every_offer_is_declared(played):
    offers, _, _ = played
    assert len({o["type"] for o in offers}) >= 12
    assert sorted({p for o in offers for p in offer_problems(o)}) == []


def test_every_event_is_declared(played):
    _, events, _ = played
    assert len({ev["type"] for ev in events}) >= 20
    assert sorted({p for ev in events for p in event_problems(ev)}) == []


def test_every_view_field_is_declared(played):
    _, _, views = played
    assert sorted({p for v in views for p in view_problems(v)}) == []


def test_the_checks_catch_what_the_contract_does_not_declare():
    assert offer_problems({"type": "fire", "element": "sq1", "params": {"target": {"kind": "blind"}}})
    assert offer_problems({"type": "fire", "element": "sq1", "aim": 3, "params": {}})
    assert offer_problems({"type": "napalm", "params": {}})
    assert event_problems({"seq": 1, "type": "hit", "stand": "a", "secret": 1})
    assert event_problems({"seq": 1, "type": "airstrike"})
    assert view_problems({"side": "allied", "stands": [{"id": "a", "x": 1, "hidden_truth": 2}]})


def test_the_docs_check_sees_a_table_edited_by_hand(tmp_path):
    text = contract_mod.DOCS.read_text(encoding="utf-8").replace("| `take_five` | `element`", "| `take_five` | `stand`")
    edited = tmp_path / "protocol.md"
    edited.write_text(text, encoding="utf-8")
    assert any("actions-core" in p for p in contract_mod.check_docs(edited))
