"""Offscreen pictures of a table: the mat, the table and every base where its projection says."""

from __future__ import annotations

import panda3d.core as p3d

from .fake_engine import FakeEngine


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
