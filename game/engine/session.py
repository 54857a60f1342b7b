"""The engine: games held in one process, answering the protocol's methods (DESIGN §4).

``Engine`` is the in-process implementation of every JSON-RPC method; ``game.engine.protocol``
turns lines into calls on it, and ``game.engine.client.InProcessEngine`` calls it directly with the
same interface as the subprocess client. Each method validates its params and raises ``RpcError``
with a JSON-RPC code; no bad message changes a game: actions are checked before anything is paid,
and an unexpected fault inside a resolution puts the game back as it was before the call.

Every call comes in on a :class:`~game.engine.access.Connection` and reads and acts only as the tokens
it holds allow (``game.engine.access``); no path comes from the wire (``game.engine.store``); games,
connections and memory are bounded (:class:`Limits`), and games nobody uses expire.
"""

from __future__ import annotations

import copy
import pickle
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game import __version__, rulesets
from game.engine import access, saves, wire
from game.engine.access import Connection, Grant
from game.engine.store import SaveSlots, ScenarioFolders, StoreError, slot_name
from game.rules import changes
from game.rules.errors import IllegalAction
from game.rulesets.base import ParamError, Ruleset, ScenarioError

PROTOCOL_VERSION = 1

# JSON-RPC error codes (DESIGN §4) and the engine's own.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
ILLEGAL_ACTION = 1
BAD_SCENARIO = 2
BAD_SAVE = 3
UNKNOWN_GAME = 4
NOT_AVAILABLE = 5
FORBIDDEN = 6
LIMIT = 7


class RpcError(Exception):
    def __init__(self, code: int, message: str, data: Any = None):
        self.code = code
        self.message = message
        self.data = data
        super().__init__(message)


def bad_param(field: str, message: str) -> RpcError:
    """-32602 naming the field, in the message and in ``data.field``."""
    return RpcError(INVALID_PARAMS, message, {"field": field})


@dataclass
class Limits:
    """What one engine holds at most (docs/protocol.md, "Limits")."""

    games: int = 256
    games_per_connection: int = 16
    """For a network connection; the local connection may hold ``games``."""
    idle_seconds: float = 24 * 3600
    """A game nobody has called for this long is closed."""
    orphan_seconds: float = 30 * 60
    """A game of the network that no open connection holds is closed after this long."""
    max_rss_mb: float = 3072
    """No new game while the process is this big."""


@dataclass
class Session:
    """One game with its players, its co-op teams and its action log (for saves)."""

    id: str
    game: Any
    players: dict[str, str]
    referee: bool
    log: list[dict] = field(default_factory=list)
    snapshots: list[dict] = field(default_factory=list)
    glb: str | None = None
    teams: dict[str, Any] = field(default_factory=dict)
    """The co-op sides and their seats (DD-10.16); a co-op side is a "human" player in ``players``."""
    keys: access.Keys = field(default_factory=access.Keys)
    """The game's tokens and what each grants."""
    network: bool = False
    """Created by a network connection (it expires when no open connection holds it)."""
    ruleset: Ruleset = field(default_factory=lambda: rulesets.get(rulesets.DEFAULT))
    """The rules the game is played by (``game.rulesets``): everything the protocol asks of them."""


def _param(params: dict, name: str, kind: type | tuple, required: bool = True, default: Any = None) -> Any:
    if name not in params:
        if required:
            raise bad_param(name, f"missing param '{name}'")
        return default
    value = params[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, (int, float))):
        want = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise bad_param(name, f"param '{name}' should be {want}, got {type(value).__name__}")
    if isinstance(value, str) and len(value) > 200:
        raise bad_param(name, f"param '{name}' is longer than 200 characters")
    return value


def _param_error(exc: ParamError) -> RpcError:
    """A ruleset's refusal of a parameter, as the protocol's -32602 naming the field."""
    return bad_param(exc.field, exc.message)


def _rss_mb() -> float:
    try:
        with open("/proc/self/statm") as fh:
            import os

            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def _snapshot(state: Any) -> Callable[[], Any]:
    """A copy of the state as it is now, to put back after a fault: pickled (a fraction of what a deep
    copy costs; a state that will not pickle is deep-copied), and read back only when asked for."""
    try:
        data = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        copied = copy.deepcopy(state)
        return lambda: copied
    return lambda: pickle.loads(data)


