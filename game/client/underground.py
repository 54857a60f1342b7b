"""The war underneath on screen: the cutaway of the table over the tunnel network, and the torch-lit crawl.

``Underground`` is one table's layer (``TableScene.underground``). Each view's ``tunnel_section`` markers
(TUN-1..TUN-6, DD-9B.3; the Allied view lists only the sections it found, TUN-24) are placed by
``underground_geom`` and drawn beneath the table: earthen tubes between linked sections at their depths,
dug-outs as rooms sized by capacity with their use written beside them and a prop that shows it (TUN-3),
junctions as chambers, entrances and spider holes as shafts up to their hatches; collapsed sections
(DD-9B.7, TUN-22) choked with rubble, gassed ones (DD-9B.6) hazed. Elements the view puts ``underground``
(TUN-9, TUN-12) stand in their sections, drawn small (``UNDER_SCALE``); their stands on the surface hide.

The cutaway (``set_open``; U, the HUD's button, the attract mode's ``peek``): a pit opens under the
network, its walls banded like the soil of the Cu Chi district, and the table's surface over it turns
to a ghost of itself (``u_cut`` in shaders/mood.glsl: one compare per pixel; the trees lift off). The
crawl (``crawl``; U again while an Allied stand is underground): the table, trees and pieces are hidden,
the camera rides behind the Tunnel Rat (TUN-14) through the sections as ``tunnel_move`` events carry it,
in the dark, lit only by a warm torch cone computed in shaders/tunnel.frag (no Panda3D light: one would
light the whole table's shader too; PRESENCE.md prices what llvmpipe can afford).

The layer reads nothing but the view and asks the engine nothing: it draws what the side may know.

What it leaves out: no routing of tubes round each other (straight runs), no water traps or air vents,
no sound of the crawl; the torch casts no shadows.
"""

from __future__ import annotations

import math

import numpy as np
import panda3d.core as p3d
from direct.interval.IntervalGlobal import Func, LerpFunctionInterval, Sequence, Wait

from game.client import geom
from game.client import underground_geom as ug

BIN = "underground"
BIN_FX = "underground_fx"  # its haze and flashes: after its walls, still before the table
EMPTY_CUT = p3d.LVector4(1e6, 1e6, -1e6, -1e6)
GHOST = 0.22  # how much of the surface shows over the opened pit
TUNNEL = (0.66, 0.46, 0.29, 1.0)      # laterite clay, lighter than the soil it is cut in
FLOOR = (0.56, 0.40, 0.26, 1.0)
SHAFT = (0.60, 0.44, 0.28, 1.0)
RUBBLE = (0.34, 0.26, 0.18, 1.0)
STRATA = ((0.36, 0.25, 0.15), (0.45, 0.30, 0.18), (0.30, 0.22, 0.15), (0.40, 0.31, 0.21), (0.26, 0.20, 0.14))
"""The pit's walls, top down: topsoil, laterite, clay, a sandier band, the deep clay."""
PIT_FLOOR = (0.20, 0.15, 0.11, 1.0)
RIM = (0.95, 0.82, 0.55, 0.9)
GAS = (0.88, 0.92, 0.78)
DIAGRAM = ((0.52, 0.48, 0.44), 0.75)   # the cutaway's light: ambient and key from above
DARK = ((0.035, 0.03, 0.03), 0.0)     # the crawl's: all but black, the torch does the rest
TORCH_CONE = 28.0  # degrees of the torch beam's half angle
CRAWL_FOV = 72.0
PROPS = {"hospital": "medcap_cross", "storeroom": "rice_sacks", "armoury": "weapons_crate", "kitchen": "rice_sacks",
         "workshop": "weapons_crate"}
"""What stands in a dug-out to show its use (TUN-3), beside its written label."""


def tunnel_shader() -> p3d.Shader:
    from game.client.settings import SHADERS_DIR

    return p3d.Shader.load(p3d.Shader.SL_GLSL, vertex=p3d.Filename.from_os_specific(str(SHADERS_DIR / "lit.vert")),
                           fragment=p3d.Filename.from_os_specific(str(SHADERS_DIR / "tunnel.frag")))


