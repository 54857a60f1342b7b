"""Stands, blinds and markers on the table, kept in step with the engine's views.

A stand is its base and figures (``models/<model>.glb``), turned to its facing, with a rim in its side's
colour (sky blue for the Allies, orange for the insurgents: a colour-blind-safe pair) and a side token
on its rear edge: a square for the Allies, a triangle for the insurgents (shape as well as colour,
readable across a room). Element status (pinned, winded, low
ammo, overwatch, hold) stands as counters behind the element's first stand; wounded stands wear a
casualty ring. Blinds are discs with a "?"; markers the engine lists (casualty tokens, smoke, target
markers with their delay die, echoes) are drawn by kind, an unknown kind as a labelled chit. Stands,
Blind markers and the markers on the ground are picked by a click (``pick``), and the ones an action's
parameter may name are ringed (``highlight``). A vehicle stand is drawn by ``vehicles`` (its model with
its turret, gun and hatch as parts, kept in step with the view's ``vehicle`` state); a vehicle's wreck
marker by its own hull, burnt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import panda3d.core as p3d
from direct.interval.IntervalGlobal import LerpPosHprInterval, Sequence, Wait

from game.client import geom, vehicles
from game.client.assets import ModelLibrary

SIDE_COLORS = {"allied": (0.337, 0.706, 0.914, 1.0), "insurgent": (0.902, 0.624, 0.0, 1.0)}
"""#56B4E9 and #E69F00 (Okabe-Ito): a pair colour-blind eyes tell apart, the HUD's too (hud.SIDE_INK)."""
SELECTED_COLOR = (0.97, 0.97, 0.97, 1.0)  # the selection's ring: white, apart from either side's colour
SIDE_TOKEN = {"allied": "side_allied", "insurgent": "side_insurgent"}
STATUS_MARKERS = ["pinned", "winded", "low_ammo", "overwatch", "stunned", "hold"]
MARKER_MODELS = {"casualty": "casualty_token", "casualty_token": "casualty_token", "smoke": "smoke",
                 "target": "target_marker", "target_marker": "target_marker", "echo": "echo",
                 "blind": "blind", "dust_cloud": "smoke", "dust": "smoke"}
SMOKE_KINDS = ("smoke", "dust_cloud", "dust")
MARKER_DRAWERS: dict = {}
"""Marker kinds a chapter's client module draws itself: kind -> ``fn(pieces, node, marker) -> bool`` (False:
nothing of it on the surface). Filled by ``_load_drawers`` (tunnels_fx, village_fx: DD chapter 9B)."""


def _load_drawers() -> None:
    from game.client import tunnels_fx, village_fx

    MARKER_DRAWERS.update({"tunnel_section": tunnels_fx.draw_section, "booby_trap": tunnels_fx.draw_trap,
                           "civilian": village_fx.draw_civilian, "cache": village_fx.draw_cache,
                           "burnt_hootch": village_fx.draw_burnt, "hootch_burned": village_fx.draw_burnt})
POINTER = 4.0  # inches of the facing line drawn for a marker whose view gives no arc (a drawing, not a rule)
OVERWATCH_COLOR = (1.0, 0.85, 0.25, 1.0)
CHOICE_COLOR = (1.0, 0.35, 0.25, 1.0)
BASE_H = 0.08
PICK_HALF = {"blind": 0.8, "marker": 0.6}  # half the square a click on a Blind / a ground marker lands in
RING = {"blind": 1.0, "marker": 0.8, "point": 0.9}  # the ring drawn round a Blind, a marker, a place


def text_node(text: str, scale: float, color=(1, 1, 1, 1), billboard: bool = True,
              parent: p3d.NodePath | None = None) -> p3d.NodePath:
    tn = p3d.TextNode("label")
    tn.set_text(text)
    tn.set_align(p3d.TextNode.A_center)
    tn.set_text_color(*color)
    tn.set_shadow(0.06, 0.06)
    tn.set_shadow_color(0, 0, 0, 0.9)
    np_ = p3d.NodePath(tn) if parent is None else parent.attach_new_node(tn)
    np_.set_scale(scale)
    if billboard:
        np_.set_billboard_point_eye()
    geom.overlay(np_)
    np_.set_bin("fixed", 30)
    np_.set_depth_test(False)
    return np_


