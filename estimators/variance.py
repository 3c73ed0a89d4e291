"""How much of Var(A - B) comes from the data sample, the split and the training seed.

A study with ``variation:`` (reprocompare.study.variation) runs a balanced nested design: S data
samples, P splits within each sample, Q training seeds within each split, one estimate y_spq of
A - B per cell (any estimator of Table 4). Its random-effects model (Bouthillier et al. 2021,
"Accounting for variance in machine learning benchmarks", sections 2-3) is

    y_spq = mu + a_s + b_sp + e_spq,  a ~ (0, s2_sample), b ~ (0, s2_split), e ~ (0, s2_seed),

so Var(y) = s2_sample + s2_split + s2_seed. The ANOVA (method-of-moments) estimators of a
balanced nested design (Searle, Casella & McCulloch 1992, "Variance Components", section 4.7)
read the mean squares of each level against the level below it: with factors f_1 (top) ..
f_k (bottom) of n_1 .. n_k levels and c_j = n_{j+1} ... n_k observations per level of f_j,

    MS_j = c_j sum (mean at f_j - mean at f_{j-1})^2 / df_j,   df_j = n_1 ... n_{j-1} (n_j - 1),
    E[MS_j] = sum_{i >= j} c_i s2_i,   so   s2_j = (MS_j - MS_{j+1}) / c_j,  s2_k = MS_k,

a negative estimate being read as 0. For a balanced design with every estimate positive these
are also the REML estimates (checked against statsmodels' MixedLM in tests/test_variance.py).

Intervals are generalized confidence intervals (Weerahandi 1993; Burdick, Borror & Montgomery
2005, chapter 3): under normality df_j MS_j / E[MS_j] ~ chi2(df_j), independently, so drawing
E*_j = df_j MS_j / chi2(df_j) and substituting gives draws of every component and of every
share s2_j / Var(y); their percentiles are the intervals. For the bottom component this is the
exact chi-square interval. Their coverage at R = 8 and R = 1000 is measured by a seeded
simulation (benchmarks/bench_variance.py, docs/statistics.md).

What the shares mean for repetitions: the mean of the R estimates varies by

    Var(mean) = s2_sample / S + s2_split / (S P) + s2_seed / (S P Q),

Doubling the levels of any source doubles R (one training run per repetition); doubling the
outermost halves every term, so at equal cost fresh samples always shrink it most (a new sample
brings new splits and seeds with it), and more levels of the inner sources alone cannot take it
below its floor s2_top / n_top (s2_sample / S, or s2_split / P with one sample).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

#: the nested factors, outermost first (reprocompare.study.variation numbers repetitions this way)
FACTORS = ("sample", "split", "seed")


@dataclass(frozen=True)
class Component:
    """One source's variance (in squared units of A - B), its share of Var(A - B), and their
    intervals."""

    source: str
    levels: int
    df: int
    mean_square: float
    variance: float
    low: float
    high: float
    share: float
    share_low: float
    share_high: float


@dataclass(frozen=True)
class Decomposition:
    """Var(A - B) of one estimator split into its sources, and what more levels of each would
    do to the standard error of the mean over repetitions."""

    design: dict
    mean: float
    total: float
    components: tuple
    dominant: str
    standard_error: float
    doubled: dict  # source -> standard error of the mean with twice its levels
    floor: float  # the standard error more levels of the inner sources alone cannot go below
    confidence: float
    draws: int

    def as_dict(self) -> dict:
        record = asdict(self)
        record["components"] = [asdict(c) for c in self.components]
        return record


def nested_mean_squares(y) -> list[tuple[int, int, float]]:
    """(levels, df, mean square) of every factor of a balanced nested array, outermost first.

    ``y`` has one axis per factor (axis 0 the outermost); each axis needs at least 2 levels.

    Parameters
    ----------
    y : array_like of float
        The balanced nested array, one axis per factor, outermost first.

    Returns
    -------
    list of (int, int, float)
        Per factor: its levels, degrees of freedom and mean square.

    Examples
    --------
    >>> nested_mean_squares([[1.0, 3.0], [5.0, 11.0]])
    [(2, 1, 36.0), (2, 2, 10.0)]
    """
    y = np.asarray(y, dtype=float)
    if y.ndim < 1 or min(y.shape) < 2:
        raise ValueError(f"a nested design needs at least 2 levels of every factor, got shape "
                         f"{y.shape}")
    if not np.all(np.isfinite(y)):
        raise ValueError("the estimates must be finite")
    rows = []
    for j in range(y.ndim):
        inner = y.mean(axis=tuple(range(j + 1, y.ndim))) if j + 1 < y.ndim else y
        outer = inner.mean(axis=-1, keepdims=True)
        per_level = int(np.prod(y.shape[j + 1:]))
        df = int(np.prod(y.shape[:j])) * (y.shape[j] - 1)
        rows.append((y.shape[j], df, float(per_level * np.sum((inner - outer) ** 2) / df)))
    return rows


def _components(expected: np.ndarray, per_level: np.ndarray) -> np.ndarray:
    """s2_j = (E[MS_j] - E[MS_{j+1}]) / c_j along the last axis, negative values read as 0."""
    below = np.concatenate([expected[..., 1:], np.zeros(expected[..., :1].shape)], axis=-1)
    return np.maximum((expected - below) / per_level, 0.0)


def decompose(y, sources=FACTORS, confidence: float = 0.95, draws: int = 20_000,
              random_state: int = 0) -> Decomposition:
    """The variance components of a balanced nested array of estimates (module docstring).

    ``y``: shape (n_1, .., n_k), axis 0 the outermost factor; ``sources`` names the axes.
    Raises ValueError for a factor with fewer than 2 levels: its variance cannot be told from
    the factor above it.

    Parameters
    ----------
    y : array_like of float, shape (n_1, ..., n_k)
        The estimates, axis 0 the outermost factor.
    sources : sequence of str, default FACTORS
        The axes' names.
    confidence : float, default 0.95
        Confidence of the components' intervals.
    draws : int, default 20000
        Draws of the generalized pivots.
    random_state : int, default 0
        Seed of the draws.

    Returns
    -------
    Decomposition
        The components, their shares and intervals, and the standard errors more levels would give.
    """
    y = np.asarray(y, dtype=float)
    if len(sources) != y.ndim:
        raise ValueError(f"{len(sources)} source names for {y.ndim} factors")
    if y.ndim < 2:
        raise ValueError("a decomposition needs at least 2 nested factors")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence!r}")
    if draws < 100:
        raise ValueError(f"draws must be at least 100, got {draws!r}")
    rows = nested_mean_squares(y)
    levels = np.array([n for n, _, _ in rows])
    df = np.array([d for _, d, _ in rows], dtype=float)
    ms = np.array([m for _, _, m in rows])
    per_level = np.array([np.prod(levels[j + 1:]) for j in range(len(rows))], dtype=float)
    point = _components(ms, per_level)
    # generalized pivots: E*_j = df_j MS_j / chi2(df_j), independent across factors
    rng = np.random.default_rng(random_state)
    pivots = df * ms / rng.chisquare(df, size=(draws, len(rows)))
    drawn = _components(pivots, per_level)
    totals = drawn.sum(axis=1, keepdims=True)
    shares = np.divide(drawn, totals, out=np.zeros_like(drawn), where=totals > 0)
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(drawn, [tail, 100 - tail], axis=0)
    share_low, share_high = np.percentile(shares, [tail, 100 - tail], axis=0)
    total = float(point.sum())
    components = tuple(
        Component(source=sources[j], levels=int(levels[j]), df=int(df[j]),
                  mean_square=float(ms[j]), variance=float(point[j]), low=float(low[j]),
                  high=float(high[j]), share=float(point[j] / total) if total > 0 else 0.0,
                  share_low=float(share_low[j]), share_high=float(share_high[j]))
        for j in range(len(rows)))
    outer = np.cumprod(levels)  # observations' count down to each factor: S, S P, S P Q

    def standard_error(counts) -> float:
        return math.sqrt(float(np.sum(point / counts)))

    doubled = {}
    for j, source in enumerate(sources):
        more = levels.copy()
        more[j] *= 2
        doubled[source] = standard_error(np.cumprod(more))
    return Decomposition(
        design=dict(zip(sources, (int(n) for n in levels))), mean=float(y.mean()), total=total,
        components=components, dominant=sources[int(np.argmax(point))] if total > 0 else "none",
        standard_error=standard_error(outer), doubled=doubled,
        floor=math.sqrt(float(point[0] / levels[0])), confidence=confidence,
        draws=draws)


def design_array(values, samples: int, seeds: int):
    """The R estimates of a study (ordered by repetition) as its nested array and the names of
    its axes: repetition r = (s P + p) Q + q (reprocompare.study.variation), a factor with one level
    left out (one sample: splits x seeds; one seed: samples x splits).

    Parameters
    ----------
    values : sequence of float
        The R estimates, in repetition order.
    samples : int
        Samples P of the design.
    seeds : int
        Seeds Q of the design.

    Returns
    -------
    (numpy.ndarray, tuple of str)
        The nested array and its axes' names.
    """
    values = np.asarray(values, dtype=float)
    splits, rest = divmod(len(values) // seeds, samples)
    if rest or splits * samples * seeds != len(values):
        raise ValueError(f"{len(values)} estimates are not {samples} samples x whole splits x "
                         f"{seeds} seeds")
    shape = dict(zip(FACTORS, (samples, splits, seeds)))
    kept = tuple(name for name in FACTORS if name == "split" or shape[name] > 1)
    return values.reshape([shape[name] for name in kept]), kept
