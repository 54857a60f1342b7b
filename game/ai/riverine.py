"""Boats for the Allied computer player (DD chapter 9A §2; G-14, G-36): Tango boats that carry their
platoon up the canal to the landing, and PBRs that lead and shoot up the banks.

``craft_options`` is asked by ``game.ai.armour.vehicle_options`` for one of our craft on the water (a
vehicle whose view carries ``ramp`` / ``aground``); the craft's plain ``fire`` offers are scored by the
autopilot as for any element. Everything here is read from the SideView: the water is the scenario's
printed ``river`` and ``stream`` features (public terrain), the objectives are the scenario's, and every
move is asked of the engine (``f.check``) before it is offered, so a craft never tries to leave the water
(G-14; DD-9A.6).

* **Carriers** (a craft with troops aboard) run up the objective's bank (``HUG``: an ambush that stops
  the boat leaves it at the bank) to a **landing**: the water beside the bank within ``LANDING_NEAR`` of
  the objective they are taking (G-30), the foremost carrier to the farthest landing, ``LANDING_APART``
  from each other, never where an empty Tango or a wreck lies. There a Tango drops its ramp
  (``drop_ramp``, DD-9A.9) before anything else; another craft sets its troops ashore (``dismount``).
  Hit with the landing beyond this move, or blocked for good by a wreck or a disabled boat, it lands at
  the bank as far forward as it can get (a brewed-up Tango kills every man aboard, DD-5.18). With a known
  enemy near its run and a gunboat still to act, it lets the gunboat go first.
* **Empty carriers cover the troops**: a Tango that has set its platoon ashore stays at the bank beside
  its own infantry and fires its guns; it moves only to keep within ``COVER_REACH`` of them.
* **Gunboats** (a craft with no troops to carry, the PBRs, a Monitor) lead: toward the far lane across
  from the farthest landing, at most ``LEAD_MAX`` ahead of the carriers, off their runs (``CLEAR_RUN``);
  they spot or reconnoitre by fire the nearest marker (DD-4.12, DD-4.25), **keep moving** (Fire &
  Maneuver, DD-2.12, when a target is in reach: the move and the volley at half firepower), keep
  ``SPACING`` from the other craft (one RPG, not two) and outside ``RPG_CLOSE`` of a known enemy stand
  where they can (the RPG's +1 against a boat within 6", DD-9A.14).
* **Crew**: a Stunned crew rallies (``rally_crew``, DD-7.10); a Buttoned Up one opens up again with no
  enemy close (DD-7.3).

The Ghost's side (asked by ``game.ai.ghost``): ``waterline_bunker`` / ``holds_bunker``, its teams in a
spider bunker at the waterline keep to it while an Allied boat is afloat (DD-9A.13).

It sees only its SideView and draws no dice. What it leaves out: river mines (the Allies cannot know
where they are: no sweeping, no detours), currents (the engine has none), picking a landing with the
enemy's spider bunkers in mind, and re-embarking the troops.
"""

from __future__ import annotations

import math

from shapely.geometry import LineString, MultiPoint, Point
from shapely.ops import nearest_points, unary_union

from game.ai.tactics import Picture, bearing, dist, move_action, ring_points, strip
from game.world.features import Feature