def underground_bin() -> str:
    """Drawn before the opaque table, so the ghosted surface blends over what lies beneath it."""
    bins = p3d.CullBinManager.get_global_ptr()
    if bins.find_bin(BIN) < 0:
        bins.add_bin(BIN, p3d.CullBinEnums.BT_state_sorted, 15)
        bins.add_bin(BIN_FX, p3d.CullBinEnums.BT_back_to_front, 16)
    return BIN


class Mesh:
    """Triangles gathered from many parts, made into one Geom (the software renderer pays per draw)."""

    def __init__(self):
        self.v: list[np.ndarray] = []
        self.n: list[np.ndarray] = []
        self.c: list[np.ndarray] = []
        self.f: list[np.ndarray] = []
        self.count = 0

    def add(self, verts, normals, color, faces) -> None:
        verts = np.asarray(verts, float)
        col = np.asarray(color, float)
        self.v.append(verts)
        self.n.append(np.asarray(normals, float))
        self.c.append(np.tile(col, (len(verts), 1)) if col.ndim == 1 else col)
        self.f.append(np.asarray(faces, int) + self.count)
        self.count += len(verts)

    def quad(self, a, b, c, d, color) -> None:
        n = np.cross(np.subtract(b, a), np.subtract(d, a))
        n = n / (np.linalg.norm(n) or 1.0)
        self.add([a, b, c, d], [n] * 4, color, [[0, 1, 2], [0, 2, 3]])

    def node(self, name: str) -> p3d.GeomNode | None:
        if not self.v:
            return None
        return geom.mesh_node(name, np.concatenate(self.v), np.concatenate(self.n), np.concatenate(self.c),
                              np.concatenate(self.f))


def tube_parts(p0, p1, r: float, n: int = 10) -> tuple[tuple, tuple]:
    """A tube from ``p0`` to ``p1`` split in two: its trough (the lower and side faces, always drawn) and
    its ceiling (the upper faces: drawn in the crawl, left off in the cutaway so what crawls shows)."""
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    axis = p1 - p0
    length = float(np.linalg.norm(axis)) or 1e-6
    u = axis / length
    side = np.cross(u, (0.0, 0.0, 1.0))
    if np.linalg.norm(side) < 1e-6:
        side = np.array([1.0, 0.0, 0.0])
    side /= np.linalg.norm(side)
    up = np.cross(side, u)
    out = {True: ([], [], []), False: ([], [], [])}
    for i in range(n):
        a0, a1 = 2 * math.pi * i / n, 2 * math.pi * (i + 1) / n
        ceiling = math.sin((a0 + a1) / 2) > 0.3
        d0, d1 = side * math.cos(a0) + up * math.sin(a0), side * math.cos(a1) + up * math.sin(a1)
        v, nn, f = out[ceiling]
        k = len(v)
        v += [p0 + r * d0, p1 + r * d0, p1 + r * d1, p0 + r * d1]
        nn += [d0, d0, d1, d1]
        f += [[k, k + 1, k + 2], [k, k + 2, k + 3]]
    return out[False], out[True]


def chamber_parts(c, r: float, openings=()) -> tuple[tuple, tuple]:
    """A chamber where tubes meet: a squashed ball, its lower half always drawn, its dome in the crawl;
    open where each tube comes in (``openings``: the tubes' far points), so the crawl sees down them."""
    import trimesh.creation as tc

    m = tc.icosphere(subdivisions=2, radius=r)
    m.apply_scale((1.0, 1.0, 0.85))
    m.apply_translation(c)
    fn = m.face_normals
    centres = m.triangles_center - np.asarray(c, float)
    open_ = np.zeros(len(fn), bool)
    for far in openings:
        d = np.asarray(far, float) - np.asarray(c, float)
        d /= np.linalg.norm(d) or 1.0
        along = centres @ d
        off = np.linalg.norm(centres - along[:, None] * d, axis=1)
        open_ |= (along > 0) & (off < ug.TUBE_R * 0.92)
    parts = []
    for keep in (fn[:, 2] <= 0.35, fn[:, 2] > 0.35):
        keep = keep & ~open_
        faces = m.faces[keep]
        verts = m.vertices[faces].reshape(-1, 3)
        normals = np.repeat(fn[keep], 3, axis=0)
        parts.append((verts, normals, np.arange(len(verts)).reshape(-1, 3)))
    return parts[0], parts[1]


