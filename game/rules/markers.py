"""Required Game Markers & Tokens (DD-1.17; G-15): the list of the markers on the table, and where a
side's view shows each.

The rulebook asks for "a small set of standard markers" and prints no list; G-15's proposal is the
list, adopted. The engine has no marker objects of its own: a marker is a fact of the state that the
view renders (``game.rules.views.render_view``): a status flag of an element or a stand (Pinned, the
Red Casualty Ring, Winded...), a record of the view's ``markers`` (casualty tokens, smoke, target
markers), a Blind or an Echo, a delay clock, a changed structure or patch of ground, a track of a
side. ``game/data/markers.toml`` names, for each G-15 marker the built chapters use, the view's part
and the field (``flag``: a flag, a count; ``track``: a track at any value) or the field values
(``match``) that show it, so a client's legend can be read from it and a test can check that each one
really reaches the view. :func:`shown` finds a marker in a view (engine policy: a track is on the
table at any value, 0 included; any other marker while its flag is true or its count above 0).

Loaded strictly: a group of G-15's, a part of the view, and every field it names declared for that
part in ``game/data/contract.toml`` (a table that pointed at a field the view never carries would be
refused, not silently empty).

What it leaves out: the G-15 markers of rules the engine does not have yet: civilian casualties (no
civilians on the table); Hot Sector markers (G-35); Booby Trap chits and Cache markers as table pieces
(the vehicles' Stunned, Buttoned Up, Mobility Kill and Weapons Knockout are the view's
``stands[].vehicle``, wrecks, trip flares, river mines and beached boats are markers of their chapters); the collapsed tunnel; the Doom Clock and Threat
Level (the solo engine's own state, announced in its events). The blast templates (G-25) are the
``template`` events, drawn as they fall, not markers left on the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from game.rules.contract import contract
from game.tables import DATA_DIR, DataError, load_table, one_of

GROUPS = ("status", "casualties", "fog_of_war", "hidden_hazards", "fire_support", "templates", "terrain_state",
          "tracks")
"""G-15's groups, in its order."""
PARTS = ("view", "elements", "stands", "blinds", "markers", "clocks", "structures", "terrain_changes",
         "ambush_points", "sides")
"""The parts of a view a marker can be in; ``view``: a field of the view itself."""


@dataclass(frozen=True)
class Marker:
    """One G-15 marker and where the view shows it."""

    id: str
    name: str
    group: str = field(metadata=one_of(GROUPS))
    clause: str
    part: str = field(metadata=one_of(PARTS))
    flag: str = ""
    """The field of a record of ``part`` (of the view, for ``view``) whose value shows the marker: a
    flag that is true, a count above 0, a record or geometry that is there."""
    track: bool = False
    """A track (G-15 "Tracks": the CP pool, the VP track...): always on the table while its record
    has the ``flag`` field, whose value is where the track stands (0 included)."""
    match: dict[str, str | bool] = field(default_factory=dict)
    """The values a record of ``part`` has when it is this marker (``{"kind": "smoke"}``)."""


def _declared(part: str) -> tuple[str, ...] | None:
    """The fields the contract declares for a part's records (None: the contract lists none for it)."""
    views = contract().views
    if part == "view":
        return views["view"]
    return views.get(part)


def load_markers(directory: Path = DATA_DIR) -> dict[str, Marker]:
    """Load ``markers.toml`` strictly: each marker names a field or a match, and only fields that the
    contract declares for its part (a part the view has; DESIGN §4)."""
    rows = load_table("markers.toml", "marker", Marker, directory)
    top = contract().views["view"]
    for i, m in enumerate(rows.values()):
        record = f"marker[{i}] '{m.id}'"
        if not m.flag and not m.match:
            raise DataError("markers.toml", record, "a marker needs a 'flag' or a 'match'")
        if m.track and not m.flag:
            raise DataError("markers.toml", record, "a track needs the 'flag' field it stands at")
        if m.part != "view" and m.part not in top:
            raise DataError("markers.toml", record, f"part '{m.part}' is not a field of the view")
        declared = _declared(m.part)
        for name in ([m.flag] if m.flag else []) + sorted(m.match):
            if declared is not None and name not in declared:
                raise DataError("markers.toml", record, f"field '{name}' is not declared for '{m.part}' in "
                                                        "contract.toml [views]")
    return rows


@cache
def markers() -> dict[str, Marker]:
    """The shipped list, loaded once per process."""
    return load_markers()


def _records(view: dict, part: str) -> list[dict]:
    if part == "view":
        return [view]
    value = view.get(part)
    if isinstance(value, dict):  # sides and structures are keyed by id
        return [v for v in value.values() if isinstance(v, dict)]
    return [v for v in value or [] if isinstance(v, dict)]


def _shows(record: dict, marker: Marker) -> bool:
    if not marker.flag:
        return True
    if marker.track:
        return marker.flag in record
    return bool(record.get(marker.flag))


def shown(view: dict, marker: Marker) -> list[dict]:
    """The records of ``view`` that show ``marker``: those of its part whose ``match`` fields agree and
    whose ``flag`` field (when it names one) shows it."""
    return [r for r in _records(view, marker.part)
            if all(k in r and r[k] == v for k, v in marker.match.items())
            and _shows(r, marker)]
