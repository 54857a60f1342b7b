"""The war underneath on screen (DD chapter 9B, the TUN module): where the network lies under the table,
what a side's view lets the client draw of it (TUN-24: the Allied player sees only what it found), every
tunnel, trap and village event of the contract played on the table, and offscreen renders of the cutaway
and the torch-lit crawl."""

from __future__ import annotations

import math

import panda3d.core as p3d
import pytest

from game.client import presenter as pr
from game.client import underground_geom as ug

from .tunnel_views import SECTIONS, TunnelEngine, section_markers, tunnel_view

EVENTS = ("tunnel_found", "tunnel_enter", "tunnel_emerge", "tunnel_gas", "tunnel_charge", "tunnel_collapse",
          "tunnel_move", "tunnel_fight", "tunnel_rat", "booby_trap", "trap_found", "civilian_hit", "medcap",
          "cache_found", "cache_secured", "cache_destroyed", "hootch_burned", "tunnel_rats", "tunnel_casualty")


# -- geometry -------------------------------------------------------------------------------------------
def test_sections_lie_beneath_their_places_at_their_depths():
    # TUN-1, TUN-2: each section at its x, y, its floor depth inches under the surface
    secs = ug.sections(section_markers("insurgent"), lambda x, y: 0.5)
    assert set(secs) == {s[0] for s in SECTIONS}
    d1 = secs["d1"]
    assert (d1.x, d1.y) == (52.0, 30.0) and d1.z == pytest.approx(0.5 - 2.6)
    assert d1.room and not d1.surface and secs["e1"].surface and secs["s1"].surface  # TUN-4, TUN-5
    # a room's long side runs along its first link (by id: e2, to its north-west)
    assert d1.links == ("e2", "j1")
    assert d1.heading == pytest.approx(math.degrees(math.atan2(34 - 30, 46 - 52)))


def test_rooms_are_sized_by_capacity():
    # TUN-3: dug-outs hold 2, 4, 6 or 8 stands: bigger rooms for more
    sizes = [ug.room_size(c) for c in (2, 4, 6, 8)]
    assert all(a[0] < b[0] for a, b in zip(sizes, sizes[1:], strict=False))
    assert sizes[0][1] == sizes[3][1]  # two rows of slots, whatever the capacity
    d = ug.sections(section_markers("insurgent"))["d2"]  # capacity 6
    spots = ug.slots(d, 6)
    length, width, _ = ug.room_size(6)
    h = math.radians(d.heading)
    for x, y, _ in spots:  # every slot lies inside the room
        a = (x - d.x) * math.cos(h) + (y - d.y) * math.sin(h)
        c = -(x - d.x) * math.sin(h) + (y - d.y) * math.cos(h)
        assert abs(a) < length / 2 and abs(c) < width / 2
    assert len({(round(x, 3), round(y, 3)) for x, y, _ in spots}) == 6


def test_tubes_end_at_room_walls_and_in_chambers():
    # TUN-1: a length of tunnel runs between two sections; it stops at a dug-out's wall
    secs = ug.sections(section_markers("insurgent"))
    p0, p1 = ug.tube(secs["j1"], secs["d1"])
    assert p0 == pytest.approx(secs["j1"].centre)  # into a junction's chamber, to its middle
    d1 = secs["d1"]
    length, width, _ = ug.room_size(d1.capacity)
    gap = math.hypot(p1[0] - d1.x, p1[1] - d1.y)
    assert min(length, width) / 2 - 1e-6 <= gap <= math.hypot(length, width) / 2
    assert ug.shaft(secs["e1"]) == ((40.0, 30.0, 0.0), (40.0, 30.0, -1.4))  # TUN-5: the shaft to its hatch
    assert ug.shaft(secs["j1"]) is None


def test_cutaway_box_holds_every_known_section_inside_the_table():
    secs = ug.sections(section_markers("insurgent"))
    x0, y0, x1, y1, zf = ug.extents(secs, 72.0, 48.0)
    for s in secs.values():
        assert x0 < s.x < x1 and y0 < s.y < y1 and zf < s.z
    assert ug.extents({}, 72, 48) is None
    edge = ug.sections([{"id": "a", "kind": "tunnel_section", "section_kind": "entrance", "x": 0.5, "y": 47.8}])
    assert ug.extents(edge, 72, 48)[:4] == pytest.approx((0.0, 46.2 - ug.CHAMBER_R["entrance"] + 0.0, 2.1 +
                                                          ug.CHAMBER_R["entrance"], 48.0), abs=0.01)