def wall_cells(a, b, z0: float, z1: float, holes, cell: float = 0.2):
    """A room's wall from ``a`` to ``b`` (x, y) between heights ``z0`` and ``z1`` as small cells, those
    within a tube's radius of a hole (x, y, z: where a tube comes through) left out."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    length = float(np.linalg.norm(b - a))
    nu, nv = max(1, round(length / cell)), max(1, round((z1 - z0) / cell))
    out = []
    for i in range(nu):
        for j in range(nv):
            p0 = a + (b - a) * (i / nu)
            p1 = a + (b - a) * ((i + 1) / nu)
            za, zb = z0 + (z1 - z0) * j / nv, z0 + (z1 - z0) * (j + 1) / nv
            mid = np.array([*(p0 + p1) / 2, (za + zb) / 2])
            if any(np.linalg.norm(mid - np.asarray(h, float)) < ug.TUBE_R * 0.95 for h in holes):
                continue
            out.append(((*p0, za), (*p1, za), (*p1, zb), (*p0, zb)))
    return out


class Underground:
    """One table's network beneath it, the cutaway and the crawl (see the module docstring)."""

    def __init__(self, scene):
        self.scene = scene
        self.root = scene.root.attach_new_node("underground")
        self.root.hide()
        self.root.set_bin(underground_bin(), 0, 10)
        self.root.set_shader(tunnel_shader())  # (overlays and sprites below turn it off)
        self.root.set_two_sided(True, 10)
        self.root.set_light_off(10)
        self._light(*DIAGRAM)
        self.root.set_shader_input("u_torch_pos", p3d.LVector4(0, 0, 0, 0))
        self.root.set_shader_input("u_torch_dir", p3d.LVector4(0, 1, 0, 1))
        scene.root.set_shader_input("u_cut", EMPTY_CUT)
        scene.root.set_shader_input("u_cut_alpha", 1.0)
        self.network = self.root.attach_new_node("network")
        self.people = self.root.attach_new_node("people")  # who is below: kept across rebuilds of the network
        self.fx = self.root.attach_new_node("fx")  # the presenter's flashes and dust below: kept across rebuilds
        self.ceiling: p3d.NodePath | None = None
        self.pit: p3d.NodePath | None = None
        self.labels: list[p3d.NodePath] = []
        self.figures: dict[str, p3d.NodePath] = {}  # stand id -> its small copy in its section
        self.tokens: dict[str, p3d.NodePath] = {}  # element id -> a token, when the view lists no stands
        self.hidden: set[str] = set()  # surface stands hidden while their element is underground
        self.haze: list = []
        self.secs: dict[str, ug.Section] = {}
        self.where: dict[str, str] = {}  # element id -> section, as the view says
        self.box: tuple | None = None
        self.is_open = False
        self.auto = 0  # peeks holding the cutaway open (the attract mode)
        self._opened_by_peek = False
        self._key = None
        self._flora_was: bool | None = None
        self.crawl: Crawl | None = None

    # -- the view ---------------------------------------------------------------------------------
    def apply_view(self, view: dict) -> None:
        markers = [m for m in view.get("markers") or [] if m.get("kind") == "tunnel_section"]
        key = repr(sorted((str(m.get("id")), repr(sorted(m.items()))) for m in markers))
        if key != self._key:
            self._key = key
            self.secs = ug.sections(markers, self.scene.table.height_at)
            self._build()
        self._sync_elements(view)
        if self.crawl is not None:
            self.crawl.refresh()

    @property
    def known(self) -> bool:
        """Whether the view shows any section at all (the HUD's button shows only then)."""
        return bool(self.secs)

    def point(self, sid) -> tuple[float, float, float] | None:
        """A section's centre beneath the table, for the handlers (None: the side does not know it)."""
        s = self.secs.get(str(sid)) if sid is not None else None
        return None if s is None else s.centre

    def _build(self) -> None:
        for child in self.network.get_children():
            child.remove_node()
        for loop in self.haze:
            loop.finish()
        self.haze.clear()
        self.labels.clear()
        secs = self.secs
        t = self.scene.table
        self.box = ug.extents(secs, t.width, t.height)
        walls, ceiling = Mesh(), Mesh()
        for a, b in ug.links(secs):
            p0, p1 = ug.tube(secs[a], secs[b])
            low, high = tube_parts(p0, p1, ug.TUBE_R)
            walls.add(*low[:2], TUNNEL, low[2])
            ceiling.add(*high[:2], TUNNEL, high[2])
        for s in secs.values():
            self._section(s, walls, ceiling)
        for name, mesh in (("walls", walls),):
            node = mesh.node(name)
            if node is not None:
                self.network.attach_new_node(node)
        node = ceiling.node("ceiling")
        self.ceiling = self.network.attach_new_node(node) if node is not None else None
        if self.ceiling is not None:
            self.ceiling.hide()
        self.pit = self._pit()
        if self.is_open:
            self._cut(True)

    def _section(self, s: ug.Section, walls: Mesh, ceiling: Mesh) -> None:
        c = np.array(s.centre)
        ends = [ug.tube(s, self.secs[o])[1] for o in s.links if o in self.secs]  # where its tubes go
        if s.room:
            self._room(s, walls, ceiling, [ug.tube(s, self.secs[o])[0] for o in s.links if o in self.secs])
        else:
            if ug.shaft(s) is not None:
                ends.append((s.x, s.y, s.ground))
            low, high = chamber_parts(c, ug.CHAMBER_R.get(s.kind, 0.5), ends)
            walls.add(*low[:2], TUNNEL, low[2])
            ceiling.add(*high[:2], TUNNEL, high[2])
        top = ug.shaft(s)
        if top is not None:
            (x, y, gz), (_, _, z) = top
            low, high = tube_parts((x, y, z + ug.TUBE_R), (x, y, gz + 0.02), ug.SHAFT_R, n=8)
            walls.add(*low[:2], SHAFT, low[2])
            walls.add(*high[:2], SHAFT, high[2])
        if s.state == "collapsed":
            self._rubble(s)
        elif s.state == "gassed":
            self._gas(s)
        label = ug.use_label(s)
        if label:
            from game.client.pieces import text_node

            node = text_node(label, 0.34, (0.98, 0.9, 0.7, 1), parent=self.network)
            node.set_pos(s.x, s.y, s.z + ug.ROOM_H + 0.45)
            node.set_shader_off(40)
            node.set_bin("fixed", 31, 40)
            if not self.scene.pieces.labels_visible:
                node.hide()
            self.labels.append(node)
        prop = PROPS.get(s.use) if s.room else None
        if prop and self.scene.pieces.library.has(prop):
            np_ = self.scene.pieces.library.instance(prop, self.network)
            length = ug.room_size(s.capacity)[0]
            h = math.radians(s.heading)
            np_.set_pos(s.x + math.cos(h) * (length / 2 - 0.25), s.y + math.sin(h) * (length / 2 - 0.25), s.z + 0.02)
            np_.set_scale(0.9)
        if s.trapped and self.scene.pieces.library.has("trap_chit"):  # TUN-7 (the Insurgent's view only)
            chit = self.scene.pieces.library.instance("trap_chit", self.network)
            chit.set_pos(s.x + 0.3, s.y - 0.3, s.z + 0.03)
            chit.set_scale(0.8)

    def _room(self, s: ug.Section, walls: Mesh, ceiling: Mesh, holes) -> None:
        length, width, height = ug.room_size(s.capacity)
        h = math.radians(s.heading)
        ux, uy = math.cos(h), math.sin(h)
        z0, z1 = s.z, s.z + height

        def at(a, c, z):
            return (s.x + ux * a - uy * c, s.y + uy * a + ux * c, z)

        la, wc = length / 2, width / 2
        corners = [(-la, -wc), (la, -wc), (la, wc), (-la, wc)]
        walls.quad(*(at(a, c, z0) for a, c in corners), FLOOR)
        for (a0, c0), (a1, c1) in zip(corners, corners[1:] + corners[:1], strict=True):
            for quad in wall_cells(at(a0, c0, 0)[:2], at(a1, c1, 0)[:2], z0, z1, holes):
                walls.quad(*quad, TUNNEL)
        ceiling.quad(*(at(a, c, z1) for a, c in reversed(corners)), TUNNEL)

    def _rubble(self, s: ug.Section) -> None:
        """DD-9B.7, TUN-22: a blown section is choked with earth."""
        import random

        import trimesh
        import trimesh.creation as tc

        rng = random.Random(s.id)
        parts = []
        r = ug.CHAMBER_R.get(s.kind, 0.6) if not s.room else ug.room_size(s.capacity)[1] / 2
        for _ in range(14):
            b = tc.icosphere(subdivisions=0, radius=rng.uniform(0.15, 0.32))
            b.apply_translation((s.x + rng.uniform(-r, r), s.y + rng.uniform(-r, r), s.z + rng.uniform(0.05, 0.6)))
            parts.append(b)
        mesh = trimesh.util.concatenate(parts)
        self.network.attach_new_node(geom.trimesh_node(f"rubble-{s.id}", mesh, RUBBLE))

    def _gas(self, s: ug.Section) -> None:
        """DD-9B.6, G-35: CS gas hangs in the section while it is gassed, drifting slowly."""
        from game.client import fx

        spec = fx.BurstSpec("puff", count=6, life=(3.0, 4.0), speed=(0.05, 0.15), up=(0.0, 0.3),
                            size=(0.35, 0.7), offset=0.35, color=(*GAS, 0.4), rise=0.02, fade_in=0.3)
        holder = self.network.attach_new_node(f"gas-{s.id}")
        holder.set_bin(BIN_FX, 0, 40)
        loop = fx.cycle(holder, s.centre, spec, __import__("random").Random(s.id), 4.0)
        loop.loop()
        self.haze.append(loop)

    def _pit(self) -> p3d.NodePath | None:
        """The opened ground: an earth pit under the network, its walls banded by depth, open at the top."""
        if self.box is None:
            return None
        x0, y0, x1, y1, zf = self.box
        m = Mesh()
        m.quad((x0, y0, zf), (x1, y0, zf), (x1, y1, zf), (x0, y1, zf), PIT_FLOOR)
        bands = np.linspace(ug.PIT_TOP, zf, len(STRATA) + 1)
        walls = [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))]
        for k, rgb in enumerate(STRATA):
            za, zb = bands[k], bands[k + 1]
            for (ax, ay), (bx, by) in walls:
                m.quad((ax, ay, zb), (bx, by, zb), (bx, by, za), (ax, ay, za), (*rgb, 1.0))
        pit = self.network.attach_new_node(m.node("pit"))
        rim = geom.lines("pit-rim", [[(x0, y0, 0.05), (x1, y0, 0.05), (x1, y1, 0.05), (x0, y1, 0.05), (x0, y0, 0.05)]],
                         RIM, 2.0)
        rim.reparent_to(pit)
        return pit

    def _sync_elements(self, view: dict) -> None:
        """Elements the view puts ``underground`` (TUN-9, TUN-12): small in their sections; their surface
        stands hidden. A section the side does not know shows nothing of who is in it."""
        pieces = self.scene.pieces
        elements = {e["id"]: e for e in view.get("elements") or []}
        self.where = {eid: str(e["underground"]) for eid, e in elements.items() if e.get("underground")}
        stands = {s["id"]: s for s in view.get("stands") or []}
        below: dict[str, list[dict]] = {}
        for eid, e in elements.items():
            if eid in self.where:  # the engine's element below lists its stands' records in ``below``
                group = [stands[s] for s in e.get("stands", []) if s in stands]
                group += [{**s, "side": s.get("side", e.get("side"))} for s in e.get("below") or []
                          if s.get("id") not in {g["id"] for g in group}]
                below.setdefault(self.where[eid], []).extend({**s, "element": eid} for s in group)
        hide = {s["id"] for group in below.values() for s in group}
        for sid in self.hidden - hide:
            piece = pieces.stands.get(sid)
            if piece is not None:
                piece.node.show()
        for sid in hide:
            piece = pieces.stands.get(sid)
            if piece is not None:
                piece.node.hide()
        self.hidden = hide
        keep = set()
        for section, group in below.items():
            sec = self.secs.get(section)
            if sec is None:
                continue
            for s, at in zip(group, ug.slots(sec, len(group)), strict=True):
                keep.add(s["id"])
                fig = self.figures.get(s["id"])
                if fig is None:
                    fig = self._figure(s)
                    self.figures[s["id"]] = fig
                if not fig.get_python_tag("moving"):
                    fig.set_pos(*at)
                    fig.set_h(float(s.get("facing", sec.heading)))
        for sid in [k for k in self.figures if k not in keep]:
            self.figures.pop(sid).remove_node()
        self._tokens(elements, {sid for sid, g in below.items() if not g})

    def _tokens(self, elements: dict, empty_sections: set) -> None:
        from game.client.pieces import SIDE_COLORS

        for np_ in self.tokens.values():
            np_.remove_node()
        self.tokens.clear()
        for eid, sid in sorted(self.where.items()):
            sec = self.secs.get(sid)
            if sec is None or sid not in empty_sections:
                continue
            tok = geom.disc(f"token-{eid}", 0.3, SIDE_COLORS.get(elements[eid].get("side"), (1, 1, 1, 1)))
            tok.reparent_to(self.people)
            tok.set_pos(sec.x, sec.y, sec.z + 0.05)
            self.tokens[eid] = tok

    def _figure(self, s: dict) -> p3d.NodePath:
        from game.client.pieces import SIDE_COLORS

        lib = self.scene.pieces.library
        node = self.people.attach_new_node(f"under-{s['id']}")
        node.set_tag("stand", s["id"])
        node.set_tag("element", str(s.get("element", "")))
        key = str(s.get("model") or s.get("type") or "")
        model = lib.instance(key, node) if lib.has(key) else None
        if model is None:
            geom.disc("base", 0.4, SIDE_COLORS.get(s.get("side"), (1, 1, 1, 1))).reparent_to(node)
        else:
            model.set_scale(ug.UNDER_SCALE)
            model.set_transparency(p3d.TransparencyAttrib.M_alpha, 1)  # its first faces are its soft shadow
        ring = geom.lines("rim", [geom.circle_points(0, 0, 0.5, 0.04, 24)], SIDE_COLORS.get(s.get("side"),
                                                                                         (1, 1, 1, 1)), 2.0)
        ring.reparent_to(node)
        return node

    # -- the cutaway ----------------------------------------------------------------------------------
    def set_open(self, on: bool) -> None:
        on = bool(on) and self.known
        if on == self.is_open:
            return
        self.is_open = on
        self._cut(on)

    def toggle(self) -> bool:
        self.set_open(not self.is_open)
        return self.is_open

    def _cut(self, on: bool) -> None:
        table, flora = self.scene.table, getattr(self.scene, "flora", None)
        if on:
            self.root.show()
            if self.pit is not None:
                self.pit.show()
            if self.box is not None:
                x0, y0, x1, y1, _ = self.box
                table.root.set_shader_input("u_cut", p3d.LVector4(x0, y0, x1, y1))
            table.root.set_shader_input("u_cut_alpha", GHOST)
            table.root.set_transparency(p3d.TransparencyAttrib.M_alpha, 5)
            table.root.set_bin("opaque", 0)
            if flora is not None and self._flora_was is None:
                self._flora_was = flora.visible
                flora.set_visible(False)
        else:
            self.root.hide()
            table.root.clear_shader_input("u_cut")
            table.root.clear_shader_input("u_cut_alpha")
            table.root.clear_transparency()
            table.root.clear_bin()
            if flora is not None and self._flora_was is not None:
                flora.set_visible(self._flora_was)
            self._flora_was = None

    def peek(self, hold: float) -> Sequence:
        """The attract mode's look underground: the cutaway opens for ``hold`` seconds (unless the player
        had it open already, when it stays as it was)."""
        def begin():
            self.auto += 1
            if not self.is_open:
                self._opened_by_peek = True
                self.set_open(True)

        def end():
            self.auto = max(0, self.auto - 1)
            if self.auto == 0 and self._opened_by_peek:
                self._opened_by_peek = False
                if self.crawl is None:
                    self.set_open(False)

        return Sequence(Func(begin), Wait(hold), Func(end))

    def _light(self, dim, key: float) -> None:
        self.root.set_shader_input("u_dim", p3d.LVector3(*dim))
        self.root.set_shader_input("u_key", float(key))

    def set_labels_visible(self, visible: bool) -> None:
        for node in self.labels:
            node.show() if visible else node.hide()

    # -- the crawl --------------------------------------------------------------------------------------
    def rat(self, side: str = "allied") -> str | None:
        """The element the crawl follows: the first of ``side``'s elements underground in a known section."""
        elements = {e["id"]: e for e in self.scene.pieces.view.get("elements") or []}
        for eid, sid in sorted(self.where.items()):
            if elements.get(eid, {}).get("side") == side and sid in self.secs:
                return eid
        return None

    def start_crawl(self, base, element: str | None = None) -> bool:
        element = element or self.rat()
        if element is None or element not in self.where:
            return False
        self.stop_crawl()
        self.set_open(True)
        self.crawl = Crawl(self, base, element)
        return True

    def stop_crawl(self) -> None:
        if self.crawl is not None:
            self.crawl.stop()
            self.crawl = None

    def destroy(self) -> None:
        self.stop_crawl()
        for loop in self.haze:
            loop.finish()
        self.haze.clear()
        self.root.remove_node()


