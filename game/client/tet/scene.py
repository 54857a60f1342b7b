"""Tet '68's table: a ruined street in Hue on the club's wooden table, lit as the Dinky Dau table is.

The ground is the same wooden table and painted mat (``game.client.table.Table``: dusty grey street and
rubble), lit by the same sun, sky, lamp-pool and grade (``TableScene._light``, shaders/lit.*). On it stand
the view's ``scenario.buildings``: each floor a tiled slab on a card base, each wall 2" high with its doors
and windows cut where the view says (TET-3), in a weathered plaster colour with a brick cap, rubble heaped
along it. A baked table (the view's ``scenario.glb``) is loaded instead where the engine gives one.

The cutaway (``cut_toward``): walls standing between the camera and the point looked at (the selected
figure, the mouse) are cut down to a stub, so the player sees into the rooms; ``C`` cuts them all.

What it leaves out: the figures (``figures.py``), the rules (walls here are drawn from the view, never
consulted for sight: ``los.check`` answers that), and the events (``events.py``).
"""

from __future__ import annotations

import math
import random

import panda3d.core as p3d
import trimesh
import trimesh.creation as tc
from shapely.geometry import Polygon

from game.client import geom
from game.client.effects import Effects
from game.client.scene import TableScene
from game.client.table import Table
from game.client.tet.figures import TetFigures

WALL_T = 0.22
"""A wall's thickness on the table, inches (a drawing: the rules' walls are lines)."""
AT_OPENING = 0.6
"""How far behind a wall a man at a window or leaning from a door stands and still keeps it standing."""
STUB = 0.16
"""What is left of a cut-away wall, as a share of its height."""
PLASTER = [(0.80, 0.74, 0.60, 1), (0.82, 0.68, 0.46, 1), (0.66, 0.69, 0.68, 1), (0.78, 0.62, 0.56, 1)]
BRICK = (0.52, 0.30, 0.22, 1)
FLOOR = (0.50, 0.34, 0.26, 1)
CARD = (0.36, 0.30, 0.22, 1)
RUBBLE = [(0.62, 0.58, 0.52, 1), (0.50, 0.30, 0.22, 1), (0.70, 0.66, 0.58, 1), (0.40, 0.37, 0.34, 1)]


def ground_features(view: dict) -> list[dict]:
    """The mat's paint: the whole table a dusty street of broken paving (the mat's ``rubble`` flock)."""
    t = (view.get("scenario") or {}).get("table") or {}
    w, h = float(t.get("width", 36)), float(t.get("height", 24))
    return [{"id": "street", "type": "rubble", "polygon": [[0, 0], [w, 0], [w, h], [0, h]]}]


def _wall_mesh(wall: dict) -> list[tuple[trimesh.Trimesh, tuple]]:
    """The solid parts of one wall in its own frame (x along it from ``from``, y across, z up)."""
    (ax, ay), (bx, by) = wall["from"][:2], wall["to"][:2]
    length = math.hypot(bx - ax, by - ay)
    height = float(wall.get("height", 2.0))
    openings = sorted(wall.get("openings") or [], key=lambda o: o["start"])
    parts = []

    def block(x0, x1, z0, z1):
        if x1 - x0 > 1e-3 and z1 - z0 > 1e-3:
            parts.append(tc.box(extents=(x1 - x0, WALL_T, z1 - z0),
                                transform=trimesh.transformations.translation_matrix(((x0 + x1) / 2, 0, (z0 + z1) / 2))))

    x = 0.0
    for o in openings:
        s, e = max(0.0, float(o["start"])), min(length, float(o["end"]))
        block(x, s, 0, height)
        block(s, e, 0, float(o.get("bottom", 0.0)))
        block(s, e, float(o.get("top", height)), height)
        x = max(x, e)
    block(x, length, 0, height)
    cap = tc.box(extents=(length, WALL_T + 0.02, 0.05),
                 transform=trimesh.transformations.translation_matrix((length / 2, 0, height + 0.02)))
    return parts, cap, length


