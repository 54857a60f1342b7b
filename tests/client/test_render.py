"""Offscreen pictures of a table: the mat, the table and every base where its projection says."""

from __future__ import annotations

import panda3d.core as p3d

from .fake_engine import FakeEngine, sample_scenario


def pixel(img: p3d.PNMImage, x: float, y: float) -> tuple[float, float, float]:
    xi = min(max(int(x), 0), img.get_x_size() - 1)
    yi = min(max(int(y), 0), img.get_y_size() - 1)
    c = img.get_xel(xi, yi)
    return (c.x, c.y, c.z)


def differs(a, b, by=0.06) -> bool:
    return sum(abs(p - q) for p, q in zip(a, b, strict=True)) > by


def test_screenshot_shows_table_and_bases(make_app, tmp_path):
    app = make_app(FakeEngine, size=(1280, 720))
    app.open_game_sync("fake_patrol")
    app.hud.root.hide()
    for node in app.hud.anchors:
        node.hide()
    app.frame_camera("top")
    app.settle()
    shot = tmp_path / "table.png"
    app.screenshot(str(shot))
    img = p3d.PNMImage()
    assert img.read(p3d.Filename.from_os_specific(str(shot)))
    assert (img.get_x_size(), img.get_y_size()) == (1280, 720)

    # the mat at an open spot of the table, and the room beyond the table's edge
    mat_px = app.project((30.0, 45.0, 0.0))
    mat = pixel(img, *mat_px)
    outside = pixel(img, 2, 2)
    assert differs(mat, outside), "the table should stand out from the room around it"

    checked = 0
    for piece in app.scene.pieces.stands.values():
        pos = piece.node.get_pos()
        px = app.project((pos.x, pos.y, pos.z + 0.1))
        assert px is not None
        # a base's centre differs from the bare mat
        samples = [pixel(img, px[0] + dx, px[1] + dy) for dx in (-2, 0, 2) for dy in (-2, 0, 2)]
        assert any(differs(s, mat) for s in samples), f"stand {piece.id} not drawn at {px}"
        checked += 1
    assert checked == len(app.view["stands"]) > 10


def test_geom_count_stays_low(make_app):
    app = make_app(FakeEngine)
    app.open_game_sync("fake_patrol")
    assert app.scene.geom_count() < 300


# -- the mat, the baked light, the water, the room (game/client/mat.py, game/world/lightmap.py) --------

def _baked(tmp_path, time_of_day: str = "day") -> dict:
    """The fake patrol's table baked to a .glb, as the engine hands it to the client."""
    from game.world import bake
    from game.world.features import Feature
    from tests.world.tables import Table

    scenario = sample_scenario()
    feats = []
    for f in scenario["features"]:
        kw = {k: tuple(tuple(p) for p in v) if k in ("polygon", "path") else v for k, v in f.items()}
        kw.update({k: tuple(f[k]) for k in ("point", "size") if k in f})
        feats.append(Feature(**kw))
    glb = tmp_path / "table.glb"
    glb.write_bytes(bake.bake_glb(Table(72.0, 48.0, tuple(feats))))
    return {**scenario, "glb": str(glb), "time_of_day": time_of_day}


def test_the_mat_is_painted_from_the_features_the_same_every_time():
    from game.client.mat import PPI, paint_mat

    feats = sample_scenario()["features"]
    img = paint_mat(feats, 72.0, 48.0)
    assert img.shape == (48 * PPI, 72 * PPI, 4)
    assert paint_mat(feats, 72.0, 48.0).tobytes() == img.tobytes()

    def at(x, y):
        return img[int(y * PPI), int(x * PPI)].astype(float)

    open_ground, trail, jungle, stream = at(30, 45), at(20, 16), at(8, 40), at(56, 30)
    assert trail[0] > 1.3 * trail[1], "trails are red-brown laterite"
    assert trail[0] / trail[1] > open_ground[0] / open_ground[1] + 0.3
    assert jungle[:3].sum() < 0.85 * open_ground[:3].sum(), "the ground under the trees is dark"
    assert stream[3] > 200 and open_ground[3] == 0, "alpha: how deep in the water"
    # irregular edges: the trail's edge is not a straight line of texels
    row = img[int(16 * PPI) - 40:int(16 * PPI) + 40, int(20 * PPI)]
    assert len({int(v) for v in row[:, 0]}) > 10


def test_baked_light_water_and_night_on_screen(make_app, tmp_path):
    app = make_app(FakeEngine, size=(640, 360))
    app.open_game_sync("fake_patrol")
    app.hud.root.hide()
    for node in app.hud.anchors:
        node.hide()

    def shoot(name):
        app.frame_camera("top")
        app.settle()
        app.screenshot(str(tmp_path / name))
        img = p3d.PNMImage()
        assert img.read(p3d.Filename.from_os_specific(str(tmp_path / name)))
        return img

    app._build_table({"scenario": _baked(tmp_path)})
    assert app.scene.table.source == "glb"
    day = shoot("day.png")
    # north-west of the secondary jungle's north-west edge lies its sun shadow (the sun is south-east)
    shade_px, open_px = app.project((53.6, 14.4, 0.0)), app.project((30.0, 45.0, 0.0))
    paddy = pixel(day, *app.project((35.0, 8.0, 0.0)))
    # the same table without its baked light: the shadow goes, open ground stays as it was
    white = p3d.Texture("white")
    white.setup_2d_texture(1, 1, p3d.Texture.T_unsigned_byte, p3d.Texture.F_rgb)
    white.set_ram_image(b"\xff\xff\xff")
    app.scene.root.set_shader_input("u_light", white)
    flat = shoot("flat.png")
    assert sum(pixel(day, *shade_px)) < 0.75 * sum(pixel(flat, *shade_px))
    assert abs(sum(pixel(day, *open_px)) - sum(pixel(flat, *open_px))) < 0.08
    assert sum(paddy) > 0.1 and differs(paddy, pixel(day, *open_px)), "the paddy is drawn as water"

    app._build_table({"scenario": _baked(tmp_path, "night_moonlit")})
    night = shoot("night.png")
    d, n = pixel(day, *open_px), pixel(night, *open_px)
    assert sum(n) < 0.5 * sum(d), "a night table is dark"
    assert n[2] / max(sum(n), 1e-6) > d[2] / sum(d), "and blue"
    assert sum(pixel(night, 2, 2)) < sum(n), "the room is darker still"