WATER_TYPES = ("river", "stream")
"""The printed terrain a craft floats on (riverine.toml ``[water] types``, public rulebook data)."""
RAMP_CRAFT = ("tango",)
"""The craft with a bow ramp (riverine.toml ``[bank] ramp_craft``, DD-9A.9)."""
LANDING_IN = 0.9
"""A landing point lies this far out from the bank: the craft's centre on the water, its hull (a Tango
is 2.1" across) touching the bank (DD-9A.9: within 0.25")."""
LANDING_NEAR = 2.5
"""A landing is on the bank within this of the objective (beside it)."""
FORWARD = 1.5
"""A blocked or hit carrier lands at the bank that minimises its distance plus this times the bank's
distance to the objective: as far forward as it can get (its squads then walk less)."""
HUG = 0.6
"""What each inch off the objective's bank costs a carrier's move (it runs up that bank)."""
TAKEN = 5.0
"""A landing is not within this of an empty Tango or a wreck already at the bank."""
RAMP_SCORE = 3.2
"""Dropping the ramp at the landing: above any volley the boat could fire instead (it may still fire
afterwards, a second activation)."""
ESCORT_AHEAD = 10.0
"""A known enemy this close to a carrier's run to its landing: the gunboats act first."""
WAIT_SCORE = 0.8
"""A carrier's move while it waits for its escort: below a gunboat's spotting, fire and moves."""
PROGRESS = 2.0
"""A carrier that cannot get this much nearer its landing in a move is blocked: it lands where it is."""
LANDING_APART = 7.0
"""Two carriers land at least this far apart along the bank (a Tango is 6.7" long)."""
LEAD_MAX = 14.0
"""Gunboats run at most this far ahead of the foremost carrier on the way to the landing (further along
the way to it): out of its way (a Tango moves 8" on a canal), within its guns' reach."""
CLEAR_RUN = 2.2
"""A gunboat keeps this far (centre to its line) off a carrier's run to its landing: a Tango and a PBR
pass each other in a 5" canal only side by side."""
SPACING = 4.0
"""Craft keep this apart (centre to centre)."""
RPG_CLOSE = 6.0
"""A gunboat keeps outside this of a known enemy stand (DD-9A.14: the RPG's +1 against a boat)."""
COVER_REACH = 8.0
"""An empty carrier keeps within this of its nearest own infantry ashore."""
FM_WORTH = 0.35
"""What keeping on the move is worth to a gunboat over standing still to shoot (Fire & Maneuver)."""

_WATER: dict[tuple, object] = {}


# -- the water, from the printed table --------------------------------------------------------------------
def _feature(d: dict) -> Feature:
    def pts(key):
        return tuple(tuple(float(c) for c in p) for p in d[key]) if d.get(key) is not None else None

    return Feature(id=d["id"], type=d["type"], polygon=pts("polygon"), path=pts("path"),
                   width=float(d.get("width") or 0.0), point=tuple(d["point"]) if d.get("point") else None,
                   size=tuple(d["size"]) if d.get("size") else None, radius=float(d.get("radius") or 0.0),
                   rotation=float(d.get("rotation") or 0.0))


def water(pic: Picture):
    """The union of the table's river and stream features (shapely), or None with none. Public terrain:
    cached by the table it was built from."""
    feats = [d for d in pic.f.view["scenario"].get("features", []) if d.get("type") in WATER_TYPES]
    key = (pic.f.view["scenario"].get("id"), pic.w, pic.h,
           tuple((d["id"], str(d.get("path") or d.get("polygon") or d.get("point")), d.get("width")) for d in feats))
    if key not in _WATER:
        if len(_WATER) > 16:
            _WATER.clear()
        _WATER[key] = unary_union([_feature(d).shape() for d in feats]) if feats else None
    return _WATER[key]


_INNER: dict[tuple, object] = {}


def _inner(w, depth: float = LANDING_IN):
    """The water at least ``depth`` from a bank (cached: the water never changes)."""
    key = (id(w), depth)
    if key not in _INNER:
        if len(_INNER) > 16:
            _INNER.clear()
        _INNER[key] = w.buffer(-depth)
    return _INNER[key]


def _into_water(w, bank_pt: Point, depth: float) -> tuple[float, float] | None:
    """The water point ``depth`` inches out from a point on the bank (toward the nearest deeper water)."""
    inner = _inner(w, depth)
    if inner.is_empty:
        inner = w.buffer(-depth / 2)
        if inner.is_empty:
            return None
    _, p = nearest_points(bank_pt, inner)
    return round(p.x, 2), round(p.y, 2)


def _edge_points(pic: Picture, w) -> list[tuple[float, float]]:
    """Points every half inch along the banks (the water's outline), on the table."""
    edges = [w.exterior] if hasattr(w, "exterior") else [g.exterior for g in getattr(w, "geoms", [])]
    out = []
    for edge in edges:
        steps = max(1, int(edge.length / 0.5))
        for k in range(steps):
            p = edge.interpolate(k * edge.length / steps)
            if 1.0 < p.x < pic.w - 1.0 and 1.0 < p.y < pic.h - 1.0:
                out.append((round(p.x, 3), round(p.y, 3)))
    return out


