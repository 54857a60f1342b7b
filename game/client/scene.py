"""The lit 3D scene: table, pieces, sun and shadows, with the GLSL shaders from ``shaders/``."""

from __future__ import annotations

import numpy as np
import panda3d.core as p3d

from game.client.assets import ModelLibrary
from game.client.pieces import Pieces
from game.client.settings import SHADERS_DIR, ClientSettings, cache_dir
from game.client.table import Table

# Light by time of day: (sun colour, sky ambient, ground ambient, sun elevation degrees, the sky's colour).
# The window's background is the dim hall the table stands in, darker than that sky (ROOM).
LIGHTING = {
    "day": ((1.05, 0.98, 0.86), (0.42, 0.45, 0.50), (0.26, 0.24, 0.20), 55, (0.42, 0.48, 0.52)),
    "dawn": ((1.0, 0.72, 0.52), (0.36, 0.36, 0.46), (0.22, 0.18, 0.16), 18, (0.50, 0.42, 0.40)),
    "dusk": ((0.95, 0.60, 0.42), (0.32, 0.30, 0.42), (0.20, 0.16, 0.14), 15, (0.36, 0.28, 0.30)),
    "night_moonlit": ((0.35, 0.40, 0.60), (0.16, 0.18, 0.26), (0.08, 0.08, 0.10), 50, (0.06, 0.07, 0.10)),
    "night_dark": ((0.18, 0.20, 0.30), (0.10, 0.11, 0.16), (0.05, 0.05, 0.06), 50, (0.03, 0.03, 0.05)),
}
SUN_HEADING = 35.0
"""The sun's heading (degrees; it stands to the south-east, so shadows fall to the north-west)."""
ROOM = (0.12, 0.10, 0.085)
"""The hall beyond the lamp's pool: the background is the sky's colour times this (warm, dim), about as
dark as the far floor, so no horizon shows."""
NIGHT_ROOM = (0.30, 0.30, 0.36)
"""The same at night: the hall is darker and bluer."""
POOL = {"room": 0.22, "falloff": 14.0, "vignette": 0.14, "night_room": 0.12}
"""The lamp's pool (mood.glsl): brightness of the room beyond it, how fast light falls off past the
table's edge (inches), how much dimmer the table's rim is than its centre; the room's brightness at night."""
GRADE = (1.08, 1.2)
"""Saturation and contrast lift of the final colour (1, 1: none)."""


def noise_texture(size: int = 256, seed: int = 7) -> p3d.Texture:
    """A tileable value-noise texture (three octaves), made once from a fixed seed."""
    rng = np.random.default_rng(seed)
    img = np.zeros((size, size), dtype=float)
    for octave, weight in ((8, 0.5), (32, 0.3), (128, 0.2)):
        grid = rng.random((octave, octave))
        reps = size // octave
        # bilinear upsampling of a periodic grid keeps the texture tileable
        xs = np.arange(size) / reps
        i0 = np.floor(xs).astype(int) % octave
        i1 = (i0 + 1) % octave
        f = xs - np.floor(xs)
        f = f * f * (3 - 2 * f)
        rows = grid[i0][:, i0] * (1 - f)[None, :] + grid[i0][:, i1] * f[None, :]
        rows2 = grid[i1][:, i0] * (1 - f)[None, :] + grid[i1][:, i1] * f[None, :]
        img += weight * (rows * (1 - f)[:, None] + rows2 * f[:, None])
    data = (np.clip(img, 0, 1) * 255).astype(np.uint8)
    tex = p3d.Texture("noise")
    tex.setup_2d_texture(size, size, p3d.Texture.T_unsigned_byte, p3d.Texture.F_luminance)
    tex.set_ram_image(data.tobytes())
    tex.set_wrap_u(p3d.SamplerState.WM_repeat)
    tex.set_wrap_v(p3d.SamplerState.WM_repeat)
    tex.set_minfilter(p3d.SamplerState.FT_linear_mipmap_linear)
    tex.set_magfilter(p3d.SamplerState.FT_linear)
    return tex


def load_shader(name: str = "lit") -> p3d.Shader:
    return p3d.Shader.load(p3d.Shader.SL_GLSL,
                           vertex=p3d.Filename.from_os_specific(str(SHADERS_DIR / f"{name}.vert")),
                           fragment=p3d.Filename.from_os_specific(str(SHADERS_DIR / f"{name}.frag")))


