"""Reading a scenario's tunnel network: the Surface and Underground Maps (TUN-24) of ``[tunnels]``, checked
(TUN-1–TUN-7, TUN-13, G-35). ``game.rules.tunnels.read_scenario`` is the seam's entry (``scenario.SECTIONS``);
every problem names the section, row and field (``tunnels.section[2].at``).

What it leaves out: the network's play (``game.rules.tunnels`` and the action modules).
"""

from __future__ import annotations

from typing import Any

from game.rules.tunnels import Network, SectionSetup, TunnelTables, _all_linked, rules

_SECTION_KEYS = {"id", "kind", "at", "depth", "concealed", "capacity", "use", "trap", "feature"}


def read_network(r: Any, raw: Any, ctx: Any) -> Network | None:
    """``[tunnels]`` of a scenario file: the network, checked (TUN-2–TUN-7, TUN-13, G-35). Problems name
    the section, row and field (``tunnels.section[2].at``)."""
    t = rules()
    if not isinstance(raw, dict):
        r.problem("tunnels", "should be a table ([tunnels] with [[tunnels.section]] rows)")
        return None
    r.unknown(raw, {"module", "section", "link"}, "tunnels.")
    module = bool(r.get(raw, "module", "tunnels.", bool, False))
    features = {f.id: f for f in ctx.features}
    sections = _read_sections(r, raw.get("section", []), ctx, features, module, t)
    links = _read_links(r, raw.get("link", []), sections, module, t)
    _check_garrison(r, ctx, sections, t)
    if not sections:
        return None
    return Network(module, dict(sorted(sections.items())), links)


def _read_sections(r: Any, rows: Any, ctx: Any, features: dict, module: bool, t: TunnelTables
                   ) -> dict[str, SectionSetup]:
    out: dict[str, SectionSetup] = {}
    if not isinstance(rows, list) or not rows:
        r.problem("tunnels.section", "a network needs at least one [[tunnels.section]] (TUN-1)")
        return out
    for i, raw in enumerate(rows):
        p = f"tunnels.section[{i}]."
        if not isinstance(raw, dict):
            r.problem(f"tunnels.section[{i}]", "should be a table")
            continue
        sec = _read_section(r, raw, p, i, ctx, features, module, t)
        if sec is None:
            continue
        if sec.id in out:
            r.problem(p + "id", f"duplicate section id '{sec.id}'")
            continue
        out[sec.id] = sec
    return out


def _read_section(r: Any, raw: dict, p: str, i: int, ctx: Any, features: dict, module: bool,
                  t: TunnelTables) -> SectionSetup | None:
    r.unknown(raw, _SECTION_KEYS, p)
    n = t.network
    sid = r.get(raw, "id", p, str, f"ts{i + 1}")
    kind = r.get(raw, "kind", p, str)
    if kind is not None and kind not in t.kinds:
        r.problem(p + "kind", f"unknown section kind '{kind}' (TUN-1: {', '.join(t.kinds)})")
        kind = None
    if kind is not None and not module and kind in n.module_kinds_only:
        r.problem(p + "kind", f"a {t.kinds[kind].name} needs the TUN module (module = true); without it a "
                              "scenario lists surface entrances only (G-35)")
    at = r.point(raw["at"], p + "at") if "at" in raw else r.get(raw, "at", p, list)
    if at is not None and not (0 <= at[0] <= ctx.width and 0 <= at[1] <= ctx.height):
        r.problem(p + "at", f"{list(at)} is off the {ctx.width:g}x{ctx.height:g} table")
    if kind is None or at is None or sid is None:
        return None
    k = t.kinds[kind]
    depth = r.get(raw, "depth", p, (int, float), k.depth)
    if depth is not None and depth < 0:
        r.problem(p + "depth", "is inches below the surface: it cannot be negative")
    if "concealed" in raw and not k.surface:
        r.problem(p + "concealed", f"a {k.name} lies beneath the table: only a surface section has an "
                                   "entrance to conceal (TUN-4, TUN-5)")
    concealed = bool(r.get(raw, "concealed", p, bool, k.concealed)) if k.surface else False
    capacity = use = None
    if kind == n.dugout:
        capacity = r.get(raw, "capacity", p, int, n.default_capacity)
        if capacity is not None and capacity not in n.capacities:
            r.problem(p + "capacity", f"a dug-out holds {', '.join(map(str, n.capacities))} stands (TUN-3), "
                                      f"not {capacity}")
        use = r.get(raw, "use", p, str, None)
        if use is not None and use not in n.uses:
            r.problem(p + "use", f"'{use}' is not a dug-out's use (TUN-3: {', '.join(n.uses)})")
    else:
        for key in ("capacity", "use"):
            if key in raw:
                r.problem(p + key, f"only a dug-out has a {key} (TUN-3)")
    trapped = bool(r.get(raw, "trap", p, bool, False))  # TUN-7: any section may be booby-trapped
    feature = r.get(raw, "feature", p, str, None)
    if feature is not None and feature not in features:
        r.problem(p + "feature", f"no terrain feature '{feature}'")
    return SectionSetup(sid, kind, float(at[0]), float(at[1]), float(depth or 0.0), concealed,
                        capacity, use, trapped, feature)


