"""Figures 1 and 2 of the paper (sections 4.1, 4.2): files, byte-stability, and what is drawn.

The inputs are real :mod:`reprocompare.study.summary` outputs: estimates.json/split.json directories of
seeded synthetic repetitions go through ``summarize_runs`` / ``estimator_values``, and Figure 1's
summaries also through a JSON round trip (k keys become strings) as a report reads them.
"""

from __future__ import annotations

import json

import matplotlib
import numpy as np
import pytest
from matplotlib.lines import Line2D
from matplotlib.patches import PathPatch

from reprocompare.estimators.reproducibility import chebyshev_bound
from reprocompare.reports import figures
from reprocompare.reports.figures import _figure1, _figure2, figure1, figure2, save
from reprocompare.study.summary import estimator_values, load_estimates, summarize_runs

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
MODELS = {"A": "crf:labels=IOBES,c2=0.1", "B": "crf:labels=IOB2,c2=0.1"}
R, K_MAX = 8, 7


def _write_runs(root, name, mean, *, strategies=("holdout", "repeated-holdout", "bcv"), seed=0):
    """One comparison's run directories, as reprocompare.study.compare.write_comparison lays them out."""
    rng = np.random.default_rng(seed)
    directories = []
    for strategy in strategies:
        for r in range(R):
            d = root / name / strategy / f"rep{r}"
            d.mkdir(parents=True)
            settings = {"m": 3} if strategy == "bcv" else {"ratio": "8:1"}
            if strategy == "repeated-holdout":
                settings["k"] = K_MAX
            (d / "split.json").write_text(json.dumps({"repetition": r, "seed": 100 + r,
                                                      "corpus_sha256": "c" * 64, **settings}))
            if strategy == "holdout":
                diff = float(rng.normal(mean, 0.01))
                est = {"strategy": strategy, "holdout": diff,
                       "per_model": {"A": {"holdout": 0.9 + diff}, "B": {"holdout": 0.9}}}
            elif strategy == "repeated-holdout":
                folds = rng.normal(mean, 0.01, K_MAX).tolist()
                est = {"strategy": strategy, "mean": float(np.mean(folds)),
                       "fold_differences": folds, "per_model": {}}
            else:
                avg, vote = rng.normal(mean, 0.003, 2).tolist()
                est = {"strategy": strategy, "avg": avg, "vote": vote,
                       "mixture": max(avg, vote), "mixture_chose": "vote" if vote > avg
                       else "avg"}
            (d / "estimates.json").write_text(json.dumps({"models": MODELS, **est}))
            directories.append(d)
    return directories


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    return {"SRL": _write_runs(root, "SRL", 0.002, seed=1),
            "NER": _write_runs(root, "NER", 0.006, seed=2),
            "Chunking (bcv only)": _write_runs(root, "Chunking", 0.003, strategies=("bcv",),
                                               seed=3)}


@pytest.fixture(scope="module")
def summaries(runs):
    # through JSON, as a report step reads summary.json: k keys arrive as strings
    return {name: json.loads(json.dumps(summarize_runs(dirs))) for name, dirs in runs.items()}


@pytest.fixture(scope="module")
def values(runs):
    return {name: {"values": estimator_values([load_estimates(d) for d in dirs]),
                   "models": MODELS, "strategies": summarize_runs(dirs)["strategies"],
                   "table4_k": 6} for name, dirs in runs.items()}


def _lines(ax, linestyle=None, marker=None):
    return [line for line in ax.get_lines()
            if (linestyle is None or line.get_linestyle() == linestyle)
            and (marker is None or line.get_marker() == marker)]


def _zero_lines(ax):
    return [line for line in _lines(ax, ":") if np.all(np.asarray(line.get_ydata()) == 0)]


def _texts(fig):
    return " | ".join(t.get_text() for t in fig.findobj(matplotlib.text.Text))


# -------------------------------------------------------------------------------- files


@pytest.mark.slow
@pytest.mark.parametrize("which", ["figure1", "figure2"])
def test_writes_png_and_pdf_byte_identical_on_rerender(which, summaries, values, tmp_path):
    make, data = (figure1, summaries) if which == "figure1" else (figure2, values)
    first = make(data, tmp_path / "one" / which)
    again = make(data, tmp_path / "two" / which)
    assert first == [tmp_path / "one" / f"{which}.png", tmp_path / "one" / f"{which}.pdf"]
    png, pdf = (p.read_bytes() for p in first)
    assert png.startswith(PNG_MAGIC) and len(png) > 10_000
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    assert b"CreationDate" not in pdf  # a timestamp would change every run
    assert [p.read_bytes() for p in again] == [png, pdf]
    # nothing but the two figures: the temporary files were renamed away
    assert sorted(p.name for p in (tmp_path / "one").iterdir()) == [f"{which}.pdf",
                                                                    f"{which}.png"]


