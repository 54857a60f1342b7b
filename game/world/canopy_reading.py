"""What the loader reads into a table's canopy volumes before line of sight measures them
(docs/terrain.md, "What the loader reads into a canopy volume"). The .glb, and so what the client
draws, is left as it is; these are readings of the rules the engine makes of a wood's volume:

* a wood that stands on the ground reaches down through it (:func:`through_ground`, DD-4.1);
* a wood clipped at the table's edge reaches just past it (:func:`past_edge`);
* two woods' walls that lie one on the other are set apart (:func:`apart`, DD-4.4, G-02).

Each keeps every volume closed (vertices move, faces stay) and its vertices float32 values, as a
file's are (:func:`read`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import shapely
import trimesh

if TYPE_CHECKING:
    from game.world.raytrace import RayScene

CANOPY_DEPTH = 96.0
"""How far below the table's lowest ground a canopy volume that reaches the ground is taken down,
inches (:func:`through_ground`)."""
GROUND_CONTACT = 0.2
"""A canopy vertex on a downward face no more than this far above the ground under it stands on the
ground (a baked wood's floor lies 0.1" under the dry ground, 0.02" over a stream sunk 0.12")."""
TABLE_EDGE_REACH = 0.01
"""How far past the table's edge a canopy volume clipped at it is taken, inches (:func:`past_edge`)."""
SHARED_WALL_GAP = 5e-4
"""How far apart the loader sets two canopy walls that lie one on the other, inches (:func:`apart`)."""


def read(volumes: list[trimesh.Trimesh], ground: RayScene, top: float, width: float, height: float
         ) -> list[trimesh.Trimesh]:
    """The table's canopy volumes as line of sight measures them: each through the ground and past the
    table's edge, then the shared walls apart. ``ground``: the ground's ray scene; ``top``: the highest
    point of the table."""
    floor = float(ground.tris32[:, :, 2].min()) - CANOPY_DEPTH
    out = apart([past_edge(through_ground(m, ground, top, floor), width, height) for m in volumes])
    # (as a file's own vertices: float32 values, so each face's normal is that of the triangle Embree holds)
    return [trimesh.Trimesh(m.vertices.astype(np.float32).astype(np.float64), m.faces, process=False) for m in out]


def through_ground(volume: trimesh.Trimesh, ground: RayScene, top: float, floor: float) -> trimesh.Trimesh:
    """A canopy volume that stands on the ground reaches down through it (DD-4.1: a wood is all that lies
    under its canopy, inside its footprint, the ground under it included; no sightline slips out under a
    wood where the ground falls away between the floor's vertices). Each vertex of a
    downward face that stands on the ground (within ``GROUND_CONTACT`` of it, or under it) is taken
    straight down to ``floor``; the faces are the same, so the volume stays closed, its walls vertical
    where they were. A canopy raised on trunks (``canopy_bottom`` above the ground) keeps its floor.

    Above the ground the volume is as before. Its floor and walls deep below every sightline also
    spare Embree's traversal: the floor no longer lies in the same tree nodes as the walls and the
    top that sightlines at a man's height meet (docs/terrain.md)."""
    down = volume.face_normals[:, 2] < 0.0
    if not down.any():
        return volume
    idx = np.unique(volume.faces[down])
    v = volume.vertices[idx]
    t, prim = ground.first(np.column_stack([v[:, :2], np.full(len(v), top + 1.0)]),
                           np.tile([0.0, 0.0, -1.0], (len(v), 1)))
    g = top + 1.0 - t
    on = (prim >= 0) & (v[:, 2] <= g + GROUND_CONTACT)
    if not on.any():
        return volume
    out = volume.copy()
    out.vertices[idx[on], 2] = floor
    return out


def past_edge(volume: trimesh.Trimesh, width: float, height: float) -> trimesh.Trimesh:
    """A canopy volume clipped at the table's edge reaches ``TABLE_EDGE_REACH`` past it: a point on the
    edge under the trees is then inside the wood, and a sightline along the edge runs through it, where
    a wall in the edge's own plane would leave both to the last bits of Embree's arithmetic."""
    v = volume.vertices
    x, y = v[:, 0], v[:, 1]
    lo_x, hi_x, lo_y, hi_y = x <= 1e-5, x >= width - 1e-5, y <= 1e-5, y >= height - 1e-5
    if not (lo_x.any() or hi_x.any() or lo_y.any() or hi_y.any()):
        return volume
    v = v.copy()
    v[lo_x, 0], v[hi_x, 0] = -TABLE_EDGE_REACH, width + TABLE_EDGE_REACH
    v[lo_y, 1], v[hi_y, 1] = -TABLE_EDGE_REACH, height + TABLE_EDGE_REACH
    return trimesh.Trimesh(v, volume.faces, process=False)


def apart(volumes: list[trimesh.Trimesh]) -> list[trimesh.Trimesh]:
    """Canopy volumes whose walls lie one on the other (two woods that share a border, or two clipped
    by the same table edge) with those walls set ``SHARED_WALL_GAP`` apart. A sightline steps ``game.world.raytrace.STEP``
    past each wall it crosses, so of two walls at the same place it would meet one, and Embree's tree
    decides which: leaving the one wood without entering the other, or the reverse. Set apart, both
    crossings are met, in the order of the walls (DD-4.2, DD-4.4: inches in each wood counted).

    The wall of the later volume (by node name) moves into its own volume, the wall of a third on the
    same line twice as far, and so on; each volume's vertices on such a wall move, so every volume stays
    closed. A wood's inches change by well under a hundredth of an inch."""
    if len(volumes) < 2:
        return volumes
    first = np.cumsum([0] + [len(m.vertices) for m in volumes])
    verts = np.concatenate([m.vertices for m in volumes])
    faces = np.concatenate([m.faces + first[k] for k, m in enumerate(volumes)])
    normals = np.concatenate([m.face_normals for m in volumes])
    owner = np.repeat(np.arange(len(volumes)), [len(m.faces) for m in volumes])
    wall = np.nonzero(np.abs(normals[:, 2]) < 1e-9)[0]  # the vertical faces
    vol, corners = owner[wall], faces[wall]
    tri = verts[corners][:, :, :2]
    # a vertical triangle covers the plan segment between its two furthest corners
    d = np.column_stack([np.linalg.norm(tri[:, 0] - tri[:, 1], axis=1), np.linalg.norm(tri[:, 0] - tri[:, 2], axis=1),
                         np.linalg.norm(tri[:, 1] - tri[:, 2], axis=1)])
    pick = np.argmax(d, axis=1)
    rows = np.arange(len(tri))
    seg = np.stack([tri[rows, np.choose(pick, [0, 0, 1])], tri[rows, np.choose(pick, [1, 2, 2])]], axis=1)
    normal = normals[wall, :2] / np.linalg.norm(normals[wall, :2], axis=1, keepdims=True)
    lo, hi = seg.min(axis=1), seg.max(axis=1)
    i, j = shapely.STRtree(shapely.linestrings(seg)).query(shapely.box(lo[:, 0] - 2e-5, lo[:, 1] - 2e-5,
                                                                        hi[:, 0] + 2e-5, hi[:, 1] + 2e-5))
    keep = vol[i] < vol[j]
    i, j = i[keep], j[keep]
    # on one line (parallel, and each one's ends on the other's line) and overlapping by more than a point
    u = seg[i, 1] - seg[i, 0]
    length = np.linalg.norm(u, axis=1)
    keep = length > 1e-9
    i, j, u, length = i[keep], j[keep], u[keep], length[keep]
    u /= length[:, None]
    r0, r1 = seg[j, 0] - seg[i, 0], seg[j, 1] - seg[i, 0]
    off0 = u[:, 0] * r0[:, 1] - u[:, 1] * r0[:, 0]  # (the 2D cross products: how far off i's line)
    off1 = u[:, 0] * r1[:, 1] - u[:, 1] * r1[:, 0]
    s0 = np.einsum("ij,ij->i", r0, u)
    s1 = np.einsum("ij,ij->i", r1, u)
    overlap = np.minimum(np.maximum(s0, s1), length) - np.maximum(np.minimum(s0, s1), 0.0)
    keep = (np.abs(off0) < 2e-5) & (np.abs(off1) < 2e-5) & (overlap > 1e-4)
    i, j = i[keep], j[keep]
    if not len(i):
        return volumes
    # each later wall moves in by the gap times the number of earlier volumes with a wall on it
    below: dict[int, set[int]] = {}
    for a, b in zip(i.tolist(), j.tolist(), strict=True):
        below.setdefault(b, set()).add(int(vol[a]))
    shift = np.zeros_like(verts[:, :2])
    done: set[tuple[int, tuple[float, float]]] = set()  # (vertex, wall line's normal): moved once a line
    for w, under in sorted(below.items()):
        key = (round(float(normal[w, 0]), 6), round(float(normal[w, 1]), 6))
        for v in corners[w].tolist():
            if (v, key) not in done:
                done.add((v, key))
                shift[v] -= normal[w] * SHARED_WALL_GAP * len(under)
    out = []
    for k, m in enumerate(volumes):
        s = shift[first[k]:first[k + 1]]
        if s.any():
            v = m.vertices.copy()
            v[:, :2] += s
            m = trimesh.Trimesh(v, m.faces, process=False)
        out.append(m)
    return out
