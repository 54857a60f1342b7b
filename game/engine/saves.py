"""Saves: a game as scenario + seed + action log, with state hashes to check the replay (DESIGN §5).

A save document is JSON:

    {"format": "dinkydau-save", "version": 3, "ruleset": "dinky_dau",   (the ruleset replays it: game.rulesets)
     "scenario": {...the scenario object...}, "seed": 7, "players": {...}, "referee": false,
     "seats": {"allied": [{"name": "Ames", "commands": ["hq", "wpn"]}, ...]},   (co-op sides only)
     "actions": [{"side": "allied", "action": {...}, "seat": "Ames"},
                 {"side": "insurgent", "action": {...}, "by": "ai", "ai_stream": 1234...}, ...],
     "snapshots": [{"after": 0, "hash": "..."}, {"after": 10, "hash": "..."}, ...],
     "hash": "<state hash after the last action>", "state": {...the final state...},
     "integrity": "<sha256 of every other field>"}

Loading replays the actions from the scenario and seed and checks every snapshot hash on the way; a
co-op side's actions are replayed with their seat, which must still command what it acted with
(DD-10.16). A save without ``seats`` (one player per side, or made before co-op) loads as before;
a mismatch, a truncated file or an edited action is an error that says where, never silence.
``integrity`` covers every field, the metadata (``players``, ``referee``, ``seats``, ``threat``)
included, which the replay alone cannot check. The computer's moves are logged with the ``ai`` dice
stream as its choice left it and replayed as logged, with no AI code run (DESIGN §5), so a save
outlives any change to the computer players. A version 1 save (which re-ran the AI) is refused,
with a message saying so. Saves
are written atomically: a temporary file in the same folder, flushed, then renamed over the target.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game import rulesets
from game.engine import wire
from game.engine.store import build_checked
from game.rules.errors import IllegalAction
from game.rulesets.base import ParamError, Ruleset, ScenarioError

FORMAT = "dinkydau-save"
VERSION = 3
READS = (3,)
OLD = {1: "a version 1 save replayed the computer's moves by running the AI again, and did not cover "
          "its metadata; this engine replays recorded moves only",
       2: "a version 2 save holds the state before each chapter kept its own typed state (CASEVAC, the "
          "Jungle Ghost, clocks and casualty tokens), so its snapshot hashes cannot be checked by this engine"}
SNAPSHOT_EVERY = 10


class SaveError(ValueError):
    """A save that cannot be loaded; the message says what and where."""


@dataclass
class Loaded:
    """A replayed save: the game, its log and snapshots, who plays each side, the co-op teams."""

    game: Any
    log: list[dict]
    snapshots: list[dict]
    players: dict[str, str]
    teams: dict[str, Any] = field(default_factory=dict)
    referee: bool = False
    ruleset: Ruleset = field(default_factory=lambda: rulesets.get(rulesets.DEFAULT))


def log_entry(side: str, action: Any, by_ai: bool = False, seat: str | None = None,
              ai_stream: int | None = None) -> dict:
    """One line of the action log: the side, the action, the co-op seat; for the AI's, ``by: ai`` and
    the ``ai`` dice stream once it had chosen (an AI that no longer had the move logs action null)."""
    return {"side": side, "action": action, **({"by": "ai", "ai_stream": ai_stream} if by_ai else {}),
            **({"seat": seat} if seat is not None else {})}


def _replay_ai(rs: Ruleset, game: Any, entry: dict, where: str) -> dict | None:
    """An AI's logged action, replayed as it happened (the ruleset's ``ai_replay``: its own steps before
    a computer side acts, the computer's dice stream as the choice left it, then the action; DESIGN §5)."""
    stream = entry.get("ai_stream")
    if not isinstance(stream, int) or isinstance(stream, bool) or not 0 <= stream < 2**64:
        raise SaveError(f"{where}.ai_stream: missing or not a 64-bit whole number")
    action = None
    if entry["action"] is not None:
        action = wire.clean_action(entry["action"], f"{where.rsplit(': ', 1)[-1]}.action", rs.action_fields())
    try:
        rs.ai_replay(game, entry["side"], action, stream)
    except ParamError as exc:
        raise SaveError(f"{where}: {exc.message}") from exc
    return action