def landings(pic: Picture, objective, frm, count: int) -> list[tuple[float, float]]:
    """``count`` landing points for carriers coming from ``frm`` to take ``objective`` (a polygon): the
    water beside the banks within ``LANDING_NEAR`` of the objective, the nearest to ``frm`` first (the
    first stretch of bank beside it the boats reach), at least ``LANDING_APART`` from each other; with
    no bank that near, the bank nearest the objective."""
    from shapely.geometry import Polygon

    w = water(pic)
    if w is None:
        return []
    area = Polygon(objective)
    # Not where a Tango already lies, nor a wreck (DD-5.17).
    taken = [(st["x"], st["y"]) for st in pic.stands.values() if st["side"] == pic.side and st.get("vehicle")
             and st["vehicle"].get("roster") in RAMP_CRAFT and not st["vehicle"].get("passengers")]
    taken += [(m["x"], m["y"]) for m in pic.f.view.get("markers", []) if m.get("kind") == "wreck"]
    pts = [p for p in _edge_points(pic, w) if all(dist(p, q) > TAKEN for q in taken)]
    near = sorted((round(dist(p, frm), 3), p) for p in pts if area.distance(Point(p)) <= LANDING_NEAR)
    if not near:
        near = sorted((round(area.distance(Point(p)), 3), p) for p in pts)
    out: list[tuple[float, float]] = []
    for _, (x, y) in near:
        if all(math.hypot(x - a, y - b) >= LANDING_APART for a, b in out):
            p = _into_water(w, Point(x, y), LANDING_IN)
            if p is not None:
                out.append(p)
        if len(out) >= count:
            break
    return out


_BANKS: dict[tuple, object] = {}


def far_side_free(w, q, target) -> bool:
    return LineString([q, target]).intersection(w).length < 0.3


def near_bank(pic: Picture, target):
    """The bank on the objective's side of the water (points every half inch: those from which the way
    to ``target`` does not cross the water), as one shapely geometry; None without water."""
    w = water(pic)
    if w is None:
        return None
    key = (id(w), round(target[0], 2), round(target[1], 2))
    if key not in _BANKS:
        if len(_BANKS) > 32:
            _BANKS.clear()
        pts = [q for q in _edge_points(pic, w) if far_side_free(w, q, target)]
        _BANKS[key] = MultiPoint(pts) if pts else None
    return _BANKS[key]


def nearest_bank(pic: Picture, me, toward, forward: float = 1.5) -> tuple[float, float] | None:
    """The landing point on the nearest bank on the way to ``toward`` (a carrier that must land now):
    near the craft, and the nearer ``toward`` the better."""
    w = water(pic)
    if w is None:
        return None
    d0 = dist(me, toward)
    pts = [p for p in _edge_points(pic, w) if dist(p, toward) < d0]
    if not pts:
        return None
    q = min(pts, key=lambda p: (round(dist(me, p) + forward * dist(p, toward), 3), p))
    return _into_water(w, Point(q), LANDING_IN)


# -- the Ghost's spider bunkers (DD-9A.13) -----------------------------------------------------------------
BUNKER_WATER = 2.0
"""A bunker feature this close to the water is a spider bunker at the waterline."""


def waterline_bunker(pic: Picture, p) -> bool:
    """Is ``p`` inside a ``bunker`` feature at the waterline (DD-9A.13)? Always False on a table without
    water, so the Ghost plays every other table as before."""
    w = water(pic)
    if w is None:
        return False
    for d in pic.f.view["scenario"].get("features", []):
        if d.get("type") == "bunker":
            shape = _feature(d).shape()
            if shape.covers(Point(p)) and shape.distance(w) <= BUNKER_WATER:
                return True
    return False


def holds_bunker(pic: Picture, eid: str) -> bool:
    """Does this element of ours sit in a spider bunker at the waterline with an enemy craft afloat? Then
    it stays there (it sees and is seen down the canal, heavy cover and a 4+ save: DD-9A.13) and shoots
    at the boats, rather than infiltrating out of it."""
    if water(pic) is None:
        return False
    if not any(s.get("vehicle") and "ramp" in s["vehicle"] and not s["vehicle"].get("wreck") for s in pic.foes):
        return False
    stands = pic.own_stands(eid)
    return bool(stands) and all(waterline_bunker(pic, (s["x"], s["y"])) for s in stands)