@pytest.mark.slow
def test_figure1_int_and_string_k_keys_give_the_same_bytes(runs, tmp_path):
    as_ints = {"SRL": summarize_runs(runs["SRL"])}
    assert all(isinstance(k, int) for k in as_ints["SRL"]["random_splits_by_k"])
    as_strings = json.loads(json.dumps(as_ints))
    a = figure1(as_ints, tmp_path / "ints")
    b = figure1(as_strings, tmp_path / "strings")
    assert [p.read_bytes() for p in a] == [p.read_bytes() for p in b]


@pytest.mark.slow
def test_save_leaves_global_state_alone_and_is_atomic(monkeypatch, summaries, tmp_path):
    import matplotlib.pyplot as plt

    before = dict(matplotlib.rcParams)
    open_figures = plt.get_fignums()
    figure1({"SRL": summaries["SRL"]}, tmp_path / "f")
    assert dict(matplotlib.rcParams) == before
    assert plt.get_fignums() == open_figures  # no figure left registered with pyplot

    # a failure while writing the PDF keeps the old PDF whole and leaves no temporary file
    (tmp_path / "g.pdf").write_bytes(b"old")
    fig = _figure1({"SRL": summaries["SRL"]})
    real = type(fig).savefig

    def failing(self, fname, *args, format=None, **kwargs):
        if format == "pdf":
            open(fname, "wb").write(b"%PDF-half")
            raise OSError("disk full")
        return real(self, fname, *args, format=format, **kwargs)

    monkeypatch.setattr(type(fig), "savefig", failing)
    with pytest.raises(OSError, match="disk full"):
        save(fig, tmp_path / "g")
    assert (tmp_path / "g.pdf").read_bytes() == b"old"
    assert (tmp_path / "g.png").read_bytes().startswith(PNG_MAGIC)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tmp")]


def test_no_comparisons_is_an_error(tmp_path):
    for make in (figure1, figure2):
        with pytest.raises(ValueError, match="no comparisons"):
            make({}, tmp_path / "x")
    assert not list(tmp_path.iterdir())


# ------------------------------------------------------------------------------ Figure 1


def test_figure1_draws_snr_reproducibility_and_bound_per_comparison(summaries):
    fig = _figure1(summaries)
    assert len(fig.axes) == 2 * len(summaries)  # a panel and its twin reproducibility axis
    for name, summary in summaries.items():
        ax = next(a for a in fig.axes if a.get_title().startswith(name))
        twin = next(a for a in fig.axes if a is not ax and a.bbox.bounds == ax.bbox.bounds)
        by_k = summary["random_splits_by_k"]
        if not by_k:  # the bcv-only comparison: a labelled empty panel, no lines
            assert not ax.get_lines() and not twin.get_lines()
            assert any("no random-split" in t.get_text() for t in ax.texts)
            continue
        ks = sorted(int(k) for k in by_k)
        assert ks == list(range(1, K_MAX + 1))
        (snr_line,) = _lines(ax, "-", "o")
        assert list(snr_line.get_xdata()) == ks
        np.testing.assert_allclose(snr_line.get_ydata(), [by_k[str(k)]["snr"] for k in ks])
        assert len(ax.collections) == 1 and len(twin.collections) == 1  # a band on each axis
        (rep_line,) = _lines(twin, "--", "s")
        np.testing.assert_allclose(rep_line.get_ydata(),
                                   [by_k[str(k)]["reproducibility"] for k in ks])
        (bound,) = _lines(twin, ":")
        np.testing.assert_allclose(bound.get_ydata(),
                                   [chebyshev_bound(by_k[str(k)]["snr"]) for k in ks])
        assert twin.get_ylim()[0] < 0 and twin.get_ylim()[1] > 1
        assert "SNR" in ax.get_ylabel() and "reproducibility" in twin.get_ylabel()
        assert "A>B" in twin.get_ylabel()
        assert "number of random splits k" in ax.get_xlabel()
        assert all(float(t).is_integer() for t in ax.get_xticks())  # k is a count
        subtitle = " ".join(t.get_text() for t in ax.texts)
        assert MODELS["A"] in subtitle and MODELS["B"] in subtitle
        assert f"R = {R}" in ax.get_title()
    assert "Figure 1" in fig.get_suptitle()
    (legend,) = fig.legends
    labels = [t.get_text() for t in legend.get_texts()]
    assert any("Eq. 3" in s for s in labels) and any("Clopper-Pearson" in s for s in labels)
    # the interval the summaries computed (exact by default), not one assumed (issue 11)
    assert any(s.startswith("SNR 95% exact noncentral t, fixed R CI") for s in labels)
    assert "reproducibility 95% Clopper-Pearson, fixed R CI" in labels
    booted = {name: {**summary, "random_splits_by_k": {
        k: {**v, "snr_method": "bootstrap"} for k, v in summary["random_splits_by_k"].items()}}
        for name, summary in summaries.items()}
    labels = [t.get_text() for t in _figure1(booted).legends[0].get_texts()]
    assert any(s.startswith("SNR 95% percentile bootstrap CI") for s in labels)


