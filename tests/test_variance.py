"""The variance decomposition (issue 25, item 2): estimators.variance against a hand
computation and statsmodels' REML, its intervals against the exact chi-square interval, the
design's array against reprocompare.study.variation, its reports, and the config's refusals."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from reprocompare.base.errors import UserError
from reprocompare.estimators.variance import decompose, design_array, nested_mean_squares
from reprocompare.reports import variance as v
from reprocompare.study.config import validate
from reprocompare.study.variation import indices
from test_tables import assert_compiles_and_fits, require_pdflatex
from test_variation import config

#: 2 samples x 2 splits x 2 seeds, worked by hand in test_a_small_design_by_hand
HAND = [[[1.0, 3.0], [5.0, 7.0]], [[2.0, 2.0], [10.0, 14.0]]]


def test_a_small_design_by_hand():
    """Split means 2, 6, 2, 12; sample means 4, 7; grand mean 5.5.
    MS_sample = 4 ((4 - 5.5)^2 + (7 - 5.5)^2) / 1 = 18; MS_split = 2 (4 + 4 + 25 + 25) / 2 = 58;
    MS_seed = (1 + 1 + 1 + 1 + 0 + 0 + 4 + 4) / 4 = 3. So s2_seed = 3, s2_split = (58 - 3) / 2
    = 27.5, s2_sample = (18 - 58) / 4 < 0, read as 0; Var(mean) = 27.5 / 4 + 3 / 8 = 7.25."""
    assert nested_mean_squares(HAND) == [(2, 1, 18.0), (2, 2, 58.0), (2, 4, 3.0)]
    d = decompose(HAND)
    assert [c.variance for c in d.components] == [0.0, 27.5, 3.0]
    assert [c.share for c in d.components] == pytest.approx([0, 27.5 / 30.5, 3 / 30.5])
    assert d.total == 30.5 and d.dominant == "split" and d.mean == 5.5 and d.floor == 0
    assert d.standard_error == pytest.approx(math.sqrt(7.25))
    assert d.doubled == pytest.approx({"sample": math.sqrt(27.5 / 8 + 3 / 16),
                                       "split": math.sqrt(27.5 / 8 + 3 / 16),
                                       "seed": math.sqrt(27.5 / 4 + 3 / 16)})


def test_the_estimates_are_statsmodels_reml_on_a_balanced_design():
    import statsmodels.formula.api as smf

    rng = np.random.default_rng(1)
    y = (rng.normal(0, 1.0, (6, 1, 1)) + rng.normal(0, 0.7, (6, 4, 1))
         + rng.normal(0, 0.5, (6, 4, 3)))
    d = decompose(y)
    frame = pd.DataFrame([(s, p, y[s, p, q]) for s in range(6) for p in range(4)
                          for q in range(3)], columns=["sample", "split", "y"])
    fit = smf.mixedlm("y ~ 1", frame, groups="sample", re_formula="1",
                      vc_formula={"split": "0 + C(split)"}).fit(reml=True)
    assert all(c.variance > 0 for c in d.components)  # REML = ANOVA inside the space
    assert [c.variance for c in d.components] == pytest.approx(
        [float(fit.cov_re.iloc[0, 0]), float(fit.vcomp[0]), float(fit.scale)], rel=1e-4)


def test_the_bottom_interval_is_the_exact_chi_square_interval():
    rng = np.random.default_rng(2)
    d = decompose(rng.normal(size=(5, 4)), sources=("split", "seed"), draws=200_000)
    seed = d.components[1]
    exact = [seed.df * seed.mean_square / stats.chi2.ppf(q, seed.df) for q in (0.975, 0.025)]
    assert [seed.low, seed.high] == pytest.approx(exact, rel=0.02)
    assert seed.low < seed.variance < seed.high
    for c in d.components:
        assert 0 <= c.share_low <= c.share <= c.share_high <= 1 or c.share == 0
    assert sum(c.share for c in d.components) == pytest.approx(1)


def test_the_intervals_are_seeded():
    y = np.random.default_rng(3).normal(size=(3, 2, 2))
    assert decompose(y, random_state=4) == decompose(y, random_state=4)
    assert decompose(y, random_state=4).components[0].high != \
        decompose(y, random_state=5).components[0].high


@pytest.mark.parametrize("y, sources, message", [
    ([[1.0, 2.0]], ("split", "seed"), "at least 2 levels"),
    ([1.0, 2.0, 3.0], ("split",), "at least 2 nested factors"),
    ([[1.0, math.nan], [2.0, 3.0]], ("split", "seed"), "finite"),
    ([[1.0, 2.0], [2.0, 3.0]], ("sample", "split", "seed"), "3 source names for 2"),
])
def test_an_impossible_decomposition_is_refused(y, sources, message):
    with pytest.raises(ValueError, match=message):
        decompose(y, sources)


def test_the_design_array_follows_the_repetitions_numbering():
    """Each estimate lands in the cell reprocompare.study.variation gives its repetition."""
    design = {"samples": 3, "splits": 2, "seeds": 2, "sample_size": 50}
    y, sources = design_array(list(range(12)), samples=3, seeds=2)
    assert sources == ("sample", "split", "seed")
    for r in range(12):
        at = indices(design, r)
        assert y[at.sample, at.split, at.seed] == r
    y, sources = design_array(list(range(6)), samples=1, seeds=2)
    assert sources == ("split", "seed") and y.shape == (3, 2) and y[1, 0] == 2
    y, sources = design_array(list(range(6)), samples=3, seeds=1)
    assert sources == ("sample", "split") and y.shape == (3, 2) and y[2, 1] == 5
    with pytest.raises(ValueError, match="not 2 samples"):
        design_array(list(range(7)), samples=2, seeds=1)


@pytest.mark.parametrize("variation, repetitions, key, message", [
    ({"decompose": True}, 8, "variation.decompose", "nothing to decompose"),
    ({"samples": 4, "sample_size": 50, "splits": 1, "seeds": 2, "decompose": True}, 8,
     "variation.splits", "one split per sample"),
    ({"seeds": 4, "decompose": True}, 4, "repetitions", "are one split"),
])
def test_a_decomposition_with_one_level_of_a_factor_is_refused(variation, repetitions, key,
                                                               message):
    with pytest.raises(UserError, match=message) as error:
        validate(config(variation, repetitions))
    assert error.value.key == key


def test_decompose_is_not_in_the_training_record():
    """Asking for the decomposition retrains nothing: the compare jobs' params do not see it."""
    from reprocompare.pipeline import provenance

    with_it = validate(config({"seeds": 2, "decompose": True}))
    without = validate(config({"seeds": 2}))
    assert provenance.compare(with_it, "tiny", "p", "holdout") == \
        provenance.compare(without, "tiny", "p", "holdout")
    assert provenance.summary(with_it, "tiny", "p") != provenance.summary(without, "tiny", "p")