# -- the craft --------------------------------------------------------------------------------------------
def _hull(pic: Picture, eid: str) -> dict | None:
    st = pic.own_stands(eid)
    return st[0] if st and st[0].get("vehicle") else None


def craft(pic: Picture) -> dict[str, dict]:
    """Our craft afloat: element id -> its hull stand."""
    out = {}
    for eid in pic.mine:
        h = _hull(pic, eid)
        if h is not None and "ramp" in h["vehicle"] and not h["vehicle"].get("wreck"):
            out[eid] = h
    return out


def carriers(pic: Picture) -> list[str]:
    """Our craft with troops aboard, in id order."""
    return sorted(e for e, h in craft(pic).items() if h["vehicle"].get("passengers"))


def _infantry(pic: Picture) -> list[tuple[float, float]]:
    return [pic.centre(e) for e, el in pic.mine.items()
            if el.get("kind") != "vehicle" and not el.get("embarked") and pic.own_stands(e)]


def _objective(pic: Picture, me) -> list[list[float]] | None:
    """The polygon of what the platoon is taking: the nearest of our ``hold`` objectives (G-30), else
    of any of ours; None without one."""
    from game.ai import autopilot

    objs = autopilot.our_objectives(pic)
    objs = [o for o in objs if o.get("kind") == "hold"] or objs
    if not objs:
        return None

    def centre(o):
        return (sum(p[0] for p in o["polygon"]) / len(o["polygon"]), sum(p[1] for p in o["polygon"]) / len(o["polygon"]))

    return min(objs, key=lambda o: (dist(me, centre(o)), o["id"]))["polygon"]


def _target(pic: Picture, me) -> tuple[float, float]:
    """The middle of what the platoon is taking, else the nearest known enemy, else the table's middle."""
    poly = _objective(pic, me)
    if poly is not None:
        return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))
    foe, _ = pic.nearest_foe(me, include_markers=True)
    return foe if foe is not None else (pic.w / 2, pic.h / 2)


def my_landing(pic: Picture, eid: str, me) -> tuple[float, float] | None:
    """This carrier's landing: the landings beside the objective, nearest the carriers first, go to
    the carriers in order of how near each is to the first (ties by id)."""
    cs = carriers(pic)
    if eid not in cs:
        return None
    hulls = craft(pic)
    pos = {e: (hulls[e]["x"], hulls[e]["y"]) for e in cs}
    frm = (sum(p[0] for p in pos.values()) / len(pos), sum(p[1] for p in pos.values()) / len(pos))
    poly = _objective(pic, frm)
    if poly is None:
        t = _target(pic, frm)
        poly = [[t[0] - 0.5, t[1] - 0.5], [t[0] + 0.5, t[1] - 0.5], [t[0] + 0.5, t[1] + 0.5], [t[0] - 0.5, t[1] + 0.5]]
    spots = landings(pic, poly, frm, len(cs))
    if not spots:
        return None
    # The foremost carrier takes the farthest landing and the one behind it the nearer: nobody has to
    # overtake in a canal barely two boats wide.
    order = sorted(cs, key=lambda e: (round(dist(pos[e], spots[-1]), 3), e))
    k = len(spots) - 1 - order.index(eid)
    return spots[k] if k >= 0 else spots[0]