class TableScene:
    """Builds and owns everything under ``root`` for one scenario."""

    def __init__(self, root: p3d.NodePath, scenario: dict, settings: ClientSettings,
                 library: ModelLibrary | None = None):
        self.root = root.attach_new_node("scene")
        self.settings = settings
        self.scenario = scenario
        self.table = Table(self.root, scenario, settings.canopy_alpha)
        self.pieces = Pieces(self.root, library or ModelLibrary(), self.table.height_at)
        self.pieces.set_features(list(scenario.get("features") or []))
        self.overlays = self.root.attach_new_node("overlays")
        from game.client.effects import Effects

        self.effects = Effects(self.overlays, self.pieces, self.table.height_at)
        from game.client.changes import TableChanges

        # craters and burnt ground (DD chapter 8), from each view's terrain_changes and the terrain events
        self.changes = TableChanges(self.table, self.root, self.pieces.library, scenario.get("features"))
        self._light(scenario.get("time_of_day", "day"), scenario.get("weather", "clear"))
        from game.client.buildings import Buildings
        from game.client.vegetation import Flora

        # trees standing in the canopy volumes, and buildings and works drawn over the baked solids
        self.flora = Flora(self.table, scenario, settings, sun=self.sun, pieces=self.pieces, changes=self.changes)
        self.buildings = Buildings(self.table, scenario)
        from game.client.underground import Underground

        # the tunnel network beneath the table: the cutaway and the crawl (DD chapter 9B, TUN)
        self.underground = Underground(self)

    def _light(self, time_of_day: str, weather: str) -> None:
        sun_rgb, sky, ground, elevation, sky_rgb = LIGHTING.get(time_of_day, LIGHTING["day"])
        if weather in ("monsoon", "mist"):
            sun_rgb = tuple(c * 0.55 for c in sun_rgb)
            sky = tuple(c * 1.15 for c in sky)
            sky_rgb = tuple(0.5 * c + 0.25 for c in sky_rgb)
        night = time_of_day.startswith("night")
        self.background = tuple(c * r for c, r in zip(sky_rgb, NIGHT_ROOM if night else ROOM, strict=True))
        w, h = self.table.width, self.table.height
        sun = p3d.DirectionalLight("sun")
        sun.set_color((*sun_rgb, 1))
        self.sun = self.root.attach_new_node(sun)
        self.sun.set_pos(w / 2, h / 2, 0)
        self.sun.set_hpr(SUN_HEADING, -elevation, 0)
        shadows = self.settings.shadows
        if shadows:
            size = self.settings.shadow_size
            sun.set_shadow_caster(True, size, size)
            lens = sun.get_lens()
            span = max(w, h) * 1.25
            lens.set_film_size(span, span)
            lens.set_near_far(-80, 80)
            # The shadow pass needs depth only: no lighting shader, no colour writes.
            sun.set_initial_state(p3d.RenderState.make(
                p3d.ShaderAttrib.make_off(), p3d.LightAttrib.make_all_off(),
                p3d.ColorWriteAttrib.make(p3d.ColorWriteAttrib.C_off),
                p3d.TextureAttrib.make_all_off(), 100))
            self._shadow_texel = 1.0 / size
        else:
            self._shadow_texel = 0.0
        self.root.set_light(self.sun)
        self.root.set_shader(load_shader("lit"))
        self.root.set_shader_input("u_sky", p3d.LVector3(*sky))
        self.root.set_shader_input("u_ground", p3d.LVector3(*ground))
        self.root.set_shader_input("u_shadows", 1.0 if shadows else 0.0)
        self.root.set_shader_input("u_shadow_texel", self._shadow_texel)
        self.root.set_shader_input("u_highlight", p3d.LVector4(0, 0, 0, 0))
        self.root.set_shader_input("u_noise", noise_texture())
        self.root.set_shader_input("u_detail", 0.0)
        self.table.root.set_shader_input("u_detail", 0.4)
        self.pieces.root.set_shader_input("u_detail", 0.0)
        # The mat and the baked light (sun shadow, sky occlusion) over the table, by world x/y: the ground
        # is painted and lit by them, a piece standing in a wood's shade is shaded by them a little.
        forward = self.sun.get_quat(self.root).get_forward()
        mat_tex, light_tex = self.table.dress((-forward.x, -forward.y, -forward.z), cache_dir())
        room = POOL["night_room"] if night else POOL["room"]
        self.root.set_shader_input("u_mat", mat_tex)
        self.root.set_shader_input("u_light", light_tex)
        self.root.set_shader_input("u_table", p3d.LVector4(w, h, room, POOL["falloff"]))
        # the contrast lift would crush a dim table's shadows: dawn, dusk and night take a little of it
        contrast = GRADE[1] if time_of_day == "day" else 1.0 + 0.3 * (GRADE[1] - 1.0)
        self.root.set_shader_input("u_grade", p3d.LVector4(GRADE[0], contrast, POOL["vignette"], 0.0))
        self.root.set_shader_input("u_paint", 0.0)
        self.root.set_shader_input("u_baked", 0.0)
        self.root.set_shader_input("u_wood", 0.0)
        self.root.set_shader_input("u_backlight", 0.0)
        self.pieces.root.set_shader_input("u_baked", 0.75)
        # A white material everywhere that has none, so p3d_Material.baseColor is defined.
        mat = p3d.Material("default")
        mat.set_base_color((1, 1, 1, 1))
        self.root.set_material(mat)

    def geom_count(self) -> int:
        return sum(np_.node().get_num_geoms() for np_ in self.root.find_all_matches("**/+GeomNode")
                   if not np_.is_hidden())

    def apply_view(self, view: dict) -> None:
        """What the view says of the table itself: the changes made in play."""
        if "terrain_changes" in view:  # (a view from before the table could change has none)
            self.changes.sync(view["terrain_changes"] or [])

    def destroy(self) -> None:
        self.underground.destroy()
        self.flora.destroy()
        self.changes.destroy()
        self.effects.destroy()
        self.pieces.destroy()
        # The root's LightAttrib holds a NodePath of the sun, its own child, and so the whole table:
        # a reference cycle Panda3D never frees (some MB a game left behind). Break it first.
        self.root.clear_light()
        self.root.remove_node()