def _read_links(r: Any, rows: Any, sections: dict[str, SectionSetup], module: bool, t: TunnelTables
                ) -> dict[str, tuple[str, ...]]:
    adj: dict[str, set[str]] = {sid: set() for sid in sections}
    if not isinstance(rows, list):
        r.problem("tunnels.link", "should be a list of [[tunnels.link]] tables")
        rows = []
    for i, raw in enumerate(rows):
        p = f"tunnels.link[{i}]."
        if not isinstance(raw, dict):
            r.problem(f"tunnels.link[{i}]", "should be a table")
            continue
        r.unknown(raw, {"between"}, p)
        pair = r.get(raw, "between", p, list)
        if pair is None:
            continue
        if len(pair) != 2 or not all(isinstance(v, str) for v in pair):
            r.problem(p + "between", f"should name two sections [a, b], got {pair!r}")
            continue
        a, b = pair
        bad = [v for v in (a, b) if v not in sections]
        for v in bad:
            r.problem(p + "between", f"no section '{v}'")
        if bad:
            continue
        if a == b:
            r.problem(p + "between", f"links section '{a}' to itself")
            continue
        if b in adj[a]:
            r.problem(p + "between", f"links '{a}' and '{b}' twice")
            continue
        adj[a].add(b)
        adj[b].add(a)
    if not module and not any(adj.values()):
        return _all_linked(list(sections))  # G-35: by default every entrance is linked
    if module:
        _check_shape(r, sections, adj, t)
    return {sid: tuple(sorted(v)) for sid, v in sorted(adj.items())}


def _check_shape(r: Any, sections: dict[str, SectionSetup], adj: dict[str, set[str]], t: TunnelTables) -> None:
    """TUN-2 (a length of tunnel between two other sections), TUN-6 (a junction joins 3+), every section
    linked (a network is one graph beneath its entrances, TUN-1)."""
    n = t.network
    order = list(sections)
    for sid, sec in sections.items():
        p = f"tunnels.section[{order.index(sid)}]."
        links = adj[sid]
        if sec.kind == n.tunnel:
            ends = [o for o in links if sections[o].kind == n.tunnel]
            if len(links) != n.tunnel_links:
                r.problem(p + "id", f"tunnel '{sid}' has {len(links)} link(s): a length of tunnel begins and ends "
                                    f"at a dug-out, bunker, trench, entrance, spider hole or junction (TUN-2)")
            elif ends:
                r.problem(p + "id", f"tunnel '{sid}' ends at tunnel '{ends[0]}': a length of tunnel begins and "
                                    "ends at a dug-out, bunker, trench, entrance, spider hole or junction (TUN-2)")
        elif sec.kind == n.junction and len(links) < n.junction_links:
            r.problem(p + "id", f"junction '{sid}' joins {len(links)} section(s): a junction is where "
                                f"{n.junction_links} or more meet (TUN-6)")
        elif not links:
            r.problem(p + "id", f"section '{sid}' is linked to no other section (TUN-1)")
    if not any(sec.kind in t.surface_kinds() for sec in sections.values()):
        r.problem("tunnels.section", "no section opens on the table: a network needs an entrance, spider "
                                     "hole, bunker or trench (TUN-1, TUN-4, TUN-5)")


def _check_garrison(r: Any, ctx: Any, sections: dict[str, SectionSetup], t: TunnelTables) -> None:
    """Elements that start ``underground`` (TUN-13): in a section that exists, VC (never NVA), Veteran."""
    n = t.network
    sides = getattr(ctx, "sides", None)
    faction = None
    if sides:
        ins = sides.get("insurgent") if isinstance(sides, dict) else None
        faction = getattr(ins, "faction", None)
    for i, e in enumerate(ctx.elements):
        if e.underground is None:
            continue
        p = f"element[{i}].underground"
        if sections and e.underground not in sections:
            r.problem(p, f"no tunnel section '{e.underground}'")
        if faction is not None and faction not in n.garrison_factions:
            r.problem(p, f"a {faction} side cannot provide a tunnel garrison: the VC Tunnel Garrison only (TUN-13)")
        if e.quality != n.garrison_quality:
            r.problem(p, f"a tunnel garrison is always {n.garrison_quality} (TUN-13): set quality = "
                         f"\"{n.garrison_quality}\" on the element")