def craft_options(pic: Picture, eid: str, best_fire: float) -> list[tuple[float, dict]]:
    """Scored candidate actions for one of our craft (its plain fire is scored by the autopilot)."""
    from game.ai import armour

    hull = _hull(pic, eid)
    if hull is None:
        return []
    v = hull["vehicle"]
    me = (hull["x"], hull["y"])
    out: list[tuple[float, dict]] = []
    _, foe_d = pic.nearest_foe(me)
    hit = v.get("hp", 0) < v.get("hp_max", 0)
    out += armour.crew_options(pic, eid, foe_d, rally_score=1.6)
    at = armour.at_shot(pic, eid)
    if at is not None:
        out.append(at)
    carrying = bool(v.get("passengers"))
    landing = my_landing(pic, eid, me) if carrying else None
    arrived = landing is not None and (dist(me, landing) <= 3.0 or _beside(pic, me))
    trouble = hit or v.get("stunned") or v.get("aground") or v.get("mobility_kill")
    move = None
    if carrying and not arrived and not v.get("aground") and not v.get("mobility_kill"):
        move = _to_landing(pic, eid, me, landing)
        reach = (pic.offer(eid, "move", mode="patrol") or {"params": {"to": {"max": 0.0}}})["params"]["to"]["max"]
        far = landing is None or dist(me, landing) > 0.8 * reach
        if (hit and far) or (move is None and _jammed(pic)):
            # Hit with the landing beyond this move, or the way to it blocked by a wreck or a disabled
            # boat: land at the nearest bank on the way and let the squads walk (a brewed-up Tango kills
            # every man aboard, DD-5.18).
            trouble = True
            move = None
            for forward in (FORWARD, 0.5, 0.0):  # as far forward as it can still get
                bank = nearest_bank(pic, me, landing or _target(pic, me), forward)
                move = _to_landing(pic, eid, me, bank) if bank is not None else None
                if move is not None:
                    break
    ashore = _ashore(pic, eid, arrived or trouble)
    if ashore is not None:
        out.append(ashore)
    if v.get("aground") or v.get("mobility_kill"):
        return out
    if carrying:
        if move is not None and ashore is None:
            if _wait_for_escort(pic, eid, me, landing):
                move = (WAIT_SCORE, move[1])
            out.append(move)
        return out
    out += _probe(pic, eid, me, best_fire)
    out += _gunboat(pic, eid, me, best_fire)
    return out


def _escorts_to_act(pic: Picture, eid: str) -> bool:
    """Has one of our gunboats (a craft with no troops, not a Tango, able to move) still to act this turn?"""
    for e, h in craft(pic).items():
        v = h["vehicle"]
        if e == eid or v.get("passengers") or v.get("roster") in RAMP_CRAFT or v.get("mobility_kill") \
                or v.get("abandoned") or v.get("aground"):
            continue
        if pic.mine[e].get("activations", 0) == 0 and pic.by_element.get(e):
            return True
    return False


def _wait_for_escort(pic: Picture, eid: str, me, landing) -> bool:
    """The PBRs lead: a carrier with a known enemy marker or stand near its run to the landing lets a
    gunboat that has still to act go first (spot it, shoot it, or draw its fire)."""
    if landing is None or not _escorts_to_act(pic, eid):
        return False
    return any(_to_segment(q, me, landing) <= ESCORT_AHEAD for q in pic.known())


def _probe(pic: Picture, eid: str, me, best_fire: float) -> list[tuple[float, dict]]:
    """A gunboat spots the nearest enemy marker in reach (DD-4.12), or reconnoitres one close by with fire
    (DD-4.25), ahead of the carriers: better it than a Tango full of men meets the ambush."""
    from game.ai import autopilot

    return autopilot.spotting(pic, eid, me, best_fire, (1.3, 1.25))


def _beside(pic: Picture, me) -> bool:
    """Is a craft at ``me`` beside the objective (within ``LANDING_NEAR`` and a hull's half-width of it)?
    At a bank there, it has reached a landing, whichever one it was making for."""
    from shapely.geometry import Polygon

    poly = _objective(pic, me)
    return poly is not None and Polygon(poly).distance(Point(me)) <= LANDING_NEAR + 1.2


def _jammed(pic: Picture) -> bool:
    """Is a wreck (a public ``wreck`` marker, DD-5.17) or a disabled boat on the water? Then a carrier
    that cannot get on is blocked for good, not waiting for a friend to move out of its way."""
    w = water(pic)
    if w is None:
        return False
    if any(m.get("kind") == "wreck" and w.distance(Point(m["x"], m["y"])) < 1.0 for m in pic.f.view.get("markers", [])):
        return True
    return any(st.get("vehicle") and "ramp" in st["vehicle"] and (st["vehicle"].get("mobility_kill")
               or st["vehicle"].get("abandoned") or st["vehicle"].get("aground")) for st in pic.stands.values())


