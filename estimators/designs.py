"""The stopping designs' names and words, with no numerical dependency.

What a design is lives in :mod:`reprocompare.estimators.group_sequential` (a planned design's
looks and levels), :mod:`reprocompare.estimators.sequential` (confidence sequences) and
:mod:`reprocompare.estimators.verdict` (how each is read); the command line and the tables only
need their names, and must not pay for scipy to say them (the CLI's cold start).
"""

from __future__ import annotations

#: the spending of a planned design (the schema's stopping.design: planned)
DEFAULT_SPENDING = "early-then-late"
#: each spending function in words, for the rule and the intervals' kinds
SPENDING_NAMES = {"early-then-late": "spending: shares at R = 5 and 10, the rest as alpha t^4",
                  "pocock": "Pocock-type spending",
                  "obrien-fleming": "O'Brien-Fleming-type spending"}
