"""Handing freed heap back to the system, for processes that run all day (a convention machine).

Loading a table allocates and frees some hundred MB of temporaries (meshes, float copies, grids), and
a finished table's meshes and textures go with it; glibc keeps what they freed in its arenas, where it
counts as resident memory. ``release_freed_memory`` asks glibc (``malloc_trim``) to return it; on a
system without glibc it does nothing. It imports nothing of the game, so every layer may call it.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import Any

_MALLOC_TRIM: Any = None


def release_freed_memory() -> None:
    global _MALLOC_TRIM
    if _MALLOC_TRIM is None:
        try:
            _MALLOC_TRIM = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
        except (OSError, AttributeError):
            _MALLOC_TRIM = False
    if _MALLOC_TRIM:
        _MALLOC_TRIM(0)
