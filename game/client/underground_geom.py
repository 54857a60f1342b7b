"""Where the tunnel network lies under the table, as plain geometry (no Panda3D): the sections a view's
``tunnel_section`` markers give (TUN-1..TUN-6, DD-9B.3), their places beneath the surface, the tubes
between them and where those tubes end, the shafts up to the hatches, the rooms a dug-out's capacity
sizes, the slots underground stands stand in, the box the cutaway opens, and the crawl's path.

The view is the whole truth here (house rule 4): a section is drawn only if the side's view lists it
(the Allied player sees the sections it found, the Insurgent or the referee all of them), and a link
only where both its ends are listed, so nothing drawn hints at a section the side does not know.

The underground is schematic, as TUN's "Underground Map" is: a section lies beneath its ``x, y`` at its
``depth`` (inches below the surface). Tubes and rooms are drawn larger than 1:100 so a stand, drawn at
``UNDER_SCALE``, can be seen in them.

What it leaves out: no routing of tubes round one another (a link is a straight run between its two
sections), no slope limits, no depth exaggeration beyond what the data says.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SURFACE_KINDS = ("entrance", "spider_hole", "bunker", "trench")
"""Sections that open on the table at their ``x, y`` (TUN-1: bunkers and trenches are above-ground works
with an entrance; camouflaged entrances and spider holes are the hatches)."""
DEFAULT_DEPTH = {"entrance": 1.4, "spider_hole": 1.0, "bunker": 1.0, "trench": 0.8, "tunnel": 2.0,
                 "dugout": 2.4, "junction": 2.0}
"""Inches below the surface of a section whose marker gives no depth (the engine's tunnels.toml gives
one by kind; this is only a drawing's fallback)."""
UNDER_SCALE = 0.55
"""Stands underground are drawn at this scale, so a team fits a tunnel drawn a little over an inch wide."""
TUBE_R = 0.5
"""A tunnel's radius as drawn, inches (about 3x a real one at 1:100: a stand must be seen crawling it)."""
SHAFT_R = 0.3
CHAMBER_R = {"tunnel": 0.6, "junction": 0.75, "entrance": 0.6, "spider_hole": 0.5, "bunker": 0.85,
             "trench": 0.7}
"""The radius of a section that is not a room: where its tubes meet."""
SLOT = (1.2, 0.85)
"""The footprint of one stand's place in a room (a medium base at UNDER_SCALE, with room round it)."""
ROOM_H = 0.9
PIT_PAD = 1.6
"""Inches the cutaway's pit reaches past the outermost section."""
PIT_TOP = -0.3
"""The pit's rim: just under the mat."""
USE_LABELS = {"barracks": "BARRACKS", "kitchen": "KITCHEN", "workshop": "WORKSHOP", "hospital": "HOSPITAL",
              "command_post": "COMMAND POST", "armoury": "ARMOURY", "storeroom": "STOREROOM"}
"""A dug-out's use as written beside it (TUN-3)."""


@dataclass(frozen=True)
class Section:
    """One section of the network as a view gives it, placed: ``z`` is the floor of the section (world
    inches; the surface lies at ``ground``), ``heading`` the way a room's long side runs."""

    id: str
    kind: str
    x: float
    y: float
    ground: float
    depth: float
    links: tuple[str, ...] = ()
    state: str = "open"
    concealed: bool = False
    capacity: int = 0
    use: str = ""
    trapped: bool = False
    heading: float = 0.0

    @property
    def z(self) -> float:
        return self.ground - self.depth

    @property
    def surface(self) -> bool:
        return self.kind in SURFACE_KINDS

    @property
    def room(self) -> bool:
        return self.kind == "dugout"

    @property
    def centre(self) -> tuple[float, float, float]:
        """Mid-height of the section: where its tubes come in."""
        return (self.x, self.y, self.z + TUBE_R)


def room_size(capacity: int) -> tuple[float, float, float]:
    """A dug-out's length, width and height for 2, 4, 6 or 8 stands (TUN-3): two rows of slots."""
    n = max(2, int(capacity or 2))
    rows = math.ceil(n / 2)
    return (rows * SLOT[0] + 0.35, 2 * SLOT[1] + 0.35, ROOM_H)


def sections(markers: list[dict], ground=lambda x, y: 0.0) -> dict[str, Section]:
    """The view's ``tunnel_section`` markers as placed sections, by id (a marker without a place is left
    out). A room's heading follows its first known link, so its long side runs along the tunnel."""
    raw = {str(m["id"]): m for m in markers
           if m.get("kind") == "tunnel_section" and "x" in m and "y" in m and m.get("id") is not None}
    out: dict[str, Section] = {}
    for sid, m in sorted(raw.items()):
        kind = str(m.get("section_kind") or m.get("type") or m.get("what") or "tunnel")
        if kind == "tunnel_section":
            kind = "tunnel"
        x, y = float(m["x"]), float(m["y"])
        depth = m.get("depth")
        depth = float(DEFAULT_DEPTH.get(kind, 2.0) if depth is None else depth)
        links = tuple(sorted(str(k) for k in (m.get("links") or []) if str(k) in raw and str(k) != sid))
        heading = 0.0
        if links:
            o = raw[links[0]]
            heading = math.degrees(math.atan2(float(o["y"]) - y, float(o["x"]) - x))
        out[sid] = Section(sid, kind, x, y, float(ground(x, y)), max(0.3, depth), links,
                           str(m.get("state") or "open"), bool(m.get("concealed", False)),
                           int(m.get("capacity") or 0), str(m.get("use") or ""), bool(m.get("trapped", False)),
                           heading)
    return out


def section_kind(marker: dict) -> str:
    """A tunnel_section marker's section kind (the contract's ``kind`` field is the marker's kind, so
    the section's own kind travels as ``section_kind``; older views may call it ``type``)."""
    return str(marker.get("section_kind") or marker.get("type") or marker.get("what") or "tunnel")


def links(secs: dict[str, Section]) -> list[tuple[str, str]]:
    """Each link once (a < b), only between sections both listed (fog: no link to an unknown section)."""
    pairs = set()
    for s in secs.values():
        for o in s.links:
            if o in secs:
                pairs.add((min(s.id, o), max(s.id, o)))
    return sorted(pairs)


def reach(sec: Section, dx: float, dy: float) -> float:
    """How far from the section's centre its boundary lies along the horizontal direction (dx, dy)."""
    if not sec.room:
        return CHAMBER_R.get(sec.kind, 0.5)
    length, width, _ = room_size(sec.capacity)
    h = math.radians(sec.heading)
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    along = abs(ux * math.cos(h) + uy * math.sin(h))
    across = abs(-ux * math.sin(h) + uy * math.cos(h))
    return min(length / 2 / along if along > 1e-9 else 1e9, width / 2 / across if across > 1e-9 else 1e9)


def tube(a: Section, b: Section) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """The tube's two ends, at the sections' centres' heights: at a room's wall, or a chamber's middle (a
    tube that would be shorter than nothing, two rooms overlapping, runs centre to centre)."""
    (ax, ay, az), (bx, by, bz) = a.centre, b.centre
    dx, dy = bx - ax, by - ay
    d = math.hypot(dx, dy)
    if d < 1e-6:
        return a.centre, b.centre
    # into a chamber the tube runs on to its middle (the chamber is open where it comes in); a room's
    # wall is where it stops
    ra = reach(a, dx, dy) if a.room else 0.0
    rb = reach(b, -dx, -dy) if b.room else 0.0
    if ra + rb >= d:
        return a.centre, b.centre
    ka, kb = ra / d, 1.0 - rb / d
    return ((ax + dx * ka, ay + dy * ka, az + (bz - az) * ka), (ax + dx * kb, ay + dy * kb, az + (bz - az) * kb))


def shaft(sec: Section) -> tuple[tuple[float, float, float], tuple[float, float, float]] | None:
    """A surface section's shaft: from its hatch on the table down to its floor (None for the rest)."""
    if not sec.surface:
        return None
    return ((sec.x, sec.y, sec.ground), (sec.x, sec.y, sec.z))


def extents(secs: dict[str, Section], width: float, height: float,
            pad: float = PIT_PAD) -> tuple[float, float, float, float, float] | None:
    """The cutaway's pit: x0, y0, x1, y1 (inside the table) and the floor's z, under every section with
    ``pad`` round it; None when no section is known."""
    if not secs:
        return None
    xs, ys, zs = [], [], []
    for s in secs.values():
        r = max(room_size(s.capacity)[:2]) / 2 if s.room else CHAMBER_R.get(s.kind, 0.5)
        xs += [s.x - r, s.x + r]
        ys += [s.y - r, s.y + r]
        zs.append(s.z)
    x0, x1 = max(0.0, min(xs) - pad), min(width, max(xs) + pad)
    y0, y1 = max(0.0, min(ys) - pad), min(height, max(ys) + pad)
    return (x0, y0, x1, y1, min(zs) - 0.6)


def slots(sec: Section, n: int) -> list[tuple[float, float, float]]:
    """Where ``n`` stands stand in a section (its floor): a room's slots two by two along its length; in
    a tunnel or chamber, in file along its heading."""
    if n <= 0:
        return []
    h = math.radians(sec.heading)
    ux, uy = math.cos(h), math.sin(h)
    out = []
    if sec.room:
        length, _, _ = room_size(max(sec.capacity, n))
        rows = math.ceil(max(sec.capacity, n, 2) / 2)
        for k in range(n):
            row, col = divmod(k, 2)
            a = -length / 2 + 0.175 + SLOT[0] * (row + 0.5)
            c = (col - 0.5) * SLOT[1]
            if rows * 2 < n:  # more stands than room: they crowd the floor's middle
                a = 0.0
            out.append((sec.x + ux * a - uy * c, sec.y + uy * a + ux * c, sec.z))
    else:
        for k in range(n):
            a = (k - (n - 1) / 2) * 0.75
            out.append((sec.x + ux * a, sec.y + uy * a, sec.z))
    return out


def crawl_pose(a: Section, b: Section, k: float, back: float = 1.0, eye: float = 0.58,
               prev: Section | None = None) -> tuple[tuple[float, float, float], float, float]:
    """The rat's eye ``k`` (0..1) of the way from ``a`` to ``b``: a point ``back`` inches behind where the
    stand is and ``eye`` inches above the floor, with its heading (degrees, 0 north as Panda's h) and pitch
    toward the stand. The eye trails along the way the stand came (the tube from ``prev``), so it stays in
    the tunnels; with no way behind, it waits in ``a`` (never behind its far wall)."""
    (ax, ay, az), (bx, by, bz) = a.centre, b.centre
    d = math.dist((ax, ay, az), (bx, by, bz)) or 1.0
    u = ((bx - ax) / d, (by - ay) / d, (bz - az) / d)
    k = max(0.0, min(1.0, k))
    s = k * d - back
    if s >= 0.0 or prev is None:
        s = max(s, -0.3)  # a hand's breadth into the section it leaves, no further
        cam = (ax + u[0] * s, ay + u[1] * s, az + u[2] * s)
    else:
        (px, py, pz) = prev.centre
        dp = math.dist((px, py, pz), (ax, ay, az)) or 1.0
        t = min(-s, dp)
        cam = (ax + (px - ax) / dp * t, ay + (py - ay) / dp * t, az + (pz - az) / dp * t)
    stand = (ax + u[0] * k * d, ay + u[1] * k * d, az + u[2] * k * d)
    vx, vy, vz = stand[0] - cam[0], stand[1] - cam[1], stand[2] - cam[2]
    if math.hypot(vx, vy) < 0.2:  # on top of the stand: look the way it goes
        vx, vy, vz = u
    heading = math.degrees(math.atan2(-vx, vy))
    pitch = math.degrees(math.atan2(vz, math.hypot(vx, vy)))
    return (cam[0], cam[1], cam[2] - TUBE_R + eye), heading, pitch


def along(a: Section, b: Section, k: float) -> tuple[float, float, float]:
    """The floor of the tube from ``a`` to ``b``, ``k`` (0..1) of the way."""
    (ax, ay, az), (bx, by, bz) = a.centre, b.centre
    k = max(0.0, min(1.0, k))
    return (ax + (bx - ax) * k, ay + (by - ay) * k, az + (bz - az) * k - TUBE_R)


def heading_of(a: Section, b: Section) -> float:
    """A stand's facing (degrees, the view's: 0 east, counter-clockwise) crawling from ``a`` to ``b``."""
    return math.degrees(math.atan2(b.y - a.y, b.x - a.x))


def use_label(sec: Section) -> str:
    """What is written beside a section in the cutaway: a dug-out's use and size, a section's kind."""
    if sec.room:
        use = USE_LABELS.get(sec.use, sec.use.replace("_", " ").upper() or "DUG-OUT")
        return f"{use} ({sec.capacity or 2})"
    return {"junction": "JUNCTION", "spider_hole": "SPIDER HOLE", "entrance": "ENTRANCE", "bunker": "BUNKER",
            "trench": "TRENCH"}.get(sec.kind, "")
