"""Replicability across corpora: on how many corpora does the conclusion hold?

Dror, Baumer, Bogomolov and Reichart (2017), "Replicability Analysis for Natural Language
Processing: Testing Significance with Multiple Datasets" (TACL 5), after Benjamini and Heller
(2008): a comparison of A and B run on N corpora gives one p-value per corpus, p_1..p_N, each
testing "the conclusion does not hold on corpus i". Sorted, p_(1) <= ... <= p_(N). The
partial-conjunction null

    H0^(u/N): the conclusion holds on fewer than u of the N corpora

has the p-values (Dror et al. 2017)

    Bonferroni:  p^(u/N) = min(1, (N - u + 1) p_(u)),
    Fisher:      p^(u/N) = P(chi2_(2(N - u + 1)) >= -2 sum_(i = u..N) ln p_(i)).

Bonferroni's is valid under any dependence between the corpora's p-values; Fisher's assumes them
independent (separate corpora, separately split) and is the more powerful. u = 1 is the global
null ("on none"), u = N the conjunction ("on all").

The count of corpora on which the conclusion can be claimed is estimated by the step-down
procedure of the paper: test H0^(1/N), H0^(2/N), ... in order, each at level alpha, and stop at
the first that is not rejected,

    k-hat = max{u : p^(u'/N) <= alpha for every u' <= u}   (0 when p^(1/N) > alpha).

The hypotheses are nested (H0^(u/N) implies H0^(u'/N) for every u' > u), so testing them in
order without correction keeps the family-wise error at alpha: with probability at least
1 - alpha the conclusion holds on at least k-hat corpora.

:func:`corpus_p_value` gives this project's per-corpus p-value for an estimator over the R
repetitions of one corpus (Student's one-sided t, in the direction of the conclusion under test).
"""

from __future__ import annotations

import math
from typing import NamedTuple, Sequence

import numpy as np

# SciPy's statistics are imported where a test runs: the report jobs import this module
# without running one, and scipy.stats costs every fresh job process 0.7 CPU s
# (benchmarks/bench_job_cpu.py)

METHODS = ("bonferroni", "fisher")


class Replicability(NamedTuple):
    """The partial-conjunction analysis of N per-corpus p-values at ``alpha``.

    ``bonferroni[u - 1]`` and ``fisher[u - 1]`` are p^(u/N) for u = 1..N; ``count_bonferroni``
    and ``count_fisher`` are k-hat, the corpora on which the conclusion can be claimed.
    """

    p_values: tuple[float, ...]
    bonferroni: tuple[float, ...]
    fisher: tuple[float, ...]
    count_bonferroni: int
    count_fisher: int
    alpha: float

    @property
    def corpora(self) -> int:
        return len(self.p_values)

    def as_dict(self) -> dict:
        return {**self._asdict(), "corpora": self.corpora}


def _p_values(p_values: Sequence[float]) -> np.ndarray:
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1 or p.size == 0:
        raise ValueError(f"give one p-value per corpus (a non-empty 1-D array), got shape "
                         f"{p.shape}")
    if not np.all((p >= 0) & (p <= 1)):  # NaN fails too
        raise ValueError(f"p-values must lie in [0, 1], got {p_values!r}")
    return p


def partial_conjunction(p_values: Sequence[float], u: int, method: str = "bonferroni") -> float:
    """p^(u/N) of H0^(u/N), "the conclusion holds on fewer than u of the N corpora".

    Parameters
    ----------
    p_values : sequence of float
        One p-value per corpus, N in all.
    u : int
        How many corpora the conclusion must hold on, in 1..N.
    method : {'bonferroni', 'fisher'}, default 'bonferroni'
        How the N - u + 1 largest p-values are combined.

    Returns
    -------
    float
        The partial-conjunction p-value, in [0, 1].

    Examples
    --------
    >>> partial_conjunction([0.01, 0.02, 0.04, 0.30], 2)   # 3 * 0.02
    0.06
    """
    p = np.sort(_p_values(p_values))
    n = p.size
    if isinstance(u, bool) or not isinstance(u, (int, np.integer)) or not 1 <= u <= n:
        raise ValueError(f"u must be an integer from 1 to {n}, got {u!r}")
    if method == "bonferroni":
        return float(min(1.0, (n - u + 1) * p[u - 1]))
    if method == "fisher":
        rest = p[u - 1:]
        if np.any(rest == 0):
            return 0.0
        from scipy import stats  # local: see the module's imports

        return float(stats.chi2.sf(-2.0 * np.sum(np.log(rest)), 2 * rest.size))
    raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")


def _count(pc: Sequence[float], alpha: float) -> int:
    count = 0
    for value in pc:  # step-down: stop at the first H0^(u/N) not rejected
        if value > alpha:
            break
        count += 1
    return count


