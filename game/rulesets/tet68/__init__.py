"""Tet '68 house clearing (the 001 rules: TET-1-TET-19, G-41): a 20 mm, figure-by-figure street fight in
ruined buildings, where what decides a shot is how much of a man shows at a window or a door.

Built so far: the tables (``data/tet68.toml``, ``tables.py``), exposure by ray casts against the walls
and their openings (``exposure.py``, TET-16), the figures' statistics (TET-5, TET-6) and fire (``fire.py``:
range bands, the d100 with automatic hits per full hundred, the cover roll, the d3 Initiative loss,
duckback and equal-Initiative fire resolved together, TET-8, TET-11-TET-19), the town of tiles and
buildings (``town.py``, TET-3) and movement over it (``movement.py``: ground by ground and wall by wall,
TET-9, TET-10). Not yet: the turn sequence (TET-7, snap fire C-32), the cone's several targets and the
M79's blast (G-41), the scenario, fog, the computer player, the baked buildings and the 3D table; it is
not registered as a ruleset until it plays a whole game (``game.rulesets``, docs/rulesets.md).
"""