class _Rollback:
    """How a game's state is put back after a fault in a resolution. A tracked state
    (``game.rules.changes``) is journaled: each object the action writes keeps what it held before,
    so only what it touched is copied; any other state is pickled whole (:func:`_snapshot`)."""

    def __init__(self, state: Any):
        self.state = state
        self.journal = changes.open_journal() if isinstance(state, changes.Tracked) else None
        self.copy = _snapshot(state) if self.journal is None else None

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()

    def restore(self) -> Any:
        """The state as it was (the same object, written back, where it was journaled)."""
        if self.journal is not None:
            self.journal.undo()
            return self.state
        assert self.copy is not None
        return self.copy()


class Engine:
    """Every protocol method, in process."""

    def __init__(self, save_dir: str | Path | None = None, scenario_dirs: list[str | Path] | None = None,
                 limits: Limits | None = None) -> None:
        self.sessions: dict[str, Session] = {}
        self._next = 1
        self.slots = SaveSlots(save_dir)
        self.scenarios = ScenarioFolders(scenario_dirs)
        self.limits = limits or Limits()
        self.local = Connection(local=True)
        """The player's own pipe: every call that names no connection (stdio, in process)."""
        self.connections: list[Connection] = [self.local]
        self._swept = time.monotonic()
        self.methods = {
            "engine.hello": self.hello,
            "game.new": self.game_new,
            "game.list": self.game_list,
            "game.view": self.game_view,
            "game.actions": self.game_actions,
            "game.act": self.game_act,
            "game.step": self.game_step,
            "game.preview": self.game_preview,
            "game.events": self.game_events,
            "game.save": self.game_save,
            "game.load": self.game_load,
            "game.close": self.game_close,
            "los.check": self.los_check,
            "scenario.validate": self.scenario_validate,
        }

    def connect(self) -> Connection:
        """A new network connection: it holds nothing until it creates a game or presents a token."""
        conn = Connection(local=False)
        self.connections.append(conn)
        return conn

    def disconnect(self, conn: Connection) -> None:
        conn.open = False
        self.connections = [c for c in self.connections if c is not conn]

    def call(self, method: str, params: Any = None, conn: Connection | None = None) -> Any:
        conn = conn or self.local
        if not isinstance(method, str) or method not in self.methods:
            raise RpcError(METHOD_NOT_FOUND, f"unknown method {str(method)[:60]!r}", {"methods": sorted(self.methods)})
        if params is None:
            params = {}
        if not isinstance(params, dict):
            raise RpcError(INVALID_PARAMS, "params must be an object", {"field": "params"})
        self.sweep()
        return self.methods[method](params, conn)

    # -- housekeeping ------------------------------------------------------------------------------
    def sweep(self, now: float | None = None) -> list[str]:
        """Close the games nobody uses: idle past ``idle_seconds``, or of the network and held by no
        open connection for ``orphan_seconds``. Returns the ids closed."""
        now = time.monotonic() if now is None else now
        if now - self._swept < 10 and now >= self._swept:
            return []
        self._swept = now
        closed = []
        for gid, s in list(self.sessions.items()):
            idle = now - s.keys.last_used
            held = any(c.holds(gid) for c in self.connections if c.open)
            if idle > self.limits.idle_seconds or (s.network and not held and idle > self.limits.orphan_seconds):
                self._drop(gid)
                closed.append(gid)
        return closed

    def _drop(self, gid: str) -> None:
        self.sessions.pop(gid, None)
        for c in self.connections:
            c.held.pop(gid, None)
            c.hosted.discard(gid)

    def _room(self, conn: Connection) -> None:
        """May this connection start one more game (LIMIT otherwise, saying which limit)?"""
        self.sweep()
        if len(self.sessions) >= self.limits.games:
            raise RpcError(LIMIT, f"the engine holds {len(self.sessions)} games, its limit: close one first",
                           {"limit": "games", "max": self.limits.games})
        mine = sum(1 for gid in conn.hosted if gid in self.sessions)
        cap = self.limits.games if conn.local else self.limits.games_per_connection
        if mine >= cap:
            raise RpcError(LIMIT, f"this connection holds {mine} games, its limit: close one first",
                           {"limit": "games_per_connection", "max": cap})
        rss = _rss_mb()
        if rss > self.limits.max_rss_mb:
            raise RpcError(LIMIT, f"the engine uses {rss:.0f} MB, over its {self.limits.max_rss_mb:.0f} MB: "
                                  f"close games first", {"limit": "memory", "max": self.limits.max_rss_mb})

    # -- helpers ---------------------------------------------------------------------------------
    def _session(self, params: dict, conn: Connection) -> Session:
        """The game named by ``game``, if this connection holds it (a ``token`` param adds its grant);
        a game it holds nothing of is answered as no game at all."""
        gid = _param(params, "game", str)
        s = self.sessions.get(gid)
        token = params.get("token")
        if token is not None:
            if not isinstance(token, str) or len(token) > 200:
                raise bad_param("token", "param 'token' should be a string")
            grant = s.keys.grant_of(token) if s is not None else None
            if grant is None:
                raise RpcError(FORBIDDEN, "param 'token': not a token of that game", {"field": "token"})
            conn.held.setdefault(gid, set()).add(grant)
        if s is None or not conn.holds(gid):
            raise RpcError(UNKNOWN_GAME, f"no game '{gid}'",
                           {"games": sorted(g for g in self.sessions if conn.holds(g))})
        s.keys.last_used = time.monotonic()
        return s

    def _side(self, params: dict, s: Session, conn: Connection, allow_referee: bool = True) -> str:
        """The ``side`` param, a side this connection may read."""
        side = _param(params, "side", str)
        if side == "referee":
            if not (allow_referee and s.referee):
                raise bad_param("side", "the referee view exists only for games created with referee: true")
        elif side not in s.ruleset.sides:
            raise bad_param("side", f"unknown side '{side}' (sides: {', '.join(s.ruleset.sides)})")
        if not access.may_read(conn.grants(s.id), side):
            raise RpcError(FORBIDDEN, f"this connection holds no token for the {side} side of {s.id}",
                           {"field": "side"})
        return side

    def _seat(self, params: dict, s: Session, side: str, required: bool) -> str | None:
        """The ``seat`` param: required to act for a co-op side (DD-10.16), refused for any other side."""
        seat = _param(params, "seat", str) if params.get("seat") is not None else None  # null: no seat
        team = s.teams.get(side)
        if team is None:
            if seat is not None:
                raise bad_param("seat", f"param 'seat': the {side} side is not played in co-op")
            return None
        if seat is None:
            if required:
                raise bad_param("seat", f"param 'seat' is required: the {side} side is played in co-op "
                                        f"by {', '.join(s.ruleset.team_names(team))} (DD-10.16)")
            return None
        if not s.ruleset.has_seat(team, seat):
            raise bad_param("seat", f"param 'seat': no seat {seat!r} on the {side} side "
                                    f"(seats: {', '.join(s.ruleset.team_names(team))})")
        return seat

    def _may_save(self, s: Session, conn: Connection) -> bool:
        """A save holds the whole hidden state: the referee's, or a local player's own game's."""
        return any(g.referee for g in conn.grants(s.id)) or (conn.local and s.id in conn.hosted)

    def _view(self, s: Session, side: str) -> dict:
        v = s.game.view(side)
        v["game"] = s.id
        v["players"] = dict(s.players)
        teams = [t for t in s.teams.values() if side in (t.side, "referee")]
        if teams:  # a co-op side's seats, to that side and the referee only (DESIGN §6)
            v["seats"] = [seat for t in teams for seat in s.ruleset.seats(t, s.game)]
        glb = self._glb(s)
        if glb:
            v["scenario"]["glb"] = glb
        return v

    def _glb(self, s: Session) -> str | None:
        """The baked table (.glb) for the 3D client: baked on first use, cached by content hash."""
        if s.glb is None:
            try:
                s.glb = s.ruleset.table_file(s.game) or ""
            except Exception as exc:  # the table still plays without its 3D file
                print(f"dinkydau engine: cannot bake the table: {type(exc).__name__}: {exc}", file=sys.stderr)
                s.glb = ""
        return s.glb or None

    def _guarded_act(self, s: Session, side: str, action: Any, by_ai: bool = False,
                     seat: str | None = None) -> list[dict]:
        """Act (or let the AI act); a refusal changes nothing; an unexpected fault restores the state."""
        before = _Rollback(s.game.state)
        n_events = len(s.game.events)
        try:
            if by_ai:
                action, events, ai_stream = s.ruleset.ai_step(s.game, side)
            else:
                if side in s.teams:
                    s.ruleset.check_seat(s.teams[side], s.game, side, seat, action)
                events = s.game.act(side, action)
        except IllegalAction as exc:
            raise RpcError(ILLEGAL_ACTION, exc.reason, {"reason": exc.reason, "clause": exc.clause}) from exc
        except Exception as exc:
            s.game.put_back(before.restore())
            del s.game.events[n_events:]
            raise RpcError(INTERNAL_ERROR, f"internal error while resolving the action; the game is unchanged: "
                                           f"{type(exc).__name__}: {exc}") from exc
        finally:
            before.close()
        s.log.append(saves.log_entry(side, action, by_ai, seat, ai_stream if by_ai else None))
        if len(s.log) % saves.SNAPSHOT_EVERY == 0:
            s.snapshots.append({"after": len(s.log), "hash": s.game.hash()})
        return events

    def _open(self, s: Session, conn: Connection) -> dict:
        """Register a new game for its creator: its tokens, all held by the creating connection."""
        seats = {side: s.ruleset.team_names(t) for side, t in s.teams.items()}
        tokens = access.issue_all(s.keys, s.players, seats, s.referee)
        s.network = not conn.local
        self.sessions[s.id] = s
        access.grant_all(conn, s.id, s.keys)
        return tokens

    def _new_id(self) -> str:
        gid = f"g{self._next}"
        self._next += 1
        return gid

    def _first_view(self, s: Session, conn: Connection, side: Any) -> str:
        grants = conn.grants(s.id)
        sides = s.ruleset.sides
        if isinstance(side, str) and (side in sides or side == "referee") and access.may_read(grants, side):
            return side
        if s.referee:
            return "referee"
        return next((x for x in sides if access.may_read(grants, x)), sides[0])

    # -- methods ---------------------------------------------------------------------------------
    def hello(self, params: dict, conn: Connection) -> dict:
        scen = []
        by_ruleset: dict[str, list[str]] = {rs.id: [] for rs in rulesets.all_rulesets()}
        for sid in self.scenarios.ids():
            row = self._scenario_row(sid)
            if row is None:
                continue
            scen.append(row)
            by_ruleset[row["ruleset"]].append(sid)
        return {"name": "Dinky Dau 3D engine", "version": __version__, "protocol": PROTOCOL_VERSION,
                "rulesets": [{"id": rs.id, "title": rs.title, "sides": list(rs.sides), "scenarios": by_ruleset[rs.id],
                              **rs.takes()} for rs in rulesets.all_rulesets()],
                "scenarios": scen, "methods": sorted(self.methods),
                "limits": {"line_bytes": wire.MAX_LINE, "batch": wire.MAX_BATCH, "depth": wire.MAX_DEPTH,
                           "number_chars": wire.MAX_DIGITS, "games": self.limits.games,
                           "games_per_connection": self.limits.games_per_connection}}

    def _scenario_row(self, sid: str) -> dict | None:
        """A scenario folder's file as ``engine.hello`` lists it (None: it does not build), kept while the file
        is unchanged (its path, size and modification time): building every scenario took most of a hello."""
        path = self.scenarios.find(sid)
        try:
            st = path.stat() if path is not None else None
        except OSError:
            st = None
        key = (sid, str(path), st.st_size, st.st_mtime_ns) if st is not None else None
        rows = self.__dict__.setdefault("_hello_rows", {})
        if key is not None and key in rows:
            return copy.deepcopy(rows[key])
        try:
            sc = self.scenarios.resolve(sid)
        except ScenarioError:
            row = None
        else:
            rs = rulesets.of_scenario(sc)
            row = {**rs.describe(sc), "id": sid, "ruleset": rs.id}
        if key is not None:
            for stale in [k for k in rows if k[0] == sid]:  # one row a scenario: the file as it is now
                del rows[stale]
            rows[key] = copy.deepcopy(row)
        return row

    def game_new(self, params: dict, conn: Connection) -> dict:
        ref = params.get("scenario")
        if ref is None:
            raise bad_param("scenario", "missing param 'scenario'")
        if not isinstance(ref, (str, dict)):
            raise bad_param("scenario", f"param 'scenario' should be a scenario id or an inline scenario object, "
                                        f"got {type(ref).__name__}")
        _param(params, "side", str, required=False)  # checked before a game is made, like every param
        if "seed" in params:
            seed = _param(params, "seed", int)
            if not 0 <= seed < 2**63:
                raise bad_param("seed", f"param 'seed' must be a whole number 0 to 2^63-1, got {seed}")
        else:
            seed = secrets.randbits(62)  # never a guessable default: a same-seed twin would see the fog
        players = _param(params, "players", dict, required=False, default=None)
        referee = _param(params, "referee", bool, required=False, default=False)
        self._room(conn)
        try:
            scenario = self.scenarios.resolve(ref)
        except ScenarioError as exc:
            raise RpcError(BAD_SCENARIO, "invalid scenario", {"problems": [str(p) for p in exc.problems]}) from exc
        rs = rulesets.of_scenario(scenario)
        players = dict(rs.default_players) if players is None else players
        for side, who in players.items():
            if side not in rs.sides or not (who in ("human", "ai") or isinstance(who, dict)):
                raise bad_param(f"players.{str(side)[:40]}",
                                f"players: '{str(side)[:40]}' -> {str(who)[:40]!r}: sides are {'/'.join(rs.sides)}, "
                                f"players human/ai or a co-op team {{\"seats\": [...]}}")
        try:
            options = rs.options(params)
        except ParamError as exc:
            raise _param_error(exc) from exc
        teams = {}
        for side, who in players.items():
            if isinstance(who, dict):
                try:
                    teams[side] = rs.assign_team(side, scenario, who)
                except ParamError as exc:
                    where = ".".join(x for x in ("players", side, exc.field) if x)
                    raise bad_param(where, f"{where}: {exc.message}") from exc
        players = {side: "human" if side in teams else players.get(side, "human") for side in rs.sides}
        try:
            rs.check_players(scenario, players)
        except ParamError as exc:
            raise _param_error(exc) from exc
        game = rs.new_game(scenario, seed, options, players)
        s = Session(self._new_id(), game, players, referee, teams=teams, ruleset=rs)
        s.snapshots.append({"after": 0, "hash": game.hash()})
        tokens = self._open(s, conn)
        viewer = self._first_view(s, conn, params.get("side"))
        return {"game": s.id, "tokens": tokens, **({"seed": seed} if referee else {}),
                "view": self._view(s, viewer), "events": game.events_for(viewer, game.events)}

    def game_list(self, params: dict, conn: Connection) -> dict:
        """The games this connection holds, and what it holds of each."""
        out = []
        for gid, s in self.sessions.items():
            if conn.holds(gid):
                out.append({"game": gid, "scenario": s.game.scenario.id, "turn": s.game.state.turn,
                            "over": s.game.state.over, "host": gid in conn.hosted,
                            "grants": sorted((g.describe() for g in conn.grants(gid)),
                                             key=lambda d: (d["side"], d.get("seat") or ""))})
        return {"games": out}

    def game_view(self, params: dict, conn: Connection) -> dict:
        s = self._session(params, conn)
        return self._view(s, self._side(params, s, conn))

    def game_actions(self, params: dict, conn: Connection) -> dict:
        """The legal actions; for a co-op side each names the seat that commands it (null: any seat, the
        team chooses), and ``seat`` keeps only what that seat may send (DD-10.16)."""
        s = self._session(params, conn)
        side = self._side(params, s, conn, allow_referee=False)
        seat = self._seat(params, s, side, required=False)
        previewable = s.ruleset.previewable()
        # each offer (read-only, game.rules.offers) copied with whether game.preview answers it: the client
        # asks for odds only then (a DD offer from under a Blind is not: its stands are not on the table yet)
        actions = [{**a, "preview": a["type"] in previewable and not a.get("from_blind")}
                   for a in s.game.legal_actions(side)]
        if side in s.teams:
            for a in actions:
                a["seat"] = s.ruleset.acting_seat(s.teams[side], s.game, a)
            if seat is not None:
                actions = [a for a in actions if a["seat"] in (None, seat)]
        return {"side": side, "to_act": s.game.state.to_act, "actions": actions,
                **({"seat": seat} if seat is not None else {})}

    def game_act(self, params: dict, conn: Connection) -> dict:
        s = self._session(params, conn)
        side = self._side(params, s, conn, allow_referee=False)
        if "action" not in params:
            raise bad_param("action", "missing param 'action'")
        seat = self._seat(params, s, side, required=True)
        if s.players[side] == "ai":
            raise RpcError(FORBIDDEN, f"the {side} side is played by the AI: game.step lets it act",
                           {"field": "side"})
        if not access.may_act(conn.grants(s.id), side, seat):
            raise RpcError(FORBIDDEN, f"this connection holds no token to act for the {side} side"
                                      + (f" as {seat}" if seat else ""), {"field": "seat" if seat else "side"})
        action = self._action(params, s)
        events = self._guarded_act(s, side, action, seat=seat)
        return {"events": s.game.events_for(side, events), "view": self._view(s, side)}

    @staticmethod
    def _action(params: dict, s: Session | None = None) -> dict:
        try:
            return wire.clean_action(params["action"], fields=s.ruleset.action_fields() if s else None)
        except wire.WireError as exc:
            raise RpcError(exc.code, exc.message, exc.data) from exc

    def game_step(self, params: dict, conn: Connection) -> dict:
        """Let an AI side take its next action (DESIGN §4)."""
        s = self._session(params, conn)
        viewer = params.get("side", "all")
        if viewer != "all":
            viewer = self._side(params, s, conn)
        g = s.game
        events: list[dict] = []
        autopilot = _param(params, "autopilot", bool, required=False, default=False)
        if autopilot and not g.state.over and g.state.to_act and s.players[g.state.to_act] == "human":
            # the computer takes one turn for a human side, at the request of a connection that may act
            # for it (a walk-up who steps away, a film that scripts only some moves); the log records the
            # AI's action as for any AI side, so a save replays it without running AI code
            side = g.state.to_act
            if side in s.teams:
                raise bad_param("autopilot", f"param 'autopilot': the {side} side is played in co-op (DD-10.16)")
            if not access.may_act(conn.grants(s.id), side, None):
                raise RpcError(FORBIDDEN, f"this connection holds no token to act for the {side} side",
                               {"field": "autopilot"})
            events = self._guarded_act(s, side, None, by_ai=True)
        elif not g.state.over and g.state.to_act and s.players[g.state.to_act] == "ai":
            side = g.state.to_act
            events = self._guarded_act(s, side, None, by_ai=True)
        to_act = g.state.to_act
        return {
            "events": g.events_for(viewer, events),
            "view": self._view(s, viewer) if viewer != "all" else None,
            "to_act": to_act,
            "waiting_for": None if g.state.over else to_act,
            "ai_to_act": bool(to_act and s.players[to_act] == "ai" and not g.state.over),
            "over": g.state.over,
        }

    def game_preview(self, params: dict, conn: Connection) -> dict:
        s = self._session(params, conn)
        side = self._side(params, s, conn, allow_referee=False)
        _param(params, "action", dict)
        action = self._action(params, s)
        try:
            return s.ruleset.preview(s.game, side, action)
        except LookupError as exc:
            raise RpcError(NOT_AVAILABLE, str(exc)) from exc
        except IllegalAction as exc:
            raise RpcError(ILLEGAL_ACTION, exc.reason, {"reason": exc.reason, "clause": exc.clause}) from exc

    def game_events(self, params: dict, conn: Connection) -> dict:
        """The events a side may see, from sequence number ``since`` (exclusive)."""
        s = self._session(params, conn)
        side = self._side(params, s, conn)
        since = _param(params, "since", int, required=False, default=0)
        return {"events": s.game.events_for(side, s.game.events, since=since)}  # the side's own numbers

    def game_save(self, params: dict, conn: Connection) -> dict:
        s = self._session(params, conn)
        if "path" in params:
            raise bad_param("path", "param 'path': the engine writes no paths from the wire; name a 'slot'")
        if not self._may_save(s, conn):
            raise RpcError(FORBIDDEN, "a save holds the whole hidden state: only the referee's token may take it "
                                      "(DD fog of war, DESIGN §6)", {"field": "token"})
        doc = saves.make_save(s.game, s.log, s.snapshots, s.players, s.referee, s.teams, s.ruleset)
        if params.get("slot") is not None:
            try:
                self.slots.write(params["slot"], doc)
            except StoreError as exc:
                raise bad_param("slot", str(exc)) from exc
            except OSError as exc:
                raise RpcError(NOT_AVAILABLE, f"cannot write save slot {params['slot']!r}: {exc.strerror}") from exc
            return {"slot": params["slot"], "hash": doc["hash"]}
        return {"save": doc}

    def game_load(self, params: dict, conn: Connection) -> dict:
        if "path" in params:
            raise bad_param("path", "param 'path': the engine reads no paths from the wire; name a 'slot' "
                                    "or send the save document as 'save'")
        _param(params, "side", str, required=False)
        if params.get("slot") is not None:
            try:
                slot_name(params["slot"])
            except StoreError as exc:  # a bad name is a bad param, as for game.save; a missing save is 3
                raise bad_param("slot", str(exc)) from exc
            if not conn.local:  # a slot holds a whole game, hidden state and all (DESIGN §6)
                raise RpcError(FORBIDDEN, "param 'slot': save slots are the engine host's own files; over the "
                                          "network send the save document as 'save'", {"field": "slot"})
            try:
                doc = self.slots.read(params["slot"])
            except StoreError as exc:
                raise RpcError(BAD_SAVE, str(exc), {"field": "slot"}) from exc
        else:
            doc = _param(params, "save", dict)
        self._room(conn)
        try:
            loaded = saves.load(doc)
        except saves.SaveError as exc:
            raise RpcError(BAD_SAVE, str(exc)) from exc
        s = Session(self._new_id(), loaded.game, loaded.players, loaded.referee, loaded.log,
                    loaded.snapshots, teams=loaded.teams, ruleset=loaded.ruleset)
        tokens = self._open(s, conn)
        viewer = self._first_view(s, conn, params.get("side"))
        return {"game": s.id, "hash": s.game.hash(), "tokens": tokens, "view": self._view(s, viewer)}

    def game_close(self, params: dict, conn: Connection) -> dict:
        s = self._session(params, conn)
        if s.id not in conn.hosted and not any(g.referee for g in conn.grants(s.id)):
            raise RpcError(FORBIDDEN, f"only the connection that created {s.id}, or its referee, closes it")
        self._drop(s.id)
        return {"closed": s.id}

    def los_check(self, params: dict, conn: Connection) -> dict:
        s = self._session(params, conn)
        side = self._side(params, s, conn)

        def point(name: str):
            ref = params.get(name)
            if isinstance(ref, list) and len(ref) in (2, 3):
                try:
                    return tuple(float(wire.finite(v, f"{name}[{i}]")) for i, v in enumerate(ref))
                except wire.WireError as exc:
                    raise RpcError(exc.code, exc.message, exc.data) from exc
            if isinstance(ref, str):
                return ref
            raise bad_param(name, f"param '{name}' should be a stand id or a point [x, y]")

        a, b = point("from"), point("to")
        try:
            return s.ruleset.line_of_sight(s.game, side, a, b)
        except ParamError as exc:
            raise _param_error(exc) from exc
        except LookupError as exc:
            raise RpcError(NOT_AVAILABLE, str(exc)) from exc

    def scenario_validate(self, params: dict, conn: Connection) -> dict:
        ref = params.get("scenario")
        try:
            sc = self.scenarios.resolve(ref)
        except ScenarioError as exc:
            return {"valid": False, "problems": [str(p) for p in exc.problems]}
        return {"valid": True, "id": sc.id, "title": sc.title}


__all__ = ["Engine", "RpcError", "Limits", "Grant", "Connection"]
