"""Table tools drawn as overlays: the move ghost with its range circle, the tape measure, and the
line of sight as the engine judged it, over the canopy volumes its rays use."""

from __future__ import annotations

import math

import panda3d.core as p3d

from game.client import geom
from game.client.pieces import Pieces, text_node

GOOD = (0.35, 1.0, 0.45, 1.0)
BAD = (1.0, 0.3, 0.25, 1.0)
PARTIAL = (1.0, 0.8, 0.25, 1.0)
TAPE = (1.0, 0.95, 0.6, 1.0)


def base_edge_distance(x: float, y: float, cx: float, cy: float, facing: float, w: float, d: float) -> float:
    """Distance from a point to a base rectangle's edge (0 inside): tabletop measuring (DESIGN §3)."""
    a = math.radians(facing)
    lx = (x - cx) * math.cos(a) + (y - cy) * math.sin(a)
    ly = -(x - cx) * math.sin(a) + (y - cy) * math.cos(a)
    dx = max(abs(lx) - w / 2, 0.0)
    dy = max(abs(ly) - d / 2, 0.0)
    return math.hypot(dx, dy)


class MoveGhost:
    """Translucent copies of an element's bases that follow the mouse, inside the move's range circle."""

    def __init__(self, parent: p3d.NodePath, pieces: Pieces, element: str, max_range: float | None,
                 height_at, centre: list[float] | None = None):
        self.root = parent.attach_new_node("ghost")
        self.height_at = height_at
        stands = [pieces.stands[s] for s in pieces.elements[element]["stands"] if s in pieces.stands]
        self.ids = [piece.id for piece in stands]
        self.centre = pieces.element_centre(element) or p3d.LPoint3(0, 0, 0)
        if centre is not None:  # the engine's own idea of the element's centre, when it says
            self.centre = p3d.LPoint3(centre[0], centre[1], height_at(centre[0], centre[1]))
        self.offsets = []
        self.ghosts = []
        for piece in stands:
            g = piece.node.copy_to(self.root)
            g.set_transparency(p3d.TransparencyAttrib.M_alpha)
            g.set_alpha_scale(0.45)
            g.set_shader_input("u_highlight", (0.6, 0.9, 1.0, 0.35))
            g.set_bin("transparent", 20)
            self.ghosts.append(g)
            p = piece.node.get_pos()
            self.offsets.append((p.x - self.centre.x, p.y - self.centre.y, piece.node.get_h()))
        self.max_range = max_range
        if max_range:
            z = self.centre.z + 0.06
            ring = geom.lines("range", [geom.circle_points(self.centre.x, self.centre.y, max_range, z, 96)],
                              (0.6, 0.9, 1.0, 0.9), 2.5)
            ring.reparent_to(self.root)
            fill = geom.disc("range-fill", max_range, (0.5, 0.8, 1.0, 0.12))
            fill.reparent_to(self.root)
            fill.set_pos(self.centre.x, self.centre.y, z)
        self.label = text_node("", 0.6, parent=self.root)
        self.target = (self.centre.x, self.centre.y)
        self.facing: float | None = None
        self.line = None

    def follow(self, x: float, y: float) -> tuple[float, float]:
        dx, dy = x - self.centre.x, y - self.centre.y
        dist = math.hypot(dx, dy)
        if self.max_range and dist > self.max_range:
            dx, dy = dx * self.max_range / dist, dy * self.max_range / dist
            dist = self.max_range
        tx, ty = self.centre.x + dx, self.centre.y + dy
        self.target = (tx, ty)
        self._pose()
        self.label.node().set_text(f'{dist:.1f}"' + (f' of {self.max_range:g}"' if self.max_range else ""))
        self.label.set_pos(tx, ty, self.height_at(tx, ty) + 1.6)
        if self.line is not None:
            self.line.remove_node()
        z0 = self.centre.z + 0.1
        self.line = geom.lines("path", [[(self.centre.x, self.centre.y, z0), (tx, ty, self.height_at(tx, ty) + 0.1)]],
                               (0.6, 0.9, 1.0, 1.0), 3)
        self.line.reparent_to(self.root)
        return self.target

    def aim(self, x: float, y: float) -> float:
        tx, ty = self.target
        self.facing = math.degrees(math.atan2(y - ty, x - tx)) % 360
        self._pose()
        return self.facing

    def _pose(self) -> None:
        for g, (gx, gy, h) in zip(self.ghosts, self._poses(), strict=True):
            g.set_pos(gx, gy, self.height_at(gx, gy))
            g.set_h(h)

    def _poses(self) -> list[tuple[float, float, float]]:
        tx, ty = self.target
        turn = 0.0
        if self.facing is not None and self.offsets:
            turn = self.facing - self.offsets[0][2]
        c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        return [(tx + ox * c - oy * s, ty + ox * s + oy * c, (h + turn) % 360) for ox, oy, h in self.offsets]

    def placements(self) -> dict[str, list[float]]:
        """Where the ghost puts each stand: ``{stand id: [x, y, facing]}`` (a ``placements`` parameter)."""
        return {sid: [round(x, 2), round(y, 2), round(h, 1)] for sid, (x, y, h) in zip(self.ids, self._poses(),
                                                                                         strict=True)}

    def destroy(self) -> None:
        self.root.remove_node()


