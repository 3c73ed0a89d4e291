"""The standard split (ST): one random train:validation hold-out, 8:1 in the paper.

Xue et al., section 3.3 and Table 4: ST = F1_A - F1_B on the one validation set. Its one fold
is tested by the paired bootstrap and the approximate randomization test over its validation
sentences (Berg-Kirkpatrick et al. 2012; Dror et al. 2018) and by McNemar's test on the sentences
each model tags exactly right.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from reprocompare.estimators.difference import holdout
from reprocompare.splitters.drawing import holdout_splits
from reprocompare.strategies.strategy import PAIR, Estimates, Strategy


@dataclass(frozen=True, kw_only=True)
class HoldOutEstimates(Estimates):
    """One hold-out's record: ``holdout``, F1_A - F1_B on its validation set (``per_model``:
    each model's F1 there)."""

    holdout: float


class HoldOutStrategy(Strategy):
    """ST: one hold-out, its difference the estimate."""

    record = HoldOutEstimates

    def label(self, settings, table4_k=None):
        return (f"{settings['ratio']} hold-out" if settings.get("ratio")
                else "hold-out (ratio not recorded)")

    def describe(self, settings):
        return f"one random hold-out at {settings['ratio']}"

    def draw(self, n, groups, random_state, *, ratio):
        return list(holdout_splits(n, ratio=ratio, random_state=random_state,
                                   groups=groups)), None

    def splitter_class(self):
        # lazy: scikit-learn, for a caller that wants the cross-validator
        from reprocompare.splitters.holdout import HoldOut

        return HoldOut

    def estimate(self, f1, vote_f1):
        return HoldOutEstimates(strategy=self.name, holdout=holdout(f1["A"][0], f1["B"][0]),
                                per_model={name: {"holdout": f1[name][0]} for name in PAIR})

    def check(self, checker, f1, vote):
        if f1 is not None:
            if len(f1["A"]) != 1:
                raise checker.untrusted(f"is of one hold-out, {checker.source} "
                                        f"{len(f1['A'])} folds")
            checker.figure("holdout", checker.estimates.holdout, f1["A"][0] - f1["B"][0])
            checker.models("holdout", lambda name: f1[name][0])
            return
        per_model = checker.per_model
        if all(isinstance(per_model.get(n), dict) and _number(per_model[n].get("holdout"))
               for n in PAIR):
            checker.figure("holdout", checker.estimates.holdout,
                           per_model["A"]["holdout"] - per_model["B"]["holdout"],
                           "its per-model F1s")

    def values(self, records, *, table4_k, conclusion):
        return {"ST": [r.holdout for r in records],
                # each model's F1 on its one hold-out: Table 3's standard split
                "models": {model: [r.of_model(model, "holdout") for r in records]
                           for model in PAIR}}

    def repetition_rho(self, settings, table4_k):
        # lazy: estimators.bayesian imports scipy, which only the posteriors need
        from reprocompare.estimators.bayesian import holdout_rho

        # one hold-out: Nadeau and Bengio's test share, 1/9 at 8:1
        return {"ST": holdout_rho(self._setting(settings, "ratio"))}

    def repetition_tests(self, folds: Sequence[Mapping], *, n_train=None, n_resamples=10_000,
                         random_state=0):
        # lazy: scipy, for the significance jobs alone
        from reprocompare.estimators.claims import Claim, exact_match
        from reprocompare.estimators.significance import (approximate_randomization, mcnemar,
                                                          paired_bootstrap)

        if len(folds) != 1:
            raise ValueError(f"a hold-out repetition has 1 fold, got {len(folds)}")
        a, b = folds[0]["A"], folds[0]["B"]
        boot = paired_bootstrap(a, b, n_resamples=n_resamples, random_state=random_state)
        randomization = approximate_randomization(a, b, n_permutations=n_resamples,
                                                  random_state=random_state + 1)
        right_a, right_b = exact_match(np.asarray(a)), exact_match(np.asarray(b))
        discordant = int(np.count_nonzero(right_a & ~right_b)) - int(
            np.count_nonzero(~right_a & right_b))
        test = mcnemar(right_a, right_b)
        return {"paired_bootstrap": Claim("paired_bootstrap", boot.statistic, boot.p_value,
                                          boot.statistic),
                "approximate_randomization": Claim("approximate_randomization",
                                                   randomization.statistic,
                                                   randomization.p_value,
                                                   randomization.statistic),
                "mcnemar": Claim("mcnemar", test.statistic, test.p_value, float(discordant))}


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) \
        and np.isfinite(value)


STRATEGY = HoldOutStrategy(
    name="holdout", key="holdout", code=1, short="ST", settings=("ratio",),
    estimates=("holdout",), estimators=("ST",),
    tests=("paired_bootstrap", "approximate_randomization", "mcnemar"),
    model_f1="its one hold-out's F1", standard=True)