def _ashore(pic: Picture, eid: str, ready: bool) -> tuple[float, dict] | None:
    """Set the troops ashore (DD-9A.9): a Tango's ramp, another craft's ``dismount``; only where the
    engine offers it (at a bank) and the craft has reached its landing or is in trouble."""
    hull = _hull(pic, eid)
    if not ready or hull is None or not hull["vehicle"].get("passengers"):
        return None
    ramp = pic.offer(eid, "drop_ramp")
    if ramp is not None:
        # The ramp already down and a squad still aboard: the bank had no room for it; try again only
        # when nothing better is to be done.
        return (1.5 if hull["vehicle"].get("ramp") else RAMP_SCORE, strip(ramp))
    dis = pic.offer(eid, "dismount")
    if dis is not None:
        action = strip(dis)
        action["passenger"] = sorted(dis["params"]["passenger"]["choices"])[0]
        return (2.3, action)
    return None


def _others(pic: Picture, eid: str) -> list[tuple[float, float]]:
    return [(h["x"], h["y"]) for e, h in craft(pic).items() if e != eid]


def _candidates(pic: Picture, me, reach: float, goal) -> list[tuple[float, float]]:
    d = dist(me, goal)
    pts = ring_points(me, reach, pic.w, pic.h, n=24, fractions=(1.0, 0.8, 0.6, 0.4, 0.2))
    for fr in (1.0, 0.9, 0.75, 0.6, 0.45, 0.3, 0.15):
        s = min(reach * fr, d)
        if d > 1e-6:
            pts.append((round(me[0] + (goal[0] - me[0]) * s / d, 2), round(me[1] + (goal[1] - me[1]) * s / d, 2)))
    if d <= reach:
        pts.append((round(goal[0], 2), round(goal[1], 2)))
    return pts


def axis(pic: Picture, p, toward) -> float | None:
    """The heading along the water at ``p`` (the nearest stretch of a river or stream's centre line),
    the way nearer the bearing to ``toward``; None off a drawn line (a polygon of water)."""
    best = None
    for d in pic.f.view["scenario"].get("features", []):
        if d.get("type") not in WATER_TYPES or not d.get("path"):
            continue
        pts = d["path"]
        for (x1, y1), (x2, y2) in zip(pts, pts[1:], strict=False):
            dx, dy = x2 - x1, y2 - y1
            ll = dx * dx + dy * dy
            t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - x1) * dx + (p[1] - y1) * dy) / ll))
            gap = math.hypot(x1 + t * dx - p[0], y1 + t * dy - p[1])
            if best is None or gap < best[0]:
                best = (gap, math.degrees(math.atan2(dy, dx)) % 360)
    if best is None:
        return None
    want = bearing(p, toward)
    h = best[1]
    return h if abs((want - h + 180) % 360 - 180) <= 90 else (h + 180) % 360


def _facings(pic: Picture, me, p, goal) -> list[float]:
    """Facings to try for a craft ending at ``p``: along the water (a hull across a 5" canal does not
    fit beside another), then the way it goes."""
    out = []
    a = axis(pic, p, goal)
    if a is not None:
        out.append(round(a, 1))
    b = round(bearing(me, p), 1)
    if all(abs((b - x + 180) % 360 - 180) > 2 for x in out):
        out.append(b)
    return out


def _best_move(pic: Picture, offer: dict, me, goal, score, tries: int = 30, extra=()) -> tuple[float, dict] | None:
    """The best-scoring legal move toward ``goal`` (asked of the engine), with its gain over staying."""
    f = pic.f
    reach = offer["params"]["to"]["max"]
    here = score(me)
    cands = set(_candidates(pic, me, reach, goal)) | set(extra)
    scored = sorted(((score(p), p) for p in cands), key=lambda x: (-x[0], x[1]))
    for s, p in scored[:tries]:
        if s <= here + 0.25:
            break
        for facing in _facings(pic, me, p, goal):
            action = move_action(offer, p, facing)
            if f.check(action) is None:
                return (s - here, action)
    return None


