r"""Futility: can a sequential study still reach a verdict by its maximum R?

A sequential study (``reprocompare sequential``) looks after every wave and stops once every
deciding estimator's :func:`~reprocompare.estimators.verdict.verdict` is decided. Near the
decision threshold that may never happen by ``max_repetitions``, and every wave after the point
where a verdict became unlikely is spent for nothing. Futility stopping ends such a study early,
"without a verdict": it claims nothing, so it cannot make a verdict wrong (a confidence sequence
covers at any stopping time, this one included).

The rule: at a look R below the maximum, :func:`decided_probability` is the predictive
probability that an estimator's verdict is decided at one of the remaining looks ``R + wave, ...,
max_repetitions``; the study is futile when, for some undecided deciding estimator, it is below
``stopping.futility``. Since the study decides only when *every* deciding estimator does, the
smallest of these probabilities bounds the study's own from above, so a futile study's chance of
a verdict by the maximum is below the level too.

The probability, on the normal path (the verdict's own model):

1. **The decision as thresholds on t.** A look at R decides from the confidence sequence of the
   SNR (:func:`~reprocompare.estimators.sequential.sequence_from_t`), a function of the t
   statistic :math:`T_R = \sqrt R\,\bar x / s` alone. Its low end is at or above an SNR c exactly
   when :math:`T_R \ge t_R(c)`, the t at which the e-value against c reaches
   :math:`1/\alpha` from the right (:func:`t_threshold`); its high end is at or below c when
   :math:`-T_R \ge t_R(-c)` (the sequence of :math:`-T` is the mirror image). Over the looks the
   intervals are intersected (a decided verdict stays decided), so with the bounds
   :math:`b_- < b_+` of :func:`~reprocompare.estimators.verdict.decision_bounds`: "A > B" once
   some look has low >= :math:`b_+`, "B > A" once some look has high <= :math:`b_-`, "neither"
   once some look has low > :math:`b_-` and some (maybe another) high < :math:`b_+`.
2. **The predictive law of the looks to come** (Bayesian, Jeffreys' prior
   :math:`p(\mu, \sigma) \propto 1/\sigma`): :math:`\sigma^2 \mid x \sim SS/\chi^2_{R-1}`,
   :math:`\mu \mid \sigma, x \sim N(\bar x, \sigma^2/R)`, and each wave's n new values
   :math:`\sim N(\mu, \sigma^2)`, drawn through their sum and within-wave sum of squares. The
   uncertainty of the SNR itself is in it, not only the noise of what is left to run (a
   conditional power at the point SNR would stop more studies that could still decide).
3. ``draws`` seeded paths; the share that decide is the probability.

Under a planned design (``planned=True``, ``stopping.design: planned``) the verdict reads, at
each planned look R, the exact fixed-R interval of the SNR at that look's own confidence
:math:`1 - \alpha_k` (:func:`~reprocompare.estimators.group_sequential.look_confidences`),
intersected over the planned looks; step 1's thresholds are then the noncentral t quantiles of
:func:`exact_t_threshold` (low >= c exactly when :math:`T_R \ge F^{-1}_{nct}(1 - \alpha_k/2;
R - 1, \sqrt R c)`, the mirror for the high end), only the planned looks count, and a look
that spends no error (:math:`\alpha_k = 0`) reaches nothing. A futile stop at a planned look
claims nothing either: the repeated confidence intervals cover at every planned look at once.

Limits, each conservative (the study goes on) where it matters: an estimator on the
distribution-free path, or a study with a ``rope`` (its equivalence verdict reads the mean's
interval, not the SNR's), is not judged (:func:`decided_probability` returns None: never futile);
the mixture's null offset is held at its current estimate; the normal path's "neither waits while
every estimate has one sign" is not modelled (it can only make "neither" later).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping, Sequence

import numpy as np
from scipy import optimize, stats

from reprocompare.estimators.group_sequential import look_confidences
from reprocompare.estimators.normality import normal_model
from reprocompare.estimators.sequential import PRIOR, log_e_value, looks
from reprocompare.estimators.verdict import THRESHOLD, _nct_cdf, decision_bounds

#: predictive paths per judgement: the probability's Monte Carlo standard error is at most
#: 0.008, and 0.0035 near a level of 0.05
DRAWS = 4000


@lru_cache(maxsize=65536)
def t_threshold(repetitions: int, snr: float, confidence: float,
                prior=PRIOR) -> float:
    r"""The t statistic at which the confidence sequence's low end reaches ``snr`` at R.

    The sequence at R excludes an SNR c when the mixture e-value :math:`M_R(c) \ge 1/\alpha`
    (:func:`~reprocompare.estimators.sequential.log_e_value`); to the right of
    :math:`\sqrt R\,c` the e-value grows with T, so the low end is at or above c exactly when
    :math:`T_R \ge t_R(c)`, the crossing found here.

    Parameters
    ----------
    repetitions : int
        R >= 2.
    snr : float
        c, the SNR the low end must reach.
    confidence : float
        The sequence's confidence, in (0, 1).
    prior : float or sequence of (float, float), default PRIOR
        The confidence sequence's mixing prior (:data:`.sequential.PRIOR`).

    Returns
    -------
    float
        :math:`t_R(c)`.

    Examples
    --------
    >>> from reprocompare.estimators.sequential import sequence_from_t
    >>> t = t_threshold(10, 0.84, 0.95)
    >>> round(sequence_from_t(t, 10, confidence=0.95)[0], 6)
    0.84
    """
    bound = math.log(1 / (1 - confidence))
    f = lambda t: float(log_e_value(t, repetitions, snr, prior=prior)) - bound  # noqa: E731
    start = math.sqrt(repetitions) * snr
    # the e-value is smallest near T = sqrt(R) c (the data agree with c); its crossing lies
    # to the right
    near = start if f(start) < 0 else float(optimize.minimize_scalar(
        f, bracket=(start - 1.0, start + 1.0)).x)
    step = 1.0
    while f(near + step) < 0:
        near, step = near + step, step * 2
        if step > 1e9:  # few repetitions: no t, however large, excludes c at this confidence
            return math.inf
    return float(optimize.brentq(f, near, near + step, xtol=1e-10, rtol=1e-12, maxiter=200))


@lru_cache(maxsize=65536)
def exact_t_threshold(repetitions: int, snr: float, confidence: float) -> float:
    r"""The t statistic at which the fixed-R exact interval's low end reaches ``snr`` at R.

    The exact interval of the SNR (the noncentral t interval of
    :func:`~reprocompare.estimators.reproducibility.snr_exact_interval`) has its low end at or
    above c exactly when :math:`F_{nct}(T_R; R - 1, \sqrt R\,c) \ge 1 - \alpha/2`
    (:func:`~reprocompare.estimators.verdict.decisions` with ``time_uniform=False``), that is
    when :math:`T_R` is at least the quantile found here. The high end is at or below c exactly
    when :math:`-T_R \ge` this threshold at :math:`-c` (:math:`-T` is noncentral t with
    :math:`-\sqrt R\,c`).

    Parameters
    ----------
    repetitions : int
        R >= 2.
    snr : float
        c, the SNR the low end must reach.
    confidence : float
        The interval's confidence, in (0, 1]; 1 (a planned look that spends no error) gives
        ``inf``: no t reaches anything.

    Returns
    -------
    float
        :math:`F^{-1}_{nct}(1 - \alpha/2; R - 1, \sqrt R\,c)`.

    Examples
    --------
    >>> from reprocompare.estimators.verdict import decisions
    >>> above = decision_bounds(0.8)[1]  # "A > B reproduces" once the low end reaches it
    >>> t = exact_t_threshold(10, above, 0.95)
    >>> decisions([t - 1e-6, t + 1e-6], 10, confidence=0.95, time_uniform=False).tolist()
    [2, 1]
    """
    if confidence >= 1:
        return math.inf
    q, df, delta = 1 - (1 - confidence) / 2, repetitions - 1, math.sqrt(repetitions) * snr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        t = float(stats.nct.ppf(q, df, delta))
    if math.isfinite(t):
        return t
    # scipy's quantile can be lost far in a tail (large R and |c|): solve the rescued cdf
    f = lambda x: float(_nct_cdf(x, df, delta)) - q  # noqa: E731
    low, high = delta - 1.0, delta + 1.0
    while f(low) > 0:
        low -= 2 * (high - low)
    while f(high) < 0:
        high += 2 * (high - low)
    return float(optimize.brentq(f, low, high, xtol=1e-10, rtol=1e-12, maxiter=200))


def _reached(t: np.ndarray, repetitions: int, bounds: tuple[float, float], confidence: float,
             prior, planned: bool = False) -> np.ndarray:
    """Per path, which of the four interval events a look at R with statistics ``t`` reaches:
    low >= b+, high <= b-, low > b-, high < b+ (columns; the ties between > and >= have
    probability 0 for continuous draws). ``planned``: the exact interval at the look's own
    ``confidence`` (none, at 1) instead of the confidence sequence."""
    below, above = bounds
    if planned and confidence >= 1:  # a planned look that spends no error claims nothing
        return np.zeros((*np.shape(t), 4), dtype=bool)
    threshold = ((lambda c: exact_t_threshold(repetitions, c, confidence)) if planned
                 else (lambda c: t_threshold(repetitions, c, confidence, prior)))
    thresholds = [threshold(above), threshold(-below), threshold(below), threshold(-above)]
    return np.stack([t >= thresholds[0], -t >= thresholds[1],
                     t >= thresholds[2], -t >= thresholds[3]], axis=-1)


def _decided(reached: np.ndarray) -> np.ndarray:
    """A verdict from the events reached by some look (rows: paths; columns as in _reached)."""
    return reached[..., 0] | reached[..., 1] | (reached[..., 2] & reached[..., 3])


def stops(values, conclusion: str = "A>B", *, wave: int, max_repetitions: int,
          threshold: float = THRESHOLD, confidence: float, snr0: float = 0.0,
          draws: int = DRAWS, seed: int = 0,
          prior=PRIOR, planned: bool = False) -> np.ndarray | None:
    r"""Per predictive path, the R of the look at which the normal path's verdict is decided.

    The verdict of :func:`~reprocompare.estimators.verdict.verdict` (time-uniform, looks every
    ``wave``; or, ``planned``, the planned design's) on ``values`` continued by each of
    ``draws`` predictive paths (module docstring, steps 1-3) to the study's remaining looks: the
    first look at which it is decided, or 0 where it is still undecided at ``max_repetitions``.
    A verdict decided already gives R for every path.

    Parameters
    ----------
    values : array_like of float
        The estimator's values of A - B so far, in repetition order (R >= 2).
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.
    wave : int
        Repetitions per look.
    max_repetitions : int
        The study's maximum R.
    threshold : float, default THRESHOLD
        tau, in (0.5, 1).
    confidence : float
        The verdict's confidence (already adjusted for its family).
    snr0 : float, default 0.0
        The estimator's null SNR offset.
    draws : int, default DRAWS
        Predictive paths.
    seed : int, default 0
        Seed of the paths (the same inputs and seed give the same stops).
    prior : float or sequence of (float, float), default PRIOR
        The confidence sequence's mixing prior (:data:`.sequential.PRIOR`).
    planned : bool, default False
        A planned design of looks every ``wave`` up to ``max_repetitions``: the verdict of
        ``verdict(..., time_uniform=False, planned=True)``, each planned look at its own
        confidence (:func:`.group_sequential.look_confidences` of ``confidence``).

    Returns
    -------
    numpy.ndarray of int or None
        The stops; None where the normal path does not decide (ties, or Shapiro-Wilk rejecting
        it at a look), or the values have no spread: such a verdict is not forecast.
    """
    values = np.asarray(values, dtype=np.float64)
    r = values.size
    if r < 2:
        raise ValueError(f"need at least 2 values, got {r}")
    if int(draws) != draws or draws < 1:
        raise ValueError(f"draws must be a whole number >= 1, got {draws!r}")
    signed = values if conclusion == "A>B" else -values
    confidence = float(confidence)
    # each look's confidence: the planned looks' own (the only looks that claim anything), or
    # one for every look of the confidence sequence
    levels = look_confidences(wave, int(max_repetitions), confidence) if planned else {}
    taken = [n for n in levels if n <= r] if planned else looks(r, wave)
    mean, ss = float(signed.mean()), float(np.sum((signed - signed.mean()) ** 2))
    if ss <= 0 or normal_model(values).rejected:  # this look's own check, as the verdict's
        return None
    bounds = decision_bounds(threshold, snr0)
    # the looks so far: what each has reached stays reached (the intervals are intersected)
    seen = np.zeros(4, dtype=bool)
    for n in taken:
        part = signed[:n]
        sd = float(part.std(ddof=1))
        t = math.sqrt(n) * float(part.mean()) / sd if sd > 0 else math.copysign(math.inf,
                                                                                  part.mean())
        seen |= _reached(np.asarray(t), n, bounds, levels.get(n, confidence), prior, planned)
    if _decided(seen):
        return np.full(draws, r)
    ahead = [n for n in looks(int(max_repetitions), wave) if n > r]
    if not ahead:
        return np.zeros(draws, dtype=int)
    rng = np.random.default_rng(seed)
    # Jeffreys posterior of (mu, sigma) given the values, then the waves' sums and squares
    sigma2 = ss / rng.chisquare(r - 1, draws)
    mu = mean + np.sqrt(sigma2 / r) * rng.standard_normal(draws)
    n = np.asarray(ahead, dtype=np.float64)  # the looks to come, all at once
    k = np.diff(np.concatenate([[r], n]))  # each wave's new repetitions
    sums = k * mu[:, None] + np.sqrt(k * sigma2[:, None]) * rng.standard_normal((draws, n.size))
    within = sigma2[:, None] * rng.chisquare(np.maximum(k - 1, 1), (draws, n.size)) * (k > 1)
    totals = mean * r + np.cumsum(sums, axis=1)
    before = np.concatenate([np.full((draws, 1), mean * r), totals[:, :-1]], axis=1)
    counts = np.concatenate([[r], n[:-1]])
    # pooled sums of squares: the old, each wave's own, and the gap between their means
    squares = ss + np.cumsum(within + counts * k / n * (before / counts - sums / k) ** 2, axis=1)
    t = np.sqrt(n) * (totals / n) / np.sqrt(squares / (n - 1))
    events = np.stack([_reached(t[:, j], int(m), bounds, levels.get(m, confidence), prior,
                                planned)
                       for j, m in enumerate(ahead)], axis=1) | seen  # (paths, looks, 4)
    decided = _decided(np.logical_or.accumulate(events, axis=1))
    first = np.argmax(decided, axis=1)
    return np.where(decided.any(axis=1), n.astype(int)[first], 0)


def decided_probability(values, conclusion: str = "A>B", **settings) -> float | None:
    """Predictive probability that the normal path's verdict is decided by the maximum.

    The share of :func:`stops`'s paths that decide (same arguments).

    Parameters
    ----------
    values : array_like of float
        The estimator's values of A - B so far.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.
    **settings
        ``wave``, ``max_repetitions``, ``confidence`` and the optional arguments of
        :func:`stops` (``planned`` for a planned design).

    Returns
    -------
    float or None
        The probability; None where :func:`stops` gives None.

    Examples
    --------
    >>> decided_probability([0.9, 1.1, 1.0, 1.2, 0.8], wave=5, max_repetitions=20,
    ...                     confidence=0.9)  # decided at R = 5 already
    1.0
    >>> p = decided_probability([0.9, 1.1, 1.0, 1.2, 0.8], wave=5, max_repetitions=20,
    ...                         confidence=0.99)  # not yet, but very likely by R = 20
    >>> 0.9 < p < 1
    True
    """
    found = stops(values, conclusion, **settings)
    return None if found is None else float(np.mean(found > 0))


def forecast(values, conclusion: str = "A>B", **settings) -> dict | None:
    """How many more repetitions the verdict needs, as a predictive distribution.

    What "N more" becomes in a sequential study (issue 39, item 3): over :func:`stops`'s
    paths, the probability of a verdict by the maximum, and among the paths that decide, the
    median and the 10th and 90th percentiles of the repetitions still to run (each an R some
    path stopped at).

    Parameters
    ----------
    values : array_like of float
        The estimator's values of A - B so far (R of them).
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.
    **settings
        As for :func:`stops` (``planned`` for a planned design).

    Returns
    -------
    dict or None
        ``probability``, ``median_more``, ``p10_more``, ``p90_more`` (None when no path
        decides) and ``paths``; None where :func:`stops` gives None.
    """
    found = stops(values, conclusion, **settings)
    if found is None:
        return None
    decided = found[found > 0] - len(values)
    quantile = (lambda q: int(np.quantile(decided, q, method="higher"))  # noqa: E731
                if decided.size else None)
    return {"probability": float(decided.size / found.size), "median_more": quantile(0.5),
            "p10_more": quantile(0.1), "p90_more": quantile(0.9), "paths": int(found.size)}


@dataclass(frozen=True)
class Judgement:
    """Whether a study at one look is futile, and on which estimator's probability.

    ``probability`` is the smallest :func:`decided_probability` among the undecided deciding
    estimators that could be judged (None: none could), ``estimator`` whose it is, ``level``
    the configured level (0: futility stopping off) and ``futile`` whether the probability lies
    below it.
    """

    probability: float | None
    estimator: str | None
    level: float
    futile: bool
    not_judged: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        """The judgement as a summary records it."""
        return {"probability": self.probability, "estimator": self.estimator,
                "level": self.level, "futile": self.futile, "not_judged": list(self.not_judged)}


def judge(probabilities: Mapping[str, float | None], level: float) -> Judgement:
    """Is the study futile at this look? The rule of the module docstring.

    Parameters
    ----------
    probabilities : mapping of str to float or None
        Each undecided deciding estimator's :func:`decided_probability` at this look (None:
        not judged, off the normal path).
    level : float
        ``stopping.futility``: futile below it; 0 judges nothing.

    Returns
    -------
    Judgement

    Examples
    --------
    >>> judge({"Avg": 0.4, "Mixture": 0.15}, 0.2).as_dict()["estimator"]
    'Mixture'
    """
    if not 0 <= level < 1:
        raise ValueError(f"level must lie in [0, 1), got {level!r}")
    found = {name: p for name, p in probabilities.items() if p is not None}
    skipped = tuple(name for name, p in probabilities.items() if p is None)
    if level == 0 or not found:
        return Judgement(None, None, float(level), False, skipped)
    name = min(found, key=found.get)
    return Judgement(found[name], name, float(level), found[name] < level, skipped)