class Crawl:
    """The torch-lit view: the camera rides behind an underground stand (``element``) from section to
    section, the rest of the table hidden; ``move(a, b, k)`` is told by the ``tunnel_move`` handler."""

    def __init__(self, layer: Underground, base, element: str):
        self.layer = layer
        self.base = base
        self.element = element
        self.leg: tuple[str, str, float] | None = None
        self.last: tuple[str, str] | None = None  # the leg it crawled last (from, to)
        self.behind: str | None = None  # the section before that leg's start: the eye trails through it
        self.stale: str | None = None  # where the view had it when its last leg ended (the view lags the crawl)
        scene = layer.scene
        self.hidden = [n for n in (scene.table.root, scene.pieces.root, scene.overlays) if not n.is_hidden()]
        for n in self.hidden:
            n.hide()
        if layer.pit is not None:
            layer.pit.hide()
        if layer.ceiling is not None:
            layer.ceiling.show()
        layer.set_labels_visible(False)  # in the dark nothing is written on the walls
        layer._light(*DARK)
        lens = base.cam.node().get_lens()
        self._lens = (lens.get_fov(), lens.get_near(), lens.get_far())
        lens.set_fov(CRAWL_FOV)
        lens.set_near_far(0.04, 150.0)
        self._clear = base.win.get_clear_color()
        base.win.set_clear_color((0, 0, 0, 1))
        base.task_mgr.add(self._tick, "underground-crawl", sort=45)  # after the director, before drawing
        self.refresh()

    def refresh(self) -> None:
        """Between moves: look into the element's section from the tube it came by (or, before its first
        move, from the tube of its first link), the eye in the tunnels."""
        sid = self.layer.where.get(self.element)
        if self.leg is not None and (self.leg[2] < 1.0 or sid in (self.leg[1], self.stale, None)):
            return  # crawling, or resting where its last leg ended (the view may not say so yet)
        sec = self.layer.secs.get(sid) if sid else None
        if sec is None:
            return
        came = self.last[0] if self.last is not None and self.last[1] == sid else None
        came = came or (sec.links[0] if sec.links else None)
        self.leg = (came, sid, 1.0) if came else (sid, sid, 0.0)
        self._pose()
        self.leg = None

    def move(self, a: str, b: str, k: float) -> None:
        if self.last is None or self.last[:2] != (a, b):  # a new leg: the one before it is the way behind
            self.behind = self.last[0] if self.last is not None and self.last[1] == a else None
            self.last = (a, b)
        self.leg = (a, b, min(k, 1.0))  # at 1.0 it rests there, looking on from the tube it came by
        self.stale = self.layer.where.get(self.element) if k >= 1.0 else None
        self._pose()

    def _pose(self) -> None:
        a, b, k = self.leg
        secs = self.layer.secs
        if a not in secs or b not in secs:
            return
        if a == b:  # a dead end: look along the section's heading
            h0 = math.radians(secs[a].heading)
            pos, h, p = (secs[a].x - math.cos(h0), secs[a].y - math.sin(h0), secs[a].z + 0.62), secs[a].heading - 90, 0.0
        else:
            prev = secs.get(self.behind) if self.behind is not None and self.last == (a, b) else None
            pos, h, p = ug.crawl_pose(secs[a], secs[b], k, prev=prev)
        cam = self.base.camera
        cam.set_pos(*pos)
        cam.set_hpr(h, p - 17.0, 0)  # looking a little down, at the rat ahead

    def _tick(self, task):
        if self.layer.root.is_empty():
            return task.done
        self.refresh()
        if self.leg is not None:
            self._pose()
        cam = self.base.camera
        render = cam.get_top()
        pos = cam.get_pos(render)
        fwd = render.get_relative_vector(cam, p3d.LVector3(0.08, 1, -0.06))
        fwd.normalize()
        # the torch is held a little low and right of the eye, so its beam reads as a beam on the walls
        torch = pos + render.get_relative_vector(cam, p3d.LVector3(0.12, 0.0, -0.1))
        self.layer.root.set_shader_input("u_torch_pos", p3d.LVector4(torch.x, torch.y, torch.z, 1.0))
        self.layer.root.set_shader_input("u_torch_dir", p3d.LVector4(fwd.x, fwd.y, fwd.z,
                                                                     math.cos(math.radians(TORCH_CONE))))
        return task.cont

    def stop(self) -> None:
        self.base.task_mgr.remove("underground-crawl")
        layer = self.layer
        for n in self.hidden:
            if not n.is_empty():
                n.show()
        if not layer.root.is_empty():
            if layer.pit is not None:
                layer.pit.show()
            if layer.ceiling is not None:
                layer.ceiling.hide()
            layer._light(*DIAGRAM)
            layer.set_labels_visible(layer.scene.pieces.labels_visible)
            layer.root.set_shader_input("u_torch_pos", p3d.LVector4(0, 0, 0, 0))
        lens = self.base.cam.node().get_lens()
        fov, near, far = self._lens
        lens.set_fov(fov)
        lens.set_near_far(near, far)
        self.base.win.set_clear_color(self._clear)