def integrity(doc: dict) -> str:
    """The digest of every field of a save but ``integrity`` itself (canonical JSON, sorted keys)."""
    body = {k: v for k, v in doc.items() if k != "integrity"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def make_save(game: Any, log: list[dict], snapshots: list[dict], players: dict, referee: bool,
              teams: dict[str, Any] | None = None, ruleset: Ruleset | None = None) -> dict:
    rs = ruleset or rulesets.of_scenario(game.scenario)
    doc = {
        "format": FORMAT, "version": VERSION, "ruleset": rs.id,
        "scenario": game.scenario.raw, "seed": game.state.seed, **rs.save_options(game),
        "players": players, "referee": referee,
        **({"seats": {side: rs.team_spec(team) for side, team in teams.items()}} if teams else {}),
        "actions": log, "snapshots": snapshots, "hash": game.hash(), "state": game.snapshot(),
    }
    doc["integrity"] = integrity(doc)
    return doc


def _teams(rs: Ruleset, doc: dict, scenario: Any, players: dict, where: str) -> dict[str, Any]:
    """The co-op teams of a save (field ``seats``), validated as ``game.new`` validates them."""
    raw = doc.get("seats", {})
    if not isinstance(raw, dict):
        raise SaveError(f"{where}: field 'seats' must be an object {{side: [seats]}}")
    teams = {}
    for side, spec in raw.items():
        if side not in rs.sides:
            raise SaveError(f"{where}: field 'seats.{side}': no such side (sides: {', '.join(rs.sides)})")
        if players.get(side, "human") != "human":
            raise SaveError(f"{where}: field 'seats.{side}': a co-op side is played by humans, but "
                            f"'players.{side}' is {players.get(side)!r}")
        try:
            teams[side] = rs.assign_team(side, scenario, {"seats": spec})
        except ParamError as exc:
            path = f"seats.{side}" + exc.field.removeprefix("seats")
            raise SaveError(f"{where}: field '{path}': {exc.message}") from exc
    return teams


def replay(doc: Any, where: str = "save") -> tuple[Any, list[dict], list[dict]]:
    """Rebuild a game from a save document, checking hashes. Returns (game, log, snapshots)."""
    loaded = load(doc, where)
    return loaded.game, loaded.log, loaded.snapshots


def load(doc: Any, where: str = "save") -> Loaded:
    """Rebuild a game from a save document, checking hashes and co-op seats."""
    if not isinstance(doc, dict):
        raise SaveError(f"{where}: a save must be a JSON object")
    if doc.get("format") != FORMAT:
        raise SaveError(f"{where}: field 'format' must be '{FORMAT}', got {doc.get('format')!r}")
    if doc.get("version") in OLD and not isinstance(doc.get("version"), bool):
        raise SaveError(f"{where}: field 'version' {doc['version']}: {OLD[doc['version']]} (version {VERSION})")
    if doc.get("version") not in READS or isinstance(doc.get("version"), bool):
        raise SaveError(f"{where}: field 'version' {doc.get('version')!r} is not supported (this engine reads "
                        f"{', '.join(map(str, READS))})")
    for key, kind in (("scenario", dict), ("seed", int), ("actions", list), ("snapshots", list), ("hash", str)):
        if not isinstance(doc.get(key), kind) or (kind is int and isinstance(doc.get(key), bool)):
            raise SaveError(f"{where}: field '{key}' is missing or not a {kind.__name__}")
    rid = doc.get("ruleset", rulesets.DEFAULT)
    rs = rulesets.get(rid) if isinstance(rid, str) else None
    if rs is None:
        raise SaveError(f"{where}: field 'ruleset' {str(rid)[:40]!r} is not a ruleset of this engine "
                        f"(rulesets: {', '.join(r.id for r in rulesets.all_rulesets())})")
    try:
        scenario = build_checked(doc["scenario"], f"{where}: scenario")
    except ScenarioError as exc:
        raise SaveError(f"{where}: the saved scenario is invalid: {exc}") from exc
    if not rs.owns(scenario):
        raise SaveError(f"{where}: field 'ruleset' {rs.id!r}: the saved scenario is a "
                        f"{rulesets.of_scenario(scenario).id} scenario")
    try:
        options = rs.load_options(doc)
    except ParamError as exc:
        raise SaveError(f"{where}: {exc.message}") from exc
    players = doc.get("players") if isinstance(doc.get("players"), dict) else {}
    teams = _teams(rs, doc, scenario, players, where)
    game = rs.new_game(scenario, doc["seed"], options, {side: players.get(side, "human") for side in rs.sides})
    expected = {}
    for i, snap in enumerate(doc["snapshots"]):
        if not isinstance(snap, dict) or not isinstance(snap.get("after"), int) or not isinstance(snap.get("hash"), str):
            raise SaveError(f"{where}: snapshots[{i}] must be {{'after': int, 'hash': str}}")
        expected[snap["after"]] = snap["hash"]
    log: list[dict] = []
    snapshots: list[dict] = []

    def check(n: int) -> None:
        if n in expected and expected[n] != game.hash():
            raise SaveError(f"{where}: state hash mismatch after action {n}: the save was edited or made by "
                            f"different rules (expected {expected[n][:12]}…, replay gives {game.hash()[:12]}…)")

    check(0)
    snapshots.append({"after": 0, "hash": game.hash()})
    for i, entry in enumerate(doc["actions"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("side"), str) or "action" not in entry:
            raise SaveError(f"{where}: actions[{i}] must be {{'side': str, 'action': object}}")
        by_ai = entry.get("by") == "ai"
        seat = entry.get("seat")
        team = teams.get(entry["side"])
        if by_ai or team is None:
            if seat is not None:
                raise SaveError(f"{where}: actions[{i}].seat: the {entry['side']} side "
                                f"{'is the AI' if by_ai else 'is not played in co-op'}; no seat acts for it")
        elif not isinstance(seat, str) or not rs.has_seat(team, seat):
            raise SaveError(f"{where}: actions[{i}].seat: {seat!r} is not a seat of the {entry['side']} side "
                            f"(seats: {', '.join(rs.team_names(team))})")
        try:
            if by_ai:
                # What the AI chose is read, never chosen again: no AI code runs (DESIGN §5), so a save
                # outlives any change to the computer players.
                action = _replay_ai(rs, game, entry, f"{where}: actions[{i}]")
            else:
                # Typed as game.act types it (DESIGN §4): a save is as much from outside as the wire.
                action = wire.clean_action(entry["action"], f"actions[{i}].action", rs.action_fields())
                if team is not None:
                    rs.check_seat(team, game, entry["side"], seat, action)
                game.act(entry["side"], action)
        except wire.WireError as exc:
            raise SaveError(f"{where}: field {exc.message.removeprefix('param ')}") from exc
        except IllegalAction as exc:
            raise SaveError(f"{where}: actions[{i}] is refused on replay: {exc.reason} ({exc.clause})") from exc
        log.append(log_entry(entry["side"], action, by_ai, seat, entry.get("ai_stream") if by_ai else None))
        check(i + 1)
        if (i + 1) % SNAPSHOT_EVERY == 0:
            snapshots.append({"after": i + 1, "hash": game.hash()})
    if game.hash() != doc["hash"]:
        raise SaveError(f"{where}: final state hash mismatch (expected {doc['hash'][:12]}…, replay gives "
                        f"{game.hash()[:12]}…)")
    # Last, so that an edited action or seat is reported where it went wrong, by the replay.
    try:
        digest = integrity(doc)
    except (TypeError, ValueError) as exc:
        raise SaveError(f"{where}: not a save this engine wrote: {exc}") from exc
    if not isinstance(doc.get("integrity"), str) or doc["integrity"] != digest:
        raise SaveError(f"{where}: field 'integrity' does not match the document: the save was edited "
                        f"(every field is covered, 'players', 'referee' and 'seats' too)")
    session_players = players if isinstance(doc.get("players"), dict) else dict(rs.default_players)
    return Loaded(game, log, snapshots, {side: session_players.get(side, "human") for side in rs.sides}, teams,
                  doc.get("referee") is True, rs)


def write_save(path: str | Path, doc: dict) -> Path:
    """Write a save atomically: never a half-written file, never a lost old save."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, separators=(",", ":"), allow_nan=False)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def read_save(path: str | Path) -> dict:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SaveError(f"{path}: cannot read: {exc.strerror}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}") from exc
