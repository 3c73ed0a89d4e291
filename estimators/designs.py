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


def looked(design: str, wave: int, max_repetitions: int) -> tuple[bool, bool, int]:
    """How a sequential study of ``design`` reads its verdicts: (time_uniform, planned, the
    wave of its plan), the arguments of :func:`reprocompare.estimators.verdict.verdict`.

    ``planned``: repeated confidence intervals at the looks every ``wave`` up to the maximum;
    ``fixed``: the planned design of one look, at the maximum (it claims nothing before it);
    ``anytime``: confidence sequences intersected over the looks every ``wave``.

    Parameters
    ----------
    design : {"planned", "fixed", "anytime"}
        The study's ``stopping.design``.
    wave : int
        Repetitions added per look.
    max_repetitions : int
        The study's maximum R.

    Returns
    -------
    (bool, bool, int)
        ``time_uniform``, ``planned`` and the wave of the looks the verdicts read.

    Raises
    ------
    ValueError
        For an unknown design.

    Examples
    --------
    >>> looked("fixed", 5, 20), looked("planned", 5, 20), looked("anytime", 5, 20)
    ((False, True, 20), (False, True, 5), (True, False, 5))
    """
    if design == "fixed":
        return False, True, int(max_repetitions)
    if design == "planned":
        return False, True, int(wave)
    if design == "anytime":
        return True, False, int(wave)
    raise ValueError(f"design must be planned, fixed or anytime, got {design!r}")
