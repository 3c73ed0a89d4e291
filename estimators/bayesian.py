"""Bayesian answers beside the verdict: the correlated t-test and the signed-rank test.

A reproducibility verdict answers "will another split of this corpus agree?". Researchers who
follow Benavoli, Corani, Demšar and Zaffalon (2017, "Time for a change", JMLR 18:77) ask another
question: "how probable is it that A is practically better than B, equivalent to it, or worse?".
This module answers it twice, for a region of practical equivalence (rope) of +-``rope`` F1
points around 0 (a study's ``verdict.posterior_rope``, half a point unless set):

* on one corpus, from an estimator's R per-repetition values (a summary's ``values``), with the
  correlated Bayesian t-test (Benavoli et al. 2017, Sec. 4, Eq. 8; Corani and Benavoli 2015),
  :func:`correlated_ttest`;
* across corpora (or a variation study's samples), from one mean difference per corpus, with the
  Bayesian signed-rank test (Benavoli et al. 2014, ICML; baycomp's ``SignedRankTest``),
  :func:`signed_rank`.

Estimates are F1 shares (0.01 is one F1 point), as every summary holds them; the rope is in F1
points, as the config's ``verdict.posterior_rope`` is (None here means 0: no rope). P(A > B) is the
posterior probability that the mean of A - B exceeds +rope, P(B > A) that it is below -rope,
P(rope) the rest.

The correlation rho
-------------------
The correlated t-test models n estimates as exchangeable normals with correlation rho,
Sigma = sigma^2 ((1 - rho) I + rho 1 1^T) (Benavoli et al. 2017, Eq. 7). With the
Nadeau-Bengio correction (Nadeau and Bengio 2003, Sec. 5) as Benavoli uses it, two hold-out
estimates of the same corpus on different random splits correlate by the test share,

    rho_0 = n_test / (n_train + n_test)                      (1/9 at 8:1; 1/2 at 1:1)

through the corpus they share: rho is the share of an estimate's variance that comes from which
corpus was drawn, not from how it was split. Each strategy carries it to the values a summary
holds, one per repetition (:meth:`reprocompare.strategies.strategy.Strategy.repetition_rho`,
from :func:`holdout_rho` and :func:`averaged_rho` here). A repetition's estimator averages J fold estimates of one
fresh random split design (ST: J = 1 hold-out; RS: J = ``table4_k`` hold-outs at the ratio;
BCV's Avg: J = 2m half-splits). With every pair of folds correlated rho_0 (the convention
baycomp uses for repeated k-fold CV, where all runs x k scores share rho = 1/k), two
repetitions' means have covariance rho_0 sigma^2 and each has variance
sigma^2 (rho_0 + (1 - rho_0) / J), so

    rho_rep = rho_0 / (rho_0 + (1 - rho_0) / J) = J rho_0 / (1 + (J - 1) rho_0).

ST at 8:1: 1/9 = 0.111; RS with 6 hold-outs at 8:1: 3/7 = 0.429 (3 hold-outs: 3/11); BCV
(m = 3): rho_0 = 1/2, J = 6, 6/7 = 0.857. Vote and Mixture are not means of folds; they get
their BCV's Avg rho, an approximation (their variance per repetition is larger, so the corpus'
share of it is smaller: the rho is conservative for them).

Which rho answers which question: within one study the repetitions are independent draws of the
estimator given the corpus (each repetition is its own random split), so for the question "is
A better than B on this corpus, over its random splits?" rho = 0 is exact and the posterior is
the ordinary Bayesian t (scale s / sqrt(n)). For "is A better than B on corpora like this
one?", the values share the corpus and rho_rep above is the correlation; as n grows the
posterior's scale tends to sqrt(rho / (1 - rho)) s, not 0: repetitions cannot remove the
corpus's own luck. docs/bayesian.md measures rho on the committed size studies (three disjoint
samples per size) with :func:`intraclass_correlation`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

from reprocompare import schemas
from reprocompare.base.errors import UserError
from reprocompare.estimators.reproducibility import RELATIVE_TOLERANCE

#: estimates are F1 shares, a rope is in F1 points (the config's ``verdict.posterior_rope``)
POINTS_PER_SHARE = 100.0
#: the posteriors' rope, in F1 points, for a caller without a config (the schema's default; a
#: study's summaries read its config's ``verdict.posterior_rope``)
POSTERIOR_ROPE = schemas.default("verdict.posterior_rope")
#: the Dirichlet process's prior strength on its pseudo-observation at 0 (Benavoli et al. 2014;
#: baycomp's default)
PRIOR_STRENGTH = 0.5
#: Monte Carlo samples of the signed-rank posterior (baycomp's default)
SIGNED_RANK_SAMPLES = 50_000


@dataclass(frozen=True)
class Posterior:
    """Three posterior probabilities for a rope, and what they were computed from.

    Attributes
    ----------
    p_a_better, p_rope, p_b_better : float
        P(A - B > rope), P(|A - B| <= rope), P(A - B < -rope); they sum to 1.
    rope : float
        The rope's half-width, in F1 points.
    rho : float
        The correlation the posterior assumed (0 for the signed-rank test, which has none).
    point : bool
        True when the estimates had no spread: the posterior is a point at their mean, and each
        probability is 0 or 1 by where the mean lies (a degenerate answer, not a confident one).
    mc_se : float
        The Monte Carlo standard error of the largest probability (0 where computed exactly).
    """

    p_a_better: float
    p_rope: float
    p_b_better: float
    rope: float
    rho: float
    point: bool = False
    mc_se: float = 0.0

    def as_record(self) -> dict:
        """The record a summary keeps per estimator (issue 52's keys, and ``point``)."""
        return {"p_a_better": self.p_a_better, "p_rope": self.p_rope,
                "p_b_better": self.p_b_better, "rope": self.rope, "rho": self.rho,
                "point": self.point}


def _rope_share(rope) -> float:
    """The rope in F1 shares, checked (None is 0: no rope)."""
    if rope is None:
        return 0.0
    try:
        rope = float(rope)
    except (TypeError, ValueError):
        raise UserError(f"rope must be a number of F1 points, got {rope!r}", key="rope") from None
    if not math.isfinite(rope) or rope < 0:
        raise UserError(f"rope must be a finite number of F1 points >= 0, got {rope!r}",
                        key="rope")
    return rope / POINTS_PER_SHARE


def _estimates(values, what: str) -> np.ndarray:
    """``values`` as a checked 1-d float array of at least two finite numbers."""
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != 1:
        raise UserError(f"{what} must be one-dimensional, got shape {values.shape}", key=what)
    if values.size < 2:
        raise UserError(f"{what} needs at least 2 values for a posterior, got {values.size}",
                        key=what)
    if not np.all(np.isfinite(values)):
        bad = int(np.flatnonzero(~np.isfinite(values))[0])
        raise UserError(f"{what} must be finite, got {float(values[bad])!r} at index {bad}",
                        key=what)
    return values


def correlated_ttest(values: Sequence[float], *, rope: float | None, rho: float) -> Posterior:
    """The correlated Bayesian t-test on n estimates of A - B (Benavoli et al. 2017, Sec. 4).

    Under the exchangeable normal model with correlation rho and the improper prior
    p(mu, nu) ~ 1/nu (Benavoli et al. 2017, Eq. 8; Corani and Benavoli 2015), the posterior of
    the mean difference mu is a Student t with n - 1 degrees of freedom, location the sample
    mean and scale

        sqrt((1/n + rho / (1 - rho)) s^2)                 (s^2: sample variance, ddof = 1),

    the Nadeau-Bengio corrected variance. rho = 0 is the ordinary Bayesian t.

    Parameters
    ----------
    values : sequence of float
        The estimates of A - B, F1 shares (a summary's ``values`` of one estimator); at least 2.
    rope : float or None
        The rope's half-width in F1 points, finite and >= 0 (None: 0).
    rho : float
        The estimates' correlation, in [0, 1): the strategy's ``repetition_rho`` for a summary's
        values on the population of corpora, 0 for this corpus's population of splits.

    Returns
    -------
    Posterior
        P(A > B), P(rope), P(B > A). Zero spread (sd at most ``RELATIVE_TOLERANCE`` of the
        largest magnitude): the posterior is a point at the mean, ``point`` is True and the
        probabilities are 0 or 1 (the rope is closed: a mean at its edge is in it).

    Raises
    ------
    UserError
        Fewer than 2 values, a value not finite, a rope negative or not finite, rho outside
        [0, 1).

    Examples
    --------
    Five repetitions of ST at 8:1, about half an F1 point apart, with a rope of 0.1 points:

    >>> post = correlated_ttest([0.004, 0.009, 0.001, 0.006, 0.005], rope=0.1, rho=1 / 9)
    >>> [round(p, 4) for p in (post.p_a_better, post.p_rope, post.p_b_better)]
    [0.9631, 0.0256, 0.0113]

    No spread: a point at 1 F1 point, beyond the rope of half a point:

    >>> post = correlated_ttest([0.01, 0.01, 0.01], rope=0.5, rho=0)
    >>> post.point, post.p_a_better, post.p_rope
    (True, 1.0, 0.0)
    """
    values = _estimates(values, "values")
    rope_share = _rope_share(rope)
    try:
        rho = float(rho)
    except (TypeError, ValueError):
        raise UserError(f"rho must be a number in [0, 1), got {rho!r}", key="rho") from None
    if not 0 <= rho < 1:
        raise UserError(f"rho must lie in [0, 1), got {rho!r}", key="rho")
    rope_points = 0.0 if rope is None else float(rope)
    n = values.size
    mean = float(values.mean())
    sd = float(values.std(ddof=1))
    if sd <= RELATIVE_TOLERANCE * float(np.abs(values).max()):
        above, below = float(mean > rope_share), float(mean < -rope_share)
        return Posterior(above, 1.0 - above - below, below, rope_points, rho, point=True)
    p_a, p_rope, p_b = correlated_t_probabilities(mean, sd, n, rope_share=rope_share, rho=rho)
    return Posterior(float(p_a), float(p_rope), float(p_b), rope_points, rho)


def correlated_t_probabilities(mean, sd, n: int, *, rope_share: float, rho: float):
    """:func:`correlated_ttest`'s three probabilities for many studies at once, unchecked.

    The same formula on arrays of means and standard deviations (sd > 0) of ``n`` estimates
    each, for the calibration bench; the rope here is in F1 shares (the estimates' unit).

    Parameters
    ----------
    mean, sd : float or numpy.ndarray
        Each study's mean and standard deviation (ddof = 1) of its estimates, F1 shares.
    n : int
        The number of estimates per study, at least 2.
    rope_share : float
        The rope's half-width in F1 shares, >= 0.
    rho : float
        The correlation assumed, in [0, 1).

    Returns
    -------
    tuple of numpy.ndarray
        P(A > B), P(rope), P(B > A).

    Examples
    --------
    >>> [round(float(p), 4) for p in correlated_t_probabilities(0.02, 0.01, 3, rope_share=0,
    ...                                                         rho=0)]
    [0.9629, 0.0, 0.0371]
    """
    # local: the report jobs import this module (through estimators.claims) without computing a
    # posterior, and scipy.stats costs every fresh job process 0.7 CPU s (bench_job_cpu.py)
    from scipy import stats

    scale = np.sqrt((1.0 / n + rho / (1.0 - rho)) * np.square(sd))
    p_a = stats.t.sf((rope_share - np.asarray(mean)) / scale, n - 1)
    p_b = stats.t.cdf((-rope_share - np.asarray(mean)) / scale, n - 1)
    # no rope: P(rope) is 0, not the rounding left of 1 - p_a - p_b
    p_rope = np.maximum(0.0, 1.0 - p_a - p_b) if rope_share > 0 else np.zeros_like(p_a)
    return p_a, p_rope, p_b


def holdout_rho(ratio: str) -> float:
    """Nadeau and Bengio's correlation of two hold-outs of one corpus: the test share.

    Parameters
    ----------
    ratio : str
        train:test, as the config writes it ("8:1").

    Returns
    -------
    float
        n_test / (n_train + n_test).

    Examples
    --------
    >>> holdout_rho("8:1"), holdout_rho("1:1")
    (0.1111111111111111, 0.5)
    """
    try:
        train, test = (Fraction(part.strip()) for part in str(ratio).split(":"))
    except (ValueError, ZeroDivisionError):
        raise UserError(f"ratio must be train:test, e.g. 8:1, got {ratio!r}",
                        key="ratio") from None
    if train <= 0 or test <= 0:
        raise UserError(f"ratio's parts must be positive, got {ratio!r}", key="ratio")
    return float(test / (train + test))


def averaged_rho(fold_rho: float, folds: int) -> float:
    """The correlation of two repetitions' means of ``folds`` equicorrelated folds.

    rho_rep = J rho_0 / (1 + (J - 1) rho_0) (module docstring): the corpus's covariance
    rho_0 sigma^2 over the mean's variance sigma^2 (rho_0 + (1 - rho_0) / J).

    Parameters
    ----------
    fold_rho : float
        rho_0, the correlation of any two folds (:func:`holdout_rho`).
    folds : int
        J, the folds a repetition averages, at least 1.

    Returns
    -------
    float
        rho_rep.

    Examples
    --------
    >>> round(averaged_rho(1 / 9, 6), 4), round(averaged_rho(0.5, 6), 4)
    (0.4286, 0.8571)
    """
    if folds < 1:
        raise UserError(f"folds must be at least 1, got {folds!r}", key="folds")
    return folds * fold_rho / (1.0 + (folds - 1) * fold_rho)


def intraclass_correlation(groups: Sequence[Sequence[float]],
                           confidence: float = 0.95) -> tuple[float, float, float]:
    """One-way random-effects ICC(1) of equal-sized groups, with its F-based interval.

    With k corpora of n repetitions each, ICC = (MSB - MSW) / (MSB + (n - 1) MSW) estimates the
    share of an estimate's variance that is the corpus's: the rho between two repetitions of one
    corpus (Shrout and Fleiss 1979, ICC(1,1); interval from F = MSB / MSW on k - 1 and k(n - 1)
    degrees of freedom, Searle 1971). It can be negative by chance; it is not clipped.

    Parameters
    ----------
    groups : sequence of sequence of float
        k >= 2 groups (corpora) of n >= 2 values each (repetitions).
    confidence : float, default 0.95
        The interval's level.

    Returns
    -------
    tuple of float
        (estimate, low, high).

    Examples
    --------
    >>> [round(v, 3) for v in intraclass_correlation([[1, 2, 3], [2, 3, 4], [5, 6, 7]])]
    [0.8, 0.209, 0.994]
    """
    from scipy import stats  # local: as in correlated_t_probabilities

    data = np.asarray(groups, dtype=np.float64)
    if data.ndim != 2 or data.shape[0] < 2 or data.shape[1] < 2:
        raise UserError(f"groups must be at least 2 groups of at least 2 equal-sized values, got "
                        f"shape {data.shape}", key="groups")
    k, n = data.shape
    msb = n * data.mean(axis=1).var(ddof=1)
    msw = data.var(axis=1, ddof=1).mean()
    f = msb / msw
    tail = (1 - confidence) / 2
    f_low = f / stats.f.ppf(1 - tail, k - 1, k * (n - 1))
    f_high = f / stats.f.ppf(tail, k - 1, k * (n - 1))
    return tuple(float((x - 1) / (x + n - 1)) for x in (f, f_low, f_high))


def signed_rank(differences: Sequence[float], *, rope: float | None,
                prior: float = PRIOR_STRENGTH, samples: int = SIGNED_RANK_SAMPLES,
                seed: int = 0) -> Posterior:
    """The Bayesian signed-rank test across corpora (Benavoli et al. 2014, ICML).

    A Dirichlet process with prior strength ``prior`` on a pseudo-observation at 0 and the
    observed per-corpus differences d_1..d_q: its posterior weights are Dirichlet(prior, 1, ...,
    1) on (0, d_1, ..., d_q) (Benavoli et al. 2014, Eq. 6). Each sampled weight vector w gives
    the three probabilities of the population of corpora,

        theta_A = sum_ij w_i w_j [d_i + d_j > 2 rope],
        theta_B = sum_ij w_i w_j [d_i + d_j < -2 rope],

    theta_rope the rest (ties at the edge count half, as baycomp's Heaviside does); P(A > B) is the
    share of samples in which theta_A is the largest of the three (baycomp's ``SignedRankTest``,
    whose argmax order, B, rope, A, breaks ties).

    Parameters
    ----------
    differences : sequence of float
        One mean difference A - B per corpus or sample, F1 shares; at least 2.
    rope : float or None
        The rope's half-width in F1 points, finite and >= 0 (None: 0).
    prior : float, default 0.5
        The pseudo-observation's weight.
    samples : int, default 50000
        Monte Carlo samples.
    seed : int, default 0
        Seeds numpy's Generator: the same seed, the same probabilities.

    Returns
    -------
    Posterior
        With ``rho`` 0 and ``mc_se`` the Monte Carlo standard error of the largest probability.

    Examples
    --------
    Three disjoint samples in which A leads by about a third of a point:

    >>> post = signed_rank([0.003, 0.004, 0.0035], rope=0.1, samples=20000)
    >>> round(post.p_a_better, 2), post.p_b_better
    (0.99, 0.0)
    """
    differences = _estimates(differences, "differences")
    rope_share = _rope_share(rope)
    if not (math.isfinite(prior) and prior > 0):
        raise UserError(f"prior must be a finite number > 0, got {prior!r}", key="prior")
    if int(samples) != samples or samples < 1:
        raise UserError(f"samples must be a positive integer, got {samples!r}", key="samples")
    rope_points = 0.0 if rope is None else float(rope)
    points = np.concatenate(([0.0], differences))
    sums = points[:, None] + points[None, :]
    above = (sums > 2 * rope_share) + 0.5 * (sums == 2 * rope_share)
    below = (-sums > 2 * rope_share) + 0.5 * (-sums == 2 * rope_share)
    weights = np.ones(points.size)
    weights[0] = prior
    w = np.random.default_rng(seed).dirichlet(weights, int(samples))
    theta_a = np.einsum("si,ij,sj->s", w, above, w)
    theta_b = np.einsum("si,ij,sj->s", w, below, w)
    theta = np.stack([theta_b, 1.0 - theta_a - theta_b, theta_a], axis=1)
    p_b, p_rope, p_a = np.bincount(theta.argmax(axis=1), minlength=3) / samples
    largest = max(p_a, p_rope, p_b)
    return Posterior(float(p_a), float(p_rope), float(p_b), rope_points, 0.0,
                     mc_se=math.sqrt(largest * (1 - largest) / samples))