def test_an_allied_view_links_only_what_it_knows():
    # TUN-24, DD-9B.3: the Allied player found e1, t1, j1; nothing beyond them is placed or linked
    allied = ug.sections(section_markers("allied"))
    assert set(allied) == {"e1", "t1", "j1"}
    assert ug.links(allied) == [("e1", "t1"), ("j1", "t1")]
    # a marker naming an unknown neighbour draws no link to it
    leaky = section_markers("allied")
    leaky[2]["links"] = ["d1", "t1"]
    assert ug.links(ug.sections(leaky)) == [("e1", "t1"), ("j1", "t1")]


def test_the_crawl_rides_behind_along_the_tube():
    # TUN-8: the rat moves section to section; the eye follows behind it
    secs = ug.sections(section_markers("insurgent"))
    a, b = secs["t1"], secs["j1"]
    (x, y, z), h, p = ug.crawl_pose(a, b, 0.5)
    fx_, fy, _ = ug.along(a, b, 0.5)
    ux, uy = b.x - a.x, b.y - a.y
    assert (fx_ - x) * ux + (fy - y) * uy > 0, "the rat is ahead of the eye"
    assert a.z < z < a.z + 2 * ug.TUBE_R, "the eye is inside the tube"
    assert h == pytest.approx(math.degrees(math.atan2(-ux, uy)))


def test_the_crawl_eye_stays_in_the_tunnels():
    # the eye trails through the tube the stand came by; with none behind, it waits in the section it leaves
    secs = ug.sections(section_markers("insurgent"))
    a, b, prev = secs["t1"], secs["j1"], secs["e1"]
    (x, y, _), _, _ = ug.crawl_pose(a, b, 0.0)
    assert math.dist((x, y), (a.x, a.y)) <= 0.3 + 1e-6, "never behind the far wall of the section it leaves"
    (x, y, _), h, _ = ug.crawl_pose(a, b, 0.0, prev=prev)
    px, py = prev.x - a.x, prev.y - a.y
    assert abs((x - a.x) * py - (y - a.y) * px) < 1e-6 and (x - a.x) * px + (y - a.y) * py > 0, "in the tube behind"
    assert h == pytest.approx(math.degrees(math.atan2(-(a.x - x), a.y - y))), "looking at the stand"


# -- the layer on a table ------------------------------------------------------------------------------
@pytest.fixture
def table(make_app):
    clock = p3d.ClockObject.get_global_clock()
    clock.set_mode(p3d.ClockObject.M_non_real_time)
    clock.set_frame_rate(10)
    app = make_app(TunnelEngine, size=(320, 180))
    app.open_game_sync("fake_patrol")
    yield app
    clock.set_mode(p3d.ClockObject.M_normal)


def _network_points(app) -> list[tuple[float, float]]:
    pts = []
    for np_ in app.scene.underground.network.find_all_matches("**/+GeomNode"):
        lo, hi = np_.get_tight_bounds(app.render)
        pts += [(lo.x, lo.y), (hi.x, hi.y)]
    return pts


def test_allied_view_draws_no_unknown_section(table):
    # TUN-24, docs/fog.md: what the Allied player has not found is drawn nowhere, above or below
    app = table
    under = app.scene.underground
    assert set(under.secs) == {"e1", "t1", "j1"}
    lo_x = min(x for x, _ in _network_points(app))
    hi_x = max(x for x, _ in _network_points(app))
    assert hi_x < 52.0 - 1.0, "nothing reaches the hospital dug-out at x = 52"
    assert lo_x > 36.0
    drawn = set(app.scene.pieces.markers)
    assert "e1" in drawn and "t1" not in drawn and "s1" not in drawn and "e2" not in drawn  # hatches only
    assert "bt3" not in drawn and "k2" not in drawn  # the Insurgent's hidden trap and cache (DD-9B.1)
    assert under.where == {"a_sq1": "t1"}  # the garrison in d1 is not the Allied player's to see (TUN-12)
    app._on_view(tunnel_view("insurgent"))
    assert set(under.secs) == {s[0] for s in SECTIONS}
    assert max(x for x, _ in _network_points(app)) > 52.0
    assert {"bt3", "k2", "e2", "s1"} <= set(app.scene.pieces.markers)


