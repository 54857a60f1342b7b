"""The high tier's post passes over the 3D scene: ambient occlusion, then the depth of field of a
photograph of miniatures (sharp at the camera's target, softer in front of it and behind), then FXAA.

Written in GLSL 330 (``shaders/post_*``) through ``direct.filter.FilterManager``: Panda3D's own
CommonFilters compile Cg, which the renderers here lack. Only the scene camera's display region is
filtered, so the interface (render2d / aspect2d, drawn by its own region afterwards) stays sharp.

The low tier installs nothing: on a software renderer each full-screen pass costs 10-50 ms a frame.
What it leaves out: bloom, motion blur, and any pass a stand's readability would suffer from.
"""

from __future__ import annotations

import math

import panda3d.core as p3d

from game.client.settings import SHADERS_DIR, ClientSettings

AO_RADIUS = 0.6
"""Reach of the ambient occlusion, inches of table: about a stand's figures against their base."""
AO_STRENGTH = 0.55
FOCUS_RANGE = 0.35
"""Depth of field: a point this fraction of the focus distance in front of or behind the target is
fully blurred; a shallow field, as a close photograph of 15mm figures has."""
MAX_BLUR = 5.0
"""The widest blur, in pixels at 720 lines (scaled with the window's height)."""


def _shader(fragment: str) -> p3d.Shader:
    return p3d.Shader.load(p3d.Shader.SL_GLSL,
                           vertex=p3d.Filename.from_os_specific(str(SHADERS_DIR / "post_quad.vert")),
                           fragment=p3d.Filename.from_os_specific(str(SHADERS_DIR / f"{fragment}.frag")))


def _texture(name: str) -> p3d.Texture:
    tex = p3d.Texture(name)
    tex.set_wrap_u(p3d.SamplerState.WM_clamp)
    tex.set_wrap_v(p3d.SamplerState.WM_clamp)
    return tex


class PostPasses:
    """The passes over one window's scene camera, and the task that feeds them the lens and the focus."""

    def __init__(self, base, camera=None):
        from direct.filter.FilterManager import FilterManager

        self.base = base
        self.camera = camera
        self.manager = FilterManager(base.win, base.cam)
        color, depth = _texture("post-color"), _texture("post-depth")
        self.final = self.manager.render_scene_into(colortex=color, depthtex=depth)
        if self.final is None:
            self.manager.cleanup()
            raise RuntimeError("the post passes could not make their offscreen buffers")
        ao = _texture("post-ao")
        self.ao = self.manager.render_quad_into("post-ao", colortex=ao, div=2)
        self.ao.set_shader(_shader("post_ao"))
        self.ao.set_shader_input("u_depth", depth)
        self.ao.set_shader_input("u_radius", AO_RADIUS)
        dof = _texture("post-dof")
        self.dof = self.manager.render_quad_into("post-dof", colortex=dof)
        self.dof.set_shader(_shader("post_dof"))
        self.dof.set_shader_input("u_color", color)
        self.dof.set_shader_input("u_depth", depth)
        self.dof.set_shader_input("u_ao", ao)
        self.dof.set_shader_input("u_ao_strength", AO_STRENGTH)
        self.dof.set_shader_input("u_focus_range", FOCUS_RANGE)
        self.final.set_shader(_shader("post_fxaa"))
        self.final.set_shader_input("u_color", dof)
        self.passes = [self.ao, self.dof, self.final]
        self._update(None)
        self.task = base.task_mgr.add(self._update, "post-passes", sort=45)  # before the frame is drawn

    def _update(self, task):
        """The lens and the focus each frame: the orbit target's depth before the camera (0: the depth
        at the middle of the screen, as an autofocus would)."""
        lens = self.base.cam.node().get_lens()
        near, far = lens.get_near(), lens.get_far()
        fov = lens.get_fov()
        tan_half = p3d.LVecBase2(math.tan(math.radians(fov.x / 2)), math.tan(math.radians(fov.y / 2)))
        focus = 0.0
        now = getattr(self.camera, "now", None)
        if now is not None:
            target = self.base.cam.get_relative_point(self.base.render, p3d.LPoint3(now.x, now.y, now.z))
            focus = max(float(target.y), 0.0)
        height = max(self.base.win.get_y_size(), 1)
        for quad in (self.ao, self.dof):
            quad.set_shader_input("u_near_far", p3d.LVecBase2(near, far))
            quad.set_shader_input("u_tan_half", tan_half)
        self.dof.set_shader_input("u_focus", focus)
        self.dof.set_shader_input("u_max_blur", MAX_BLUR * height / 720.0)
        return task.cont if task is not None else None

    def follow_clear_color(self) -> None:
        """A new table may light a different room: the scene buffer clears to the window's colour."""
        if self.manager.buffers:
            self.manager.buffers[0].set_clear_color(self.base.win.get_clear_color())

    def destroy(self) -> None:
        self.base.task_mgr.remove(self.task)
        if self.base.win is not None:  # (a ShowBase already destroyed took its buffers with it)
            self.manager.cleanup()


_installed: PostPasses | None = None


def install(base, settings: ClientSettings, camera=None) -> PostPasses | None:
    """Put the post passes on ``base``'s scene camera when ``settings.quality`` is "high" (a GPU);
    the low tier gets none (and any left from before are removed). Called again for a new table, it
    keeps the passes and follows the new ``camera`` (an OrbitCamera, for the focus)."""
    global _installed
    if settings.quality != "high":
        remove()
        return None
    if _installed is not None and _installed.base is base:
        _installed.camera = camera
        _installed.follow_clear_color()
        return _installed
    remove()
    _installed = PostPasses(base, camera)
    return _installed


def remove() -> None:
    """Take the post passes off again: the scene draws straight into the window."""
    global _installed
    if _installed is not None:
        _installed.destroy()
        _installed = None


def installed() -> PostPasses | None:
    return _installed
