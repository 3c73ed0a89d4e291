"""The effect a paper reports: the mean difference A - B with its interval over repetitions.

Table 4 gives the mean and the standard deviation of each estimator of A - B over R independent
repetitions (Xue et al., Table 4). A paper reports the effect as the mean with a 95% interval:
over R independent, identically distributed estimates d_1..d_R (one per repetition, each a fresh
split of the same corpus), Student's interval

    mean(d) +- t_{R-1, (1+c)/2} * sd(d) / sqrt(R)      (sd with R - 1 degrees of freedom)

covers the expected estimate over splits of this corpus, E[d], with probability c when the d_r
are normal, and asymptotically otherwise. It is an interval for this corpus's expected
difference under the strategy, not for another corpus or another sample of the same kind of
data: those are other sources of variation.
"""

from __future__ import annotations

import math
from typing import NamedTuple


class MeanInterval(NamedTuple):
    """The mean of R estimates and its interval (same unit as the estimates)."""

    mean: float
    low: float
    high: float


def mean_interval(mean: float, sd: float, repetitions: int,
                  confidence: float = 0.95) -> MeanInterval:
    """Student's t interval for the mean of ``repetitions`` estimates with sample ``sd``.

    From the summary statistics Table 4 keeps (mean, sd with R - 1 degrees of freedom, R), so
    that every committed summary gets its interval without rereading the repetitions.

    Parameters
    ----------
    mean : float
        The mean of the estimates.
    sd : float
        Their standard deviation (R - 1 degrees of freedom).
    repetitions : int
        R, at least 2.
    confidence : float, default 0.95
        Confidence level, in (0, 1).

    Returns
    -------
    MeanInterval
        The mean and the interval's ends.

    Examples
    --------
    >>> [round(v, 4) for v in mean_interval(1.0, 0.5, 5)]
    [1.0, 0.3792, 1.6208]
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence!r}")
    if repetitions < 2:
        raise ValueError(f"an interval needs at least 2 repetitions, got {repetitions!r}")
    if not (math.isfinite(mean) and math.isfinite(sd)) or sd < 0:
        raise ValueError(f"mean and sd must be finite (sd >= 0), got {mean!r} and {sd!r}")
    from scipy import stats  # lazy: the tables import this module, and most jobs never call it

    half = stats.t.ppf((1 + confidence) / 2, repetitions - 1) * sd / math.sqrt(repetitions)
    return MeanInterval(float(mean), float(mean - half), float(mean + half))
