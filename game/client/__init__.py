"""The Panda3D client of Dinky Dau 3D: the table, the stands, the camera, the HUD and the player's tools.

It knows no rules. Everything a rule decides (legal actions and their CP cost, odds, dice, lines of
sight, what a side may see) is asked of the engine process through ``game.engine.client``; the client
only draws what the engine's views and events say, and sends back the actions the player picks.
"""
