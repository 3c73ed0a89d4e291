"""Significance tests for "model A beats model B", one function per test, one module per family.

Every test takes plain numpy arrays (A's results first, B's second) and returns a small
``NamedTuple`` whose first two fields are ``statistic`` and ``p_value``, in the style of mlxtend's
``evaluate`` module, so ``stat, p = test(a, b)`` works for the two-field results.

Which test fits which design:

* one run, one test set, per-item correctness (token or sentence): :func:`mcnemar`;
* one run, one test set, a corpus-level metric such as chunk F1 that does not decompose over
  sentences: :func:`paired_bootstrap` or :func:`approximate_randomization` over sentences;
* 10-20 paired scores from repeated splits: :func:`wilcoxon` (seed 003, after Demšar 2006);
* m x 2 cross-validation: :func:`paired_t_mx2` (Dietterich 1998) or :func:`combined_f_mx2`
  (Alpaydin 1999); both are conservative (measured size 2.7-4.9% at alpha = 0.05, see
  docs/statistics.md), and F says nothing of direction (its ``mean_difference`` does);
* blocked 3 x 2 cross-validation: :func:`blocked_3x2_t` (Wang et al. 2014), whose size depends
  on how the six fold differences are correlated (far below alpha on re-splits of one corpus);
* J repeated random hold-outs, whose training sets overlap: :func:`corrected_resampled_t`
  (Nadeau & Bengio 2003);
* several comparisons at once: :func:`holm_bonferroni` on their p-values.

The families, one module each: :mod:`.contingency` (McNemar), :mod:`.repeated_splits` (Wilcoxon
and the t and F tests of repeated splits), :mod:`.resampling` (bootstrap and approximate
randomization over sentences) and :mod:`.multiple_comparisons` (Holm). Import the tests from
here, as from mlxtend's ``evaluate``.

Conventions shared by every test: ``alternative`` is 'two-sided' (default), 'greater' (A better
than B) or 'less', as in scipy.stats, wherever a direction exists (McNemar and the combined F are
two-sided by construction); resampling p-values count the observed value (add-one,
p >= 1/(K+1)) and count ties as extreme, so two identical systems always get p = 1; empty input is
a ValueError everywhere.
"""

from reprocompare.estimators.significance._common import TestResult
from reprocompare.estimators.significance.contingency import mcnemar
from reprocompare.estimators.significance.multiple_comparisons import HolmResult, holm_bonferroni
from reprocompare.estimators.significance.repeated_splits import (FTestResult, blocked_3x2_t,
                                                                  combined_f_mx2,
                                                                  corrected_resampled_t,
                                                                  paired_t_mx2, wilcoxon)
from reprocompare.estimators.significance.resampling import (BootstrapResult,
                                                             approximate_randomization,
                                                             corpus_f1, paired_bootstrap)

__all__ = [
    "TestResult",
    "FTestResult",
    "BootstrapResult",
    "HolmResult",
    "mcnemar",
    "wilcoxon",
    "paired_t_mx2",
    "combined_f_mx2",
    "blocked_3x2_t",
    "corrected_resampled_t",
    "paired_bootstrap",
    "approximate_randomization",
    "holm_bonferroni",
    "corpus_f1",
]

