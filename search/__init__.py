"""Random hyperparameter search, expected validation performance against budget, seed variance.

The reporting side of "Show your work" (Dodge et al. 2019, seeds 000/001) and its fix (Tang et
al. 2020, seed 002), with Potts' learning curves and seed variance (seed 003):

``search.space``   search spaces (uniform, log_uniform, int, choice) and i.i.d. trial draws seeded
                   by (seed, model, trial), so a larger budget keeps the first trials;
``search.config``  the config checks (spaces against the models' declared hyperparameters) and
                   the questions the workflow asks of a validated config;
``search.trials``  the fixed train/validation split, trials, repeated-seed runs, trials tables;
``search.budget``  expected-max curves of each model from a trials table, the clipped +/- 1 sd
                   band, budget to reach a target F1, crossings;
``search.seed_variance`` seed variance (spread, failure rate) and learning-curve bands (t-intervals).

Figures are drawn by :mod:`reports.budget`, the checklist written by :mod:`reports.checklist`,
and the workflow's jobs live in :mod:`reprocompare.pipeline.search_jobs`.
"""
