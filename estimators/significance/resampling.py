"""Resampling tests over sentences for corpus-level chunk F1: one run, one test set.

Chunk F1 is computed from counts summed over the corpus and does not decompose over sentences, so
no per-item test applies; the paired bootstrap (Koehn 2004, Berg-Kirkpatrick et al. 2012) and
approximate randomization (Noreen 1989, Riezler & Maxwell 2005) resample the sentences instead
and recompute F1 from the resampled sums.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from reprocompare.corpora.scoring import f1_from_counts
from reprocompare.estimators.significance._common import (TestResult, check_alternative,
                                                          same_length)

__all__ = ["BootstrapResult", "corpus_f1", "paired_bootstrap", "approximate_randomization"]


#: Two F1 differences closer than this are treated as equal in the resampling tests. F1 lies in
#: [0, 1], so a difference of two F1s computed from different sums carries an absolute rounding
#: error of ~1e-16; without a tolerance, mathematically tied resamples (common: a resample that
#: repeats the one sentence where A and B differ twice doubles the difference exactly) would be
#: counted or not by the accident of rounding.
_TIE = 1e-12


#: Resamples drawn per block in the vectorized resampling tests: a (block, n_sentences) float
#: matrix is 16 MB for 2,000 sentences, small enough for a shared machine, large enough that the
#: Python loop costs nothing.
_BLOCK = 1000


class BootstrapResult(NamedTuple):
    """Observed F1 difference A - B, its p-value, and the percentile interval of the difference."""

    statistic: float
    p_value: float
    ci_low: float
    ci_high: float



def _chunk_counts(counts, name: str) -> np.ndarray:
    arr = np.asarray(counts)
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise ValueError(f"{name} must have shape (n_sentences, 3) with columns "
                         f"(gold, predicted, correct); got {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} has no sentences")
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            raise ValueError(f"{name} must hold whole chunk counts")
    elif arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must hold integer chunk counts, got dtype {arr.dtype}")
    arr = arr.astype(np.int64)
    if np.any(arr < 0):
        raise ValueError(f"{name} has negative chunk counts")
    gold, pred, correct = arr.T
    bad = np.flatnonzero((correct > gold) | (correct > pred))
    if bad.size:
        raise ValueError(f"{name}: sentence {bad[0]} has more correct chunks than gold or "
                         f"predicted chunks")
    return arr


def _paired_chunk_counts(counts_a, counts_b) -> tuple[np.ndarray, np.ndarray]:
    a = _chunk_counts(counts_a, "counts_a")
    b = _chunk_counts(counts_b, "counts_b")
    same_length(a, b, "counts_a", "counts_b")
    if not np.array_equal(a[:, 0], b[:, 0]):
        bad = int(np.flatnonzero(a[:, 0] != b[:, 0])[0])
        raise ValueError(f"gold chunk counts differ between A and B at sentence {bad}: both "
                         "systems must be scored against the same gold standard")
    return a, b


def _check_resamples(n: int, name: str) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"{name} must be a positive integer, got {n!r}")
    return int(n)



def corpus_f1(counts) -> float:
    r"""Corpus-level chunk F1 from per-sentence counts: :math:`2C / (G + P)`, 0 if :math:`G+P=0`.

    :math:`G, P, C` are the gold, predicted and correct chunk counts summed over all sentences
    (micro-averaged F1, as conlleval computes it). Averaging sentence-level F1s instead would
    give short sentences the weight of long ones and is a different, non-standard metric.

    Parameters
    ----------
    counts : array_like of int, shape (n_sentences, 3)
        Columns (gold, predicted, correct).

    Returns
    -------
    float
        The corpus-level F1, in [0, 1].
    """
    return float(f1_from_counts(_chunk_counts(counts, "counts").sum(axis=0)))


def _delta(sums: np.ndarray) -> np.ndarray:
    """F1(A) - F1(B) from summed columns (gold, pred_a, correct_a, pred_b, correct_b)."""
    return f1_from_counts(sums[..., [0, 1, 2]]) - f1_from_counts(sums[..., [0, 3, 4]])


def _resampling_p_value(null: np.ndarray, observed: float, alternative: str) -> float:
    """Add-one p-value: (1 + #{null values at least as extreme}) / (K + 1), ties counted.

    ``null`` holds K draws of the statistic under the null hypothesis. Counting the observed
    value as one more draw keeps p >= 1/(K+1) (Phipson & Smyth 2010: a resampling p-value of 0
    is never valid); counting ties (within ``_TIE``) as extreme makes two identical systems,
    whose every draw ties, get p = 1.
    """
    if alternative == "greater":
        hits = np.count_nonzero(null >= observed - _TIE)
    elif alternative == "less":
        hits = np.count_nonzero(null <= observed + _TIE)
    else:
        hits = np.count_nonzero(np.abs(null) >= abs(observed) - _TIE)
    return float((hits + 1) / (null.size + 1))


def paired_bootstrap(counts_a, counts_b, *, n_resamples: int = 10_000, random_state=None,
                     alternative: str = "two-sided") -> BootstrapResult:
    r"""Paired bootstrap test over sentences for corpus-level chunk F1.

    Let :math:`\delta(x) = F_1^A(x) - F_1^B(x)` on the test set :math:`x`, with corpus-level
    :math:`F_1 = 2C/(G+P)` recomputed from summed counts. Draw :math:`n` sentence indices with
    replacement, **once** per resample, and apply the same indices to A and B (the pairs are
    resampled together: resampling A and B independently destroys the pairing and inflates the
    spread of the difference). Shifting the bootstrap distribution to mean zero gives draws of
    :math:`\delta` under the null, :math:`\delta(x^{(i)}) - \delta(x)` (Berg-Kirkpatrick et
    al. 2012, whose one-sided count is :math:`\delta(x^{(i)}) > 2\delta(x)`). The p-value is
    add-one, with ties counted as extreme (see ``_TIE``):

    .. math:: p = \frac{1 + \#\{i : \delta(x^{(i)}) - \delta(x) \ge \delta(x)\}}{K + 1}

    for ``alternative='greater'`` (H1: A better), :math:`\le \delta(x)` for 'less', and
    :math:`|\delta(x^{(i)}) - \delta(x)| \ge |\delta(x)|` for 'two-sided' (the default, as in
    scipy). So p >= 1/(K+1), and a system against itself gets p = 1, never "significant". Use
    'two-sided' unless the direction was fixed before seeing the data: testing 'greater' and
    then, when B is ahead, 'less' doubles the false-positive rate. (Koehn 2004 introduced
    paired bootstrap resampling for MT.) The 95% percentile interval of
    :math:`\delta(x^{(i)})` is returned too (Efron & Tibshirani 1993, ch. 13).

    The resamples are drawn as multiplicity vectors (how often each sentence is drawn, via
    ``np.bincount``) in blocks, and the counts are summed by a matrix product, so 10,000
    resamples over 2,000 sentences take a fraction of a second.

    Parameters
    ----------
    counts_a, counts_b : array_like of int, shape (n_sentences, 3)
        Per-sentence (gold chunks, predicted chunks, correct chunks) of A and B; the gold column
        must be identical.
    n_resamples : int, default 10_000
        Number of bootstrap resamples K.
    random_state : None, int or numpy.random.Generator
        Seed; the result is deterministic given it.
    alternative : {'two-sided', 'greater', 'less'}
        'greater': A's F1 is higher than B's.

    Returns
    -------
    BootstrapResult
        ``statistic`` :math:`\delta(x)`, ``p_value``, ``ci_low`` and ``ci_high``.

    References
    ----------
    T. Berg-Kirkpatrick, D. Burkett and D. Klein (2012). An empirical investigation of
    statistical significance in NLP. EMNLP-CoNLL, 995-1005.
    P. Koehn (2004). Statistical significance tests for machine translation evaluation. EMNLP.
    B. Phipson and G. K. Smyth (2010). Permutation p-values should never be zero. Statistical
    Applications in Genetics and Molecular Biology 9(1).
    """
    check_alternative(alternative)
    a, b = _paired_chunk_counts(counts_a, counts_b)
    k = _check_resamples(n_resamples, "n_resamples")
    rng = np.random.default_rng(random_state)
    # Columns (gold, pred_a, correct_a, pred_b, correct_b): one weight vector per resample sums
    # A's and B's counts over the same multiset of sentences, which is what "paired" means.
    table = np.column_stack([a, b[:, 1:]]).astype(float)
    n = table.shape[0]
    observed = float(_delta(table.sum(axis=0)))
    deltas = np.empty(k)
    for start in range(0, k, _BLOCK):
        size = min(_BLOCK, k - start)
        idx = rng.integers(0, n, size=(size, n))
        # Offsetting each row's indices by row * n lets one bincount build all the rows'
        # multiplicity vectors at once.
        idx += np.arange(size)[:, None] * n
        weights = np.bincount(idx.ravel(), minlength=size * n).reshape(size, n)
        deltas[start:start + size] = _delta(weights.astype(float) @ table)
    p = _resampling_p_value(deltas - observed, observed, alternative)
    lo, hi = np.percentile(deltas, [2.5, 97.5])
    return BootstrapResult(observed, p, float(lo), float(hi))


def approximate_randomization(counts_a, counts_b, *, n_permutations: int = 10_000,
                              random_state=None, alternative: str = "two-sided") -> TestResult:
    r"""Approximate randomization test over sentences for corpus-level chunk F1.

    Under the null hypothesis that A and B are interchangeable, the label "A" or "B" on each
    sentence's output is arbitrary. Each of :math:`R` shuffles swaps A's and B's counts on each
    sentence independently with probability 1/2 and recomputes :math:`\delta` = corpus-level
    :math:`F_1^A - F_1^B`; then, for the default ``alternative='two-sided'``,

    .. math:: p = \frac{\#\{r : |\delta_r| \ge |\delta_{obs}|\} + 1}{R + 1}

    (Noreen 1989; Riezler & Maxwell 2005; the +1 counts the observed
    assignment, which keeps the test valid, p >= 1/(R+1)); 'greater' counts
    :math:`\delta_r \ge \delta_{obs}` and 'less' :math:`\delta_r \le \delta_{obs}`. Differences
    within 1e-12 of each other count as ties, so that mathematically equal differences reached
    through different sums are not lost to rounding (the same idea as
    :func:`scipy.stats.permutation_test`'s tolerance, but absolute, because the error of a
    difference of two F1s in [0, 1] is absolute).

    Parameters
    ----------
    counts_a, counts_b : array_like of int, shape (n_sentences, 3)
        As in :func:`paired_bootstrap`.
    n_permutations : int, default 10_000
        Number of random shuffles R.
    random_state : None, int or numpy.random.Generator
        Seed; the result is deterministic given it.
    alternative : {'two-sided', 'greater', 'less'}
        'greater': A's F1 is higher than B's.

    Returns
    -------
    TestResult
        ``statistic`` :math:`\delta_{obs}` and the ``p_value``.

    References
    ----------
    E. W. Noreen (1989). Computer-Intensive Methods for Testing Hypotheses. Wiley.
    S. Riezler and J. T. Maxwell (2005). On some pitfalls in automatic evaluation and
    significance testing for MT. ACL Workshop on Intrinsic and Extrinsic Evaluation Measures.
    """
    check_alternative(alternative)
    a, b = _paired_chunk_counts(counts_a, counts_b)
    r = _check_resamples(n_permutations, "n_permutations")
    rng = np.random.default_rng(random_state)
    n = a.shape[0]
    base = np.concatenate([a.sum(axis=0), b[:, 1:].sum(axis=0)]).astype(float)
    observed = float(_delta(base))
    # Swapping sentence s moves (B_s - A_s) from B's totals into A's: with a 0/1 swap matrix S,
    # A's permuted sums are A + S @ D and B's are B - S @ D (gold does not change).
    d = (b[:, 1:] - a[:, 1:]).astype(float)
    shift = np.column_stack([np.zeros(n), d, -d])
    perm = np.empty(r)
    for start in range(0, r, _BLOCK):
        size = min(_BLOCK, r - start)
        swaps = rng.integers(0, 2, size=(size, n)).astype(float)
        perm[start:start + size] = _delta(base + swaps @ shift)
    return TestResult(observed, _resampling_p_value(perm, observed, alternative))