class TetScene:
    """Builds and owns everything under ``root`` for one Tet '68 table (see the module docstring)."""

    def __init__(self, root: p3d.NodePath, view: dict, settings, library):
        scenario = dict(view.get("scenario") or {})
        self.root = root.attach_new_node("scene")
        self.settings = settings
        self.scenario = scenario
        self.table = Table(self.root, {"table": scenario.get("table") or {}, "features": ground_features(view),
                                       **({"glb": scenario["glb"]} if scenario.get("glb") else {})},
                           settings.canopy_alpha)
        self.pieces = TetFigures(self.root, library, self.table.height_at)
        self.overlays = self.root.attach_new_node("overlays")
        self.effects = Effects(self.overlays, self.pieces, self.table.height_at)
        self.walls: dict[str, tuple[p3d.NodePath, tuple[float, float], tuple[float, float]]] = {}
        self.ruins = self.root.attach_new_node("ruins")
        if self.table.source == "glb":
            self._baked_walls(scenario)
        else:
            for b in scenario.get("buildings") or []:
                self._building(b)
        self.cleared_marks = self.root.attach_new_node("cleared")
        self.cleared: tuple = ()
        self.cut_all = False
        TableScene._light(self, scenario.get("time_of_day", "day"), scenario.get("weather", "clear"))
        self.ruins.set_shader_input("u_baked", 0.6)
        from game.client.underground import EMPTY_CUT

        self.root.set_shader_input("u_cut", EMPTY_CUT)  # the lit shader's pit over tunnels: none in Hue
        self.root.set_shader_input("u_cut_alpha", 1.0)

    # -- the ruins -----------------------------------------------------------------------------------
    def _building(self, b: dict) -> None:
        rng = random.Random(f"ruin:{b.get('id')}")
        node = self.ruins.attach_new_node(f"building-{b.get('id')}")
        floor = Polygon(b.get("floor") or [])
        if floor.is_valid and not floor.is_empty:
            card = tc.extrude_polygon(floor.buffer(0.5, join_style="mitre"), 0.1)
            node.attach_new_node(geom.trimesh_node("card", card, CARD))
            tiles = tc.extrude_polygon(floor, 0.05)
            tiles.apply_translation((0, 0, 0.1))
            node.attach_new_node(geom.trimesh_node("floor", tiles, FLOOR))
            self._rubble(node, floor, rng, 10)
        plaster = PLASTER[rng.randrange(len(PLASTER))]
        for w in b.get("walls") or []:
            parts, cap, length = _wall_mesh(w)
            if not parts:
                continue
            (ax, ay), (bx, by) = w["from"][:2], w["to"][:2]
            wall = node.attach_new_node(f"wall-{w.get('id')}")
            body = trimesh.util.concatenate(parts)
            wall.attach_new_node(geom.trimesh_node("plaster", body, plaster))
            wall.attach_new_node(geom.trimesh_node("brick", cap, BRICK))
            wall.set_pos(ax, ay, 0.1)
            wall.set_h(math.degrees(math.atan2(by - ay, bx - ax)))
            wall.flatten_light()
            self.walls[str(w.get("id"))] = (wall, (ax, ay), (bx, by))
            # fallen plaster and brick along the wall's foot
            for _ in range(int(length * 0.8)):
                t = rng.uniform(0.05, 0.95)
                side = rng.choice((-1, 1)) * rng.uniform(0.2, 0.6)
                nx, ny = -(by - ay) / length, (bx - ax) / length
                self._stone(node, ax + (bx - ax) * t + nx * side, ay + (by - ay) * t + ny * side, rng)

    def _baked_walls(self, scenario: dict) -> None:
        """The baked town (game.world.ruins): its ``sight:`` sheets are never drawn, its ``wall:`` nodes are
        the ones the cutaway cuts, at the ends the view gives each wall."""
        ends = {str(w.get("id")): (tuple(w["from"][:2]), tuple(w["to"][:2]))
                for b in scenario.get("buildings") or [] for w in b.get("walls") or []}
        for np_ in self.table.root.find_all_matches("**/sight:*"):
            np_.hide()
        for np_ in self.table.root.find_all_matches("**/wall:*"):
            wid = np_.get_name().split(":", 1)[1]
            if wid in ends and np_.get_parent().get_name() != np_.get_name():  # the outermost of its name
                self.walls[wid] = (np_, *ends[wid])

    def _rubble(self, node: p3d.NodePath, area: Polygon, rng: random.Random, heaps: int) -> None:
        x0, y0, x1, y1 = area.bounds
        for _ in range(heaps):
            cx, cy = rng.uniform(x0 + 0.6, x1 - 0.6), rng.uniform(y0 + 0.6, y1 - 0.6)
            if rng.random() < 0.5:  # most floors are swept; some hold a heap
                continue
            for _ in range(rng.randint(3, 7)):
                self._stone(node, cx + rng.uniform(-0.5, 0.5), cy + rng.uniform(-0.5, 0.5), rng)

    def _stone(self, node: p3d.NodePath, x: float, y: float, rng: random.Random) -> None:
        s = rng.uniform(0.08, 0.26)
        mesh = tc.box(extents=(s, s * rng.uniform(0.6, 1.4), s * rng.uniform(0.4, 0.9)))
        mesh.apply_transform(trimesh.transformations.rotation_matrix(rng.uniform(0, math.pi), (0, 0, 1)))
        mesh.apply_translation((x, y, 0.1 + s * 0.2))
        node.attach_new_node(geom.trimesh_node("stone", mesh, RUBBLE[rng.randrange(len(RUBBLE))]))

    # -- the cutaway ---------------------------------------------------------------------------------
    def cut_toward(self, target: tuple[float, float] | None, camera: p3d.LPoint3, behind: float = 0.05) -> list[str]:
        """Cut down the walls between the camera and ``target`` (x, y) that it stands more than ``behind``
        inches beyond (a man at a window or a door keeps his wall: pass his distance from it); stand up the
        rest. The ids cut."""
        cut = []
        for wid, (node, a, b) in self.walls.items():
            down = self.cut_all or (target is not None and _crosses(target, (camera.x, camera.y), a, b, behind))
            node.set_sz(STUB if down else 1.0)
            if down:
                cut.append(wid)
        return cut

    def toggle_cut_all(self) -> bool:
        self.cut_all = not self.cut_all
        return self.cut_all

    # -- the view --------------------------------------------------------------------------------------
    def apply_view(self, view: dict) -> None:
        """The houses cleared (G-41): a ring of the Allied colour round each one's floor."""
        cleared = tuple(sorted(view.get("cleared") or []))
        if cleared == self.cleared:
            return
        self.cleared = cleared
        for child in self.cleared_marks.get_children():
            child.remove_node()
        from game.client.pieces import SIDE_COLORS

        for b in self.scenario.get("buildings") or []:
            if b.get("id") in cleared and b.get("floor"):
                ring = Polygon(b["floor"]).buffer(0.35, join_style="mitre")
                pts = [(x, y, 0.2) for x, y in ring.exterior.coords]
                geom.lines(f"cleared-{b['id']}", [pts], SIDE_COLORS["allied"], 5.0).reparent_to(self.cleared_marks)

    def geom_count(self) -> int:
        return sum(np_.node().get_num_geoms() for np_ in self.root.find_all_matches("**/+GeomNode")
                   if not np_.is_hidden())

    def destroy(self) -> None:
        self.effects.destroy()
        self.pieces.destroy()
        self.root.clear_light()
        self.root.remove_node()


def _crosses(p, q, a, b, behind: float) -> bool:
    """Whether the segment p-q crosses the segment a-b (in plan), with p more than ``behind`` beyond it."""
    def orient(o, s, t):
        return (s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0])

    d1, d2 = orient(a, b, p), orient(a, b, q)
    d3, d4 = orient(p, q, a), orient(p, q, b)
    if (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0):
        seg = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        return abs(d1) / seg > behind
    return False