def test_figure1_sorts_string_k_numerically_and_survives_infinite_snr(summaries):
    by_k = summaries["NER"]["random_splits_by_k"]
    # "10" < "2" as strings: shuffle the keys and add k = 10 to catch a string sort
    shuffled = {k: by_k[k] for k in ("3", "1", "2")}
    shuffled["10"] = {**by_k["7"], "snr": float("inf"), "snr_high": float("inf"),
                      "chebyshev_bound": 1.0}
    fig = _figure1({"NER": {**summaries["NER"], "random_splits_by_k": shuffled}})
    ax, twin = fig.axes
    (snr_line,) = _lines(ax, "-", "o")
    assert list(snr_line.get_xdata()) == [1, 2, 3, 10]
    # the infinite SNR is a gap in the line and a triangle on the upper edge, not a lost axis
    assert np.isnan(snr_line.get_ydata()[-1]) and np.isfinite(snr_line.get_ydata()[:3]).all()
    (triangle,) = _lines(ax, "None", "^")
    assert list(triangle.get_xdata()) == [10] and triangle.get_ydata()[0] == ax.get_ylim()[1]
    assert np.isfinite(ax.get_ylim()).all() and ax.get_ylim()[1] < 100
    assert "+inf" in _texts(fig)


# ------------------------------------------------------------------------------ Figure 2


@pytest.mark.slow
def test_figure2_two_rows_boxes_means_and_zero_lines(values):
    fig = _figure2(values)
    n = len(values)
    assert len(fig.axes) == 2 * n
    top, bottom = fig.axes[:n], fig.axes[n:]
    for column, (name, comparison) in enumerate(values.items()):
        v = comparison["values"]
        estimators = [e for e in ("ST", "RS", "Avg", "Vote", "Mixture") if e in v]
        rs_k = sorted(v.get("RS@k", {}))
        assert top[column].get_title().startswith(name)
        assert bottom[column].get_title().startswith(name)
        # RS by k on top (boxes are patches with patch_artist), the estimators below
        assert len([p for p in top[column].patches if isinstance(p, PathPatch)]) == len(rs_k)
        assert len([p for p in bottom[column].patches
                    if isinstance(p, PathPatch)]) == len(estimators)
        assert [t.get_text().split("\n")[0] for t in bottom[column].get_xticklabels()] == \
            estimators
        assert len(_lines(bottom[column], None, "D")) == len(estimators)  # one mean each
        assert len(_zero_lines(bottom[column])) == 1
        assert bottom[column].get_ylabel() == "F1 difference A - B (points)"
        if rs_k:
            assert [t.get_text() for t in top[column].get_xticklabels()] == \
                [str(k) for k in range(1, K_MAX + 1)]
            assert len(_zero_lines(top[column])) == 1
            assert len(_lines(top[column], None, "D")) == len(rs_k)
            # the RS box is k = 6 (the paper's Table 4) and says so
            assert "RS\n6 x 8:1\nhold-outs" in [t.get_text() for t in bottom[column].get_xticklabels()]
            # a column shares its y range
            assert top[column].get_ylim() == bottom[column].get_ylim()
        else:
            assert any("no random-split" in t.get_text() for t in top[column].texts)
    assert "Figure 2" in fig.get_suptitle()
    assert MODELS["A"] in _texts(fig)


def test_figure2_draws_points_not_fractions(values):
    v = values["SRL"]["values"]
    fig = _figure2({"SRL": values["SRL"]})
    bottom = fig.axes[1]
    means = [float(line.get_ydata()[0]) for line in _lines(bottom, None, "D")]
    expected = [100 * np.mean(v[e]) for e in ("ST", "RS", "Avg", "Vote", "Mixture")]
    np.testing.assert_allclose(means, expected)
    assert max(abs(m) for m in means) > 0.1  # fractions would all be below 0.01 here