def _hugged(bank, me, move: dict, goal) -> list[tuple[float, float]]:
    """Candidate points in the lane along the bank (``LANDING_IN`` + 0.2 off it), toward ``goal``."""
    if bank is None:
        return []
    reach = move["params"]["to"]["max"]
    d = dist(me, goal)
    out = []
    for fr in (1.0, 0.85, 0.7, 0.55, 0.4, 0.25):
        s = min(reach * fr, d)
        if d <= 1e-6:
            break
        p = Point(me[0] + (goal[0] - me[0]) * s / d, me[1] + (goal[1] - me[1]) * s / d)
        q = nearest_points(bank, p)[0]
        gap = q.distance(p)
        if gap > 1e-6:
            k = (LANDING_IN + 0.2) / gap
            out.append((round(q.x + (p.x - q.x) * k, 2), round(q.y + (p.y - q.y) * k, 2)))
    return out


def _to_landing(pic: Picture, eid: str, me, landing) -> tuple[float, dict] | None:
    """A carrier's move up the water to its landing (at least ``PROGRESS`` nearer), spaced from the other
    craft; None when it cannot get on."""
    move = pic.offer(eid, "move", mode="patrol")
    if move is None or landing is None or dist(me, landing) < 0.15:
        return None
    others = _others(pic, eid)
    bank = near_bank(pic, _target(pic, me))

    def score(p) -> float:
        s = -dist(p, landing) - sum(2.0 for q in others if dist(p, q) < SPACING)
        if bank is not None:
            # Up the objective's bank: a boat stopped by an ambush, or a hit, is at the bank and can
            # still drop its ramp there.
            s -= HUG * max(0.0, bank.distance(Point(p)) - LANDING_IN - 0.2)
        return s

    best = _best_move(pic, move, me, landing, score, extra=_hugged(bank, me, move, landing))
    if best is None or dist(me, landing) - dist(tuple(best[1]["to"]), landing) < min(PROGRESS, dist(me, landing) - 0.1):
        return None
    # The troops are the mission: moving on outranks an ordinary volley from the boat.
    return (2.0 + min(0.5, best[0] / 20), best[1])


def _gunboat_goal(pic: Picture, eid: str, me) -> tuple[tuple[float, float], float | None]:
    """Where a gunboat (or an empty carrier) heads, and how far along the way it may run ahead of the
    foremost carrier (None: no limit): the foremost carrier's landing while the troops are aboard; with
    them ashore, the enemy nearest our infantry; else off the objective."""
    cs = [e for e in carriers(pic) if e != eid]
    hulls = craft(pic)
    if cs:
        ways = []
        for e in cs:
            lp = (hulls[e]["x"], hulls[e]["y"])
            land = my_landing(pic, e, lp) or _target(pic, lp)
            ways.append((dist(lp, land), e, land))
        d, _, _ = min(ways)
        far = max(ways, key=lambda w: (dist(me, w[2]), w[1]))[2]
        return _across(pic, far, _target(pic, me)), d
    foot = _infantry(pic)
    if foot:
        c = min(foot, key=lambda p: (dist(me, p), p))
        foe, _ = pic.nearest_foe(c, include_markers=True)
        return (foe if foe is not None else c), None
    return _target(pic, me), None


def _across(pic: Picture, p, target) -> tuple[float, float]:
    """The water across the canal from ``p`` (a landing), in the lane along the far bank: where a gunboat
    covers a landing without lying in the carriers' way."""
    w = water(pic)
    bank = near_bank(pic, target)
    if w is None or bank is None:
        return p
    q = nearest_points(bank, Point(p))[0]
    d = q.distance(Point(p))
    if d < 1e-6:
        return p
    ux, uy = (p[0] - q.x) / d, (p[1] - q.y) / d
    inner = _inner(w)
    best = p
    k = d
    while k < 30.0:
        c = (q.x + ux * k, q.y + uy * k)
        if not inner.covers(Point(c)):
            break
        best = c
        k += 0.25
    return (round(best[0], 2), round(best[1], 2))


