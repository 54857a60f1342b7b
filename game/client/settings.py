"""Client settings as one dataclass, mapped to Panda3D PRC variables (the panda3d-gltf habit)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
MODELS_DIR = REPO / "models"
SHADERS_DIR = REPO / "shaders"


def cache_dir() -> Path:
    """Where converted models and autosaves live: ``$DINKYDAU_CACHE`` or ``<repo>/cache/client``."""
    path = Path(os.environ.get("DINKYDAU_CACHE", REPO / "cache" / "client"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@dataclass
class ClientSettings:
    """How the client opens its window and draws the table."""

    size: tuple[int, int] = (1280, 720)
    """Window (or offscreen buffer) size in pixels."""
    fullscreen: bool = False
    offscreen: bool = False
    """Render into an offscreen EGL buffer, no window (tests, screenshots, benchmarks)."""
    shadows: bool | None = None
    """Sun shadow map: on, off, or None for automatic — on with a GPU, off on a software renderer
    (Mesa llvmpipe), where the shadow pass halves the frame rate."""
    shadow_size: int = 1024
    quality: str | None = None
    """Rendering tier: "low" (software renderer: baked light, blob shadows, no post passes) or "high"
    (GPU: real-time shadows, post passes); None chooses from the renderer (``resolve_quality``)."""
    hud: bool = True
    """Draw the interface; ``--no-hud`` leaves the table alone on screen (clean screenshots)."""
    ui_scale: float = 1.0
    """Multiplies the HUD's size; the HUD already scales with the window's height."""
    vsync: bool = True
    canopy_alpha: float = 0.55
    """Opacity of jungle canopy volumes, so stands beneath stay readable."""
    title: str = "Dinky Dau 3D"
    extra_prc: list[str] = field(default_factory=list)

    def resolve(self, software: bool) -> ClientSettings:
        """These settings with every automatic choice made for a renderer (``software``: Mesa llvmpipe)."""
        from dataclasses import replace

        quality = self.quality or ("low" if software else "high")
        shadows = self.shadows if self.shadows is not None else quality == "high"
        return replace(self, quality=quality, shadows=shadows)

    def prc(self) -> str:
        lines = [
            f"win-size {self.size[0]} {self.size[1]}",
            f"window-title {self.title}",
            f"fullscreen {'#t' if self.fullscreen else '#f'}",
            f"sync-video {'#t' if self.vsync and not self.offscreen else '#f'}",
            # OpenAL: the set pieces' sound board needs it (Panda3D loads one audio library per process,
            # with the first window); game.client.sound.prepare picks the null driver with no device
            "audio-library-name p3openal_audio",
            "framebuffer-multisample 0",
            "textures-power-2 none",
            "gl-coordinate-system default",
            "notify-level-glgsg error",
            "notify-level-display error",
            "default-model-extension .bam",
            "jpeg-quality 85",
        ]
        if self.offscreen:
            lines.append("window-type offscreen")
        return "\n".join(lines + list(self.extra_prc))
