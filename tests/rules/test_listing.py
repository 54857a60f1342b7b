"""Legal-action listings are kept while the state stands still (``Game.legal_actions``, game.rules.memo):
whatever changes the state, by an action or by hand, the next listing must equal the one a new game
built from the serialized state makes from scratch."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import pickle
from types import SimpleNamespace

import pytest

from game.rules import memo
from game.rules.dice import Dice, seed_streams
from game.rules.errors import IllegalAction
from game.rules.game import Game
from game.rules.scenario import resolve_scenario
from game.rules.state import Blind, Element, GameState, Stand, Token
from game.rules.turn import start_turn


def clear_sight(a, b):
    return SimpleNamespace(visible=True, fraction=1.0, distance=0.0)


def fresh(g: Game) -> Game:
    """The same state in a new game: nothing kept from earlier listings."""
    other = Game.restore(g.scenario, g.snapshot(), g.book)
    other.los_override = g.los_override
    return other


def assert_listings_fresh(g: Game) -> None:
    new = fresh(g)
    for side in ("allied", "insurgent"):
        assert g.legal_actions(side) == new.legal_actions(side), side


def new_game(sid: str, seed: int = 3, sight=None) -> Game:
    g = Game(resolve_scenario(sid), seed, start=False)
    g.los_override = sight
    start_turn(g)
    return g


def fill(action: dict, rng: Dice) -> dict:
    """A listed action with its free parameters filled at random (some refused, most accepted)."""
    out = {k: v for k, v in action.items() if k not in ("params", "label")}
    for name, p in action.get("params", {}).items():
        if p.get("optional") and rng.below(2) == 0:
            continue
        if p.get("kind") == "point":
            r, th = p["max"] * rng.uniform("ai"), rng.uniform("ai") * 2 * math.pi
            out[name] = [p["from"][0] + r * math.cos(th), p["from"][1] + r * math.sin(th)]
        elif isinstance(p.get("choices"), list) and p["choices"]:
            out[name] = p["choices"][rng.below(len(p["choices"]))]
    return out


SIGHTS = {"real LOS": None, "clear sight": clear_sight}
RANDOM_GAMES = [("village_sweep", "real LOS", 4), ("village_sweep", "clear sight", 9),
                ("rubber_plantation", "real LOS", 9), ("rubber_plantation", "clear sight", 4)]
"""Each table with real and with clear sight, the seeds 4 and 9 taking turns; ``benchmarks/full_volume.py``
(DINKYDAU_FULL_VOLUME=1) plays each table and sight with both seeds."""
if os.environ.get("DINKYDAU_FULL_VOLUME") == "1":
    RANDOM_GAMES = [(sid, sight, seed) for sid in ("village_sweep", "rubber_plantation") for sight in SIGHTS
                    for seed in (4, 9)]


@pytest.mark.parametrize("sid, sight, seed", RANDOM_GAMES, ids=[f"{s}-{n}-{d}" for s, n, d in RANDOM_GAMES])
def test_every_listing_of_a_random_game_equals_a_fresh_one(sid, sight, seed):
    """Moves, fire, pins, reveals, casualties, new turns: after each action, accepted or refused, the
    listings equal those of a game restored from the serialized state."""
    g = new_game(sid, seed, SIGHTS[sight])
    rng = Dice(seed_streams(seed + 7))
    kinds = set()
    for _ in range(160):
        if g.state.over:
            break
        side = g.state.to_act
        acts = g.legal_actions(side)
        assert acts == fresh(g).legal_actions(side)
        action = fill(acts[rng.below(len(acts))], rng)
        try:
            g.act(side, action)
            kinds.add(action["type"])
        except IllegalAction:
            pass
        assert_listings_fresh(g)
    assert {"move", "hold"} <= kinds and g.state.turn >= 3


def test_a_refusal_hands_out_the_same_listing_read_only():
    g = new_game("village_sweep")
    first = g.legal_actions("allied")
    with pytest.raises(IllegalAction):
        g.act("allied", {"type": "fire", "element": "sq1", "target": "nobody"})
    again = g.legal_actions("allied")
    assert again == first and again is not first  # the same offers, in the caller's own list
    with pytest.raises(TypeError, match="read-only"):
        again[0]["label"] = "changed by the caller"
    with pytest.raises(TypeError, match="read-only"):
        again[0]["params"]["x"] = 1
    with pytest.raises(TypeError, match="read-only"):
        again[0]["params"]["to"]["from"].append(1)
    mine = dict(again[0])  # a copy is the caller's own to change
    mine["label"] = "changed by the caller"
    again.append({"type": "bogus"})
    assert g.legal_actions("allied") == first
    assert json.loads(json.dumps(first)) == first and pickle.loads(pickle.dumps(first)) == first


@pytest.mark.parametrize("sid", ["village_sweep", "rubber_plantation"])
@pytest.mark.parametrize("change", [
    "move a stand", "turn a stand", "kill a stand", "pin", "rally", "wind", "spend CP", "activate",
    "overwatch", "low ammo", "add a token", "carry a token", "stabilize a token", "rubble", "smoke",
    "night", "new turn", "reveal", "echo", "move a blind", "activate a blind",
])
def test_a_change_by_hand_is_never_missed(sid, change):
    """Tests, tools and the session change the state directly; a kept listing must notice."""
    g = new_game(sid, sight=clear_sight)
    s = g.state
    for side in ("allied", "insurgent"):
        g.legal_actions(side)
    el = next(e for e in s.elements.values() if e.side == "allied" and s.living(e))
    st = s.living(el)[0]
    own_blinds = [b for b in s.blinds.values() if b.side == "allied"]
    enemy_blinds = [b for b in s.blinds.values() if b.side == "insurgent"]
    if "blind" in change or change in ("reveal", "echo"):
        if not enemy_blinds or not own_blinds:
            pytest.skip("no Blinds on this table")
    if change == "move a stand":
        st.x += 0.5
    elif change == "turn a stand":
        st.facing = (st.facing + 90) % 360
    elif change == "kill a stand":
        st.alive = False
    elif change == "pin":
        el.pinned = True
    elif change == "rally":
        el.pinned, el.winded = True, True
        g.legal_actions("allied")
        el.pinned = False
    elif change == "wind":
        el.winded = el.winded_slow = True
    elif change == "spend CP":
        s.sides["allied"].cp = 1
    elif change == "activate":
        el.activations, el.move_actions = 1, 1
    elif change == "overwatch":
        el.overwatch = {"kind": "arc", "facing": 0.0, "turn": s.turn, "activations": el.activations}
    elif change == "low ammo":
        el.low_ammo = True
    elif change == "add a token":
        s.tokens.append(Token("t1", "allied", st.x + 1.2, st.y, "wounded"))
    elif change == "carry a token":
        s.tokens.append(Token("t1", "allied", st.x + 1.2, st.y, "wounded"))
        g.legal_actions("allied")
        s.tokens[-1].carrier = st.id
    elif change == "stabilize a token":
        s.tokens.append(Token("t1", "allied", st.x + 1.2, st.y, "wounded"))
        g.legal_actions("allied")
        s.tokens[-1].state = "stabilized"
    elif change == "rubble":
        s.structures[g.scenario.features[0].id] = {"hp": 0, "state": "rubble"}
    elif change == "smoke":
        s.smoke.append({"id": "d1", "x": st.x + 3, "y": st.y, "radius": 1.0, "turn": s.turn, "impulse": s.impulse})
    elif change == "night":
        s.time_of_day = "night_dark"
    elif change == "new turn":
        s.turn += 1
        for e in s.elements.values():
            e.activations = e.move_actions = 0
    elif change == "reveal":
        from game.rules.detection import reveal

        reveal(g, enemy_blinds[0], "test", "DD-4.11")
    elif change == "echo":
        for b in enemy_blinds:
            b.state = "echo"
    elif change == "move a blind":
        enemy_blinds[0].x += 1.0
    elif change == "activate a blind":
        b = own_blinds[0]
        b.act_turn, b.activations, b.move_actions = s.turn, 1, 1
    assert_listings_fresh(g)


def test_a_new_los_override_is_asked():
    g = new_game("village_sweep", sight=clear_sight)
    side = g.state.to_act
    seen = g.legal_actions(side)
    g.los_override = lambda a, b: SimpleNamespace(visible=False, fraction=0.0, distance=0.0)
    blind = g.legal_actions(side)
    assert blind != seen
    assert blind == fresh(g).legal_actions(side)


def test_every_field_of_the_state_is_in_the_table_or_the_rest():
    """A new field must be classed (game.rules.memo): on the table (what offers may read) or not."""
    for cls in (Stand, Element, Blind, GameState):
        named = set(memo.TABLE_FIELDS[cls]) | set(memo.OTHER_FIELDS[cls])
        objects = {"sides", "elements", "stands", "blinds", "chapters"} if cls is GameState else set()
        assert named | objects == {f.name for f in dataclasses.fields(cls)}, cls.__name__
    # A chapter's state is split by its chapter: the fields it names go with the table.
    from game.rules.chapters import CHAPTERS

    for ch in CHAPTERS.values():
        if ch.state_type is not None:
            assert set(ch.table_fields) <= {f.name for f in dataclasses.fields(ch.state_type)}, ch.id


def test_state_images_tell_equal_values_of_different_types_apart():
    """10 and 10.0 (or 0.0 and -0.0) print differently in a listing, so they must not share one."""
    g = new_game("village_sweep")
    st = next(iter(g.state.stands.values()))
    images = []
    for x in (10.0, 10, 0.0, -0.0):
        st.x = x
        images.append(memo.state_images(g.state, g.sight_key()))
    assert len(set(images)) == 4


@pytest.mark.parametrize("sid", ["village_sweep", "rubber_plantation"])
def test_the_state_hash_is_the_sha256_of_the_json_of_the_state(sid):
    """GameState.hash writes the JSON straight from the dataclasses; it must be the JSON of to_dict."""
    import hashlib
    import json

    g = new_game(sid, 7, clear_sight)
    rng = Dice(seed_streams(5))
    for _ in range(60):
        if g.state.over:
            break
        side = g.state.to_act
        acts = g.legal_actions(side)
        try:
            g.act(side, fill(acts[rng.below(len(acts))], rng))
        except IllegalAction:
            continue
        blob = json.dumps(g.state.to_dict(), sort_keys=True, separators=(",", ":"))
        assert g.hash() == hashlib.sha256(blob.encode()).hexdigest()


@pytest.mark.parametrize("sid", ["village_sweep", "cu_chi", "thunder_road", "canal_assault"])
def test_a_kind_of_a_chapter_not_in_the_game_offers_nothing_and_is_not_asked(sid):
    """``ActionKind.chapter``: a kind whose chapter takes no part in the game offers nothing there, asked
    anyway at every listing of a random game, so the listing that leaves it out lists the same (and a kind
    of an active chapter is asked as before)."""
    from game.rules import chapters
    from game.rules.game import _registered
    from tests.rules.test_changes import random_play

    g = Game(resolve_scenario(sid), 21, start=False)
    start_turn(g)
    gated = [k for _, k in _registered()[1] if k.chapter is not None]
    assert {k.chapter for k in gated} >= {"tunnels", "underground", "village", "vehicles"}
    asked = {"in": 0, "out": 0}

    def each(g: Game) -> None:
        active = {c.id for c in chapters.chapters(g)}
        g.legal_actions(g.state.to_act or "allied")
        here = g._kinds_here()
        for kind in gated:
            assert (kind in here) == (kind.chapter in active)
            if kind.chapter in active:
                asked["in"] += 1
                continue
            for el in g.activatable(g.state.to_act or "allied"):
                common = {"element": el.id, "cost": 0, "tokens": 0, "emergency": False, "cost_clause": "G-28 (4)"}
                assert kind.offers(g, el, common, "free") == [], (kind.type, el.id)
                asked["out"] += 1

    random_play(g, 21, 60, each=each)
    assert asked["out"] > 0  # every one of these tables leaves some chapter out
    assert (asked["in"] > 0) == (sid != "village_sweep")  # cu_chi: tunnels; thunder_road, canal_assault: vehicles


def _mutable_inside(value, path: str):
    """The first plain (changeable) dict or list inside an offer, by where it is; None if there is none."""
    from game.rules.offers import Items, Offer

    if isinstance(value, dict):
        if type(value) is not Offer:
            return path
        return next((p for k, v in value.items() if (p := _mutable_inside(v, f"{path}.{k}"))), None)
    if isinstance(value, list):
        if type(value) is not Items:
            return path
        return next((p for i, v in enumerate(value) if (p := _mutable_inside(v, f"{path}[{i}]"))), None)
    return None


@pytest.mark.parametrize("sid", ["village_sweep", "rubber_plantation", "cu_chi"])
def test_every_offer_of_a_random_game_is_read_only_all_the_way_down(sid):
    """Every offer handed out, and every dict and list inside it, refuses change (``game.rules.offers``),
    whether a builder made it read-only itself or the listing did."""
    from tests.rules.test_changes import random_play

    g = Game(resolve_scenario(sid), 8, start=False)
    start_turn(g)
    seen = set()

    def each(g: Game) -> None:
        for side in ("allied", "insurgent"):
            for o in g.legal_actions(side):
                where = _mutable_inside(o, o["type"])
                assert where is None, f"{where} can be changed"
                seen.add(o["type"])

    random_play(g, 8, 80, each=each)
    assert {"move", "hold", "pass"} <= seen
