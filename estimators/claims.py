"""Significance claims per splitting strategy, and how often each one reproduces.

A reviewer asks "is A significantly better than B?". Each splitting strategy of Xue et al. has
its own fitting paired tests (each strategy of :mod:`reprocompare.strategies` runs its own,
:meth:`~reprocompare.strategies.strategy.Strategy.repetition_tests`; see
:mod:`reprocompare.estimators.significance` for the formulas and references):

- ST, one hold-out (``holdout``): the paired bootstrap and approximate randomization over the
  validation sentences (corpus-level chunk F1), and McNemar's test on sentence-level exact match
  (a sentence is right when its predicted chunks are exactly the gold ones);
- RS, k random hold-outs (``repeated-holdout``): Nadeau & Bengio's corrected resampled t over the
  k fold differences;
- m x 2 BCV (``bcv``): Dietterich's m x 2 t and Alpaydin's combined F over the 2m fold
  differences, and for m = 3 the blocked 3x2 t of Wang et al. (2014) over all six (it is
  defined for m = 3 only: with another m it is not run, and the table has no row for it).

:func:`reprocompare.strategies.repetition_tests` runs them on the per-sentence counts of one repetition (the
``counts.tsv.gz`` that ``compare`` writes). Over R repetitions, :func:`claim_reproducibility`
counts how often each test declares "A significantly better than B": the reproducibility of the
significance claim itself (Eq. 1 of the paper applied to the claim instead of the estimate),
with a Clopper-Pearson interval. "Significantly better" is the two-sided test at ``alpha`` with
the difference in A's favour, the claim a paper makes.

Across corpora (or a variation study's samples), :func:`across_corpora` answers beside the
partial-conjunction count (:mod:`reprocompare.estimators.replicability`) how probable it is
that A beats B on the population of such corpora: the Bayesian signed-rank test (Benavoli et
al. 2014) on each corpus's mean difference.

Some of these tests reject a true null more often than alpha says, or far less often: the
calibration benchmark measured it, and :data:`MEASURED_SIZE` keeps those measurements so that
the claims table can say so beside each test (:func:`calibration_note`).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Iterable, Mapping, NamedTuple, Sequence

import numpy as np

from reprocompare.base.run_records import counts_rows
from reprocompare.estimators.bayesian import signed_rank
from reprocompare.estimators.reproducibility import clopper_pearson

ALPHA = 0.05


class MeasuredSize(NamedTuple):
    """A test's measured size at alpha = 0.05: its row of the size table in docs/statistics.md
    and the rejection rates of a true null there, for normal and for skewed differences;
    ``design``, where the note names the design otherwise than the row's parenthesis does."""

    row: str
    normal: float
    skewed: float
    design: str | None = None


#: where the regularized BCV's tests were measured (the note says it: their names read as the
#: plain BCV's in a table)
REGULARIZED_FOLDS = "regularized BCV's folds, rho1 = 0.14, rho2 = -0.07"
#: Measured by benchmarks/bench_calibration.py (``size_and_power``; the m = 3 BCV rows alone with
#: ``--part bcv``), 1000 simulated studies per cell (400 for the sentence-level tests), and
#: copied from the table "Measured size and power at alpha = 0.05" of docs/statistics.md, which
#: tests/test_claims.py checks this against. For each test the row of the design its claims
#: come from: the BCV tests on re-splits of one corpus (rho1 = -0.2 within, rho2 = 0 between
#: replications, as measured on the project's BCV studies), since that is what a study's
#: repetitions are.
MEASURED_SIZE = {
    "paired_bootstrap": MeasuredSize("paired_bootstrap (n = 200 sentences)", 0.035, 0.045),
    "approximate_randomization": MeasuredSize("approximate_randomization (n = 200)", 0.028, 0.040),
    "mcnemar": MeasuredSize("mcnemar (sentence exact match, n = 200)", 0.032, 0.042),
    "corrected_resampled_t": MeasuredSize("corrected_resampled_t (J = 6)", 0.057, 0.097),
    "paired_t_mx2": MeasuredSize("paired_t_mx2 (m = 3, rho1 = -0.2, rho2 = 0)", 0.018, 0.023),
    "combined_f_mx2": MeasuredSize("combined_f_mx2 (m = 3, rho1 = -0.2, rho2 = 0)", 0.014, 0.024),
    "blocked_3x2_t": MeasuredSize("blocked_3x2_t (rho1 = -0.2, rho2 = 0)", 0.000, 0.006),
    # the regularized BCV's own tests, at its folds' measured correlation (rho1 = 0.14, rho2 =
    # -0.07), from docs/statistics.md's table "Size at alpha = 0.05" of the block-regularized
    # BCV (benchmarks/bench_regularized_calibration.py, 2,000 studies a cell, R = 5 to 1,000)
    "regularized_paired_t_mx2": MeasuredSize("paired_t_mx2", 0.038, 0.045, REGULARIZED_FOLDS),
    "regularized_combined_f_mx2": MeasuredSize("combined_f_mx2", 0.033, 0.044,
                                               REGULARIZED_FOLDS),
    "regularized_blocked_3x2_t": MeasuredSize("blocked_3x2_t (C = 0.409, 4.81 df)", 0.051,
                                              0.083, f"{REGULARIZED_FOLDS}; C = 0.409, 4.81 df"),
}
#: Liberal: a measured size above alpha by more than two Monte Carlo standard errors of a rate
#: near 5% over 1000 studies (2 * sqrt(0.05 * 0.95 / 1000) = 0.014), under either law.
LIBERAL_ABOVE = 0.064
#: Conservative: a measured size below half of alpha under both laws.
CONSERVATIVE_BELOW = 0.025


