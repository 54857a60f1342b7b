"""Tet '68 on the 3D table: the kit (kit.py), the ruined street (scene.py), the figures (figures.py), the
composer of offers into actions (play.py) and the presenter's handlers for the ruleset's events (events.py)."""
