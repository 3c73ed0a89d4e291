"""The stopping rule over many simulated studies at once: what ``reprocompare plan`` runs.

:func:`reprocompare.estimators.planning.run_rule` asks
:func:`~reprocompare.estimators.verdict.verdict` at every look of every study, which inverts a
noncentral t per look: 1,000 studies of 40 looks took minutes. Here the same rule is computed for
all studies together, look by look, for a single-difference estimator under a planned design
(or the fixed design, its one look), with the verdict's every step:

- a look whose estimates have no spread so far is degenerate (decided: no verdict);
- the normal model is judged at each look on that look's data (ties, Shapiro-Wilk from R =
  :data:`~reprocompare.estimators.normality.SHAPIRO_FROM`: ``estimators.normality``);
- on the normal path the SNR's exact interval at each planned look's level, intersected over
  the looks so far: "A > B" when some look's low end reaches the upper bound, the opposite when
  some high end reaches the lower, "neither" when both ends are inside (and not while every
  estimate lies on one side of 0); an empty intersection sends the look to the other path.
  The ends are the noncentrality's roots, found by bisection over all studies at once;
- off it, Clopper-Pearson intervals of Eq. 1's shares at half the look's error, intersected;
- the first decided look's decision is kept.

``tests/test_plan.py`` checks that it stops every study where ``run_rule`` does, with the same
decisions, on normal, skewed and tied estimates.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy import stats

from reprocompare.estimators.normality import SHAPIRO_FROM, SHAPIRO_LEVEL
from reprocompare.estimators.reproducibility import RELATIVE_TOLERANCE
from reprocompare.estimators.verdict import (NO_DIFFERENCE, OPPOSED, SUPPORTED, UNDECIDED,
                                             _nct_cdf, decision_bounds, share_bounds)

#: the decision code of a study whose estimates have no spread (the verdict's "degenerate")
DEGENERATE = 3
#: bisection steps for the interval's ends: the bracket shrinks 2^-64-fold
STEPS = 64


def _roots(t: np.ndarray, df: int, q: float) -> np.ndarray:
    """The noncentrality with P(T <= t | df, noncentrality) = q, for every t (the cdf falls as
    the noncentrality grows), by bisection: the roots the exact interval's brentq finds."""
    width = np.maximum(1.0, np.abs(t))
    low, high = t - width, t + width
    for _ in range(200):  # widen each bracket until it holds its root (as the scalar search)
        out = _nct_cdf(t, df, low) < q
        if not out.any():
            break
        low = np.where(out, low - width, low)
        width = np.where(out, 2 * width, width)
    width = np.maximum(1.0, np.abs(t))
    for _ in range(200):
        out = _nct_cdf(t, df, high) > q
        if not out.any():
            break
        high = np.where(out, high + width, high)
        width = np.where(out, 2 * width, width)
    for _ in range(STEPS):
        middle = (low + high) / 2
        above = _nct_cdf(t, df, middle) > q  # the root lies above the middle
        low, high = np.where(above, middle, low), np.where(above, high, middle)
    return (low + high) / 2


def _clopper_pearson(count: np.ndarray, n: int, confidence: float):
    alpha = 1 - confidence
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        low = np.where(count > 0, stats.beta.ppf(alpha / 2, np.maximum(count, 1), n - count + 1),
                       0.0)
        high = np.where(count < n, stats.beta.ppf(1 - alpha / 2, count + 1,
                                                  np.maximum(n - count, 1)), 1.0)
    return low, high


def _ties(head: np.ndarray) -> np.ndarray:
    """Per study: two estimates equal to 9 digits of the largest (estimators.normality)."""
    scale = np.abs(head).max(axis=1, keepdims=True)
    scale[scale == 0] = 1.0
    rounded = np.sort(np.round(head / scale, 9), axis=1)
    return (np.diff(rounded, axis=1) == 0).any(axis=1)


