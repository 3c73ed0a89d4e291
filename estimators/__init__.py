"""Estimators of the difference A - B and the statistics built on them.

``difference``: holdout, repeated hold-out mean, avg, vote and mixture for one repetition (paper
section 3.2, Table 2, Eq. 8). ``reproducibility``: SNR (Eq. 4), reproducibility (Eq. 1) and the
Chebyshev bound (Eq. 3) over repetitions, with exact intervals (docs/statistics.md).
``significance``: the significance tests, one module per family (contingency, repeated_splits,
resampling, multiple_comparisons; seed 003). ``claims``: the tests that fit each strategy, run
per repetition, and how often "A significantly better than B" reproduces.
``expected_max``: expected validation performance against budget (seeds 001/002), with Tang et
al.'s bias simulated in ``expected_max_bias`` and a score file read by ``trial_scores``.
"""
