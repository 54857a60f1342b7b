"""A table that changes (DD chapter 8): napalm burns a strip of dense jungle (G-19), a heavy shell leaves
a crater (G-01 T12c); line of sight, cover, movement, command and spotting answer the changed table at
once, and a restored game answers the same."""

import copy

import pytest
from shapely.geometry import LineString

from game.rules import fire
from game.rules.command import command_radius
from game.rules.detection import marker_terrain
from game.rules.game import Game
from game.rules.state import Blind
from game.rules.terrain_changes import burnt_strip, change_terrain, crater
from tests.builders import element, game, platoon, scenario, stand

JUNGLE = [{"id": "strip", "type": "dense", "polygon": [[20, 0], [26, 0], [26, 48], [20, 48]]}]


def strip_game() -> Game:
    """The 1st Squad west of a 6" strip of triple canopy, a VC cell east of it, one more in the strip."""
    els = platoon(pc_at=(10.0, 5.0), squad_at=(14.0, 10.0)) + [
        element("vc", "insurgent", [stand("vc_a", "vc_rifle_cell", 30.0, 10.0, 180),
                                    stand("vc_b", "vc_rifle_cell", 32.2, 10.0, 180)], kind="cell"),
        element("vc2", "insurgent", [stand("vc2_a", "vc_rifle_cell", 23.0, 11.0, 180)], kind="cell"),
    ]
    return game(scenario(els, JUNGLE))


@pytest.fixture
def g() -> Game:
    return strip_game()


def napalm(g: Game):
    return change_terrain(g, "burnt", burnt_strip(23.0, 10.5, 0.0, 10.0, 4.0), "G-19",
                          "Napalm burns a strip through the jungle")


def test_napalm_opens_a_sightline_through_dense_jungle(g):
    # G-19: the burnt strip no longer cuts sight; G-02/DD-4.4: dense caps the whole sightline at 3"
    a, vc = g.state.stands["a"], g.state.stands["vc_a"]
    before = g.line_of_sight(a, vc)
    assert not before.visible and before.limit == "dense"
    g.legal_actions("allied")  # the listing's caches are filled from the table before the change
    change = napalm(g)
    assert change.id == "tc1" and change.kind == "burnt" and change.turn == g.state.turn
    after = g.line_of_sight(a, vc)
    assert after.visible and after.limit == "open" and after.canopy_inches == {}
    assert g.line_of_sight(vc, a).visible  # DD-4.5: mutual
    assert g.conditions().burnt and g.conditions() is g.conditions()


def test_the_burnt_strip_gives_burnt_cover_movement_and_spotting(g):
    # G-19 (PROPOSAL burnt row): light cover, save 5+, normal move, no spotting modifier, not dense
    inside = g.state.stands["vc2_a"]
    assert fire.cover_of(g, inside).id == "dense"
    line = LineString([(21.0, 10.5), (25.0, 10.5)])
    assert command_radius(g, line)[1].startswith("DD-1.13 (dense")
    napalm(g)
    cover = fire.cover_of(g, inside)
    assert cover.id == "burnt" and cover.save == 5 and cover.cover == "light"
    assert g.table.ground_at(23.0, 10.5).move == "normal"
    assert command_radius(g, line) == (g.book.command.radius_open, "DD-1.13")  # DD-1.13: no longer dense
    blind = Blind(id="b9", side="insurgent", x=23.0, y=10.5, dummy=True, elements=[])
    assert marker_terrain(g, blind).id == "burnt" and marker_terrain(g, blind).spot == 0  # DD-4.23
    assert fire.cover_of(g, g.state.stands["a"]).id == "open"  # away from it nothing changed


def test_a_crater_in_the_open_gives_a_5_save(g):
    # G-01 T12c: craters: normal move, LOS 24", save 5+ (G-01 rule 1: the best cover at the centre)
    pc = g.state.stands["pc"]
    assert fire.cover_of(g, pc).save == 6
    c = change_terrain(g, "crater", crater(pc.x, pc.y, 1.5), "G-01 T12c", "A 155mm shell leaves a crater")
    assert c.id == "tc1"
    cover = fire.cover_of(g, pc)
    assert cover.id == "crater" and cover.save == 5
    assert g.table.ground_at(pc.x, pc.y).id == "open"  # an overlay: the ground is still open
    ev = g.events[-1]
    assert ev["type"] == "terrain" and ev["change"] == "tc1" and ev["kind"] == "crater"
    assert ev["clause"] == "G-01 T12c" and ev["polygon"] == c.polygon
    # a crater does not change sight (LOS 24"): the conditions stay the same
    assert not g.conditions().burnt


def test_everyone_sees_the_change(g):
    # public: craters and burnt jungle are on the table for both sides (DESIGN §6)
    napalm(g)
    change_terrain(g, "crater", crater(12.0, 20.0, 1.0), "G-01 T12c", "crater")
    for side in ("allied", "insurgent", "referee"):
        v = g.view(side)
        assert [c["id"] for c in v["terrain_changes"]] == ["tc1", "tc2"]
        assert [c["kind"] for c in v["terrain_changes"]] == ["burnt", "crater"]
        assert set(v["terrain_changes"][0]) == {"id", "kind", "polygon", "turn", "clause"}
        assert [e["type"] for e in g.events_for(side, g.events)].count("terrain") == 2


