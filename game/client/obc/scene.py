"""One Brain-Cell's table: Dinky Dau's table for the scenario's terrain, as the Dinky Dau client draws it.

The view's ``scenario`` carries the Dinky Dau features OBC plays on and the baked ``glb``
(game.rulesets.obc.ruleset.table_file), so the table, the mat, the light, the trees planted in the canopy
volumes and the hootches and trenches are ``game.client.scene.TableScene``'s own. Its Dinky Dau stands are
put away; the men and choppers are ``ObcFigures`` (figures.py), and the effects layer plays on them.

What it leaves out: the tunnels (OBC has none) and every rule.
"""

from __future__ import annotations

import panda3d.core as p3d

from game.client.effects import Effects
from game.client.obc.figures import ObcFigures
from game.client.scene import TableScene


class ObcScene(TableScene):
    """The Dinky Dau table with OBC's figures on it (see the module docstring)."""

    def __init__(self, root: p3d.NodePath, view: dict, settings, library):
        scenario = dict(view.get("scenario") or {})
        super().__init__(root, scenario, settings, library)
        self.stands = self.pieces  # Dinky Dau's (empty) stands: the trees clear round them
        self.pieces = ObcFigures(self.root, library, self.table.height_at)
        self.pieces.root.set_shader_input("u_detail", 0.0)
        self.pieces.root.set_shader_input("u_baked", 0.75)
        self.effects.destroy()
        self.effects = Effects(self.overlays, self.pieces, self.table.height_at)

    def destroy(self) -> None:
        self.pieces.destroy()
        self.pieces = self.stands
        super().destroy()