def _gunboat(pic: Picture, eid: str, me, best_fire: float) -> list[tuple[float, dict]]:
    """A craft without troops: lead, shoot up the banks on the move, stay apart and out of RPG reach; an
    empty carrier stays with its infantry."""
    out: list[tuple[float, dict]] = []
    w = water(pic)
    goal, lead_d = _gunboat_goal(pic, eid, me)
    if w is not None and not w.covers(Point(goal)):
        goal = _into_water(w, nearest_points(w, Point(goal))[0], LANDING_IN) or goal
    others = _others(pic, eid)
    foes = pic.foe_points()
    foot = _infantry(pic)
    hulls = craft(pic)
    runs = []
    for e in carriers(pic):
        if e != eid:
            c = (hulls[e]["x"], hulls[e]["y"])
            runs.append((c, my_landing(pic, e, c) or c))
    was_carrier = _is_ramp_craft(pic, eid)

    def score(p) -> float:
        s = -0.5 * dist(p, goal)
        if lead_d is not None and dist(p, goal) < lead_d - LEAD_MAX:
            s -= 0.5 * (lead_d - LEAD_MAX - dist(p, goal))  # no further ahead of the carriers than this
        s -= sum(1.5 for q in others if dist(p, q) < SPACING)
        # Keep out of the carriers' way: off their run to the landing and off the landing itself.
        s -= sum(1.5 for a, b in runs if _to_segment(p, a, b) < CLEAR_RUN)
        if foes:
            near = min(dist(p, q) for q in foes)
            if near < RPG_CLOSE:
                s -= 1.0 + (RPG_CLOSE - near) * 0.3
        if was_carrier and foot:
            gap = min(dist(p, q) for q in foot)
            if gap > COVER_REACH:
                s -= 1.0 + (gap - COVER_REACH) * 0.3
        return s

    move = pic.offer(eid, "move", mode="patrol")
    fm = pic.offer(eid, "fire_maneuver")
    if fm is not None and not was_carrier:
        act = _fire_on_the_move(pic, eid, me, fm, goal, score)
        if act is not None:
            out.append(act)
    if move is not None and not (was_carrier and foot and min(dist(me, q) for q in foot) <= COVER_REACH):
        best = _best_move(pic, move, me, goal, score, tries=16)
        if best is not None:
            base = 0.6 if best_fire >= 0.5 else 0.85
            out.append((base + min(0.3, best[0] / 10), best[1]))
    return out


def _to_segment(p, a, b) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ll))
    return math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1])


def _is_ramp_craft(pic: Picture, eid: str) -> bool:
    """A Tango (riverine.toml ``[bank] ramp_craft``): a carrier, empty or not, stays with its troops."""
    h = _hull(pic, eid)
    return h is not None and h["vehicle"].get("roster") in RAMP_CRAFT


def _fire_on_the_move(pic: Picture, eid: str, me, offer: dict, goal, score) -> tuple[float, dict] | None:
    """Fire & Maneuver (DD-2.12): a good place within the half allowance, then the best volley from there
    at one of the nearest enemy stands (the engine checks both, from the new position)."""
    from game.ai.tactics import expected, p_pin

    f = pic.f
    reach = offer["params"]["to"]["max"]
    targets = offer["params"]["target"]["choices"]
    if not targets:
        return None
    here = score(me)
    spots = sorted(((score(p), p) for p in set(_candidates(pic, me, reach, goal))), key=lambda x: (-x[0], x[1]))
    top = None
    tried = 0
    for s, p in spots:
        if tried >= 3 or s < here - 0.5:
            break
        near = sorted(targets, key=lambda t: (dist(p, (pic.stands[t]["x"], pic.stands[t]["y"])), t))[:2]
        legal = False
        for tid in near:
            action = move_action(offer, p, bearing(me, p))
            action["target"] = tid
            if f.check(action) is not None:
                continue
            legal = True
            res = f.preview(action)
            if res is None:
                continue
            value = 3 * expected(res, "stands_lost") + expected(res, "hits") + 1.5 * p_pin(res)
            if value >= 0.25 and (top is None or value > top[0]):
                top = (value, action)
        tried += 1 if legal else 0
    if top is None:
        return None
    return (1.0 + top[0] + FM_WORTH - 0.2 * top[1].get("cost", 1), top[1])
