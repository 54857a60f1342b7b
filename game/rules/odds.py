"""Odds before acting: the exact probability of each outcome of a proposed attack (DESIGN §4).

``preview(g, side, action)`` checks the action with ``Game.check``, the check ``Game.act`` makes (same
IllegalAction, nothing changed; fire from under a Blind is refused too, see ``preview``), builds the
attack with the same functions the real roll uses (``fire.plan_fire``, ``fire.to_hit_modifiers``,
``fire.build_model``), and computes, without rolling:

* the distribution of hits (a sum of independent dice, each with its group's chance, G-31 naturals);
* the distribution of damage, by running the real allocation-and-save step (``fire.hit_step``) over
  every answer of its d6 tests (Look Out, Sir!, saves) as a Markov chain on the damage state;
* from it: casualty rings, stands lost, the element eliminated, and P(Pinned) (or P(retreat) for an
  element already Pinned) from the Morale target with its modifiers (DD-5.19–5.21).

Close assault (``assault``) adds the defensive volley and the simultaneous melee (DD-5.22).

What it leaves out: grazing fire's corridor hits on other stands are listed as one hit each, with
their own chance of a save; chance of a Look Out, Sir! is folded into the damage, not reported apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.rules import fire
from game.rules.dice import need as need_of
from game.rules.errors import IllegalAction

if TYPE_CHECKING:
    from game.rules.game import Game

PREVIEWABLE = ("fire", "fire_maneuver", "grazing_fire", "area_fire", "assault", "frag_grenade")
"""The core's previewable actions (chapter 5). A chapter's action kind joins them by having an ``odds``
method (:func:`previewable`)."""


def previewable() -> tuple[str, ...]:
    """Every action type ``preview`` answers: the core's, and each registered ``ActionKind`` with an
    ``odds(g, el, action, plan)`` method (the seam: the fire-support chapter's ``call_air``,
    ``gunship_run``, ``call_fire`` and ``mortar_fire``), given the plan ``Game.check`` made."""
    from game.rules.game import ACTION_KINDS

    return PREVIEWABLE + tuple(t for t, k in sorted(ACTION_KINDS.items())
                               if t not in PREVIEWABLE and callable(getattr(k, "odds", None)))


class _More(Exception):
    pass


def hit_distribution(groups: list[fire.Group]) -> list[float]:
    """P(hits = k) for k = 0..dice: independent dice, each hitting with its group's chance."""
    dist = [1.0]
    for gr in groups:
        p = fire.p_success(gr.need)
        for _ in range(gr.dice):
            nxt = [0.0] * (len(dist) + 1)
            for k, v in enumerate(dist):
                nxt[k] += v * (1 - p)
                nxt[k + 1] += v * p
            dist = nxt
    return dist


def step_branches(model: fire.Model, dmg: tuple[int, ...]) -> dict[tuple[int, ...], float]:
    """Every outcome of one hit, with its chance: ``fire.hit_step`` run over each answer to its tests."""
    out: dict[tuple[int, ...], float] = {}
    stack: list[tuple[bool, ...]] = [()]
    while stack:
        script = stack.pop()
        needs: list[int] = []

        def oracle(purpose: str, needed: int, mark: fire.Mark, script=script, needs=needs) -> bool:
            needs.append(needed)
            if len(needs) <= len(script):
                return script[len(needs) - 1]
            raise _More

        try:
            new, _, _ = fire.hit_step(model, dmg, oracle)
        except _More:
            stack.append(script + (True,))
            stack.append(script + (False,))
            continue
        p = 1.0
        for n, ok in zip(needs, script, strict=True):
            p *= fire.p_success(n) if ok else 1 - fire.p_success(n)
        out[new] = out.get(new, 0.0) + p
    return out


def damage_distribution(model: fire.Model, hits: list[float], start: dict[tuple[int, ...], float] | None = None,
                        given: list[float] | None = None) -> dict[tuple[int, ...], float]:
    """The damage state after the attack: sum over k of P(k hits) x P(damage | k hits). ``start``: the
    damage states before it, with their chances (a template's earlier pools, DD-8.10); ``given``, a list
    by mark, gains the expected number of hits the allocation gives each mark (before Look Out, Sir!
    and saves): the (k+1)-th hit comes with P(hits > k), whatever the damage so far."""
    cur = dict(start) if start is not None else {tuple(0 for _ in model.marks): 1.0}
    total: dict[tuple[int, ...], float] = {}
    for k, pk in enumerate(hits):
        if pk:
            for d, p in cur.items():
                total[d] = total.get(d, 0.0) + p * pk
        if k == len(hits) - 1:
            break
        if given is not None:
            more = sum(hits[k + 1:])
            for d, p in cur.items():
                i = model.allocate(d)
                if i is not None:
                    given[i] += p * more
        nxt: dict[tuple[int, ...], float] = {}
        for d, p in cur.items():
            for d2, p2 in step_branches(model, d).items():
                nxt[d2] = nxt.get(d2, 0.0) + p * p2
        cur = nxt
    return total


def morale_fail(g: Game, element_id: str) -> tuple[float, int]:
    """P(fail) of the element's Morale test and the score it needs (DD-5.20, C-06, G-31)."""
    from game.rules.morale import morale_modifiers

    el = g.state.elements[element_id]
    needed = need_of(g.book.qualities[el.quality].morale, morale_modifiers(g, el))
    return 1 - fire.p_success(needed), needed


