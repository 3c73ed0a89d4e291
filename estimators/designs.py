"""The stopping designs: one object each, which the verdicts, planning, tables and LaTeX ask.

A study's ``stopping.design`` says how its verdicts and intervals stay valid however it stops
(docs/sequential.md):

- ``planned`` (:data:`PLANNED`, the default): a group-sequential design whose looks (every
  ``wave`` up to ``max_repetitions``) are fixed before the run; its error is spent over them
  (Lan and DeMets 1983; :mod:`reprocompare.estimators.group_sequential`), and its verdicts read
  the repeated confidence intervals of those looks (Jennison and Turnbull 1989);
- ``fixed`` (:data:`FIXED`): the planned design of one look, at the maximum; it claims nothing
  before it, and at the maximum it is the fixed-R interval a statistician would compute; a study
  with stopping off is read as fixed, at its R;
- ``anytime`` (:data:`ANYTIME`): confidence sequences intersected over the looks
  (:mod:`reprocompare.estimators.sequential`), valid at every R, for a study with no maximum.

The numbers live in those modules; this one holds what each design is, how it is said, and when
it looks (:func:`looks`, :func:`planned_looks`, :data:`MAX_LOOKS`), with no numerical
dependency, so that the command line, a config's check and the tables name a design and count
its looks without paying for scipy (the CLI's cold start: checking a planned study's config
took 0.9 CPU s when the looks lived in group_sequential, 0.3 here).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

#: a planned design spends its error over at most this many looks (the calibration's cost grows
#: with them; a longer plan is better served by the confidence sequences)
MAX_LOOKS = 200


def looks(repetitions: int, wave: int) -> list[int]:
    """The R at which a study that adds ``wave`` repetitions at a time looked: wave, 2 wave, ...
    (R >= 2), and ``repetitions`` itself (a last, possibly partial, wave still gets its look).

    Parameters
    ----------
    repetitions : int
        R, the repetitions run.
    wave : int
        Repetitions added per look.

    Returns
    -------
    list of int
        The R of every look, ascending.
    """
    if int(wave) != wave or wave < 1:
        raise ValueError(f"wave must be a whole number of repetitions >= 1, got {wave!r}")
    taken = [r for r in range(int(wave), int(repetitions) + 1, int(wave)) if r >= 2]
    if not taken or taken[-1] != repetitions:
        taken.append(int(repetitions))
    return taken


def planned_looks(wave: int, max_repetitions: int) -> tuple[int, ...]:
    """The looks a planned study takes: ``wave, 2 wave, ...`` (R >= 2) and the maximum.

    Parameters
    ----------
    wave : int
        Repetitions added per look.
    max_repetitions : int
        The last look.

    Returns
    -------
    tuple of int
        The planned looks, ascending (:func:`looks` at the maximum).
    """
    return tuple(looks(int(max_repetitions), int(wave)))


#: the spending of a planned design (the schema's stopping.design: planned)
DEFAULT_SPENDING = "early-then-late"
#: each spending function in words, for the rule and the intervals' kinds
SPENDING_NAMES = {"early-then-late": "spending: shares at R = 5 and 10, the rest as alpha t^4; "
                                     "past a maximum of 20, shares at R = 5, 10 and 15, the rest "
                                     "as alpha (0.9 t^12 + 0.1 t^2)",
                  "pocock": "Pocock-type spending",
                  "obrien-fleming": "O'Brien-Fleming-type spending"}


#: what a planned design's intervals are (``{}``: the interval of each look)
PLANNED_KIND = ("{} at each planned look's level (group-sequential, "
                + SPENDING_NAMES[DEFAULT_SPENDING] + ")")


def _repeated(kind: str) -> str:
    return PLANNED_KIND.format(kind) + ", intersected over looks"


@dataclass(frozen=True)
class Design:
    """One stopping design: how its verdicts read a study's looks, and how it is said.

    Parameters
    ----------
    name : str
        The config's ``stopping.design``.
    words : str
        The design in words (``reprocompare plan``'s line).
    intervals : str
        What the verdicts' intervals are, as a clause after "the interval" in the LaTeX note
        (empty for a fixed R, which needs no word).
    interval_kinds : mapping
        What each printed interval is (mean, SNR, reproducibility), as the summaries record it.
    time_uniform : bool, default False
        Its verdicts read confidence sequences, valid at every R.
    planned : bool, default False
        Its verdicts read the repeated confidence intervals of looks planned before the run,
        every wave up to the maximum: its looks are part of the design, and a study cannot
        change its wave or maximum half way.
    one_look : bool, default False
        The planned design of one look, at the maximum.
    """

    name: str
    words: str
    intervals: str
    interval_kinds: Mapping[str, str] = field(compare=False)
    time_uniform: bool = False
    planned: bool = False
    one_look: bool = False

    def looked(self, wave: int, max_repetitions: int) -> tuple[bool, bool, int]:
        """How a sequential study of this design reads its verdicts: (time_uniform, planned,
        the wave of its plan), the arguments of :func:`reprocompare.estimators.verdict.verdict`.

        Parameters
        ----------
        wave : int
            Repetitions added per look.
        max_repetitions : int
            The study's maximum R.

        Returns
        -------
        (bool, bool, int)

        Examples
        --------
        >>> FIXED.looked(5, 20), PLANNED.looked(5, 20), ANYTIME.looked(5, 20)
        ((False, True, 20), (False, True, 5), (True, False, 5))
        """
        if self.one_look:  # the plan of one look: no error spent before the maximum
            return False, True, int(max_repetitions)
        return self.time_uniform, self.planned, int(wave)


FIXED = Design("fixed", "fixed design (one look, at the maximum)", "",
               {"mean": "Student t, fixed R", "snr": "exact noncentral t, fixed R",
                "reproducibility": "Clopper-Pearson, fixed R"}, one_look=True)
ANYTIME = Design("anytime", "confidence sequences",
                 " (confidence sequences intersected over the looks: valid however the study "
                 "stops)",
                 {"mean": "t confidence sequence (normal model), intersected over looks",
                  "snr": "confidence sequence (normal model), intersected over looks",
                  "reproducibility": "beta-binomial confidence sequence (distribution-free), "
                                     "intersected over looks"}, time_uniform=True)
PLANNED = Design("planned", "planned design (group-sequential)",
                 " (repeated confidence intervals of a planned design, intersected over its "
                 "looks: valid at whichever planned look the study stops)",
                 {"mean": _repeated("Student t"), "snr": _repeated("exact noncentral t"),
                  "reproducibility": _repeated("Clopper-Pearson")}, planned=True)
#: every design, by its name
DESIGNS: dict[str, Design] = {d.name: d for d in (PLANNED, FIXED, ANYTIME)}


def design_named(name: str) -> Design:
    """The design of a ``stopping.design`` name.

    Parameters
    ----------
    name : {"planned", "fixed", "anytime"}

    Returns
    -------
    Design

    Raises
    ------
    ValueError
        For an unknown name.
    """
    try:
        return DESIGNS[name]
    except (KeyError, TypeError):
        raise ValueError(f"design must be planned, fixed or anytime, got {name!r}") from None


def of_stopping(stopping: Mapping | None) -> Design:
    """How a study's intervals are valid: :data:`FIXED` (R fixed before the run, no stopping
    rule, or ``design: fixed``), or its ``stopping.design``.

    Parameters
    ----------
    stopping : mapping or None
        The config's ``stopping``, or a summary's record of it.

    Returns
    -------
    Design
    """
    if not (stopping and stopping.get("enabled")):
        return FIXED
    # a summary from before stopping.design read confidence sequences, whatever the default
    return design_named(stopping.get("design") or "anytime")