class Tape:
    """A tape measure from a point (or a base's edge) to the mouse, in inches, and in metres at the ground
    scale the engine's view gives (``scenario.scale``, DD-1.1)."""

    def __init__(self, parent: p3d.NodePath, height_at, metres_per_inch: float = 10.0):
        self.root = parent.attach_new_node("tape")
        self.height_at = height_at
        self.metres_per_inch = metres_per_inch
        self.start: tuple[float, float] | None = None
        self.start_base: tuple | None = None
        self.label = text_node("", 0.7, TAPE, parent=self.root)
        self.line = None

    def set_start(self, x: float, y: float, base: tuple | None = None) -> None:
        self.start, self.start_base = (x, y), base

    def update(self, x: float, y: float) -> float | None:
        if self.start is None:
            return None
        sx, sy = self.start
        if self.start_base is not None:
            cx, cy, facing, w, d = self.start_base
            dist = base_edge_distance(x, y, cx, cy, facing, w, d)
        else:
            dist = math.hypot(x - sx, y - sy)
        if self.line is not None:
            self.line.remove_node()
        pts = []
        for k in range(21):
            t = k / 20
            px, py = sx + (x - sx) * t, sy + (y - sy) * t
            pts.append((px, py, self.height_at(px, py) + 0.15))
        self.line = geom.lines("tape-line", [pts], TAPE, 3)
        self.line.reparent_to(self.root)
        # inch ticks every 1", longer every 6"
        total = math.hypot(x - sx, y - sy)
        ticks = []
        if total > 0:
            ux, uy = (x - sx) / total, (y - sy) / total
            for k in range(1, int(total) + 1):
                px, py = sx + ux * k, sy + uy * k
                size = 0.35 if k % 6 == 0 else 0.15
                z = self.height_at(px, py) + 0.15
                ticks.append([(px - uy * size, py + ux * size, z), (px + uy * size, py - ux * size, z)])
        if ticks:
            tick_np = geom.lines("ticks", ticks, TAPE, 2)
            tick_np.reparent_to(self.line)
        self.label.node().set_text(f'{dist:.1f}"  ({dist * self.metres_per_inch:.0f} m)')
        self.label.set_pos((sx + x) / 2, (sy + y) / 2, self.height_at((sx + x) / 2, (sy + y) / 2) + 1.2)
        return dist

    def destroy(self) -> None:
        self.root.remove_node()