def _summary() -> dict:
    design = {"samples": 2, "sample_size": 80, "splits": 2, "seeds": 2, "decompose": True}
    y = np.array(HAND) / 100  # F1 differences
    rng = np.random.default_rng(0)
    return {"models": {"A": "bilstm:word_dim=4", "B": "majority"},
            "model_names": {"A": "lstm", "B": "maj"}, "corpus": "tiny", "sentences": 80,
            "conclusion": "A>B", "variation": design,
            "variance": {"ST": decompose(y).as_dict(),
                         "Avg": decompose(y + rng.normal(0, 0.01, y.shape)).as_dict()}}


def test_the_table_says_which_source_dominates_and_what_doubling_does():
    rows = v.variance_rows({"p on tiny": _summary()})
    assert len(rows) == 6 and {r["source"] for r in rows} == {"sample", "split", "seed"}
    markdown = v.variance_markdown(rows)
    assert "### Variance of A - B by source: p on tiny" in markdown
    assert "design: 2 data samples of 80 sentences x 2 splits each x 2 training seeds" in markdown
    # ST by hand: split 27.5 / 30.5 = 90%, SD sqrt(30.5) / 100 * 100 = 5.52 F1 points... of a
    # difference in F1 units: sqrt(30.5e-4) * 100 = 5.52
    assert "| ST | 0% [" in markdown and "90% [" in markdown and "| 5.52 | 2.69 |" in markdown
    assert ("ST: the split dominates (90% [" in markdown and "The mean's standard error is "
            "2.69 F1 points; with twice the data samples 1.90, splits 1.90, training seeds "
            "2.66 (each doubles R). More splits and training seeds alone cannot take it below "
            "0.00: only more data samples can." in markdown)
    csv = v.variance_csv(rows)
    assert csv.splitlines()[0] == ",".join(v.COLUMNS) and len(csv.splitlines()) == 7


def test_the_latex_table_compiles_in_a_column(tmp_path):
    require_pdflatex()
    rows = v.variance_rows({"p on tiny": _summary()})
    assert_compiles_and_fits(tmp_path, "variance", v.variance_latex(rows))


@pytest.mark.slow
def test_the_figure_is_written(tmp_path):
    rows = v.variance_rows({"p on tiny": _summary()})
    paths = v.variance_figure(rows, tmp_path / "variance")
    assert [p.name for p in paths] == ["variance.png", "variance.pdf"]
    assert all(p.stat().st_size > 1000 for p in paths)


@pytest.mark.slow
def test_the_published_coverage_is_the_benchmarks():
    """docs/statistics.md's coverage table is what benchmarks/bench_variance.py measures: one
    row recomputed (the smallest design), and every design's row present."""
    import re
    import sys

    from conftest import ROOT

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_variance

    docs = (ROOT / "docs" / "statistics.md").read_text()
    table = docs.split(bench_variance.BEGIN)[1].split(bench_variance.END)[0]
    variances, shares = bench_variance.coverage((1, 2, 2), (1.0, 1.0, 1.0), 2000)
    row = (f"| 1 x 2 x 2 | 4 | 2000 | equal (1, 1, 1) | -- / {100 * variances[0]:.1f}% / "
           f"{100 * variances[1]:.1f}% | -- / {100 * shares[0]:.1f}% / {100 * shares[1]:.1f}% |")
    assert row in table
    found = [float(x) for x in re.findall(r"(\d+\.\d)%", table)]
    assert len(found) == 12 * 6 - 3 * 2


def test_the_checklist_says_what_each_source_adds_and_what_was_left_out():
    from reprocompare.reports.checklist import _variation

    paper = "\n".join(_variation({"repetitions": 5, "variation": {"samples": 1, "seeds": 1}}))
    assert "fresh split of the one corpus" in paper
    assert "Not varied, so the claim says nothing of them" in paper
    assert "(`variation.seeds`)" in paper and "(`variation.samples`)" in paper
    design = "\n".join(_variation({"repetitions": 8, "variation": {
        "samples": 2, "sample_size": 80, "splits": 2, "seeds": 2, "decompose": True}}))
    assert "2 data sample(s) of 80 sentences x 2 split(s) each x 2 training seed(s)" in design
    assert "Not varied" not in design and "`results/tables/variance.md`" in design
    assert "whether it survives retraining" in design
