"""Dinky Dau 3D: the Vietnam War tabletop wargame Dinky Dau on a living 3D table."""

__version__ = "0.1.0"