def animate_figure(layer: Underground, element: str, a: str, b: str, seconds: float) -> LerpFunctionInterval | None:
    """``tunnel_move`` (TUN-8, TUN-9): the element's small figures crawl the tube from ``a`` to ``b``; the
    crawl's camera rides along when it follows that element."""
    secs = layer.secs
    if a not in secs or b not in secs:
        return None
    sa, sb = secs[a], secs[b]
    figs = [f for f in layer.figures.values() if not f.is_empty() and f.get_tag("element") == element]
    h = ug.heading_of(sa, sb)

    def at(k: float) -> None:
        for i, f in enumerate(figs):
            if f.is_empty():
                continue
            f.set_python_tag("moving", k < 1.0)
            x, y, z = ug.along(sa, sb, max(0.0, k - 0.12 * i))
            f.set_pos(x, y, z)
            f.set_h(h)
        crawl = layer.crawl
        if crawl is not None and crawl.element == element:
            crawl.move(a, b, k)

    return LerpFunctionInterval(at, seconds, 0.0, 1.0, blendType="easeInOut")


def cycle(app) -> str:
    """U (and the HUD's button): shut -> the cutaway -> the crawl (when an Allied stand is underground and
    the side may see it) -> shut. Returns the prompt to show."""
    under = app.scene.underground
    if not under.known:
        return "No tunnels known here"
    if under.crawl is not None:
        under.stop_crawl()
        under.set_open(False)
        if app.camera is not None:
            app.camera.snap()
        return "Tunnels: closed (U)"
    if not under.is_open:
        under.set_open(True)
        return "Tunnels: cutaway (U again: the crawl, or close)"
    if under.start_crawl(app.base):
        return "Tunnels: the rat's crawl (U: back to the table)"
    under.set_open(False)
    return "Tunnels: closed (U)"


def sync_button(app) -> None:
    """The HUD's UNDERGROUND button, shown while the view knows some section of a network."""
    hud = app.hud
    if hud is None:
        return
    extras = hud.__dict__.setdefault("extras", [])
    button = next((b for b in extras if b.get_name() == "underground-button"), None)
    if not app.scene.underground.known or not app.settings.hud:
        if button is not None:
            button.hide()
        return
    if button is None:
        from direct.gui.DirectGui import DirectButton

        from game.client.hud import ACCENT, PANEL

        def press():
            text = cycle(app)
            if text:
                hud.set_prompt(text)

        button = DirectButton(parent=hud.top_right, text="UNDERGROUND (U)", text_scale=0.034, text_fg=ACCENT,
                              frameColor=PANEL, pad=(0.02, 0.015), pos=(-0.24, 0, -0.12), command=press,
                              text_font=hud.font)
        button.set_name("underground-button")
        extras.append(button)
    button.show()
