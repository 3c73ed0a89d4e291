"""Blocked m x 2 cross-validation (BCV), the 3 x 2 BCV of Xue et al. by default.

Section 3.1 and Table 1: the corpus in 2^ceil(log2(m + 1)) equal blocks (four for m <= 3),
combined into m 2-fold CVs whose training sets overlap by half; section 3.2 and Table 2: Avg,
the mean of the 2m fold differences; Vote, the difference of each model's vote over its m
predictions of every sentence, scored over the whole corpus; and the Mixture of Eq. 8. One
repetition is tested by Dietterich's (1998) m x 2 t, Alpaydin's (1999) combined F and, for
m = 3, the blocked 3 x 2 t of Wang et al. (2014).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from reprocompare.estimators.difference import bcv_estimates, mixture
from reprocompare.splitters.drawing import bcv_layout
from reprocompare.strategies.strategy import Estimates, Strategy, chose_vote_key, mean


@dataclass(frozen=True, kw_only=True)
class BCVEstimates(Estimates):
    """One m x 2 BCV's record (Table 2): ``avg``, the mean of its 2m ``fold_differences``;
    ``vote``, the difference of the two models' votes (``voting``: chunk or token); ``mixture``,
    Eq. 8 for "A > B" and the one it chose (``mixture_chose``); ``per_model``: each model's mean
    fold F1 and vote F1. A hand-made record may lack the fold differences and the choice."""

    voting: str | None = None
    avg: float
    vote: float
    mixture: float
    mixture_chose: str | None = None
    fold_differences: tuple[float, ...] | None = None


class BlockedCVStrategy(Strategy):
    """m x 2 BCV: Avg, Vote and their Mixture."""

    record = BCVEstimates

    #: the tests of :attr:`tests`, in their order: Dietterich's m x 2 t, Alpaydin's combined F,
    #: the blocked 3 x 2 t (a variant names them its own way, the same tests)
    KINDS = ("paired_t_mx2", "combined_f_mx2", "blocked_3x2_t")

    def test_kind(self, test):
        return self.KINDS[self.tests.index(test)]

    @property
    def mixtures(self):
        avg, vote, mixed = self.estimators
        return ((mixed, vote, avg),)

    def label(self, settings, table4_k=None):
        return f"{settings['m']}x2 BCV" if settings.get("m") else "m x 2 BCV (m not recorded)"

    def describe(self, settings):
        return f"blocked {settings['m']} x 2 cross-validation"

    def draw(self, n, groups, random_state, *, m):
        blocks, folds, _ = bcv_layout(n, m=m, random_state=random_state, groups=groups)
        return folds, blocks

    def splitter_class(self):
        # lazy: scikit-learn, for a caller that wants the cross-validator
        from reprocompare.splitters.bcv import BlockedMx2CV

        return BlockedMx2CV

    def estimate(self, f1, vote_f1):
        found = bcv_estimates(f1, vote_f1)
        return BCVEstimates(strategy=self.name, **{
            field.name: getattr(found, field.name) for field in dataclasses.fields(found)})

    def check(self, checker, f1, vote):
        super().check(checker, f1, vote)
        estimates = checker.estimates
        differences = estimates.fold_differences
        if isinstance(differences, tuple) and differences:
            checker.figure("avg", estimates.avg, mean(differences), "its fold differences")
        if vote is not None:
            checker.figure("vote", estimates.vote, vote["A"] - vote["B"])
            checker.models("vote", lambda name: vote[name])
        if f1 is not None:
            checker.models("avg", lambda name: mean(f1[name]))
        # Eq. 8 for "A > B", as the job records it (the summaries recompute it per conclusion)
        chose = "vote" if estimates.vote > estimates.avg else "avg"
        checker.figure("mixture", estimates.mixture, getattr(estimates, chose),
                       f"Eq. 8 on its vote and avg ({chose})")
        if estimates.mixture_chose not in (None, chose):
            raise checker.untrusted(f"has mixture_chose {estimates.mixture_chose!r}, "
                                    f"but its vote and avg make Eq. 8 choose {chose!r}")

    def values(self, records, *, table4_k, conclusion):
        # by this object's names, so that a variant of the BCV (its own module) gives its own
        avg, vote, mixed_name = self.estimators
        mixed = [mixture(r.vote, r.avg, conclusion) for r in records]
        return {avg: [r.avg for r in records], vote: [r.vote for r in records],
                mixed_name: [value for value, _ in mixed],
                chose_vote_key(mixed_name): [chose == "vote" for _, chose in mixed]}

    #: Nadeau and Bengio's correlation of two of its folds: each validates on half the corpus
    FOLD_RHO = 0.5

    def repetition_rho(self, settings, table4_k):
        # lazy: estimators.bayesian imports scipy, which only the posteriors need
        from reprocompare.estimators.bayesian import averaged_rho

        # Avg is the mean of 2m half splits: 6/7 at m = 3. Vote and the mixture are no means of
        # folds; they take Avg's rho, the conservative end (their own variance per repetition
        # is larger, so the corpus's share of it smaller). By this object's names, so that a
        # variant of the BCV gives its own
        rho = averaged_rho(self.FOLD_RHO, 2 * self._setting(settings, "m"))
        return {name: rho for name in self.estimators}

    def repetition_tests(self, folds, *, n_train=None, n_resamples=10_000, random_state=0):
        # lazy: scipy, for the significance jobs alone
        from reprocompare.estimators.claims import Claim
        from reprocompare.estimators.significance import (blocked_3x2_t, combined_f_mx2,
                                                          corpus_f1, paired_t_mx2)

        f1_a = np.array([corpus_f1(fold["A"]) for fold in folds])
        f1_b = np.array([corpus_f1(fold["B"]) for fold in folds])
        # by this object's names (:attr:`tests`, in the order of :attr:`KINDS`)
        paired, combined, blocked_name = self.tests
        t = paired_t_mx2(f1_a, f1_b)
        f = combined_f_mx2(f1_a, f1_b)
        tested = {paired: Claim(paired, t.statistic, t.p_value, t.statistic),
                  combined: Claim(combined, f.statistic, f.p_value, f.mean_difference)}
        if len(folds) == 6:  # m = 3, the only m the blocked 3x2 t is defined for
            blocked = blocked_3x2_t(f1_a, f1_b)
            tested[blocked_name] = Claim(blocked_name, blocked.statistic, blocked.p_value,
                                         blocked.statistic)
        return tested


STRATEGY = BlockedCVStrategy(
    name="bcv", key="bcv", code=3, short="BCV", settings=("m",),
    estimates=("avg", "vote", "mixture", "fold_differences"),
    estimators=("Avg", "Vote", "Mixture"),
    tests=("paired_t_mx2", "combined_f_mx2", "blocked_3x2_t"), votes=True, recommended=True,
    model_f1="the mean F1 of its 2m folds")