class SightLine:
    """The engine's answer to a line-of-sight question, drawn as a coloured line with its reasons."""

    def __init__(self, parent: p3d.NodePath, a: tuple[float, float, float], b: tuple[float, float, float],
                 result: dict | None, note: str = ""):
        self.root = parent.attach_new_node("los")
        if result is None:
            color, text = TAPE, note or "asking the engine..."
        else:
            visible = bool(result.get("visible"))
            frac = result.get("fraction")
            color = GOOD if visible and (frac is None or frac >= 0.99) else PARTIAL if visible else BAD
            text = describe_los(result)
        self.root.attach_new_node("l")
        line = geom.lines("los-line", [[(a[0], a[1], a[2] + 0.6), (b[0], b[1], b[2] + 0.6)]], color, 4)
        line.reparent_to(self.root)
        label = text_node(text, 0.55, color, parent=self.root)
        label.set_pos((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, max(a[2], b[2]) + 2.0)
        self.text = text

    def destroy(self) -> None:
        self.root.remove_node()


class CanopyOverlay:
    """While the line-of-sight tool is out, the canopy volumes the engine's rays measure are drawn over
    the trees: translucent, a pale sight-green unlike any foliage, lit so their lumpy tops read as
    solids, so a player sees why a line through a wood is blocked. ``destroy`` puts them away again."""

    TINT = (0.55, 1.0, 0.8, 0.38)

    def __init__(self, table):
        self.table = table
        self.was_hidden = table.canopy.is_hidden()
        canopy = table.canopy
        canopy.set_color_scale(self.TINT, 1)
        canopy.set_shader_input("u_highlight", p3d.LVector4(0.05, 0.12, 0.1, 1.0))
        canopy.set_transparency(p3d.TransparencyAttrib.M_alpha)
        canopy.set_depth_write(False)
        canopy.set_bin("transparent", 5)
        canopy.set_two_sided(True)
        table.set_canopy_visible(True)

    def destroy(self) -> None:
        canopy = self.table.canopy
        canopy.clear_shader_input("u_highlight")
        canopy.set_color_scale((1, 1, 1, getattr(self.table, "canopy_alpha", 0.55)))
        self.table.set_canopy_visible(not self.was_hidden)


def describe_los(r: dict) -> str:
    """Plain words for a ``los.check`` answer: seen or not, range, foliage inches against the cutoff."""
    head = "IN SIGHT" if r.get("visible") else "NO LINE OF SIGHT"
    lines = [head + (f'  {r["distance"]:.1f}"' if isinstance(r.get("distance"), int | float) else "")]
    if r.get("text"):  # the engine's own words (Tet '68: the places seen and what the cover roll needs)
        lines.append(str(r["text"]))
    canopy = r.get("canopy_inches") or {}
    if canopy:
        foliage = ", ".join(f'{k} {v:.1f}"' for k, v in canopy.items())
        cutoff = r.get("cutoff")
        lines.append(f"foliage {foliage}" + (f' (cutoff {cutoff:g}")' if isinstance(cutoff, int | float) else ""))
    if isinstance(r.get("limit"), int | float):
        lines.append(f'visual limit {r["limit"]:g}"')
    if r.get("blocker") and not r.get("visible"):
        lines.append(f"blocked by {r['blocker']}")
    if r.get("reason"):
        lines.append(str(r["reason"]))
    if r.get("clause"):
        lines.append(f"[{r['clause']}]")
    return "\n".join(lines)


class AimArc:
    """An arc from an element that turns toward the mouse: an Overwatch facing, drawn with the arc and
    reach the engine's offer gives (``sweep`` degrees out to ``radius`` inches). With no arc in the offer
    (any angle with no move ghost to turn) it is a plain pointer of ``radius`` inches."""

    def __init__(self, parent: p3d.NodePath, centre: p3d.LPoint3, radius: float, sweep: float | None):
        from game.client.pieces import OVERWATCH_COLOR, arc_node

        self.root = parent.attach_new_node("aim-arc")
        self.root.set_pos(centre.x, centre.y, centre.z + 0.12)
        self.centre = centre
        if sweep:
            self.arc = arc_node(0.0, radius, OVERWATCH_COLOR, 0.18, sweep)
        else:
            self.arc = geom.lines("pointer", [[(0, 0, 0.02), (radius, 0, 0.02)],
                                              [(radius - 0.6, 0.4, 0.02), (radius, 0, 0.02), (radius - 0.6, -0.4, 0.02)]],
                                  OVERWATCH_COLOR, 4)
        self.arc.reparent_to(self.root)
        self.facing = 0.0

    def aim(self, x: float, y: float) -> float:
        self.facing = math.degrees(math.atan2(y - self.centre.y, x - self.centre.x)) % 360
        self.arc.set_h(self.facing)
        return self.facing

    def destroy(self) -> None:
        self.root.remove_node()


class PointPicker:
    """A point within ``max`` of ``from``: the range circle, and a cross that follows the mouse, held
    inside the range, with the template the engine's offer names round it (``radius``: a beaten zone's
    circle, a landing zone) or none."""

    def __init__(self, parent: p3d.NodePath, height_at, centre: tuple[float, float] | None,
                 max_range: float | None, radius: float | None = None, color=(1.0, 0.55, 0.15, 1.0)):
        self.root = parent.attach_new_node("point-picker")
        self.height_at = height_at
        self.centre = centre
        self.max_range = max_range
        if centre is not None and max_range:
            z = height_at(*centre) + 0.06
            geom.lines("range", [geom.circle_points(centre[0], centre[1], max_range, z, 96)],
                       (*color[:3], 0.8), 2.0).reparent_to(self.root)
        self.marker = self.root.attach_new_node("marker")
        self.radius = radius
        if radius:
            geom.lines("mark", [geom.circle_points(0, 0, radius, 0, 48)], color, 4).reparent_to(self.marker)
            geom.disc("mark-fill", radius, (*color[:3], 0.25)).reparent_to(self.marker)
        geom.lines("cross", [[(-0.4, 0, 0), (0.4, 0, 0)], [(0, -0.4, 0), (0, 0.4, 0)]], color, 3).reparent_to(self.marker)
        self.label = text_node("", 0.55, color, parent=self.root)
        self.target = centre or (0.0, 0.0)

    def follow(self, x: float, y: float) -> tuple[float, float]:
        if self.centre is not None and self.max_range:
            dx, dy = x - self.centre[0], y - self.centre[1]
            d = math.hypot(dx, dy)
            if d > self.max_range:
                x, y = self.centre[0] + dx * self.max_range / d, self.centre[1] + dy * self.max_range / d
            self.label.node().set_text(f'{min(d, self.max_range):.1f}" of {self.max_range:g}"')
        self.target = (x, y)
        z = self.height_at(x, y) + 0.1
        self.marker.set_pos(x, y, z)
        self.label.set_pos(x, y, z + 1.6)
        return self.target

    def destroy(self) -> None:
        self.root.remove_node()


class SegmentPicker:
    """Two points for a corridor (an Overwatch corridor as wide as the offer says): click the start,
    then the end."""

    def __init__(self, parent: p3d.NodePath, height_at, width: float, color=(1.0, 0.85, 0.25, 1.0)):
        self.root = parent.attach_new_node("segment-picker")
        self.height_at = height_at
        self.width = width
        self.color = color
        self.start: tuple[float, float] | None = None
        self.strip: p3d.NodePath | None = None

    def follow(self, x: float, y: float) -> None:
        if self.start is None:
            return
        from game.client.effects import corridor_node

        if self.strip is not None:
            self.strip.remove_node()
        if math.hypot(x - self.start[0], y - self.start[1]) < 0.1:
            self.strip = None
            return
        self.strip = corridor_node(self.start[0], self.start[1], x, y, self.width, self.height_at,
                                   (*self.color[:3], 0.25))
        self.strip.reparent_to(self.root)

    def click(self, x: float, y: float) -> list[list[float]] | None:
        """The first click sets the start; the second returns [[x, y], [x, y]]."""
        if self.start is None:
            self.start = (x, y)
            return None
        if math.hypot(x - self.start[0], y - self.start[1]) < 0.1:
            return None
        return [[round(self.start[0], 2), round(self.start[1], 2)], [round(x, 2), round(y, 2)]]

    def destroy(self) -> None:
        self.root.remove_node()
