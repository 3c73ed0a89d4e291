"""SNR and reproducibility of an estimator over many repetitions, and per-model intervals.

Xue et al., section 2 and 4: over R independent repetitions of a splitting strategy an estimator
of A - B takes R values. Its reproducibility (Eq. 1) is P(estimate > 0) for the conclusion A > B,
estimated by the share of positive values; its signal-to-noise ratio (Eq. 4) is E/sqrt(Var),
estimated by the sample mean over the sample standard deviation (ddof=1); the one-sided Chebyshev
inequality bounds the first by the second: P >= SNR^2 / (1 + SNR^2) (Eq. 3, for SNR > 0).

The paper gives point values only; with R = 1000 that is fine, with the R = 5 of a laptop run it
is not, so every figure here comes with an interval: Clopper-Pearson for the reproducibility (a
binomial share) and a seeded percentile bootstrap over repetitions for the SNR.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
from scipy import stats

CONCLUSIONS = ("A>B", "B>A")


def _values(values, conclusion: str) -> np.ndarray:
    if conclusion not in CONCLUSIONS:
        raise ValueError(f"unknown conclusion {conclusion!r}; expected one of "
                         f"{', '.join(CONCLUSIONS)}")
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != 1 or len(values) < 2:
        raise ValueError(f"need at least 2 repetitions, got {values.size}")
    if not np.all(np.isfinite(values)):
        raise ValueError("estimates must be finite")
    # The conclusion under test is "A > B"; testing "B > A" is the same on -(A - B).
    return values if conclusion == "A>B" else -values


def snr(values, conclusion: str = "A>B") -> float:
    """Eq. 4: mean / standard deviation (ddof=1); inf when every value is the same and positive."""
    values = _values(values, conclusion)
    mean, sd = values.mean(), values.std(ddof=1)
    if sd == 0:
        return float(np.sign(mean) * np.inf) if mean else 0.0
    return float(mean / sd)


def reproducibility(values, conclusion: str = "A>B") -> float:
    """Eq. 1: the share of repetitions whose estimate supports the conclusion (is > 0)."""
    return float(np.mean(_values(values, conclusion) > 0))


def chebyshev_bound(snr_value: float) -> float:
    """Eq. 3: the one-sided Chebyshev lower bound SNR^2 / (1 + SNR^2) on reproducibility.

    The bound holds for a positive SNR; for SNR <= 0 it says nothing and 0 is returned.
    """
    if snr_value <= 0:
        return 0.0
    if np.isinf(snr_value):
        return 1.0
    return float(snr_value**2 / (1 + snr_value**2))


def clopper_pearson(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact binomial (Clopper-Pearson) interval for a share."""
    interval = stats.binomtest(int(successes), int(trials)).proportion_ci(confidence, "exact")
    return float(interval.low), float(interval.high)


def snr_bootstrap_interval(values, conclusion: str = "A>B", *, n_resamples: int = 2000,
                           confidence: float = 0.95, random_state: int = 0) -> tuple[float, float]:
    """Percentile bootstrap interval of the SNR, resampling repetitions (seeded, deterministic)."""
    values = _values(values, conclusion)
    rng = np.random.default_rng(random_state)
    samples = values[rng.integers(0, len(values), size=(n_resamples, len(values)))]
    means, sds = samples.mean(axis=1), samples.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.where(sds > 0, means / sds, np.sign(means) * np.inf)
    alpha = (1 - confidence) / 2
    low, high = np.quantile(ratios, [alpha, 1 - alpha], method="inverted_cdf")
    return float(low), float(high)


@dataclass(frozen=True)
class EstimatorSummary:
    """One row of Table 4, with the intervals the paper does not give."""

    repetitions: int
    mean: float
    sd: float
    snr: float
    snr_low: float
    snr_high: float
    reproducibility: float
    reproducibility_low: float
    reproducibility_high: float
    chebyshev_bound: float

    def as_dict(self) -> dict:
        return asdict(self)


def summarize(values, conclusion: str = "A>B", *, random_state: int = 0) -> EstimatorSummary:
    """Mean, sd, SNR (Eq. 4), reproducibility (Eq. 1), their 95% intervals and the Eq. 3 bound.

    ``mean`` is of A - B as estimated (not flipped by the conclusion); SNR and reproducibility are
    relative to the conclusion under test.
    """
    raw = np.asarray(values, dtype=np.float64)
    signed = _values(raw, conclusion)
    ratio = snr(raw, conclusion)
    low, high = snr_bootstrap_interval(raw, conclusion, random_state=random_state)
    successes = int(np.sum(signed > 0))
    r_low, r_high = clopper_pearson(successes, len(signed))
    return EstimatorSummary(
        repetitions=len(raw), mean=float(raw.mean()), sd=float(raw.std(ddof=1)), snr=ratio,
        snr_low=low, snr_high=high, reproducibility=successes / len(signed),
        reproducibility_low=r_low, reproducibility_high=r_high,
        chebyshev_bound=chebyshev_bound(ratio))


@dataclass(frozen=True)
class ModelInterval:
    """One cell group of Table 3: a model's F1 over R random splits."""

    repetitions: int
    mean: float
    standard_error: float
    low: float
    high: float

    def as_dict(self) -> dict:
        return asdict(self)


def model_interval(f1_values, confidence: float = 0.95) -> ModelInterval:
    """Table 3: sample mean, standard error (sd / sqrt(R)) and the t confidence interval."""
    values = np.asarray(f1_values, dtype=np.float64)
    if values.ndim != 1 or len(values) < 2:
        raise ValueError(f"need at least 2 repetitions, got {values.size}")
    mean = float(values.mean())
    se = float(values.std(ddof=1) / np.sqrt(len(values)))
    half = float(stats.t.ppf(0.5 + confidence / 2, df=len(values) - 1) * se)
    return ModelInterval(len(values), mean, se, mean - half, mean + half)