def replicability(p_values: Sequence[float], alpha: float = 0.05) -> Replicability:
    """The partial-conjunction p-values for u = 1..N and k-hat (Bonferroni and Fisher).

    Parameters
    ----------
    p_values : sequence of float
        One p-value per corpus for "the conclusion does not hold there", in any order.
    alpha : float
        The family-wise error of "the conclusion holds on at least k-hat corpora".

    Returns
    -------
    Replicability
        The p-values for u = 1..N and the counts k-hat of both methods at ``alpha``.

    Examples
    --------
    >>> r = replicability([0.01, 0.02, 0.04, 0.30])
    >>> r.count_bonferroni, r.count_fisher
    (1, 2)
    """
    p = _p_values(p_values)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    n = p.size
    bonferroni = tuple(partial_conjunction(p, u, "bonferroni") for u in range(1, n + 1))
    fisher = tuple(partial_conjunction(p, u, "fisher") for u in range(1, n + 1))
    return Replicability(tuple(float(x) for x in p), bonferroni, fisher,
                         _count(bonferroni, alpha), _count(fisher, alpha), float(alpha))


def one_per_content(corpora: Sequence[str],
                    sha256: Sequence[str | None]) -> tuple[list[int], dict[str, str]]:
    """The corpora a cross-corpus statistic counts: one per content.

    The partial conjunction's N is the number of corpora the conclusion was tested on, and its
    p-values must come from different corpora: a corpus given under two names (the same file,
    or a copy of its bytes) is one corpus, and counting it twice would claim "replicated on 2 / 2
    corpora" from one (Dror et al. 2017 assume N data sets). ``sha256`` is each corpus's
    identity as its runs recorded it (of its sentences' text); None (not recorded) is a
    corpus of its own.

    Returns the indices of the corpora to count (the first of each content, in the order
    given) and, for every other one, the name of the corpus it repeats.

    Parameters
    ----------
    corpora : sequence of str
        The corpora's names.
    sha256 : sequence of str or None
        Each corpus's checksum as its runs recorded it.

    Returns
    -------
    (list of int, dict of str to str)
        The indices of the corpora to count, and each other corpus's name mapped to the one it
        repeats.

    Examples
    --------
    >>> one_per_content(["a", "b", "c"], ["x", "y", "x"])
    ([0, 1], {'c': 'a'})
    """
    if len(corpora) != len(sha256):
        raise ValueError(f"{len(corpora)} corpora but {len(sha256)} checksums")
    first: dict[str, int] = {}
    kept, same_as = [], {}
    for i, (name, digest) in enumerate(zip(corpora, sha256)):
        if digest is not None and digest in first:
            same_as[name] = corpora[first[digest]]
            continue
        if digest is not None:
            first[digest] = i
        kept.append(i)
    return kept, same_as


def same_content_note(same_as: dict[str, str], sha256: dict[str, str]) -> str:
    """Why corpora were counted once, in words: ``same_as`` from :func:`one_per_content`,
    ``sha256`` each corpus's checksum.

    Parameters
    ----------
    same_as : dict of str to str
        From :func:`one_per_content`.
    sha256 : dict of str to str
        Each corpus's checksum.

    Returns
    -------
    str
        The note, or '' when every corpus counted.
    """
    pairs = "; ".join(f"{name} is {twin} (sha256 {sha256[name][:12]}...)"
                      for name, twin in same_as.items())
    return (f"Corpora with the same sentences count once across corpora: {pairs}, the same "
            "bytes under another name.")


def corpus_p_value(values: Sequence[float], conclusion: str = "A>B") -> float:
    """One corpus's p-value for "the conclusion does not hold on this corpus".

    ``values`` are an estimator of A - B over the R repetitions of one corpus (re-splits);
    H0: their expectation is <= 0 for "A>B" (>= 0 for "B>A"); Student's one-sided t with
    R - 1 degrees of freedom. Constant values (sd at most 1e-9 of their largest magnitude, the
    project's rule for the SNR) have p = 0 when they lie in the direction of the conclusion and
    1 otherwise.

    Parameters
    ----------
    values : sequence of float
        The estimator's values over the corpus's R repetitions.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.

    Returns
    -------
    float
        The one-sided p-value.
    """
    x = np.asarray(values, dtype=float)
    if x.ndim != 1 or x.size < 2 or not np.all(np.isfinite(x)):
        raise ValueError("a corpus's p-value needs at least 2 finite repetitions")
    if conclusion not in ("A>B", "B>A"):
        raise ValueError(f"conclusion must be 'A>B' or 'B>A', got {conclusion!r}")
    sign = 1.0 if conclusion == "A>B" else -1.0
    signed = sign * x
    scale = float(np.max(np.abs(signed)))
    if float(np.std(signed, ddof=1)) <= 1e-9 * scale or scale == 0.0:
        return 0.0 if float(np.mean(signed)) > 0 else 1.0
    t = float(np.mean(signed)) / (float(np.std(signed, ddof=1)) / math.sqrt(signed.size))
    from scipy import stats  # local: see the module's imports

    return float(stats.t.sf(t, signed.size - 1))
