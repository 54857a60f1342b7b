"""DD chapter 8, Fire Support, on the chapter seam (``game.rules.chapters``).

* ``tables``: the assets overview (G-19, G-37) and the mission rules, from ``game/data/fire_support.toml``;
* ``missions``: calling, delaying, scattering and landing mortar and artillery missions (DD-8.6–8.10),
  the on-board 60mm mortar (G-37), illumination (DD-9A.3) and WP smoke (G-19);
* ``air``: close air support along a heading (DD-8.5, G-19, G-22) and the smoke that marks targets
  (DD-4.36, G-18); ``gunship``: gunships on station, their runs and the Dustoff escort (G-27,
  DD-6.10–6.11); ``spoof``: the VC's smoke spoof (DD-4.37); ``air_odds``: the odds of a pass or a
  mission before it is called (DESIGN §4).

Its state (:class:`FireSupportState`) holds the missions used and pending, and the lit circles; its
clocks are ``fire_mission`` (DD-8.7), ``wp_smoke`` (G-38) and ``burning`` (napalm, G-19, G-38).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from game.rules.chapters import Chapter, Step, register_chapter
from game.rules.fire_support import air, gunship, missions, spoof  # noqa: F401 (spoof: its action)
from game.rules.fire_support.air import Gunship, Plume, Spoof
from game.rules.fire_support.missions import Light, Mission
from game.rules.fire_support.tables import FireSupportRules, load_fire_support
from game.rules.game import FROM_BLIND, QUIET_FROM_BLIND
from game.rules.state import Clock

if TYPE_CHECKING:
    from game.rules.data import Rulebook
    from game.rules.game import Game


@dataclass
class FireSupportState:
    """Chapter 8's state (``GameState.chapters["fire_support"]``)."""

    used: dict[str, int] = field(default_factory=dict)
    """Missions used, by "side:asset" (DD-8.3: a scenario gives each side so many)."""
    missions: dict[str, Mission] = field(default_factory=dict)
    """Missions called and waiting on their clocks, by id."""
    lights: list[Light] = field(default_factory=list)
    """Illuminated circles (DD-9A.3) this turn."""
    plumes: list[Plume] = field(default_factory=list)
    """Allied marking smoke up for a called air strike (G-18)."""
    spoofs: list[Spoof] = field(default_factory=list)
    """VC spoof smoke on those plumes (DD-4.37): the Insurgent's secret."""
    gunships: list[Gunship] = field(default_factory=list)
    """Gunships on station (G-27)."""
    next: int = 0
    """The number of the last mission, marker or light made (their ids)."""


def air_grounded(g: Game) -> bool:
    """DD-3.8: the monsoon grounds all air support (the weather's ``air_grounded``, G-07; and the scenario
    rule ``monsoon_grounds_air``)."""
    from game.rules.weather import effect

    return bool(effect(g, "air_grounded")) or "monsoon_grounds_air" in g.scenario.special_rules


class FireSupportChapter(Chapter):
    id = "fire_support"
    title = "DD chapter 8: Fire Support"
    actions = ("call_fire", "mortar_fire", "call_air", "gunship_run", "smoke_spoof")
    state_type = FireSupportState
    table_fields = ("used", "missions", "lights", "plumes", "spoofs", "gunships")
    clock_kinds = ("fire_mission", "wp_smoke", "burning")

    def load_tables(self, book: Rulebook) -> FireSupportRules:
        return load_fire_support(stands=book.stands)

    def steps(self) -> tuple[Step, ...]:
        return (Step("consolidation", 50, missions.expire, "G-38", self.id),
                Step("consolidation", 51, gunship.consolidation, "G-27", self.id))

    def on_clock(self, g: Game, clock: Clock) -> None:
        if clock.kind == "fire_mission":
            missions.on_clock(g, clock)
        # wp_smoke: the cloud clears (G-38); burning: the napalm fire burns out (G-19, G-38)

    def markers(self, g: Game, side: str) -> list[dict]:
        """The Target markers of a side's pending missions (its secret, DD-8.6; an air strike's with its
        heading), the lit circles, and the air markers (``air.markers``: smoke, spoofs, gunships)."""
        st = g.state.chapters.get(self.id)
        if st is None:
            return []
        out = [{"id": m.id, "kind": "target", "asset": m.asset, "round": m.round, "x": m.x, "y": m.y,
                "observed": m.observed, "side": m.side, **({} if m.heading is None else {"heading": m.heading})}
               for m in st.missions.values() if side in ("referee", m.side)]
        out += [{"id": li.id, "kind": "illumination", "x": li.x, "y": li.y, "radius": li.radius}
                for li in st.lights if li.turn == g.state.turn]
        return out + air.markers(g, side)


CHAPTER = register_chapter(FireSupportChapter())
# DD-4.11: only firing or assaulting gives a Blind away. A call on the radio does not (the caller looks and
# talks, like a Spotting Test); the on-board mortar fires, and is revealed as it does (DD-4.39).
FROM_BLIND.update({"call_fire", "call_air", "gunship_run", "mortar_fire"})
QUIET_FROM_BLIND.update({"call_fire", "call_air", "gunship_run"})