def test_underground_stands_leave_the_surface_and_stand_in_their_sections(table):
    # TUN-9: an element in the network is off the table; drawn small in its section
    app = table
    under = app.scene.underground
    for sid in ("a_sq1.1", "a_sq1.2", "a_sq1.3"):
        assert app.scene.pieces.stands[sid].node.is_hidden()
        fig = under.figures[sid]
        p = fig.get_pos()
        assert p.z < -1.0 and math.hypot(p.x - 44.0, p.y - 28.0) < 1.5
    assert not app.scene.pieces.stands["a_hq.1"].node.is_hidden()
    app._on_view(tunnel_view("allied", rat_in=None))  # DD-9B.4: back on the surface
    assert not app.scene.pieces.stands["a_sq1.1"].node.is_hidden() and not under.figures


def test_u_cycles_cutaway_crawl_and_back(table):
    app = table
    under = app.scene.underground
    lens = app.base.camLens
    near = lens.get_near()
    app.toggle_underground()
    assert under.is_open and not under.root.is_hidden() and not app.scene.flora.visible
    app.toggle_underground()
    assert under.crawl is not None and app.scene.table.root.is_hidden()
    assert lens.get_near() < near
    app.base.task_mgr.step()
    assert app.base.camera.get_z() < 0, "the crawl's eye is under the table"
    app.toggle_underground()
    assert under.crawl is None and not under.is_open and not app.scene.table.root.is_hidden()
    assert lens.get_near() == pytest.approx(near) and app.scene.flora.visible


def test_every_event_of_the_contract_has_a_handler():
    assert pr.unhandled(EVENTS) == []


def _events() -> list[dict]:
    evs = [
        {"type": "tunnel_found", "section": "e1", "kind": "entrance", "x": 40.0, "y": 30.0, "by": "a_sq2"},
        {"type": "tunnel_enter", "element": "a_sq2", "section": "e1", "x": 40.0, "y": 30.0},
        {"type": "tunnel_move", "element": "a_sq1", "from": "t1", "to": "j1"},
        {"type": "tunnel_fight", "section": "j1", "allied": "a_sq1", "insurgent": "i_c1", "rolls": [],
         "winner": "a_sq1", "loser": "i_c1", "result": "withdrew", "to": "d1"},
        {"type": "tunnel_rat", "element": "a_sq1", "section": "e1", "result": "cleared"},
        {"type": "tunnel_gas", "section": "e1", "x": 40.0, "y": 30.0, "until_turn": 3},
        {"type": "tunnel_charge", "section": "e1", "element": "a_hq", "x": 40.0, "y": 30.0},
        {"type": "tunnel_collapse", "section": "e1", "x": 40.0, "y": 30.0, "how": "charge"},
        {"type": "tunnel_emerge", "element": "a_sq2", "section": "e1", "x": 40.0, "y": 30.0,
         "stands": [{"id": "a_sq2.1", "type": "us_squad_leader", "x": 41.0, "y": 31.0, "facing": 0}]},
        {"type": "trap_found", "trap": "bt1", "x": 38.0, "y": 33.0, "by": "a_sq2", "how": "search"},
        {"type": "civilian_hit", "civilian": "c1", "x": 47.5, "y": 36.5, "cause": "fire"},
        {"type": "medcap", "element": "a_hq", "civilian": "c2"},
        {"type": "cache_found", "cache": "k1", "x": 53.5, "y": 43.5, "kind": "weapons"},
        {"type": "cache_secured", "cache": "k1"},
        {"type": "cache_destroyed", "cache": "k1"},
        {"type": "hootch_burned", "feature": "hootch1", "x": 46.0, "y": 38.0, "contraband": True},
        {"type": "tunnel_rats", "phase": "inbound", "x": 30.0, "y": 10.0, "colour": "yellow", "stand": "a_hq.1"},
        {"type": "tunnel_rats", "phase": "crash", "x": 30.0, "y": 10.0, "colour": "yellow"},
        {"type": "tunnel_casualty", "token": "tc1", "section": "j1", "stand": "a_sq1.2"},
    ]
    for result in ("dud", "punji", "grenade", "mine", "alarm", "claymore"):  # G-08's results
        evs.append({"type": "booby_trap", "trap": "bt9", "x": 30.0, "y": 20.0, "result": result,
                    "element": "a_sq2", "stand": "a_sq2.1", "heading": 45.0})
    return [{**e, "seq": i + 1, "clause": "DD-9B", "text": e["type"]} for i, e in enumerate(evs)]


