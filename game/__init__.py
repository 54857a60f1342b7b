"""Dinky Dau 3D: the Vietnam War tabletop wargame Dinky Dau on a living 3D table."""

from game import compiled as _compiled

__version__ = "0.1.0"

_compiled.install()  # the rules' busiest modules from their Cython builds, where built (game.compiled)
