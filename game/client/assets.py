"""Loading glTF models through panda3d-gltf, with a converted ``.bam`` cache for speed.

Rules data names a visual only by key (``model = "us_rifle_team"``); this module maps a key to
``models/<key>.glb``. A key with no file falls back to a plain base so that a new stand type shows up
without client work.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import gltf
import panda3d.core as p3d

from game.client.settings import MODELS_DIR, cache_dir


def load_glb(path: str | Path) -> p3d.NodePath:
    """Load a .glb/.gltf as a NodePath, through a .bam converted once and cached by content."""
    path = Path(path)
    data = path.read_bytes()
    digest = hashlib.sha1(data).hexdigest()[:16]
    bam = cache_dir() / "bam" / f"{path.stem}-{digest}.bam"
    if bam.exists():
        node = p3d.BamFile()
        if node.open_read(p3d.Filename.from_os_specific(str(bam))):
            obj = node.read_node()
            node.close()
            if obj is not None:
                return p3d.NodePath(obj)
    root = p3d.NodePath(gltf.load_model(str(path), gltf.GltfSettings(skip_animations=True)))
    bam.parent.mkdir(parents=True, exist_ok=True)
    tmp = bam.with_suffix(".tmp")
    if root.write_bam_file(p3d.Filename.from_os_specific(str(tmp))):
        tmp.replace(bam)
    return root


class ModelLibrary:
    """Stand and marker models by key, loaded once, flattened to one Geom each, handed out as copies."""

    def __init__(self, models_dir: Path = MODELS_DIR):
        self.models_dir = models_dir
        self._cache: dict[str, p3d.NodePath] = {}

    def has(self, key: str) -> bool:
        return (self.models_dir / f"{key}.glb").exists()

    def prototype(self, key: str) -> p3d.NodePath:
        if key not in self._cache:
            path = self.models_dir / f"{key}.glb"
            if path.exists():
                np_ = load_glb(path)
            else:
                np_ = p3d.NodePath(p3d.PandaNode(key))
            np_.flatten_strong()
            self._cache[key] = np_
        return self._cache[key]

    def instance(self, key: str, parent: p3d.NodePath) -> p3d.NodePath:
        return self.prototype(key).copy_to(parent)
