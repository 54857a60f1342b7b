"""The engine: games held in one process, answering the protocol's methods (DESIGN §4).

``Engine`` is the in-process implementation of every JSON-RPC method; ``game.engine.protocol``
turns lines into calls on it, and ``game.engine.client.InProcessEngine`` calls it directly with the
same interface as the subprocess client. Each method validates its params and raises ``RpcError``
with a JSON-RPC code; no bad message changes a game: actions are checked before anything is paid,
and an unexpected fault inside a resolution puts the game back as it was before the call.
"""

from __future__ import annotations

import copy
import sys
from dataclasses import dataclass, field
from typing import Any

from game import __version__
from game.ai import players as ai_players
from game.engine import saves
from game.rules import coop
from game.rules.data import SIDES
from game.rules.errors import IllegalAction
from game.rules.game import RULESET, Game
from game.rules.scenario import ScenarioError, resolve_scenario, shipped_scenarios

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


class RpcError(Exception):
    def __init__(self, code: int, message: str, data: Any = None):
        self.code = code
        self.message = message
        self.data = data
        super().__init__(message)


@dataclass
class Session:
    """One game with its players, its co-op teams and its action log (for saves)."""

    id: str
    game: Game
    players: dict[str, str]
    referee: bool
    log: list[dict] = field(default_factory=list)
    snapshots: list[dict] = field(default_factory=list)
    glb: str | None = None
    teams: dict[str, coop.Team] = field(default_factory=dict)
    """The co-op sides and their seats (DD-10.16); a co-op side is a "human" player in ``players``."""


def _param(params: dict, name: str, kind: type | tuple, required: bool = True, default: Any = None) -> Any:
    if name not in params:
        if required:
            raise RpcError(INVALID_PARAMS, f"missing param '{name}'")
        return default
    value = params[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, (int, float))):
        want = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise RpcError(INVALID_PARAMS, f"param '{name}' should be {want}, got {type(value).__name__}")
    return value