def first_decisions(values: np.ndarray, looks: dict[int, float], *, threshold: float,
                    snr0: float = 0.0, conclusion: str = "A>B") -> tuple[np.ndarray, np.ndarray]:
    """Each study's decision code and the look that decided it (0: undecided by the last look).

    Parameters
    ----------
    values : numpy.ndarray, shape (studies, R)
        Each study's values of A - B in repetition order.
    looks : dict of int to float
        The planned looks (R <= the values' length) and each one's confidence
        (:func:`~reprocompare.estimators.group_sequential.look_confidences`).
    threshold : float
        tau.
    snr0 : float, default 0.0
        The estimator's null SNR offset (0 for single differences).
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        The code (:data:`~reprocompare.estimators.verdict.SUPPORTED`, ``OPPOSED``,
        ``NO_DIFFERENCE``, ``UNDECIDED`` or :data:`DEGENERATE`) and the R where it came.
    """
    signed = np.asarray(values, dtype=np.float64) * (1 if conclusion == "A>B" else -1)
    studies = signed.shape[0]
    below, above = decision_bounds(threshold, snr0)
    need_up, need_down = share_bounds(threshold, snr0)
    code = np.full(studies, UNDECIDED)
    at = np.zeros(studies, dtype=int)
    low_end = np.full(studies, -np.inf)    # the SNR's intersected interval
    high_end = np.full(studies, np.inf)
    up = [np.zeros(studies), np.ones(studies)]      # P(x > 0), intersected
    down = [np.zeros(studies), np.ones(studies)]    # P(x < 0)
    for n, level in sorted(looks.items()):
        # only the studies still undecided: a study's ends, shares and normality check are its
        # own row's, so leaving out the decided ones changes nothing else (and the cost of a
        # clear difference's study ends at its first decided look)
        live_rows = np.flatnonzero(code == UNDECIDED)
        if not live_rows.size:
            break
        head = signed[live_rows, :n]
        mean, sd = head.mean(axis=1), head.std(axis=1, ddof=1)
        largest = np.abs(head).max(axis=1)
        constant = sd <= RELATIVE_TOLERANCE * largest
        low, high = low_end[live_rows], high_end[live_rows]
        if level < 1 and n >= 2:
            with np.errstate(divide="ignore", invalid="ignore"):
                t = math.sqrt(n) * mean / sd
            alpha = 1 - level
            point = np.where(mean > 0, np.inf, np.where(mean < 0, -np.inf, 0.0))
            live = ~constant
            lows, highs = point.copy(), point.copy()
            if live.any():
                lows[live] = _roots(t[live], n - 1, 1 - alpha / 2) / math.sqrt(n)
                highs[live] = _roots(t[live], n - 1, alpha / 2) / math.sqrt(n)
            low, high = np.maximum(low, lows), np.minimum(high, highs)
            low_end[live_rows], high_end[live_rows] = low, high
            half = 1 - alpha / 2
            for ends, count in ((up, (head > 0).sum(axis=1)), (down, (head < 0).sum(axis=1))):
                cp_low, cp_high = _clopper_pearson(count, n, half)
                ends[0][live_rows] = np.maximum(ends[0][live_rows], cp_low)
                ends[1][live_rows] = np.minimum(ends[1][live_rows], cp_high)
        rejected = _ties(head)
        if n >= SHAPIRO_FROM:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                pvalue = stats.shapiro(head, axis=1).pvalue
            rejected |= ~rejected & (pvalue < SHAPIRO_LEVEL)
        off = rejected | (low > high)
        normal = np.where(low >= above, SUPPORTED, np.where(
            high <= below, OPPOSED, np.where((low > below) & (high < above),
                                             NO_DIFFERENCE, UNDECIDED)))
        one_side = (head > 0).all(axis=1) | (head < 0).all(axis=1)
        normal = np.where(one_side & (normal == NO_DIFFERENCE), UNDECIDED, normal)
        up_low, up_high = up[0][live_rows], up[1][live_rows]
        down_low, down_high = down[0][live_rows], down[1][live_rows]
        shares = np.where(up_low >= need_up, SUPPORTED, np.where(
            down_low >= need_down, OPPOSED, np.where((up_high < need_up)
                                                     & (down_high < need_down),
                                                     NO_DIFFERENCE, UNDECIDED)))
        here = np.where(off, shares, normal)
        here = np.where(constant, DEGENERATE, here)
        new = here != UNDECIDED
        code[live_rows[new]], at[live_rows[new]] = here[new], n
    return code, at