def test_each_event_plays_and_leaves_nothing_behind(table):
    app = table
    pres = app.presenter
    pres.auto_cutaway = True  # as in the attract mode: the underground events open the cutaway
    errors = []
    pres.on_error = errors.append
    pres.set_speed(1.0)
    app.base.win.set_active(False)  # the timelines run on the frame clock; no pictures are needed here
    view = tunnel_view("allied", rat_in="j1")
    app.handle_events(_events(), view)
    opened = False
    for _ in range(2000):
        if not pres.busy:
            break
        opened = opened or app.scene.underground.is_open
        app.base.task_mgr.step()
    assert not pres.busy and errors == []
    assert opened, "the attract mode looks underground while the tunnels' events play"
    assert not app.scene.underground.is_open, "and closes the cutaway after"
    assert app.scene.effects.root.find_all_matches("**").get_num_paths() == 1
    assert app.scene.underground.where == {"a_sq1": "j1"}
    assert app.scene.underground.figures["a_sq1.1"].get_pos().z < -1.0


# -- offscreen renders -------------------------------------------------------------------------------------
def _shot(app, path):
    app.screenshot(str(path), hud=False)
    img = p3d.PNMImage()
    assert img.read(p3d.Filename.from_os_specific(str(path)))
    return img


def _lum(img, x, y):
    c = img.get_xel(int(x), int(y))
    return c.x + c.y + c.z


def test_cutaway_and_crawl_render(make_app, tmp_path):
    app = make_app(TunnelEngine, size=(480, 270))
    app.open_game_sync("fake_patrol", side="insurgent")
    app._on_view(tunnel_view("insurgent"))
    app.camera.focus(47, 28, 0, 30)
    app.camera.goal.heading, app.camera.goal.pitch = 15, 40
    app.camera.snap()
    app.settle()
    closed = _shot(app, tmp_path / "closed.png")
    app.toggle_underground()
    app.settle()
    cut = _shot(app, tmp_path / "cut.png")
    # the junction j1 (48, 26) lies 2.2" down: the opened pit shows its clay where the mat was
    px = app.project(ug.sections(section_markers("insurgent"))["j1"].centre)
    assert px is not None
    c, m = cut.get_xel(int(px[0]), int(px[1])), closed.get_xel(int(px[0]), int(px[1]))
    assert abs(c.x - m.x) + abs(c.y - m.y) + abs(c.z - m.z) > 0.1
    assert c.x > c.z * 1.2, "laterite: red over blue"
    app.toggle_underground()
    app.settle()
    crawl = _shot(app, tmp_path / "crawl.png")
    w, h = crawl.get_x_size(), crawl.get_y_size()
    corners = sum(_lum(crawl, x, y) for x, y in ((2, 2), (w - 3, 2), (2, h - 3), (w - 3, h - 3))) / 4
    lit = max(_lum(crawl, w * fx_, h * fy) for fx_ in (0.4, 0.5, 0.6) for fy in (0.4, 0.5, 0.6))
    assert corners < 0.35, "the tunnel is dark beyond the torch"
    assert lit > 3 * max(corners, 0.05), "the torch lights what is ahead"
    mid = crawl.get_xel(int(w * 0.55), int(h * 0.5))
    assert mid.x >= mid.z, "warm light"