def stand_bin() -> str:
    """The cull bin stands draw in: after the opaque table (so a stand's blob shadow blends over the
    ground) and before the transparent bin (so translucent canopy still lies over the stands beneath)."""
    bins = p3d.CullBinManager.get_global_ptr()
    if bins.find_bin("stands") < 0:
        bins.add_bin("stands", p3d.CullBinEnums.BT_state_sorted, 25)
    return "stands"


@dataclass
class StandPiece:
    id: str
    element: str
    side: str
    width: float
    depth: float
    node: p3d.NodePath
    rim: p3d.NodePath
    ring: p3d.NodePath | None = None
    animating: bool = False
    kit: object | None = None  # a vehicle's model and moving parts (game/client/vehicles.py)


class Pieces:
    """The scene nodes for everything a view puts on the table."""

    def __init__(self, parent: p3d.NodePath, library: ModelLibrary, height_at):
        self.root = parent.attach_new_node("pieces")
        self.library = library
        self.height_at = height_at
        self.stands: dict[str, StandPiece] = {}
        self.elements: dict[str, dict] = {}
        self.element_markers: dict[str, p3d.NodePath] = {}
        self.labels: dict[str, p3d.NodePath] = {}
        self.blinds: dict[str, p3d.NodePath] = {}
        self.markers: dict[str, p3d.NodePath] = {}
        self.selection: p3d.NodePath | None = None
        self.selected: str | None = None
        self.highlight_choices: p3d.NodePath | None = None
        self.overwatch: dict[str, p3d.NodePath] = {}
        self.structures: dict[str, p3d.NodePath] = {}
        self.features: dict[str, dict] = {}
        self.intervals: dict[str, object] = {}
        self.labels_visible = True
        self.view: dict = {}
        if not MARKER_DRAWERS:
            _load_drawers()

    # -- view sync -------------------------------------------------------------------------------
    def apply_view(self, view: dict) -> None:
        self.view = view
        self.elements = {e["id"]: e for e in view.get("elements", [])}
        seen = set()
        for s in view.get("stands", []):
            seen.add(s["id"])
            piece = self.stands.get(s["id"])
            if piece is None:
                piece = self._make_stand(s)
                self.stands[s["id"]] = piece
            if not piece.animating:
                self.place(piece, s["x"], s["y"], s.get("facing", 0.0))
            self._casualty_ring(piece, s)
            if piece.kit is not None:
                piece.kit.sync(s.get("vehicle"))
        for sid in [k for k in self.stands if k not in seen]:
            self._stop(sid)
            gone = self.stands.pop(sid)
            if gone.kit is not None:
                gone.kit.destroy()
            gone.node.remove_node()
        vehicles.hide_passengers(self, view)
        self._sync_blinds(view.get("blinds", []))
        self._sync_markers(view.get("markers", []))
        self._sync_element_markers()
        self._sync_overwatch()
        self._sync_structures(view.get("structures") or {})
        if self.selected and self.selected not in self.elements:
            self.select(None)
        elif self.selected:
            self.select(self.selected)

    def place(self, piece: StandPiece, x: float, y: float, facing: float) -> None:
        piece.node.set_pos(x, y, self.height_at(x, y))
        piece.node.set_h(facing)

    def _make_stand(self, s: dict) -> StandPiece:
        base = s.get("base") or {}
        w, d = float(base.get("width", 1.97)), float(base.get("depth", 1.26))
        node = self.root.attach_new_node(f"stand-{s['id']}")
        node.set_tag("stand", s["id"])
        key = s.get("model") or s.get("type") or ""
        # a vehicle's model keeps its moving parts (turret, gun, hatch): game/client/vehicles.py
        kit = vehicles.make(self.library, node, s) if vehicles.is_vehicle(s) else None
        if kit is None and self.library.has(key):
            model = self.library.instance(key, node)
            # its first faces are its soft shadow (models/build_models.py): blended, after the table
            model.set_transparency(p3d.TransparencyAttrib.M_alpha, 1)
            model.set_bin(stand_bin(), 0)
        elif kit is None:  # a stand type with no model yet: a plain base, never nothing
            import trimesh.creation as tc

            mesh = tc.box(extents=(d, w, BASE_H))  # depth along the facing, width across it
            mesh.apply_translation((0, 0, BASE_H / 2))
            node.attach_new_node(geom.trimesh_node(key or "base", mesh, (0.4, 0.35, 0.22, 1)))
        side = s.get("side", "allied")
        token = self.library.instance(SIDE_TOKEN.get(side, "side_allied"), node)
        token.set_name("side-token")  # (a wreck hides it: vehicles.VehicleKit.set_wreck)
        token.set_pos(-d / 2 + 0.2, 0, kit.deck if kit is not None else BASE_H)
        color = SIDE_COLORS.get(side, (0.8, 0.8, 0.8, 1))
        hw, hd = d / 2 + 0.03, w / 2 + 0.03  # x: front to back (depth), y: across (width)
        rim = geom.lines("rim", [[(-hw, -hd, 0.03), (hw, -hd, 0.03), (hw, hd, 0.03), (-hw, hd, 0.03),
                                  (-hw, -hd, 0.03)]], color, 3.0)
        rim.reparent_to(node)
        if kit is not None and kit.wreck:  # a wreck from the first view on: nobody's token nor rim
            token.hide()
            rim.hide()
        return StandPiece(s["id"], s.get("element", ""), side, w, d, node, rim, kit=kit)

    def _casualty_ring(self, piece: StandPiece, s: dict) -> None:
        hurt = bool(s.get("wounded")) or int(s.get("hits", 0) or 0) > 0
        if hurt and piece.ring is None:
            piece.ring = self.library.instance("casualty_ring", piece.node)
            piece.ring.set_scale(piece.depth * 1.25, piece.width * 1.05, 1)
        elif not hurt and piece.ring is not None:
            piece.ring.remove_node()
            piece.ring = None

    def _sync_element_markers(self) -> None:
        for np_ in self.element_markers.values():
            np_.remove_node()
        self.element_markers.clear()
        for np_ in self.labels.values():
            np_.remove_node()
        self.labels.clear()
        for eid, e in self.elements.items():
            stands = [self.stands[s] for s in e.get("stands", []) if s in self.stands]
            if not stands:
                continue
            lead = stands[0]
            holder = lead.node.attach_new_node(f"status-{eid}")
            k = 0
            for status in STATUS_MARKERS:
                value = e.get(status)
                if not value:
                    continue
                key = status if self.library.has(status) else "pinned"
                if status == "hold":
                    key = "overwatch"
                m = self.library.instance(key, holder)
                m.set_pos(-lead.depth / 2 - 0.3, lead.width / 2 - 0.3 - 0.5 * k, 0)
                k += 1
            self.element_markers[eid] = holder
            label = text_node(e.get("name", eid), 0.42, SIDE_COLORS.get(e.get("side"), (1, 1, 1, 1)),
                              parent=lead.node)
            label.set_pos(0, 0, 1.3)
            if not self.labels_visible:
                label.hide()
            self.labels[eid] = label

    def _sync_blinds(self, blinds: list[dict]) -> None:
        keep = set()
        for b in blinds:
            keep.add(b["id"])
            np_ = self.blinds.get(b["id"])
            state = str(b.get("state", "blind"))
            if np_ is not None and np_.get_tag("state") != state:  # a Blind became an Echo: a new marker
                np_.remove_node()
                np_ = None
            if np_ is None:
                np_ = self.root.attach_new_node(f"blind-{b['id']}")
                np_.set_tag("blind", b["id"])
                np_.set_tag("state", state)
                self.library.instance("blind", np_)
                if state == "echo":  # an Echo (DD-4.9): the marker with its Echo chit and a bright "?"
                    self.library.instance("echo", np_).set_pos(0.62, 0.62, 0.0)
                q = text_node("?", 1.0, (1.0, 0.6, 0.2, 1) if state == "echo" else (0.95, 0.88, 0.55, 1),
                              billboard=False, parent=np_)
                q.set_p(-90)
                q.set_pos(0, -0.3, 0.1)
                q.set_depth_test(True)
                ring = geom.lines("blind-rim", [geom.circle_points(0, 0, 0.8, 0.05, 32)],
                                  SIDE_COLORS.get(b.get("side"), (1, 1, 1, 1)), 3)
                ring.reparent_to(np_)
                self.blinds[b["id"]] = np_
            np_.set_pos(b["x"], b["y"], self.height_at(b["x"], b["y"]))
        for bid in [k for k in self.blinds if k not in keep]:
            self.blinds.pop(bid).remove_node()

    def _sync_markers(self, markers: list[dict]) -> None:
        for np_ in self.markers.values():
            np_.remove_node()
        self.markers.clear()
        for m in markers:
            kind = str(m.get("kind", "marker"))
            if "x" not in m or "y" not in m:
                continue
            np_ = self.root.attach_new_node(f"marker-{m.get('id', kind)}")
            np_.set_tag("marker", str(m.get("id", kind)))
            np_.set_pos(m["x"], m["y"], self.height_at(m["x"], m["y"]))
            draw = MARKER_DRAWERS.get(kind)
            if draw is not None:  # a chapter's own marker (DD chapter 9B: hatches, traps, villagers, caches)
                if draw(self, np_, m):
                    self.markers[str(m.get("id", len(self.markers)))] = np_
                else:
                    np_.remove_node()
                continue
            key = MARKER_MODELS.get(kind, kind)
            if m.get("model") and self.library.has(str(m["model"])):  # a marker that names its model
                key = str(m["model"])
            elif kind == "wreck" and str(m.get("model") or m.get("roster")) in vehicles.ROSTER:
                key = vehicles.model_key(self.library, str(m.get("model") or m.get("roster")))[0]  # a stand-in
            if self.library.has(key):
                model = self.library.instance(key, np_)
                if kind == "wreck" and key in vehicles.ROSTER:  # a vehicle's wreck: its own hull, burnt
                    vehicles.burn_wreck_marker(model)
                    np_.set_h(float(m.get("facing") or 0.0))
                if kind in SMOKE_KINDS:
                    model.set_transparency(p3d.TransparencyAttrib.M_alpha)
                    model.set_alpha_scale(0.6)
                    model.set_bin("transparent", 10)
                    model.set_depth_write(False)
                    r = float(m.get("radius", 1.0))
                    model.set_scale(r)
            else:
                self.library.instance("echo", np_)
                text_node(kind.replace("_", " "), 0.35, parent=np_).set_z(0.6)
            if kind in ("target", "target_marker"):
                die = self.library.instance("delay_die", np_)
                die.set_pos(0.7, 0.7, 0)
                delay = m.get("delay", m.get("die"))
                if delay is None:  # a fire mission's delay clock carries the marker's id (DD-8.7)
                    delay = next((c.get("turns") for c in self.view.get("clocks") or []
                                  if c.get("id") == m.get("id") and c.get("kind") == "fire_mission"), None)
                if delay is not None:
                    text_node(str(delay), 0.45, (0.1, 0.1, 0.1, 1), parent=np_).set_pos(0.7, 0.7, 0.45)
                if m.get("heading") is not None:  # an air strike's attack heading arrow (DD-8.5)
                    h = math.radians(float(m["heading"]))
                    ux, uy = math.cos(h), math.sin(h)
                    tip = (4.0 * ux, 4.0 * uy, 0.15)
                    back = (-4.0 * ux, -4.0 * uy, 0.15)
                    wing = [(tip[0] - 0.9 * ux + 0.6 * s * uy, tip[1] - 0.9 * uy - 0.6 * s * ux, 0.15) for s in (1, -1)]
                    geom.lines("heading", [[back, tip], [wing[0], tip, wing[1]]], (1.0, 0.82, 0.3, 0.95), 3.0
                               ).reparent_to(np_)
            if m.get("label"):
                text_node(str(m["label"]), 0.35, parent=np_).set_z(1.0)
            self.markers[str(m.get("id", len(self.markers)))] = np_

    def _sync_overwatch(self) -> None:
        """An Overwatch marker's zone on the table as the view gives it: its ``arc`` out to its ``reach``,
        or its corridor ``width`` wide (a marker without them: its facing line, or the corridor's line)."""
        for np_ in self.overwatch.values():
            np_.remove_node()
        self.overwatch.clear()
        for eid, e in self.elements.items():
            ow = e.get("overwatch")
            c = self.element_centre(eid)
            if not isinstance(ow, dict) or c is None:
                continue
            node = self.root.attach_new_node(f"overwatch-{eid}")
            if ow.get("kind") == "corridor" and ow.get("from") and ow.get("to"):
                from game.client.effects import corridor_node

                (x0, y0), (x1, y1) = ow["from"][:2], ow["to"][:2]
                corridor_node(x0, y0, x1, y1, float(ow.get("width") or 0.3), self.height_at,
                              (*OVERWATCH_COLOR[:3], 0.16)).reparent_to(node)
            else:
                facing = float(ow.get("facing", 0.0))
                if ow.get("arc") and ow.get("reach"):
                    arc_node(facing, float(ow["reach"]), OVERWATCH_COLOR, 0.13, float(ow["arc"])).reparent_to(node)
                else:
                    a = math.radians(facing)
                    geom.lines("overwatch-facing", [[(0, 0, 0.02), (POINTER * math.cos(a), POINTER * math.sin(a), 0.02)]],
                               OVERWATCH_COLOR, 4).reparent_to(node)
                node.set_pos(c.x, c.y, c.z + 0.1)
            self.overwatch[eid] = node

    def _sync_structures(self, structures: dict) -> None:
        """Rubble and breaches the engine reports (``structures``: feature id -> {state})."""
        for np_ in self.structures.values():
            np_.remove_node()
        self.structures.clear()
        for fid, info in sorted(structures.items()):
            state = str((info or {}).get("state", "")) if isinstance(info, dict) else str(info)
            f = self.features.get(fid)
            if not state or f is None:
                continue
            from game.client.table import feature_shape

            shape = feature_shape(f)
            c = shape.centroid
            node = self.root.attach_new_node(f"structure-{fid}")
            node.set_pos(c.x, c.y, self.height_at(c.x, c.y))
            color = (0.55, 0.52, 0.46, 1.0) if state == "rubble" else (0.25, 0.22, 0.2, 1.0)
            import trimesh.creation as tc

            minx, miny, maxx, maxy = shape.bounds
            size = max(0.8, min(maxx - minx, maxy - miny) * (0.8 if state == "rubble" else 0.3))
            for k in range(7 if state == "rubble" else 1):
                a = k * 2.4
                rr = 0.0 if k == 0 else size * 0.3
                block = tc.box(extents=(size * 0.35, size * 0.3, 0.3 + 0.1 * (k % 3)))
                block.apply_translation((rr * math.cos(a), rr * math.sin(a), 0.15))
                node.attach_new_node(geom.trimesh_node("rubble", block, color))
            text_node(state, 0.45, (0.95, 0.85, 0.6, 1), parent=node).set_z(1.8)
            self.structures[fid] = node

    def set_features(self, features: list[dict]) -> None:
        self.features = {str(f.get("id")): f for f in features}

    # -- legal choices ---------------------------------------------------------------------------
    def highlight(self, ids: list[str], color=CHOICE_COLOR, labels: dict[str, str] | None = None,
                  what: str = "stand", keep: bool = False) -> None:
        """Ring what a parameter may name, with an optional word over each: stands (targets), Blind
        markers (``what="blind"``) or markers on the ground (``what="marker"``: casualty tokens).
        ``keep`` adds to the rings already drawn (a fireteam's chosen stands beside the others)."""
        if not keep:
            self.clear_highlight()
        if self.highlight_choices is None:
            self.highlight_choices = self.root.attach_new_node("choices")
        for sid in ids:
            node = self._thing(what, sid)
            if node is None:
                continue
            p = node.get_pos()
            piece = self.stands.get(sid) if what == "stand" else None
            r = max(piece.width, piece.depth) * 0.75 if piece is not None else RING[what]
            self._ring(p, r, color, labels.get(sid) if labels else None)

    def highlight_points(self, points: dict[str, tuple[float, float]], color=CHOICE_COLOR,
                         labels: dict[str, str] | None = None) -> None:
        """Ring places on the table (the ambush points a choice names), adding to the rings drawn."""
        if self.highlight_choices is None:
            self.highlight_choices = self.root.attach_new_node("choices")
        for key, (x, y) in points.items():
            self._ring(p3d.LPoint3(x, y, self.height_at(x, y)), RING["point"], color,
                       labels.get(key) if labels else None)

    def _thing(self, what: str, ident: str) -> p3d.NodePath | None:
        if what == "stand":
            piece = self.stands.get(ident)
            return piece.node if piece is not None else None
        return (self.blinds if what == "blind" else self.markers).get(ident)

    def _ring(self, p: p3d.LPoint3, r: float, color, label: str | None) -> None:
        ring = geom.lines("choice", [geom.circle_points(0, 0, r, 0.1, 40)], color, 5.0)
        ring.reparent_to(self.highlight_choices)
        ring.set_pos(p)
        fill = geom.disc("choice-fill", r, (*color[:3], 0.22))
        fill.reparent_to(self.highlight_choices)
        fill.set_pos(p.x, p.y, p.z + 0.09)
        if label:
            text_node(label, 0.5, color, parent=self.highlight_choices).set_pos(p.x, p.y, p.z + 2.0)

    def clear_highlight(self) -> None:
        if self.highlight_choices is not None:
            self.highlight_choices.remove_node()
            self.highlight_choices = None

    def destroy(self) -> None:
        for sid in list(self.intervals):
            self._stop(sid)
        for piece in self.stands.values():
            if piece.kit is not None:
                piece.kit.destroy()
        self.root.remove_node()

    def _stop(self, sid: str) -> None:
        ival = self.intervals.pop(sid, None)
        if ival is not None:
            ival.pause()
        piece = self.stands.get(sid)
        if piece is not None:
            piece.animating = False

    # -- selection -------------------------------------------------------------------------------
    def select(self, element: str | None) -> None:
        if self.selection is not None:
            self.selection.remove_node()
            self.selection = None
        for piece in self.stands.values():
            piece.node.clear_shader_input("u_highlight")
        self.selected = element
        if element is None or element not in self.elements:
            self.selected = None
            return
        self.selection = self.root.attach_new_node("selection")
        for sid in self.elements[element].get("stands", []):
            piece = self.stands.get(sid)
            if piece is None:
                continue
            piece.node.set_shader_input("u_highlight", (1.0, 0.85, 0.3, 0.25))
            hw, hd = piece.depth / 2 + 0.12, piece.width / 2 + 0.12
            ring = geom.lines("sel", [[(-hw, -hd, 0.05), (hw, -hd, 0.05), (hw, hd, 0.05), (-hw, hd, 0.05),
                                       (-hw, -hd, 0.05)]], SELECTED_COLOR, 4.0)
            ring.reparent_to(self.selection)
            ring.set_pos(piece.node.get_pos())
            ring.set_h(piece.node.get_h())

    def select_blind(self, blind: str | None) -> None:
        """Ring one of the side's own Blind markers as the selection, as a stand's element is ringed."""
        self.select(None)
        node = self.blinds.get(blind) if blind is not None else None
        if node is None:
            return
        self.selection = self.root.attach_new_node("selection")
        ring = geom.lines("sel-blind", [geom.circle_points(0, 0, RING["blind"] + 0.2, 0.06, 40)], SELECTED_COLOR, 4.0)
        ring.reparent_to(self.selection)
        ring.set_pos(node.get_pos())

    def element_centre(self, element: str) -> p3d.LPoint3 | None:
        pts = [self.stands[s].node.get_pos() for s in self.elements.get(element, {}).get("stands", [])
               if s in self.stands]
        if not pts:
            return None
        c = p3d.LPoint3(0, 0, 0)
        for p in pts:
            c += p
        return c / len(pts)

    def set_labels_visible(self, visible: bool) -> None:
        self.labels_visible = visible
        for label in self.labels.values():
            label.show() if visible else label.hide()

    # -- picking ---------------------------------------------------------------------------------
    def pick(self, origin: p3d.LPoint3, direction: p3d.LVector3,
             only: tuple[str, ...] = ("stand", "blind", "marker")) -> tuple[str, str] | None:
        """What is under a ray, nearest first: ('stand', id), ('blind', id) (a Blind or Echo marker) or
        ('marker', id) (a marker on the ground: a casualty token, smoke, ...); ``only`` these kinds."""
        best: tuple[float, tuple[str, str]] | None = None
        if "stand" in only:
            for piece in self.stands.values():
                t = self._ray_hits_rect(origin, direction, piece.node, piece.depth / 2 + 0.1,
                                        piece.width / 2 + 0.1, 0.4)
                if t is not None and (best is None or t < best[0]):
                    best = (t, ("stand", piece.id))
        for what, nodes in (("blind", self.blinds), ("marker", self.markers)):
            if what not in only:
                continue
            h = PICK_HALF[what]
            for mid, np_ in nodes.items():
                t = self._ray_hits_rect(origin, direction, np_, h, h, 0.1)
                if t is not None and (best is None or t < best[0]):
                    best = (t, (what, mid))
        return None if best is None else best[1]

    @staticmethod
    def _ray_hits_rect(origin, direction, node, hw, hd, z_up) -> float | None:
        pos = node.get_pos()
        dz = direction.z
        if abs(dz) < 1e-6:
            return None
        for z in (pos.z + z_up, pos.z):
            t = (z - origin.z) / dz
            if t <= 0:
                continue
            hit = origin + direction * t
            a = math.radians(node.get_h())
            lx = (hit.x - pos.x) * math.cos(a) + (hit.y - pos.y) * math.sin(a)
            ly = -(hit.x - pos.x) * math.sin(a) + (hit.y - pos.y) * math.cos(a)
            if abs(lx) <= hw and abs(ly) <= hd:
                return t
        return None

    # -- animation -------------------------------------------------------------------------------
    def animate_move(self, stand_id: str, to: list[float], start: list[float] | None = None,
                     delay: float = 0.0) -> float:
        """Slide a stand to ``to`` = [x, y, facing]; returns the seconds the move takes."""
        piece = self.stands.get(stand_id)
        if piece is None:
            return 0.0
        if start is not None:
            self.place(piece, start[0], start[1], start[2] if len(start) > 2 else piece.node.get_h())
        x, y = to[0], to[1]
        facing = to[2] if len(to) > 2 else piece.node.get_h()
        here = piece.node.get_pos()
        dist = math.hypot(x - here.x, y - here.y)
        duration = min(1.6, 0.3 + dist * 0.06)
        h0 = piece.node.get_h()
        facing = h0 + ((facing - h0 + 180) % 360 - 180)

        def done():
            piece.animating = False
            self.intervals.pop(stand_id, None)

        from direct.interval.IntervalGlobal import Func

        self._stop(stand_id)
        piece.animating = True
        ival = Sequence(Wait(delay), LerpPosHprInterval(piece.node, duration, (x, y, self.height_at(x, y)),
                                                        (facing, 0, 0), blendType="easeInOut"),
                        Func(done))
        self.intervals[stand_id] = ival
        ival.start()
        return duration + delay


def arc_node(facing: float, r: float, color, fill: float = 0.15, sweep: float = 90.0) -> p3d.NodePath:
    """A flat sector centred on ``facing`` (degrees, 0 = east, CCW), outlined, at the origin."""
    node = p3d.NodePath("arc")
    geom.disc("arc-fill", r, (*color[:3], fill), n=96, start=facing - sweep / 2, sweep=sweep).reparent_to(node)
    pts = [(0.0, 0.0, 0.02)]
    for i in range(33):
        a = math.radians(facing - sweep / 2 + sweep * i / 32)
        pts.append((r * math.cos(a), r * math.sin(a), 0.02))
    pts.append((0.0, 0.0, 0.02))
    geom.lines("arc-edge", [pts], color, 3.0).reparent_to(node)
    return node