def test_a_restored_game_answers_the_changed_table(g):
    # G-19, G-01 T12c: saves carry the changes; a restored game builds its table with them
    napalm(g)
    change_terrain(g, "crater", crater(10.0, 5.0, 1.5), "G-01 T12c", "crater")
    a, vc = g.state.stands["a"], g.state.stands["vc_a"]
    snap = g.snapshot()
    back = Game.restore(g.scenario, copy.deepcopy(snap))
    assert back.hash() == g.hash()
    assert back.state.terrain_changes == g.state.terrain_changes
    assert back.line_of_sight(back.state.stands["a"], back.state.stands["vc_a"]) == g.line_of_sight(a, vc)
    assert back.line_of_sight(back.state.stands["a"], back.state.stands["vc_a"]).visible
    assert fire.cover_of(back, back.state.stands["vc2_a"]).id == "burnt"
    assert fire.cover_of(back, back.state.stands["pc"]).id == "crater"
    assert back.view("allied")["terrain_changes"] == g.view("allied")["terrain_changes"]
    # the change is part of the state: the hash moves with it
    plain = strip_game()
    assert plain.hash() != g.hash()


def test_sightlines_away_from_the_burnt_strip_answer_as_before(g):
    # G-19: the burnt conditions change no sightline that never crosses the burnt ground
    pc, sl = g.state.stands["pc"], g.state.stands["sl"]
    before = g.line_of_sight(pc, sl)
    napalm(g)
    after = g.line_of_sight(pc, sl)
    assert after == before


def test_changes_are_numbered_and_checked(g):
    with pytest.raises(ValueError):
        change_terrain(g, "flood", crater(10.0, 10.0, 1.0), "G-01", "no such change")
    with pytest.raises(ValueError):
        change_terrain(g, "crater", [[1.0, 1.0], [2.0, 2.0]], "G-01 T12c", "no area")
    ids = [change_terrain(g, "crater", crater(5.0 + 3 * k, 30.0, 1.0), "G-01 T12c", "crater").id for k in range(3)]
    assert ids == ["tc1", "tc2", "tc3"]
    strip = burnt_strip(23.0, 10.0, 90.0, 6.0, 2.0)  # G-19: the napalm oval, 2" x 6" along the heading
    xs, ys = [p[0] for p in strip], [p[1] for p in strip]
    assert max(ys) - min(ys) == pytest.approx(6.0) and max(xs) - min(xs) == pytest.approx(2.0, abs=0.02)
    box = burnt_strip(0.0, 0.0, 0.0, 4.0, 2.0, shape="rectangle")
    assert box == [[-2.0, -1.0], [2.0, -1.0], [2.0, 1.0], [-2.0, 1.0]]


def test_a_listing_answers_the_changed_table(g):
    # G-19: offers read the table and sight: the cell deep in the jungle strip (DD-4.4: 3" at most) is
    # offered as a target once the strip burns; nothing the game kept from before answers for it
    def targets() -> set[str]:
        return {c for a in g.legal_actions("allied") if a["type"] == "fire"
                for c in a["params"].get("target", {}).get("choices", [])}

    assert "vc2_a" not in targets()
    napalm(g)
    assert "vc2_a" in targets()


def test_putting_an_earlier_state_back_puts_its_table_back(g: Game):  # G-19; DESIGN §5
    """A fault rolled back (engine session) restores the table as the earlier state has it."""
    sq, vc = g.state.stands["a"], g.state.stands["vc_a"]
    before = copy.deepcopy(g.state)
    assert not g.line_of_sight(sq, vc).visible  # 6" of triple canopy between them (G-02)
    napalm(g)
    assert g.line_of_sight(sq, vc).visible
    g.put_back(before)
    assert not g.state.terrain_changes and not g.line_of_sight(sq, vc).visible
    assert fire.cover_of(g, g.state.stands["vc2_a"]).id == "dense"


def test_another_game_on_the_table_keeps_the_table_as_it_was(g: Game):  # G-19; DD-4.4
    """Games on one table share its plan-view map and measured answers (``TableCache.table_map``); the
    napalm of one game changes its own table only, and the shared answers it had are left as they were."""
    other = strip_game()
    assert other.table is g.table and other.measured is g.measured  # one table, one map for both
    inside = other.state.stands["vc2_a"]
    assert fire.cover_of(other, inside).id == "dense"
    fire.gap(g, g.state.stands["a"], g.state.stands["vc_a"])  # an answer kept in the shared store
    kept = dict(other.measured)
    napalm(g)
    assert g.table is not other.table and g.measured is not other.measured
    assert fire.cover_of(g, g.state.stands["vc2_a"]).id == "burnt"
    assert fire.cover_of(other, inside).id == "dense"  # the other game's table is not burnt
    assert other.table.ground_at(23.0, 10.5).id == "dense"
    assert other.measured == kept
    assert strip_game().table is other.table  # a new game on the table still shares the unburnt map