def calibration_note(test: str) -> str:
    """What the calibration benchmark says of ``test``'s size, for the claims table's note.

    'liberal, ...' or 'conservative, ...' with the measured size at alpha = 0.05 and the design
    it was measured in, or '' when the test is neither (or was not measured): a size within two
    Monte Carlo errors of alpha and at least alpha / 2 needs no warning.

    Parameters
    ----------
    test : str
        The test's name, e.g. ``'paired_t_mx2'``.

    Returns
    -------
    str
        The note, or ''.
    """
    measured = MEASURED_SIZE.get(test)
    if measured is None:
        return ""
    found = re.search(r"\((.*)\)$", measured.row)
    design = measured.design or (found.group(1) if found else "")
    design = f"{design}, " if design else ""
    worst = max(measured.normal, measured.skewed)
    if worst > LIBERAL_ABOVE:
        law = "under skew" if measured.skewed >= measured.normal else "for normal differences"
        return (f"liberal, measured size {100 * worst:.1f}% at alpha 0.05 {law} "
                f"({design}simulated)")
    if worst < CONSERVATIVE_BELOW:
        return (f"conservative, measured size at most {100 * worst:.1f}% at alpha 0.05 for "
                f"normal and skewed differences ({design}simulated)")
    return ""


@dataclass(frozen=True)
class Claim:
    """One test on one repetition: statistic, two-sided p-value, and the difference's sign.

    ``difference`` is the effect the test saw, positive when A is ahead: the corpus-level F1
    difference (bootstrap, randomization), b - c discordant sentences (McNemar), the t
    statistic, or the mean fold difference (combined F, which has no sign of its own).
    """

    test: str
    statistic: float
    p_value: float
    difference: float

    def a_better(self, alpha: float = ALPHA) -> bool:
        """The claim "A is significantly better than B" at ``alpha``."""
        return self.p_value <= alpha and self.difference > 0

    def b_better(self, alpha: float = ALPHA) -> bool:
        return self.p_value <= alpha and self.difference < 0

    def as_dict(self) -> dict:
        return asdict(self)


def read_counts(text: str) -> list[dict[str, np.ndarray]]:
    """Per-fold (gold, pred, correct) arrays of A and B from the text of ``counts.tsv.gz``.

    The table has columns fold, model, sentence, gold, pred, correct (one row per validation
    sentence of every fold and model; the ``vote`` rows of a BCV are skipped, they are not a
    fold). Returns one ``{"A": array (n, 3), "B": array (n, 3)}`` per fold, in fold order, rows
    sorted by sentence index.

    Parameters
    ----------
    text : str
        The decompressed text of ``counts.tsv.gz``.

    Returns
    -------
    list of dict of str to numpy.ndarray
        One ``{"A": (n, 3), "B": (n, 3)}`` per fold.
    """
    return fold_counts(counts_rows(text))


def fold_counts(counts: Iterable[tuple[str, str, int, int, int, int]]
                ) -> list[dict[str, np.ndarray]]:
    """Per-fold (gold, pred, correct) arrays of A and B from the rows of a counts table
    (:func:`reprocompare.base.run_records.counts_rows`), as :func:`read_counts` returns them.

    Parameters
    ----------
    counts : iterable of tuple
        The rows, (fold, model, sentence, gold, pred, correct).

    Returns
    -------
    list of dict of str to numpy.ndarray
        One ``{"A": (n, 3), "B": (n, 3)}`` per fold.
    """
    rows: dict[int, dict[str, list]] = {}
    for fold, model, *values in counts:
        if fold != "vote":
            rows.setdefault(int(fold), {"A": [], "B": []})[model].append(values)
    if not rows:
        raise ValueError("the counts table has no fold rows")
    folds = []
    for fold in sorted(rows):
        pair = {}
        for name in ("A", "B"):
            table = np.array(rows[fold][name], dtype=np.int64).reshape(-1, 4)
            pair[name] = table[np.argsort(table[:, 0], kind="stable")]
        if not np.array_equal(pair["A"][:, 0], pair["B"][:, 0]):
            raise ValueError(f"fold {fold}: A and B were scored on different sentences")
        folds.append({name: pair[name][:, 1:] for name in ("A", "B")})
    return folds


