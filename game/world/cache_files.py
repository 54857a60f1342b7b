"""Derived arrays kept in a cache folder (the table's light map, the client's painted mat): read back
if whole, written atomically, the oldest pruned. A damaged or foreign file is never trusted: the caller
checks the array it gets and makes it again."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import numpy as np

from game.world.bake import write_atomic


def load_array(path: Path) -> np.ndarray | None:
    """The array saved at ``path``, or None if there is none or it cannot be read as one."""
    with contextlib.suppress(OSError, ValueError):
        return np.load(path, allow_pickle=False)
    return None


def save_array(path: Path, array: np.ndarray) -> None:
    """Save ``array`` at ``path`` atomically (a reader never sees half a file); a folder that cannot be
    written leaves the cache without it, nothing more."""
    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=False)
    with contextlib.suppress(OSError):
        write_atomic(path, buf.getvalue())


def prune_arrays(folder: Path, prefix: str, keep: int) -> list[Path]:
    """Delete all but the ``keep`` newest ``<prefix><24 hex>.npy`` regular files (no link) in ``folder``."""
    name = re.compile(re.escape(prefix) + r"[0-9a-f]{24}\.npy")
    found = []
    with contextlib.suppress(OSError):
        for entry in folder.iterdir():
            with contextlib.suppress(OSError):
                if name.fullmatch(entry.name) and entry.is_file() and not entry.is_symlink():
                    found.append((entry.stat().st_mtime_ns, entry))
    found.sort(reverse=True)
    removed = []
    for _, entry in found[keep:]:
        with contextlib.suppress(OSError):
            entry.unlink()
            removed.append(entry)
    return removed
