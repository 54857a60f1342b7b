"""The rules engine: the state, the rules of every chapter and ruleset, and nothing of the screen.

Loading it sets the process's cyclic garbage collector for how the engine allocates
(``COLLECTOR``): a listing or an action makes and drops many small containers, and a process keeps a
table's scene, plan-view map and kept answers for as long as it plays on it. At the interpreter's
defaults a full collection walked all of those every few seconds of play (some 5 % of a random
playout's time, ``docs/memory.md``); less often, the same objects are reclaimed later, the process's
memory the same within a few MB (``benchmarks/engine.py`` prints it).
"""

import gc

COLLECTOR = (2_000, 20, 50)
"""``gc.set_threshold``: allocations before a young collection, young collections before a middle one,
middle ones before a full one (the interpreter's own: 700, 10, 10)."""

if gc.get_threshold()[0] < COLLECTOR[0]:  # (a host that set its own, higher, keeps it)
    gc.set_threshold(*COLLECTOR)