def exact_match(counts: np.ndarray) -> np.ndarray:
    """Whether a model tagged each sentence exactly right: every gold chunk predicted and
    nothing else (McNemar's pairs, Dietterich 1998).

    Parameters
    ----------
    counts : numpy.ndarray
        Per-sentence (gold, pred, correct) chunk counts, shape (n, 3).

    Returns
    -------
    numpy.ndarray
        One bool per sentence.
    """
    gold, pred, correct = counts.T
    return (correct == gold) & (pred == gold)


@dataclass(frozen=True)
class ClaimReproducibility:
    """How often one test declared each direction significant over R repetitions."""

    test: str
    repetitions: int
    a_better: int
    b_better: int
    share: float
    share_low: float
    share_high: float
    alpha: float

    def as_dict(self) -> dict:
        return asdict(self)


def claim_reproducibility(per_repetition: Sequence[dict[str, Claim]],
                          alpha: float = ALPHA) -> dict[str, ClaimReproducibility]:
    """For each test, the share of repetitions declaring "A significantly better than B".

    ``per_repetition`` holds one :func:`repetition_tests` result per repetition (the same tests
    in each). The share comes with its 95% Clopper-Pearson interval; ``b_better`` counts the
    repetitions that declared the opposite claim significant.

    Parameters
    ----------
    per_repetition : sequence of dict of str to Claim
        One :func:`repetition_tests` result per repetition.
    alpha : float, default ALPHA
        The significance level.

    Returns
    -------
    dict of str to ClaimReproducibility
        Each test's counts and share, by the test's name.
    """
    if not per_repetition:
        raise ValueError("no repetitions: the reproducibility of a claim needs at least one")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    names = list(per_repetition[0])
    if any(list(r) != names for r in per_repetition):
        raise ValueError("every repetition must have run the same tests")
    out = {}
    for name in names:
        claims = [r[name] for r in per_repetition]
        wins = sum(c.a_better(alpha) for c in claims)
        low, high = clopper_pearson(wins, len(claims))
        out[name] = ClaimReproducibility(name, len(claims), wins,
                                         sum(c.b_better(alpha) for c in claims),
                                         wins / len(claims), low, high, alpha)
    return out


def across_corpora(groups: Mapping[str, Sequence[Sequence[float]]], *, rope: float,
                   seed: int = 0) -> dict[str, dict]:
    """Per estimator, the Bayesian signed-rank test across corpora (Benavoli et al. 2014;
    :func:`reprocompare.estimators.bayesian.signed_rank`) on the mean difference of each corpus
    (or each sample of a variation study): P(A > B), P(rope), P(B > A) on the population of
    corpora like these.

    Parameters
    ----------
    groups : mapping of str to sequence of sequence of float
        Per estimator, one sequence of A - B values (F1 shares) per corpus, in the corpora's
        order; at least 2 corpora.
    rope : float
        The rope's half-width in F1 points (the summaries' ``verdict.posterior_rope``).
    seed : int, default 0
        The Monte Carlo seed: the same groups, the same probabilities.

    Returns
    -------
    dict of str to dict
        Per estimator, the posterior's record (``p_a_better``, ``p_rope``, ``p_b_better``,
        ``rope``, ``rho`` = 0, ``point`` = False), its Monte Carlo ``mc_se`` and the per-corpus
        ``means``.

    Examples
    --------
    >>> found = across_corpora({"Avg": [[0.004, 0.005], [0.009, 0.010], [0.004, 0.006]]},
    ...                        rope=0.1, seed=0)
    >>> round(found["Avg"]["p_a_better"], 2), [round(m, 4) for m in found["Avg"]["means"]]
    (0.99, [0.0045, 0.0095, 0.005])
    """
    found = {}
    for name, per_corpus in groups.items():
        means = [float(np.mean(values)) for values in per_corpus]
        posterior = signed_rank(means, rope=rope, seed=seed)
        found[name] = {**posterior.as_record(), "mc_se": posterior.mc_se, "means": means}
    return found
