"""Tet '68 house clearing (the 001 rules: TET-1-TET-19, G-41): a 20 mm, figure-by-figure street fight in
ruined buildings, where what decides a shot is how much of a man shows at a window or a door.

The tables (``data/tet68.toml``, ``tables.py``); exposure by ray casts against the walls and their openings
(``exposure.py``, TET-16); the figures' statistics and fire (``fire.py``: range bands, the d100 with automatic
hits per full hundred, the cover roll, the d3 loss, duckback, hand-to-hand blows); the cone, the M79's blast
and grenades (``blast.py``, TET-13, TET-14, G-41) and base contact (``melee.py``, G-41); the town of tiles and
buildings (``town.py``, TET-3) and movement over it (``movement.py``, TET-9, TET-10); the turn, fog and
victory (``game.py``), what may be done (``offers.py``), how a shot is rolled (``resolve.py``), what the enemy
reads of an event (``fog.py``); the scenarios (``scenario.py``), the computer player (``ai.py``) and the seam
(``ruleset.py``). The 3D table is the client's (``game/client``), the baked ruins ``game/world``'s.
"""
