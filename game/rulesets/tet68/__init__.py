"""Tet '68 house clearing (the 001 rules: TET-1-TET-19, G-41): a 20 mm, figure-by-figure street fight in
ruined buildings, where what decides a shot is how much of a man shows at a window or a door.

Built so far: the tables (``data/tet68.toml``, ``tables.py``), exposure by ray casts against the walls
and their openings (``exposure.py``, TET-16), the figures' statistics (TET-5, TET-6) and fire (``fire.py``:
range bands, the d100 with automatic hits per full hundred, the cover roll, the d3 Initiative loss,
duckback and equal-Initiative fire resolved together, TET-8, TET-11-TET-19). Not yet: the turn sequence,
movement, the cone and the M79's blast, the scenario, the computer player and the 3D table; it is not
registered as a ruleset until it plays a whole game (``game.rulesets``, docs/rulesets.md).
"""
