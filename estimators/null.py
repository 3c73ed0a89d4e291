"""Null offsets: the reproducibility and SNR an estimator shows when A and B do not differ.

Xue et al. read "the conclusion reproduces" off the share of positive estimates (Eq. 1) and the
SNR (Eq. 4). Both are calibrated against "no difference" only if a zero true difference gives a
share of 1/2 and an SNR of 0. That holds for an estimator that is one difference (ST, RS, Avg,
Vote) with a symmetric law. It does not hold for the mixture (Eq. 8): it is the larger of two
correlated estimates in the direction of the conclusion, so it leans towards the conclusion even
when there is nothing to find. Its offset is the baseline its reproducibility and SNR must be
read against.

Two measurements of each offset:

- **centred**: the study's own repetitions with every estimate's mean removed (Vote and Avg
  centred separately, then mixed), i.e. the same spread, skew and correlation, no difference;
- **normal**: the closed form for jointly normal Vote and Avg with the study's standard
  deviations s_v, s_a and correlation rho. The orthant probability of a bivariate normal gives
  P(max > 0) = 3/4 - arcsin(rho) / (2 pi) (Sheppard 1899), and Clark (1961) the moments of the
  maximum of two normals with mean 0: E = theta / sqrt(2 pi) and E[max^2] = (s_v^2 + s_a^2) / 2,
  theta^2 = s_v^2 + s_a^2 - 2 rho s_v s_a. For a single difference: 1/2 and 0.

The mixture's offset is the same for "A > B" and "B > A": a centred normal pair is symmetric.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from reprocompare.estimators.reproducibility import _checked, reproducibility, snr
# the estimators that are a single difference (their offset is 1/2 and 0 under a symmetric law)
# and the mixtures of two of them
from reprocompare.strategies import MIXED, SINGLE


@dataclass(frozen=True)
class NullOffset:
    """Reproducibility (Eq. 1) and SNR (Eq. 4) of an estimator with no true difference.

    ``reproducibility``/``snr`` from the centred repetitions, ``*_normal`` in closed form.
    """

    reproducibility: float
    snr: float
    reproducibility_normal: float
    snr_normal: float

    def as_dict(self) -> dict:
        return asdict(self)


def centred_mixture(vote, avg, conclusion: str = "A>B") -> np.ndarray:
    """The directional mixture (Eq. 8) of Vote and Avg with each one's mean removed.

    Parameters
    ----------
    vote, avg : numpy.ndarray of float, shape (R,)
        Vote's and Avg's estimates of the same repetitions.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.

    Returns
    -------
    numpy.ndarray
        The mixture of the centred estimates, one per repetition.
    """
    vote = _checked(vote, "A>B")
    avg = _checked(avg, "A>B")
    if vote.shape != avg.shape:
        raise ValueError(f"vote and avg need one value per repetition each, got {vote.size} "
                         f"and {avg.size}")
    vote, avg = vote - vote.mean(), avg - avg.mean()
    # Eq. 8's Delta as in estimators.difference.mixture, over all repetitions at once
    larger = vote > avg if conclusion == "A>B" else vote < avg
    return np.where(larger, vote, avg)


def mixture_null_normal(sd_vote: float, sd_avg: float, rho: float) -> tuple[float, float]:
    """Closed-form (reproducibility, SNR) of the mixture of jointly normal, centred Vote and Avg.

    Parameters
    ----------
    sd_vote, sd_avg : float
        The standard deviations of Vote and Avg.
    rho : float
        Their correlation, in [-1, 1].

    Returns
    -------
    (float, float)
        The reproducibility and the SNR of the centred mixture.

    Examples
    --------
    >>> tuple(round(x, 4) for x in mixture_null_normal(1.0, 1.0, 0.65))
    (0.6374, 0.3541)
    >>> mixture_null_normal(1.0, 1.0, 1.0)  # the same estimate twice: no lean
    (0.5, 0.0)
    """
    if sd_vote < 0 or sd_avg < 0 or not -1 <= rho <= 1:
        raise ValueError(f"need standard deviations >= 0 and a correlation in [-1, 1], got "
                         f"{sd_vote!r}, {sd_avg!r}, {rho!r}")
    if sd_vote == 0 and sd_avg == 0:
        return 0.0, 0.0  # both always 0: the mixture is 0, never > 0
    if sd_vote == 0 or sd_avg == 0:
        share = 0.5  # max(X, 0) > 0 exactly when X > 0
        rho = 0.0
    else:
        share = 0.75 - math.asin(rho) / (2 * math.pi)
    theta2 = max(sd_vote**2 + sd_avg**2 - 2 * rho * sd_vote * sd_avg, 0.0)
    mean = math.sqrt(theta2 / (2 * math.pi))
    variance = (sd_vote**2 + sd_avg**2) / 2 - mean**2
    return float(share), (float(mean / math.sqrt(variance)) if variance > 0 else 0.0)


def null_offset(values, conclusion: str = "A>B") -> NullOffset:
    """The offset of a single-difference estimator (ST, RS, Avg, Vote) from its repetitions.

    Centring makes the SNR 0 exactly; the centred share is 1/2 for a symmetric law and moves
    with the skew of the estimates.

    Parameters
    ----------
    values : array_like of float, shape (R,)
        The estimator's values of A - B (at least 2).
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.

    Returns
    -------
    NullOffset
        The share and SNR of the centred values.

    Examples
    --------
    >>> null_offset([0.1, 0.2, 0.3, 0.9]).reproducibility  # one of four above the mean
    0.25
    """
    values = _checked(values, "A>B")
    return NullOffset(reproducibility(values - values.mean(), conclusion), 0.0, 0.5, 0.0)


def mixture_null_offset(vote, avg, conclusion: str = "A>B") -> NullOffset:
    """The mixture's offset: its centred repetitions and the normal closed form.

    Parameters
    ----------
    vote, avg : array_like of float, shape (R,)
        Vote's and Avg's estimates of the same repetitions.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.

    Returns
    -------
    NullOffset
        The mixture's offset.
    """
    centred = centred_mixture(vote, avg, conclusion)
    vote, avg = np.asarray(vote, dtype=np.float64), np.asarray(avg, dtype=np.float64)
    sd_vote, sd_avg = float(vote.std(ddof=1)), float(avg.std(ddof=1))
    rho = float(np.corrcoef(vote, avg)[0, 1]) if sd_vote > 0 and sd_avg > 0 else 0.0
    share, ratio = mixture_null_normal(sd_vote, sd_avg, float(np.clip(rho, -1, 1)))
    return NullOffset(reproducibility(centred, conclusion), snr(centred, conclusion), share, ratio)


def null_offsets(values: dict, conclusion: str = "A>B") -> dict[str, NullOffset]:
    """The offset of every estimator in ``values`` (:func:`reprocompare.study.summary.estimator_values`)
    with at least 2 repetitions; the mixture's needs Vote and Avg of the same repetitions.

    Parameters
    ----------
    values : dict of str to array_like
        Each estimator's values, by name.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.

    Returns
    -------
    dict of str to NullOffset
        The offset of each estimator that has one.
    """
    offsets = {name: null_offset(values[name], conclusion)
               for name in SINGLE if len(values.get(name, ())) >= 2}
    for name, (vote, avg) in MIXED.items():
        if len(values.get(vote, ())) >= 2 and avg in values:
            offsets[name] = mixture_null_offset(values[vote], values[avg], conclusion)
    return offsets
