"""Random splits (RS): k repeated random train:validation hold-outs (Gorman and Bedrick 2019).

Xue et al., section 3.3 and Table 4: RS = the mean of the k hold-out differences; Table 4 uses
k = 6 (its ``table4_k``), as many folds as the 3 x 2 BCV. A repetition draws max(k) hold-outs,
each from its own sub-seed, so that its first k are a k-repetition RS: Figure 2's curve over k
reads one study, and raising k trains only the new hold-outs (:attr:`Strategy.grows`). One
repetition is tested by the corrected resampled t of Nadeau and Bengio (2003).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from reprocompare import schemas
from reprocompare.base.errors import UserError
from reprocompare.estimators.difference import repeated_holdout
from reprocompare.splitters.drawing import repeated_holdout_splits
from reprocompare.strategies.strategy import PAIR, Estimates, Strategy, mean


@dataclass(frozen=True, kw_only=True)
class RandomSplitsEstimates(Estimates):
    """k hold-outs' record: ``mean`` of their ``fold_differences`` (F1_A - F1_B of each, in
    the order drawn; ``per_model``: each model's mean F1)."""

    mean: float
    fold_differences: tuple[float, ...]


#: Table 4's RS averages this many hold-outs unless the config says otherwise (the paper's k,
#: the schema's default)
TABLE4_K = schemas.default("strategies.repeated_holdout.table4_k")


class RepeatedHoldOutStrategy(Strategy):
    """RS: k hold-outs, the mean of their differences the estimate."""

    record = RandomSplitsEstimates

    def label(self, settings, table4_k=None):
        k = "k" if table4_k is None else table4_k
        return (f"{k} x {settings['ratio']} hold-outs" if settings.get("ratio")
                else f"{k} hold-outs (ratio not recorded)")

    def describe(self, settings):
        return (f"max(k) = {max(settings['k'])} random hold-outs at {settings['ratio']}; "
                f"k = {', '.join(map(str, settings['k']))} reported")

    def splitter_arguments(self, settings):
        # max(k) hold-outs are drawn and trained; a smaller k reads the first ones
        return {name: max(settings[name]) if name == "k" else settings[name]
                for name in self.settings}

    def check_settings(self, settings, path):
        if settings["table4_k"] > max(settings["k"]):
            raise UserError(f"{settings['table4_k']} is more than the largest k "
                            f"({max(settings['k'])})", path=path,
                            key=f"strategies.{self.key}.table4_k")

    def draw(self, n, groups, random_state, *, k, ratio):
        return list(repeated_holdout_splits(n, k=k, ratio=ratio, random_state=random_state,
                                            groups=groups)), None

    def splitter_class(self):
        # lazy: scikit-learn, for a caller that wants the cross-validator
        from reprocompare.splitters.holdout import RepeatedHoldOut

        return RepeatedHoldOut

    def estimate(self, f1, vote_f1):
        return RandomSplitsEstimates(
            strategy=self.name, mean=repeated_holdout(f1["A"], f1["B"]),
            fold_differences=tuple(a - b for a, b in zip(f1["A"], f1["B"])),
            per_model={name: {"mean": float(np.mean(f1[name]))} for name in PAIR})

    def check(self, checker, f1, vote):
        super().check(checker, f1, vote)
        checker.figure("mean", checker.estimates.mean,
                       mean(checker.estimates.fold_differences), "its fold differences")
        if f1 is not None:
            checker.models("mean", lambda name: mean(f1[name]))

    def values(self, records, *, table4_k, conclusion):
        k_max = min(len(r.fold_differences) for r in records)
        if not 1 <= table4_k <= k_max:
            raise UserError(f"k = {table4_k} hold-outs for Table 4's RS, but the repeated "
                            f"hold-out runs have {k_max}: give a k from 1 to {k_max}",
                            key="--k")
        # the first k hold-outs of a repetition are a k-repetition RS (the splitter's contract)
        by_k = {k: [float(np.mean(r.fold_differences[:k])) for r in records]
                for k in range(1, k_max + 1)}
        return {"RS@k": by_k, "RS": by_k[table4_k]}

    def repetition_rho(self, settings, table4_k):
        # lazy: estimators.bayesian imports scipy, which only the posteriors need
        from reprocompare.estimators.bayesian import averaged_rho, holdout_rho

        # the mean of Table 4's k hold-outs, each pair correlated by the test share: k / (k + 8)
        # at 8:1
        return {"RS": averaged_rho(holdout_rho(self._setting(settings, "ratio")), table4_k)}

    def asked(self, summary, values, settings):
        summary["random_splits_by_k"] = {k: v for k, v in summary["random_splits_by_k"].items()
                                         if k in settings["k"]}
        values["RS@k"] = {k: v for k, v in values.get("RS@k", {}).items() if k in settings["k"]}

    def tested_folds(self, folds, settings):
        # RS as Table 4 reports it: the first table4_k of the max(k) hold-outs (prefix-stable)
        return folds[:settings["table4_k"]]

    needs_train_size = True

    def repetition_tests(self, folds, *, n_train=None, n_resamples=10_000, random_state=0):
        # lazy: scipy, for the significance jobs alone
        from reprocompare.estimators.claims import Claim
        from reprocompare.estimators.significance import corpus_f1, corrected_resampled_t

        if n_train is None:
            raise ValueError("the corrected resampled t needs n_train, the training size of one "
                             "hold-out")
        f1_a = np.array([corpus_f1(fold["A"]) for fold in folds])
        f1_b = np.array([corpus_f1(fold["B"]) for fold in folds])
        n_validation = int(round(np.mean([len(fold["A"]) for fold in folds])))
        t = corrected_resampled_t(f1_a - f1_b, n_train=int(n_train), n_validation=n_validation)
        return {"corrected_resampled_t": Claim("corrected_resampled_t", t.statistic, t.p_value,
                                               t.statistic)}


def reported_k(strategies: dict) -> int:
    """Table 4's k of a run's strategy settings (keyed by name), or the paper's 6 without RS.

    Parameters
    ----------
    strategies : dict
        Strategy name (or key) -> settings.

    Returns
    -------
    int
    """
    found = strategies.get(STRATEGY.name) or strategies.get(STRATEGY.key)
    return found["table4_k"] if found and "table4_k" in found else TABLE4_K


STRATEGY = RepeatedHoldOutStrategy(
    name="repeated-holdout", key="repeated_holdout", code=2, short="RS", settings=("k", "ratio"),
    estimates=("mean", "fold_differences"), estimators=("RS",),
    tests=("corrected_resampled_t",), grows="k",
    model_f1="the mean F1 of its first k hold-outs (Table 4's k)")