@pytest.mark.slow
def test_figure2_with_bcv_only_drops_the_empty_rs_row_and_renders(values, tmp_path):
    only_bcv = {"Chunking": values["Chunking (bcv only)"]}
    assert set(only_bcv["Chunking"]["values"]) >= {"Avg", "Vote", "Mixture"}
    assert "RS@k" not in only_bcv["Chunking"]["values"]
    fig = _figure2(only_bcv)
    (ax,) = fig.axes
    assert [t.get_text().split("\n")[0] for t in ax.get_xticklabels()] == ["Avg", "Vote",
                                                                          "Mixture"]
    assert len(_zero_lines(ax)) == 1
    png, pdf = figure2(only_bcv, tmp_path / "bcv")
    assert png.read_bytes().startswith(PNG_MAGIC) and pdf.read_bytes().startswith(b"%PDF")
    # string k keys (values read back from JSON) sort numerically too
    srl = json.loads(json.dumps(values["SRL"]))
    srl["values"]["RS@k"] = {k: srl["values"]["RS@k"][k] for k in ("7", "1", "3")}
    top = _figure2({"SRL": srl}).axes[0]
    assert [t.get_text() for t in top.get_xticklabels()] == ["1", "3", "7"]


def test_long_model_specs_wrap_at_commas_without_losing_characters():
    spec = "crf:labels=IOBES,c2=0.1,feature_template=wide-context-with-suffixes,epochs=30"
    lines = figures._wrap(f"A = {spec}", 50)
    assert lines == ["A = crf:labels=IOBES,c2=0.1,", "feature_template=wide-context-with-suffixes,",
                     "epochs=30"]
    # a part longer than a line is cut hard rather than overflowing the panel
    lines = figures._wrap(f"A = {spec}", 20)
    assert "".join(lines) == f"A ={spec}"  # a break at a space drops that space
    assert max(len(line) for line in lines) == 20
    assert figures._pair_line({"A": "a", "B": "b"}, 40) == "A = a  vs  B = b"


def test_figure2_rs_label_is_table4_k_even_when_two_k_coincide(values):
    """Issue 11: with RS@3 == RS@6 the box said "3 x 8:1" (the first k whose values matched)."""
    name, comparison = next(iter(values.items()))
    v = dict(comparison["values"])
    v["RS@k"] = {**v["RS@k"], 3: v["RS@k"][6]}
    v["RS"] = v["RS@k"][6]
    strategies = {"holdout": {"ratio": "4:1"}, "repeated-holdout": {"ratio": "8:1"},
                  "bcv": {"m": 5}}
    fig = _figure2({name: {**comparison, "values": v, "strategies": strategies,
                           "table4_k": 6}})
    labels = [t.get_text() for t in fig.axes[1].get_xticklabels()]
    assert labels == ["ST\n4:1 hold-out", "RS\n6 x 8:1\nhold-outs", "Avg\n5x2 BCV", "Vote\n5x2 BCV",
                      "Mixture\n5x2 BCV"]
    assert fig.axes[0].get_xlabel() == "number of random splits k (8:1 hold-outs averaged)"


def test_figure1_legend_of_a_sequential_study_stays_inside_the_figure(summaries):
    """A planned study's interval kinds name their looks and spending, longer than a figure is
    wide: each legend label is wrapped to the width, and the figure grows by the lines so that
    the panels keep their height (the committed studies' figure 1 ran off both edges)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    kind = ("exact noncentral t at each planned look's level (group-sequential, spending: shares "
            "at R = 5 and 10, the rest as alpha t^4), intersected over looks")
    name, summary = next((n, s) for n, s in summaries.items() if s["random_splits_by_k"])
    planned = {name: {**summary, "random_splits_by_k": {
        k: {**v, "interval_kinds": {"reproducibility": kind.replace("exact noncentral t",
                                                                    "Clopper-Pearson")}}
        for k, v in summary["random_splits_by_k"].items()}}}
    plain, fig = _figure1({name: summary}), _figure1(planned)
    assert fig.get_figheight() > plain.get_figheight()  # grown for the wrapped label
    FigureCanvasAgg(fig).draw()
    (legend,) = fig.legends
    box, frame = legend.get_window_extent(), fig.bbox
    assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0, (box, frame)
    share = kind.replace("exact noncentral t", "Clopper-Pearson")
    wrapped = [t.get_text() for t in legend.get_texts() if "Clopper-Pearson at" in t.get_text()]
    assert len(wrapped) == 1 and wrapped[0].count("\n") >= 1  # wrapped, no character lost
    assert " ".join(wrapped[0].split()) == f"reproducibility 95% {share} CI"
    panel = next(a for a in fig.axes if a.get_title().startswith(name))
    plain_panel = next(a for a in plain.axes if a.get_title().startswith(name))
    FigureCanvasAgg(plain).draw()
    assert panel.get_window_extent().height >= 0.95 * plain_panel.get_window_extent().height