def _summary(g: Game, attack: fire.Attack, hits: list[float], dmg: dict[tuple[int, ...], float],
             always_test: list[str] | None = None) -> dict:
    model = attack.model
    stands: dict[str, dict] = {}
    rings: dict[int, float] = {}
    lost: dict[int, float] = {}
    elements = sorted({m.element for m in model.marks})
    p_el = {e: {"eliminated": 0.0, "tested": 0.0} for e in elements}
    for m in model.marks:
        stands[m.id] = {"element": m.element, "p_hit": 0.0, "p_ring": 0.0, "p_removed": 0.0, "save": m.save}
    p_any = 1.0 - (hits[0] if hits else 1.0)
    for d, p in dmg.items():
        n_ring = n_lost = 0
        for i, m in enumerate(model.marks):
            if not d[i]:
                continue
            stands[m.id]["p_hit"] += p
            if m.hits + d[i] >= m.max_hits:
                stands[m.id]["p_removed"] += p
                n_lost += 1
            elif m.hits == 0:
                stands[m.id]["p_ring"] += p
                n_ring += 1
        rings[n_ring] = rings.get(n_ring, 0.0) + p
        lost[n_lost] = lost.get(n_lost, 0.0) + p
        for e in elements:
            idx = [i for i, m in enumerate(model.marks) if m.element == e]
            if all(not model.alive(d, i) for i in idx):
                p_el[e]["eliminated"] += p
    out_el = {}
    for e in elements:
        el = g.state.elements[e]
        fail, needed = morale_fail(g, e)
        if always_test is not None:
            tested = (1.0 if e in always_test else 0.0) - p_el[e]["eliminated"]
        else:
            tested = p_any - p_el[e]["eliminated"]
        tested = max(0.0, tested)
        p_fail = tested * fail
        tree = any(m.tree for m in model.marks if m.element == e)
        out_el[e] = {
            "p_tested": tested, "morale_need": needed, "p_eliminated": p_el[e]["eliminated"],
            "p_pinned": 0.0 if el.pinned else p_fail,
            "p_retreat": p_fail if el.pinned else 0.0,
            "already_pinned": el.pinned,
        }
        if tree:
            out_el[e]["p_eliminated"] += p_fail  # DD-4.42: a suppressed tree sniper falls
    return {
        "dice": attack.dice,
        "groups": [{"stands": gr.stands, "dice": gr.dice, "need": gr.need, "p_hit": fire.p_success(gr.need),
                    "modifiers": [m.to_dict() for m in gr.modifiers]} for gr in attack.groups],
        "auto_hits": attack.auto_hits,
        "hits": {str(k): p for k, p in enumerate(hits)},
        "expected_hits": sum(k * p for k, p in enumerate(hits)),  # hits already counts the automatic ones
        "rings": {str(k): p for k, p in sorted(rings.items())},
        "stands_lost": {str(k): p for k, p in sorted(lost.items())},
        "stands": stands,
        "elements": out_el,
    }


def attack_odds(g: Game, attack: fire.Attack) -> dict:
    """The exact outcome distribution of one attack."""
    hits = hit_distribution(attack.groups)
    if attack.auto_hits:
        hits = [0.0] * attack.auto_hits + hits
    dmg = damage_distribution(attack.model, hits)
    always = attack.zone["elements"] if attack.zone is not None else None
    res = _summary(g, attack, hits, dmg, always)
    if attack.ctx.morale is False and always is None:
        for e in res["elements"].values():
            e["p_tested"] = e["p_pinned"] = e["p_retreat"] = 0.0
    extras = []
    for ex in attack.extra:
        h = [0.0] * ex.auto_hits + [1.0]
        extras.append(_summary(g, ex, h, damage_distribution(ex.model, h)))
    if extras:
        res["corridor"] = extras
    return res


def preview(g: Game, side: str, action: Any) -> dict:
    """Exact outcome probabilities of a proposed fire or assault action (it is not taken)."""
    from game.rules.game import ACTION_KINDS

    if not isinstance(action, dict) or action.get("type") not in previewable():
        raise IllegalAction(f"no odds for action {action.get('type') if isinstance(action, dict) else action!r}; "
                            f"previewable: {', '.join(previewable())}", "DESIGN §4")
    if ACTION_KINDS.get(action["type"]) is None:
        raise IllegalAction(f"unknown action type {action['type']!r}", "DESIGN §4")
    # The legality is the rules' one check (``Game.check``: the impulse, the element, its CP or Ambush
    # Tokens, Hold Position, the move of the turn, the chapter's own checks), with its reasons and
    # clauses: a preview refuses what ``act`` refuses, and changes nothing.
    checked = g.check(side, action)
    el, plan = checked.element, checked.detail
    assert el is not None
    if not g.state.on_table(el):
        # No odds for fire from under a Blind (DD-4.11: the element is revealed as it fires; its stands
        # are not on the table until then): refused as before this check was shared, so the computer
        # players, which decide on this answer (game/ai/autopilot.py), choose as they did.
        raise IllegalAction(f"{el.name} is not on the table", "DD-2.5")
    hook = getattr(ACTION_KINDS[action["type"]], "odds", None)
    if action["type"] not in PREVIEWABLE and callable(hook):
        res = hook(g, el, action, plan)  # a chapter's own odds (the seam, :func:`previewable`)
    elif action["type"] == "fire_maneuver":
        _, attack = plan
        res = attack_odds(g, attack)
    elif action["type"] == "assault":
        from game.rules import assault

        res = assault.odds(g, el, plan)
    elif action["type"] == "area_fire":
        from game.rules import template

        res = template.odds(g, plan)  # the beaten zone is a template (G-34)
    elif action["type"] == "frag_grenade":
        from game.rules import assault

        res = assault.grenade_odds(g, el, plan)
    else:
        res = attack_odds(g, plan)
    return {"type": action["type"], "side": side, "element": el.id, "target": action.get("target"),
            "clause": "DESIGN §4; DD-5.1", **res}

