"""Captions that teach: an event or an offer's odds as one short sentence, the number that matters, its clause.

PRESENCE.md ("The big screen"): one verb-first sentence of at most 60 characters, the key number large
("needs 5+"), the clause small; at most three recent events, in the lower third. The words come from the
engine (an event's ``text``, ``need``, ``result``, ``clause``; a preview's probabilities): this module
only shortens and splits them, it decides no rule. ``EventTicker`` shows the three newest on screen as
outlined text over the table (no panel behind it, so the table stays visible round the letters).
"""

from __future__ import annotations

import re

import panda3d.core as p3d
from direct.gui.DirectGui import OnscreenText

MAX_SENTENCE = 60
TICKER_ROWS = 3
TICKER_SECONDS = 9.0


def short_sentence(text: str, n: int = MAX_SENTENCE) -> str:
    """The head of an engine text: up to its first colon or full stop (the detail after it goes), with
    bracketed clause references dropped, cut to ``n`` characters at a word."""
    text = re.sub(r"\s*\[[^\]]*\]", "", str(text)).strip()
    for sep in (": ", ". ", "; ", " — ", " - "):
        head = text.split(sep, 1)[0]
        if 8 <= len(head) < len(text):
            text = head
            break
    text = text.rstrip(".")
    if len(text) <= n:
        return text
    cut = text[: n - 1].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"


def key_number(ev: dict) -> str:
    """The number that matters in an event: the score a roll needs, the hits it scored, its total."""
    need = ev.get("need", ev.get("target"))
    if ev.get("type", "roll") == "roll" and isinstance(need, int | float) and not isinstance(need, bool):
        return f"needs {need:g}+"
    for key, word in (("hits", "hit"), ("casualties", "casualty"), ("vp", "VP")):
        v = ev.get(key)
        if isinstance(v, int) and not isinstance(v, bool) and v:
            return f"{v} {word}{'s' if v != 1 and word not in ('VP',) else ''}"
    m = re.search(r"=\s*(\d+(?:\s*[A-Z]{2,3})?)\s*$", str(ev.get("text", "")))
    return m.group(1) if m else ""


def caption_parts(ev: dict) -> tuple[str, str, str]:
    """(sentence, number, clause) for an event: what the ticker and the attract captions draw."""
    clause = str(ev.get("clause") or "").split(";")[0].strip()
    return short_sentence(ev.get("text") or str(ev.get("type", "event")).replace("_", " ").capitalize()), \
        key_number(ev), clause


def odds_headline(result: dict) -> tuple[str, str]:
    """The one chance a ``game.preview`` answer is about, in words and as a big percentage."""
    from game.client.hud import _dist_ge, _pct

    if "if_it_lands" in result:
        return "The grenade lands", _pct(result.get("p_lands"))
    if "p_attacker_wins" in result:
        return "You win the melee", _pct(result.get("p_attacker_wins"))
    if "hits" in result:
        return "At least one hit", _pct(_dist_ge(result.get("hits"), 1))
    return "", ""


class EventTicker:
    """The newest events (at most three) over the lower third of the table: each a short sentence, its
    number larger beside it and its clause small, outlined so they read over any terrain; each fades
    after ``TICKER_SECONDS``."""

    def __init__(self, parent: p3d.NodePath, font, clock, ink, accent, dim):
        self.root = parent.attach_new_node("ticker")
        self.font, self.clock = font, clock
        self.ink, self.accent, self.dim = ink, accent, dim
        self.rows: list[tuple[float, tuple[str, str, str], tuple]] = []
        self.nodes: list[OnscreenText] = []

    def add(self, ev: dict, color=None) -> None:
        parts = caption_parts(ev)
        if not parts[0]:
            return
        self.rows.append((self.clock(), parts, color or self.ink))
        del self.rows[:-TICKER_ROWS]
        self._draw()

    def update(self) -> None:
        now = self.clock()
        keep = [r for r in self.rows if now - r[0] < TICKER_SECONDS]
        if len(keep) != len(self.rows):
            self.rows = keep
            self._draw()

    def texts(self) -> list[str]:
        return [" ".join(p for p in parts if p) for _, parts, _ in self.rows]

    def _draw(self) -> None:
        for n in self.nodes:
            n.destroy()
        self.nodes = []
        y = 0.05 + 0.075 * (len(self.rows) - 1)
        for _, (sentence, number, clause), color in self.rows:
            x = 0.0
            for text, scale, fg in ((sentence, 0.042, color), (number, 0.056, self.accent), (clause, 0.03, self.dim)):
                if not text:
                    continue
                small = scale < 0.035  # small text: a drop shadow reads better than an outline
                t = OnscreenText(parent=self.root, text=text, pos=(x, y), scale=scale, fg=fg,
                                 font=None if small else self.font, shadow=(0, 0, 0, 1) if small else None,
                                 align=p3d.TextNode.A_left, mayChange=True)
                self.nodes.append(t)
                x += t.textNode.get_width() * scale + 0.025
            y -= 0.075

    def destroy(self) -> None:
        for n in self.nodes:
            n.destroy()
        self.root.remove_node()
