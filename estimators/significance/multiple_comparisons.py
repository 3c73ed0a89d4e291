"""Several comparisons at once: Holm's step-down correction of their p-values."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["HolmResult", "holm_bonferroni"]


class HolmResult(NamedTuple):
    """Holm-adjusted p-values (input order) and which hypotheses are rejected at ``alpha``."""

    p_adjusted: np.ndarray
    reject: np.ndarray


def holm_bonferroni(p_values, alpha: float = 0.05) -> HolmResult:
    r"""Holm's step-down multiple-testing correction (controls the family-wise error rate).

    Sort the :math:`m` p-values, :math:`p_{(1)} \le \dots \le p_{(m)}`. Reject
    :math:`H_{(1)}, \dots, H_{(k-1)}` where :math:`k` is the smallest index with
    :math:`p_{(k)} > \alpha / (m - k + 1)` (Holm 1979). The adjusted p-values are

    .. math:: \tilde p_{(k)} = \min\left(1, \max_{j \le k} (m - j + 1)\, p_{(j)}\right),

    monotone in the sorted order, so that :math:`H_{(k)}` is rejected iff
    :math:`\tilde p_{(k)} \le \alpha` (Wright 1992). Holm is uniformly more powerful than plain
    Bonferroni and needs no independence assumption.

    Parameters
    ----------
    p_values : array_like, shape (m,)
        Unadjusted p-values in [0, 1].
    alpha : float, default 0.05
        Family-wise error rate.

    Returns
    -------
    HolmResult
        ``p_adjusted`` (in input order, capped at 1) and boolean ``reject``.

    References
    ----------
    S. Holm (1979). A simple sequentially rejective multiple test procedure. Scandinavian Journal
    of Statistics 6(2):65-70.
    S. P. Wright (1992). Adjusted p-values for simultaneous inference. Biometrics 48(4):1005-1013.
    """
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1:
        raise ValueError(f"p_values must be one-dimensional, got shape {p.shape}")
    if p.size == 0:
        raise ValueError("p_values is empty: there are no hypotheses to correct")
    if np.any(np.isnan(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError("p_values must lie in [0, 1] (no NaN)")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    m = p.size
    # A stable sort keeps tied p-values in input order, so the result does not depend on how
    # the sort breaks ties.
    order = np.argsort(p, kind="stable")
    sorted_p = p[order]
    factors = np.arange(m, 0, -1, dtype=float)  # m - k + 1 for k = 1..m
    adjusted_sorted = np.minimum(1.0, np.maximum.accumulate(factors * sorted_p))
    # Step-down rejection in Holm's own form (p_(k) <= alpha / (m - k + 1) for all j <= k),
    # rather than adjusted <= alpha, so floating-point rounding at the boundary follows the
    # definition.
    passes = sorted_p <= alpha / factors
    reject_sorted = np.logical_and.accumulate(passes)
    adjusted = np.empty(m)
    reject = np.empty(m, dtype=bool)
    adjusted[order] = adjusted_sorted
    reject[order] = reject_sorted
    return HolmResult(adjusted, reject)
