"""Procedural geometry: meshes from arrays, lines, circles, discs and arcs for the table's overlays."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
import panda3d.core as p3d

Color = tuple[float, float, float, float]


def positions(vdata: p3d.GeomVertexData, mat: p3d.LMatrix4f) -> tuple[np.ndarray, int, int, np.ndarray] | None:
    """A vertex table's positions transformed by ``mat`` (n, 3), with the raw rows of their array, that
    array's index and its stride (for reading other columns of the same rows); None when the positions
    are not 32-bit floats."""
    fmt = vdata.get_format()
    col = fmt.get_column(p3d.InternalName.get_vertex())
    if col is None or col.get_numeric_type() != p3d.GeomEnums.NT_float32:
        return None
    ai = fmt.get_array_with(p3d.InternalName.get_vertex())
    stride = fmt.get_array(ai).get_stride()
    raw = np.frombuffer(memoryview(vdata.get_array(ai)), dtype=np.uint8).reshape(-1, stride)
    xyz = raw[:, col.get_start():col.get_start() + 12].copy().view(np.float32).reshape(-1, 3)
    m = np.array([[mat.get_cell(r, c) for c in range(4)] for r in range(4)])
    return (np.c_[xyz, np.ones(len(xyz))] @ m)[:, :3], ai, stride, raw


def mesh_node(name: str, vertices: np.ndarray, normals: np.ndarray, colors: np.ndarray,
              faces: np.ndarray) -> p3d.GeomNode:
    """One Geom from flat arrays: vertices (n,3), normals (n,3), colors (n,4) floats 0-1, faces (m,3)."""
    fmt = p3d.GeomVertexFormat.get_v3n3c4()
    vdata = p3d.GeomVertexData(name, fmt, p3d.Geom.UH_static)
    n = len(vertices)
    vdata.unclean_set_num_rows(n)
    arr = np.zeros(n, dtype=[("v", "<f4", 3), ("n", "<f4", 3), ("c", "u1", 4)])
    arr["v"] = vertices
    arr["n"] = normals
    arr["c"] = np.clip(np.asarray(colors) * 255.0 + 0.5, 0, 255).astype(np.uint8)
    memoryview(vdata.modify_array(0)).cast("B")[:] = arr.tobytes()
    tris = p3d.GeomTriangles(p3d.Geom.UH_static)
    tris.set_index_type(p3d.GeomEnums.NT_uint32)
    idx = np.ascontiguousarray(faces, dtype=np.uint32).ravel()
    handle = tris.modify_vertices()
    handle.unclean_set_num_rows(len(idx))
    memoryview(handle).cast("B")[:] = idx.tobytes()
    geom = p3d.Geom(vdata)
    geom.add_primitive(tris)
    node = p3d.GeomNode(name)
    node.add_geom(geom)
    return node


def trimesh_node(name: str, mesh, color: Sequence[float], flat: bool = True) -> p3d.GeomNode:
    """A Panda3D GeomNode from a trimesh mesh, one colour, flat shaded unless told otherwise."""
    if flat:
        verts = mesh.vertices[mesh.faces].reshape(-1, 3)
        normals = np.repeat(mesh.face_normals, 3, axis=0)
        faces = np.arange(len(verts)).reshape(-1, 3)
    else:
        verts, normals, faces = mesh.vertices, mesh.vertex_normals, mesh.faces
    colors = np.tile(np.asarray(color, dtype=float), (len(verts), 1))
    return mesh_node(name, np.asarray(verts), np.asarray(normals), colors, np.asarray(faces))


def lines(name: str, polylines: Iterable[Sequence[Sequence[float]]], color: Color,
          thickness: float = 2.0) -> p3d.NodePath:
    """Unlit line strips (x, y, z) for overlays."""
    segs = p3d.LineSegs(name)
    segs.set_color(*color)
    segs.set_thickness(thickness)
    for line in polylines:
        pts = list(line)
        if not pts:
            continue
        segs.move_to(*pts[0])
        for p in pts[1:]:
            segs.draw_to(*p)
    return overlay(p3d.NodePath(segs.create()))


def circle_points(cx: float, cy: float, r: float, z: float = 0.0, n: int = 64) -> list[tuple]:
    return [(cx + r * math.cos(2 * math.pi * i / n), cy + r * math.sin(2 * math.pi * i / n), z)
            for i in range(n + 1)]


def disc(name: str, r: float, color: Color, n: int = 64, start: float = 0.0, sweep: float = 360.0,
         inner: float = 0.0) -> p3d.NodePath:
    """A flat filled disc, ring or sector in the xy plane, unlit and translucent (range circles, arcs)."""
    fmt = p3d.GeomVertexFormat.get_v3c4()
    vdata = p3d.GeomVertexData(name, fmt, p3d.Geom.UH_static)
    vw = p3d.GeomVertexWriter(vdata, "vertex")
    cw = p3d.GeomVertexWriter(vdata, "color")
    tris = p3d.GeomTriangles(p3d.Geom.UH_static)
    steps = max(3, int(n * sweep / 360.0))
    for i in range(steps + 1):
        a = math.radians(start + sweep * i / steps)
        c, s = math.cos(a), math.sin(a)
        vw.add_data3(inner * c, inner * s, 0)
        vw.add_data3(r * c, r * s, 0)
        cw.add_data4(*color)
        cw.add_data4(*color)
        if i:
            k = 2 * i
            tris.add_vertices(k - 2, k - 1, k + 1)
            tris.add_vertices(k - 2, k + 1, k)
    geom = p3d.Geom(vdata)
    geom.add_primitive(tris)
    node = p3d.GeomNode(name)
    node.add_geom(geom)
    np_ = overlay(p3d.NodePath(node))
    np_.set_two_sided(True)
    return np_


def overlay(np_: p3d.NodePath) -> p3d.NodePath:
    """Draw unlit, translucent, after the table, without writing depth (lines, rings, ghosts)."""
    np_.set_shader_off(10)
    np_.set_light_off(10)
    np_.set_transparency(p3d.TransparencyAttrib.M_alpha)
    np_.set_depth_write(False)
    np_.set_bin("fixed", 10)
    return np_