class Engine:
    """Every protocol method, in process."""

    def __init__(self) -> None:
        self.sessions: dict[str, Session] = {}
        self._next = 1
        self.methods = {
            "engine.hello": self.hello,
            "game.new": self.game_new,
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

    def call(self, method: str, params: Any = None) -> Any:
        if not isinstance(method, str) or method not in self.methods:
            raise RpcError(METHOD_NOT_FOUND, f"unknown method {method!r}", {"methods": sorted(self.methods)})
        if params is None:
            params = {}
        if not isinstance(params, dict):
            raise RpcError(INVALID_PARAMS, "params must be an object")
        return self.methods[method](params)

    # -- helpers ---------------------------------------------------------------------------------
    def _session(self, params: dict) -> Session:
        gid = _param(params, "game", str)
        if gid not in self.sessions:
            raise RpcError(UNKNOWN_GAME, f"no game '{gid}'", {"games": sorted(self.sessions)})
        return self.sessions[gid]

    def _side(self, params: dict, s: Session, allow_referee: bool = True) -> str:
        side = _param(params, "side", str)
        if side == "referee":
            if not (allow_referee and s.referee):
                raise RpcError(INVALID_PARAMS, "the referee view exists only for games created with referee: true")
            return side
        if side not in SIDES:
            raise RpcError(INVALID_PARAMS, f"unknown side '{side}' (sides: {', '.join(SIDES)})")
        return side

    def _seat(self, params: dict, s: Session, side: str, required: bool) -> str | None:
        """The ``seat`` param: required to act for a co-op side (DD-10.16), refused for any other side."""
        seat = _param(params, "seat", str) if params.get("seat") is not None else None  # null: no seat
        team = s.teams.get(side)
        if team is None:
            if seat is not None:
                raise RpcError(INVALID_PARAMS, f"param 'seat': the {side} side is not played in co-op")
            return None
        if seat is None:
            if required:
                raise RpcError(INVALID_PARAMS, f"param 'seat' is required: the {side} side is played in co-op "
                                               f"by {', '.join(team.names())} (DD-10.16)")
            return None
        if team.seat(seat) is None:
            raise RpcError(INVALID_PARAMS, f"param 'seat': no seat {seat!r} on the {side} side "
                                           f"(seats: {', '.join(team.names())})")
        return seat

    def _view(self, s: Session, side: str) -> dict:
        v = s.game.view(side)
        v["game"] = s.id
        v["players"] = dict(s.players)
        teams = [t for t in s.teams.values() if side in (t.side, "referee")]
        if teams:  # a co-op side's seats, to that side and the referee only (DESIGN §6)
            v["seats"] = [seat for t in teams for seat in coop.describe(t, s.game)]
        glb = self._glb(s)
        if glb:
            v["scenario"]["glb"] = glb
        return v

    def _glb(self, s: Session) -> str | None:
        """The baked table (.glb) for the 3D client: baked on first use, cached by content hash."""
        if s.glb is None:
            try:
                from game.world.bake import baked_path

                s.glb = str(baked_path(s.game.scenario, s.game.book))
            except Exception as exc:  # the table still plays without its 3D file
                print(f"dinkydau engine: cannot bake the table: {type(exc).__name__}: {exc}", file=sys.stderr)
                s.glb = ""
        return s.glb or None

    def _guarded_act(self, s: Session, side: str, action: Any, by_ai: bool = False,
                     seat: str | None = None) -> list[dict]:
        """Act (or let the AI act); a refusal changes nothing; an unexpected fault restores the state."""
        before = copy.deepcopy(s.game.state)
        n_events = len(s.game.events)
        try:
            if by_ai:
                action, events = ai_players.take_turn(s.game, side)
            else:
                if side in s.teams:
                    coop.check(s.teams[side], s.game, side, seat, action)
                events = s.game.act(side, action)
        except IllegalAction as exc:
            raise RpcError(ILLEGAL_ACTION, exc.reason, {"reason": exc.reason, "clause": exc.clause}) from exc
        except Exception as exc:
            s.game.state = before
            s.game.dice.streams = before.rng
            del s.game.events[n_events:]
            raise RpcError(INTERNAL_ERROR, f"internal error while resolving the action; the game is unchanged: "
                                           f"{type(exc).__name__}: {exc}") from exc
        s.log.append(saves.log_entry(side, action, by_ai, seat))
        if len(s.log) % saves.SNAPSHOT_EVERY == 0:
            s.snapshots.append({"after": len(s.log), "hash": s.game.hash()})
        return events

    # -- methods ---------------------------------------------------------------------------------
    def hello(self, params: dict) -> dict:
        scen = []
        for sid, path in shipped_scenarios().items():
            try:
                sc = resolve_scenario(sid)
            except ScenarioError:
                continue
            scen.append({"id": sid, "title": sc.title, "briefing": sc.briefing, "source": sc.source,
                         "table": {"width": sc.width, "height": sc.height}, "turns": sc.turns, "path": str(path)})
        return {"name": "Dinky Dau 3D engine", "version": __version__, "protocol": PROTOCOL_VERSION,
                "rulesets": [RULESET], "scenarios": scen, "methods": sorted(self.methods)}

    def game_new(self, params: dict) -> dict:
        ref = params.get("scenario")
        if ref is None:
            raise RpcError(INVALID_PARAMS, "missing param 'scenario'")
        seed = _param(params, "seed", int, required=False, default=1)
        players = _param(params, "players", dict, required=False, default={"allied": "human", "insurgent": "ai"})
        for side, who in players.items():
            if side not in SIDES or not (who in ("human", "ai") or isinstance(who, dict)):
                raise RpcError(INVALID_PARAMS, f"players: '{side}' -> {who!r}: sides are allied/insurgent, "
                                               f"players human/ai or a co-op team {{\"seats\": [...]}}")
        referee = _param(params, "referee", bool, required=False, default=False)
        threat = _param(params, "threat", int, required=False, default=2)
        if threat not in (1, 2, 3):
            raise RpcError(INVALID_PARAMS, f"param 'threat' must be 1, 2 or 3 (DD-10.5), got {threat}")
        try:
            scenario = resolve_scenario(ref)
        except ScenarioError as exc:
            raise RpcError(BAD_SCENARIO, "invalid scenario", {"problems": [str(p) for p in exc.problems]}) from exc
        teams = {}
        for side, who in players.items():
            if isinstance(who, dict):
                try:
                    teams[side] = coop.assign(side, scenario.elements, who)
                except coop.CoopError as exc:
                    where = ".".join(x for x in ("players", side, exc.field) if x)
                    raise RpcError(INVALID_PARAMS, f"{where}: {exc.message}", {"field": where}) from exc
        players = {side: "human" if side in teams else players.get(side, "human") for side in SIDES}
        if scenario.solo_only and players["insurgent"] != "ai":
            raise RpcError(INVALID_PARAMS, f"players.insurgent: '{scenario.id}' is a solo table: its only Insurgent "
                                           f"force is the Jungle Ghost's Shadow Blinds (DD-10.3), so the Insurgent "
                                           f"side must be 'ai'", {"field": "players.insurgent"})
        game = ai_players.new_game(scenario, seed, threat, players)
        gid = f"g{self._next}"
        self._next += 1
        s = Session(gid, game, players, referee, teams=teams)
        s.snapshots.append({"after": 0, "hash": game.hash()})
        self.sessions[gid] = s
        side = params.get("side")
        viewer = side if side in SIDES or (side == "referee" and referee) else (
            "referee" if referee else next((x for x in SIDES if players[x] == "human"), "allied"))
        return {"game": gid, "view": self._view(s, viewer), "events": game.events_for(viewer, game.events)}

    def game_view(self, params: dict) -> dict:
        s = self._session(params)
        return self._view(s, self._side(params, s))

    def game_actions(self, params: dict) -> dict:
        """The legal actions; for a co-op side each names the seat that commands it (null: any seat, the
        team chooses), and ``seat`` keeps only what that seat may send (DD-10.16)."""
        s = self._session(params)
        side = self._side(params, s, allow_referee=False)
        seat = self._seat(params, s, side, required=False)
        actions = s.game.legal_actions(side)
        if side in s.teams:
            for a in actions:
                who = coop.acting(s.teams[side], s.game, a)
                a["seat"] = who[0].name if who else None
            if seat is not None:
                actions = [a for a in actions if a["seat"] in (None, seat)]
        return {"side": side, "to_act": s.game.state.to_act, "actions": actions,
                **({"seat": seat} if seat is not None else {})}

    def game_act(self, params: dict) -> dict:
        s = self._session(params)
        side = self._side(params, s, allow_referee=False)
        if "action" not in params:
            raise RpcError(INVALID_PARAMS, "missing param 'action'")
        seat = self._seat(params, s, side, required=True)
        events = self._guarded_act(s, side, params["action"], seat=seat)
        return {"events": s.game.events_for(side, events), "view": self._view(s, side)}

    def game_step(self, params: dict) -> dict:
        """Let an AI side take its next action (DESIGN §4)."""
        s = self._session(params)
        viewer = params.get("side", "all")
        if viewer not in (*SIDES, "all", "referee") or (viewer == "referee" and not s.referee):
            raise RpcError(INVALID_PARAMS, f"param 'side' {viewer!r} is not a side you may view")
        g = s.game
        events: list[dict] = []
        if not g.state.over and g.state.to_act and s.players[g.state.to_act] == "ai":
            side = g.state.to_act
            events = self._guarded_act(s, side, None, by_ai=True)
        to_act = g.state.to_act
        return {
            "events": g.events_for(viewer, events),
            "view": self._view(s, viewer if viewer in (*SIDES, "referee") else "allied") if viewer != "all" else None,
            "to_act": to_act,
            "waiting_for": None if g.state.over else to_act,
            "ai_to_act": bool(to_act and s.players[to_act] == "ai" and not g.state.over),
            "over": g.state.over,
        }

    def game_preview(self, params: dict) -> dict:
        s = self._session(params)
        side = self._side(params, s, allow_referee=False)
        action = _param(params, "action", dict)
        try:
            from game.rules import odds
        except ImportError as exc:
            raise RpcError(NOT_AVAILABLE, "odds previews are not available in this engine") from exc
        try:
            return odds.preview(s.game, side, action)
        except IllegalAction as exc:
            raise RpcError(ILLEGAL_ACTION, exc.reason, {"reason": exc.reason, "clause": exc.clause}) from exc

    def game_events(self, params: dict) -> dict:
        """The events a side may see, from sequence number ``since`` (exclusive)."""
        s = self._session(params)
        side = self._side(params, s)
        since = _param(params, "since", int, required=False, default=0)
        return {"events": s.game.events_for(side, [e for e in s.game.events if e["seq"] > since])}

    def game_save(self, params: dict) -> dict:
        s = self._session(params)
        doc = saves.make_save(s.game, s.log, s.snapshots, s.players, s.referee, s.teams)
        path = params.get("path")
        if path is not None:
            if not isinstance(path, str):
                raise RpcError(INVALID_PARAMS, "param 'path' should be a string")
            try:
                saves.write_save(path, doc)
            except OSError as exc:
                raise RpcError(INVALID_PARAMS, f"cannot write the save to {path}: {exc.strerror}") from exc
            return {"path": path, "hash": doc["hash"]}
        return {"save": doc}

    def game_load(self, params: dict) -> dict:
        if "path" in params:
            try:
                doc = saves.read_save(_param(params, "path", str))
            except saves.SaveError as exc:
                raise RpcError(BAD_SAVE, str(exc)) from exc
        else:
            doc = _param(params, "save", dict)
        try:
            loaded = saves.load(doc)
        except saves.SaveError as exc:
            raise RpcError(BAD_SAVE, str(exc)) from exc
        game = loaded.game
        gid = f"g{self._next}"
        self._next += 1
        s = Session(gid, game, loaded.players, bool(doc.get("referee")), loaded.log, loaded.snapshots,
                    teams=loaded.teams)
        self.sessions[gid] = s
        viewer = next((x for x in SIDES if s.players[x] == "human"), "allied")
        return {"game": gid, "hash": game.hash(), "view": self._view(s, viewer)}

    def game_close(self, params: dict) -> dict:
        s = self._session(params)
        del self.sessions[s.id]
        return {"closed": s.id}

    def los_check(self, params: dict) -> dict:
        s = self._session(params)
        side = self._side(params, s)
        g = s.game
        try:
            from game.world.los import Observer  # noqa: F401
        except ImportError as exc:
            raise RpcError(NOT_AVAILABLE, "line of sight is not available in this engine") from exc

        def point(name: str):
            ref = params.get(name)
            if isinstance(ref, str):
                st = g.state.stands.get(ref)
                visible_ids = {x["id"] for x in g.view(side)["stands"]}
                if st is None or not st.alive or ref not in visible_ids:
                    raise RpcError(INVALID_PARAMS, f"param '{name}': no stand '{ref}' that the {side} side can see")
                return ("stand", st)
            if (isinstance(ref, list) and len(ref) in (2, 3)
                    and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in ref)):
                return ("point", tuple(float(v) for v in ref))
            raise RpcError(INVALID_PARAMS, f"param '{name}' should be a stand id or a point [x, y]")

        a, b = point("from"), point("to")
        try:
            if a[0] == "stand" and b[0] == "stand":
                res = g.line_of_sight(a[1], b[1])
            else:
                table = g.los_table()

                def xyz(p):
                    if p[0] == "stand":
                        return (p[1].x, p[1].y)
                    return p[1]

                res = table.check_points(xyz(a), xyz(b), g.conditions())
        except ValueError as exc:
            raise RpcError(INVALID_PARAMS, str(exc)) from exc
        return res.to_dict()

    def scenario_validate(self, params: dict) -> dict:
        ref = params.get("scenario")
        try:
            sc = resolve_scenario(ref)
        except ScenarioError as exc:
            return {"valid": False, "problems": [str(p) for p in exc.problems]}
        return {"valid": True, "id": sc.id, "title": sc.title}
