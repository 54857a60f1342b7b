"""The One Brain-Cell Vietnam rules (the 002 seed: OBC-2 - OBC-51, G-42, C-33, C-34; the preamble's beer and
pretzels are flavour) behind the ruleset seam: squads move one at a time, each man rolls his own dice, and
choppers fly at a height marked on the base.

Modules: ``tables`` (``data/obc.toml``), ``dice`` (the d6 against a need, ½d6, the scatter die), ``firing``
and ``morale`` (the rules as pure functions), ``state`` (men, vehicles, squads), ``sight`` (line of sight
through the Dinky Dau world's ray casts), ``movement``, ``scenario``, ``game`` and ``acts`` (the turn, fog,
every act), ``ai`` (the computer player following its one-line orders), ``ruleset`` (the seam).
The 3D table is not built (docs/rulesets.md).
"""
