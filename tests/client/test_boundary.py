"""The client talks to the engine only through its protocol client, and fails cleanly with no display."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_client_never_imports_rules():
    code = ("import sys, game.client.app, game.client.scene, game.client.hud, game.client.menu, "
            "game.client.tools, game.client.link; "
            "bad = sorted(m for m in sys.modules if m == 'game.rules' or m.startswith('game.rules.')); "
            "print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


def test_no_display_explains_offscreen_and_exits_2():
    code = "import sys; from game.client.app import main; sys.exit(main(['village_sweep']))"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(REPO)}
    r = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 2
    assert "no display" in r.stderr
    assert "--offscreen --screenshot" in r.stderr
