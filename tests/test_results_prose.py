"""The numbers README "Results" and docs/results.md quote from the committed studies (issue 38,
item 6).

The tables of docs/results.md are generated (studies/beside_the_paper.py, sample_overlap.py) and
tested where they are; so are the sentences between its ``sizes`` and ``two-comparisons``
markers. Every other sentence of those pages (and the note of docs/sequential.md) that quotes a
number of a committed study is checked here: each test reads the number from the committed files
(studies/*/results/summaries/, benchmarks/RESULTS.md) with the project's own readers, formats it
as the page does and asserts the sentence holds it. A rerun that moves a number fails the test
that quotes it: rewrite the sentence to what the data then say (and, where the words no longer
fit, the test's sentence with it). Paper values and hand arithmetic are not checked.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

from reprocompare.base.paths import SUMMARIES
from reprocompare.base.records import read_json

ROOT = Path(__file__).resolve().parents[1]
STUDIES = ROOT / "studies"
BCV = ("Avg", "Vote", "Mixture")
WORDS = ("none", "one", "two", "three")


def _module(path: Path):
    spec = importlib.util.spec_from_file_location(f"_prose_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def beside():
    return _module(STUDIES / "beside_the_paper.py")


def page(relative: str) -> str:
    """A page with its line breaks and runs of spaces made single spaces (and a quote's "> "
    taken off the start of its lines)."""
    lines = (ROOT / relative).read_text(encoding="utf-8").splitlines()
    return " ".join(" ".join(line.removeprefix(">") for line in lines).split())


def records(study: str) -> list[dict]:
    """A committed study's summaries (one per corpus and comparison), as the workflow wrote them."""
    return [read_json(path) for path in sorted((STUDIES / study / SUMMARIES).glob("*/*.json"))
            if not path.name.endswith(".claims.json")]


def summary(study: str) -> dict:
    """The summary of a study with one corpus and one comparison."""
    (record,) = records(study)
    return record["summary"]


def by_size(study: str) -> dict[int, list[dict]]:
    """A size study's summaries by sample size."""
    found: dict[int, list[dict]] = {}
    for record in records(study):
        found.setdefault(record["summary"]["sentences"], []).append(record["summary"])
    return found


def points(summary_: dict, estimator: str, key: str = "mean") -> float:
    """An estimator's mean (or SD, interval end) of A - B in F1 points."""
    return 100 * summary_["estimators"][estimator][key]


def decision(summary_: dict, estimator: str) -> str:
    return summary_["verdicts"][estimator]["decision"]


def repetitions(summary_: dict) -> int:
    (r,) = {e["repetitions"] for e in summary_["estimators"].values()}
    return r


def table_rows(markdown: str) -> list[list[str]]:
    """The body rows of a Markdown table, as cells."""
    return [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in markdown.splitlines()[2:] if line.startswith("|")]


def quoted(text: str, sentence: str) -> None:
    assert sentence in text, f"the page does not quote what the committed files say:\n{sentence}"


# README, "Results"

def test_readme_quotes_the_whole_ner_study():
    ner = summary("ner-full")
    means = {e: points(ner, e) for e in ner["estimators"]}
    assert min(means, key=means.get) == "Avg" and max(means, key=means.get) == "ST"
    assert {decision(ner, e) for e in ner["estimators"]} == {"A>B"}
    assert "IOBES" in ner["models"]["A"] and "IOB2" in ner["models"]["B"]
    quoted(page("README.md"),
           f'on the whole CoNLL-2002 NER corpus every estimator says "A > B reproduces" after '
           f"R = {repetitions(ner)}, the CRF trained on IOBES tags ahead of IOB2 by "
           f"{means['Avg']:.2f} (Avg) to {means['ST']:.2f} (ST) F1 points")


def test_readme_quotes_the_samples():
    sizes = {n: s for study in ("size-chunking", "size-ner") for n, s in by_size(study).items()}
    readme = page("README.md")
    quoted(readme, f"on samples of {min(sizes):,} to {max(sizes):,} sentences and on the whole "
                   "training set")
    ner = by_size("size-ner")
    small, large = min(ner), max(ner)
    means = sorted(points(s, "Avg") for s in ner[small])
    assert means[0] < 0 < means[-1]  # "disagree in sign"
    assert {decision(s, "Avg") for s in ner[small]} == {"undecided"}  # "none decided"
    assert [decision(s, "Avg") for s in ner[large]] == ["A>B"] * 3
    # "disjoint": one seed's parts 0, 1, 2 (reprocompare.corpora.subsample), as recorded
    drawn = [json.loads(path.read_text()) for path in
             (ROOT / "studies" / "size-ner" / "results" / "corpora").glob("*/corpus.json")]
    drawn = [(d["subsample_seed"], d.get("subsample_part", 0)) for d in drawn
             if d["subsample"] == small]
    assert len({seed for seed, _ in drawn}) == 1 and len({part for _, part in drawn}) == 3
    quoted(readme, f"{WORDS[len(ner[small])]} disjoint {small:,}-sentence samples disagree in "
                   f"sign (Avg "
                   f"{means[0]:+.2f} to {means[-1]:+.2f} points, none decided), and all three "
                   f'{large:,}-sentence samples decide "A > B reproduces"')


def test_readme_quotes_the_whole_chunking_study():
    chunking = summary("chunking-full")
    assert "IOBES" in chunking["models"]["B"] and points(chunking, "Avg") < 0
    assert {e for e in chunking["estimators"] if decision(chunking, e) == "B>A"} == set(BCV)
    quoted(page("README.md"),
           f"(IOBES ahead by {-points(chunking, 'Avg'):.2f} points, \"B > A reproduces\" for Avg, "
           f"Vote and the mixture after R = {repetitions(chunking)})")


# docs/results.md: the studies

def test_results_names_each_study_as_committed():
    text = page("docs/results.md")
    for small in ("chunking", "ner"):
        s = summary(small)
        assert s["sentences"] == 300 and all("max_iterations=30" in m for m in s["models"].values())
    (r_small,) = {repetitions(summary(name)) for name in ("chunking", "ner")}
    (k_small,) = {tuple(summary(name)["strategies"]["repeated-holdout"]["k"])
                  for name in ("chunking", "ner")}
    quoted(text, f"a seeded 300-sentence sample, 30 L-BFGS iterations, R = {r_small} repetitions "
                 f"of ST, RS (k = {min(k_small)}..{max(k_small)}) and 3x2 BCV")
    (r_600,) = {repetitions(summary(f"{name}-n600")) for name in ("chunking", "ner")}
    assert {summary(f"{name}-n600")["sentences"] for name in ("chunking", "ner")} == {600}
    quoted(text, f"a 600-sentence sample, 30 iterations, R = {r_600}.")
    # the identical 300-sentence NER sample at 30 and at 200 iterations
    thirty, two_hundred = summary("ner"), next(s for s in by_size("size-ner")[300]
                                               if s["corpus"].endswith("_s0"))
    assert thirty["corpus_sha256"] == two_hundred["corpus_sha256"]
    quoted(text, f"on the identical 300-sentence NER sample, Avg's mean is "
                 f"{points(thirty, 'Avg'):+.2f} points at 30 iterations and "
                 f"{points(two_hundred, 'Avg'):+.2f} at 200")
    sizes = {study: by_size(study) for study in ("size-chunking", "size-ner")}
    (found,) = {tuple(sorted(s)) for s in sizes.values()}
    assert all(len(samples) == 3 for s in sizes.values() for samples in s.values())
    (most,) = {s["stopping"]["max_repetitions"] for study in sizes.values()
               for samples in study.values() for s in samples}
    quoted(text, f"three samples of {', '.join(f'{n:,}' for n in found[:-1])} and "
                 f"{found[-1]:,} sentences, CRFs trained to convergence (200 iterations), BCV and "
                 f"ST, sequential with at most R = {most}")
    whole = [summary("chunking-full"), summary("ner-full")]
    quoted(text, f"the whole training set ({whole[0]['sentences']:,} and "
                 f"{whole[1]['sentences']:,} sentences)")
    (k_whole,) = {tuple(s["strategies"]["repeated-holdout"]["k"]) for s in whole}
    quoted(text, f"RS with k = {', '.join(map(str, k_whole))}, as sequential studies")
    (stopping,) = {(s["stopping"]["wave"], s["stopping"]["max_repetitions"]) for s in whole}
    (stopped,) = {s["stopping"]["repetitions"] for s in whole}
    quoted(text, f"(waves of {stopping[0]}, at most {stopping[1]}). Both stopped at R = {stopped}.")
    # "F1 moves by at most 0.03 points beyond [200 iterations]": benchmarks/RESULTS.md
    convergence = (ROOT / "benchmarks" / "RESULTS.md").read_text().split(
        "## CRF convergence", 1)[1].split("\n## ", 1)[0]
    beyond = [abs(float(row[3].split()[0])) for row in table_rows(
        "\n".join(line for line in convergence.splitlines() if line.startswith("|")))
              if row[1] == "400"]
    assert len(beyond) == 4
    quoted(text, f"F1 moves by at most {max(beyond):.2f} points beyond")
    (threshold,) = {verdict["threshold"] for name in ("chunking", "ner", "chunking-n600",
                                                      "ner-n600", "chunking-full", "ner-full")
                    for verdict in summary(name)["verdicts"].values()}
    quoted(text, f"The verdicts read the 95% interval of P(x > 0) with threshold {threshold:g}")
    assert {v["confidence"] for name in ("chunking", "ner", "chunking-n600", "ner-n600")
            for v in summary(name)["verdicts"].values()} == {0.95}
    (deciding,) = {tuple(s["stopping"]["estimators"]) for s in whole}
    (each,) = {v["confidence"] for s in whole for v in s["verdicts"].values()}
    assert deciding == ("Avg", "Mixture") and each == pytest.approx(1 - 0.05 / len(deciding))
    assert {s["stopping"]["design"] for s in whole} == {"planned"}
    quoted(text, f"the repeated confidence intervals of the planned design (`stopping.design: "
                 f"planned`, the default) for the sequential whole-corpus studies (95% for Avg and "
                 f"the mixture together, so {100 * each:g}% each)")


# docs/results.md, "What agrees with the paper"

def test_results_quotes_the_whole_ner_verdict():
    ner = summary("ner-full")
    assert {decision(ner, e) for e in ner["estimators"]} == {"A>B"}
    assert {e["reproducibility"] for e in ner["estimators"].values()} == {1.0}
    assert "planned look" in ner["estimators"]["Avg"]["interval_kinds"]["mean"]
    quoted(page("docs/results.md"),
           f'Every estimator says "A > B reproduces" after R = {repetitions(ner)}: IOBES ahead by '
           f"{points(ner, 'Avg'):.2f} (Avg; 95% repeated confidence interval "
           f"{points(ner, 'Avg', 'mean_low'):.2f}-{points(ner, 'Avg', 'mean_high'):.2f}, since "
           f"the study stopped by looking) to {points(ner, 'ST'):.2f} (ST) F1 points, "
           "reproducibility 1.0 in every column")


def test_results_quotes_the_sds_and_their_ratios(beside):
    ner, chunking = summary("ner-full"), summary("chunking-full")
    (k,) = {ner["table4_k"], chunking["table4_k"]}

    def bcv(s, digits):
        sds = sorted(points(s, e, "sd") for e in BCV)
        return f"{sds[0]:.{digits}f}-{sds[-1]:.{digits}f}"

    text = page("docs/results.md")
    quoted(text, f"On whole NER the SD of A - B is {bcv(ner, 2)} F1 points for the 3x2 BCV "
                 f"estimators against {points(ner, 'RS', 'sd'):.2f} (RS, k = {k}) and "
                 f"{points(ner, 'ST', 'sd'):.2f} (ST); on whole chunking {bcv(chunking, 3)} "
                 f"against {points(chunking, 'RS', 'sd'):.3f} and "
                 f"{points(chunking, 'ST', 'sd'):.3f}")
    rows = {(row[0], int(row[1])): row for row in table_rows(beside.sd_ratios())}
    whole_ner, whole_chunking = rows[("ner", ner["sentences"])], rows[
        ("chunking", chunking["sentences"])]

    def split(cell):
        ratio, interval = cell.split(" [")
        return ratio, "[" + interval

    # R = 10: the normal model is checked for ties only (Shapiro-Wilk from R = 15), so no
    # interval is flagged approximate
    assert "ST" not in whole_chunking[7] and "ST" not in whole_ner[7]
    quoted(text, "ST's SD is {} times Avg's on whole NER {} and {} times on whole chunking {}, "
                 "RS's {} and {};".format(*split(whole_ner[4]), *split(whole_chunking[4]),
                              whole_ner[5], whole_chunking[5]))
    lows = [float(split(cell)[1][1:].split(",")[0]) for row in rows.values() for cell in row[4:6]]
    assert min(lows) > 1  # "every interval lies above 1 at every size"
    factors = set()
    for row in (whole_ner, whole_chunking):
        for cell in row[4:6]:
            ratio, interval = split(cell)
            low, high = (float(x) for x in interval.strip("[]").split(", "))
            factors |= {f"{float(ratio) / low:.1f}", f"{high / float(ratio):.1f}"}
    (factor,) = factors
    quoted(text, f"though at R = {repetitions(ner)} its size is known only to a factor of about "
                 f"{factor} either way")


def test_results_quotes_st_on_whole_chunking():
    chunking = summary("chunking-full")
    most = chunking["stopping"]["max_repetitions"]
    assert decision(chunking, "ST") == "undecided"
    assert f"more than the maximum of {most}" in chunking["verdicts"]["ST"]["text"]
    assert {decision(chunking, e) for e in BCV} == {"B>A"}
    snrs = sorted((chunking["estimators"][e]["snr"] for e in BCV), reverse=True)
    quoted(page("docs/results.md"),
           f"on the whole corpus after {repetitions(chunking)} repetitions ST is undecided with no "
           f"verdict in sight by the maximum of {most} (SNR "
           f"{chunking['estimators']['ST']['snr']:.2f}), where the BCV estimators' SNRs are "
           f'{snrs[0]:.1f} to {snrs[-1]:.1f} and all three decide "B > A reproduces"')


def test_results_quotes_random_splits_by_k(beside):
    whole = {summary(f"{task}-full")["sentences"] for task in ("chunking", "ner")}
    correlations = sorted(float(row[4]) for row in table_rows(beside.random_splits())
                          if int(row[1]) not in whole)
    text = page("docs/results.md")
    quoted(text, f"Two hold-outs' differences are nearly uncorrelated on the samples (correlation "
                 f"{correlations[0]:+.3f} to {correlations[-1]:+.3f}, \"Random splits by k\")")
    chunking = summary("chunking")
    by_k = {int(k): v["snr"] for k, v in chunking["random_splits_by_k"].items()}
    low, high = min(by_k), max(by_k)
    predicted = math.sqrt(high / low) * by_k[low]
    avg = chunking["estimators"]["Avg"]["snr"]
    assert abs(by_k[high]) < abs(avg)
    quoted(text, f"on chunking ({abs(by_k[low]):.2f} at k = {low}, {abs(by_k[high]):.2f} at "
                 f"k = {high} against {abs(predicted):.2f} predicted); even at k = {high} it stays "
                 f"below Avg's magnitude ({abs(avg):.2f})")


# docs/results.md, "What does not"

def test_results_quotes_the_ner_samples():
    ner, whole = by_size("size-ner"), summary("ner-full")
    (small, middle, large) = sorted(ner)
    means = {n: sorted(points(s, "Avg") for s in ner[n]) for n in ner}
    assert means[small][0] < 0 < means[small][-1]
    assert {decision(s, "Avg") for s in ner[small]} == {"undecided"}
    assert means[middle][0] > 0  # "all lean to IOBES"
    decided = [decision(s, "Avg") for s in ner[middle]]
    assert set(decided) <= {"A>B", "undecided"}
    assert [decision(s, "Avg") for s in ner[large]] == ["A>B"] * 3
    assert decision(whole, "Avg") == "A>B"
    quoted(page("docs/results.md"),
           f"the three {small:,}-sentence samples disagree in sign (Avg {means[small][0]:+.2f} to "
           f"{means[small][-1]:+.2f} points, none decided), the three {middle:,}-sentence samples "
           f"all lean to IOBES ({means[middle][0]:+.2f} to {means[middle][-1]:+.2f}, "
           f"{WORDS[decided.count('A>B')]} \"A > B reproduces\"), and all three {large:,}-sentence "
           'samples decide "A > B reproduces", as the whole corpus does.')


def test_results_quotes_the_chunking_reversal():
    chunking, sizes = summary("chunking-full"), by_size("size-chunking")
    assert {e for e in chunking["estimators"] if decision(chunking, e) == "B>A"} == set(BCV)
    text = page("docs/results.md")
    quoted(text, f"IOBES chunks {-points(chunking, 'Avg'):.2f} points better than IOB2 (Avg, 95% "
                 f"repeated confidence interval {-points(chunking, 'Avg', 'mean_high'):.2f}-"
                 f"{-points(chunking, 'Avg', 'mean_low'):.2f}), and \"B > A reproduces\" for Avg, "
                 f"Vote and the mixture after R = {repetitions(chunking)}")
    means = sorted(points(s, "Avg") for n in sizes for s in sizes[n])
    assert means[-1] < 0  # "leaned the same way"
    *smaller, largest = [f"{n:,}" for n in sorted(sizes)]
    quoted(text, f"Every sample of {', '.join(smaller)} and {largest} sentences leaned the same "
                 f"way (Avg {means[0]:+.2f} to {means[-1]:+.2f} points)")


def test_results_quotes_overlapping_snr_intervals():
    ner, chunking = summary("ner-full"), summary("chunking-full")

    def interval(s, name):
        e = s["estimators"][name]
        return e["snr_low"], e["snr_high"]

    def shown(s, name):
        low, high = interval(s, name)
        return f"[{low:.2f}, {high:.2f}]"

    for s, a, b in ((ner, "Avg", "Mixture"), (chunking, "Vote", "Avg"), (ner, "ST", "RS")):
        (a_low, a_high), (b_low, b_high) = interval(s, a), interval(s, b)
        assert a_low < b_high and b_low < a_high, (a, b)  # they overlap: no order claimed
    (looks,) = {tuple(s["verdicts"]["Avg"]["looks"]) for s in (ner, chunking)}
    text = page("docs/results.md")
    assert all("planned look" in s["estimators"]["Avg"]["interval_kinds"]["snr"]
               for s in (ner, chunking))
    quoted(text, f"At R = {looks[0]}-{looks[-1]} the SNRs' 95% repeated confidence intervals "
                 f"overlap almost "
                 f"entirely (whole NER: Avg {shown(ner, 'Avg')}, the mixture "
                 f"{shown(ner, 'Mixture')}; whole chunking: Vote {shown(chunking, 'Vote')}, Avg "
                 f"{shown(chunking, 'Avg')})")
    offset = ner["null_offsets"]["Mixture"]
    quoted(text, f"({offset['reproducibility_normal']:.2f} / {offset['snr_normal']:.2f} on whole "
                 "NER: what it shows with no difference at all)")
    quoted(text, f"their SNRs ({ner['estimators']['ST']['snr']:.1f} and "
                 f"{ner['estimators']['RS']['snr']:.1f}) have overlapping intervals "
                 f"({shown(ner, 'ST')} and {shown(ner, 'RS')})")


def test_results_quotes_twice_the_sample():
    pairs = {task: (summary(task), summary(f"{task}-n600")) for task in ("chunking", "ner")}
    falls = [100 * (1 - points(b, e, "sd") / points(a, e, "sd"))
             for a, b in pairs.values() for e in BCV]
    small, large = pairs["chunking"]
    assert (small["sentences"], large["sentences"]) == (300, 600)
    assert all(abs(large["estimators"][e]["snr"]) > abs(small["estimators"][e]["snr"])
               for e in small["estimators"])  # "every |SNR| grows"
    means = sorted((points(large, e) for e in large["estimators"]), reverse=True)
    text = page("docs/results.md")
    quoted(text, f"(600 sentences, R = {repetitions(large)}, the same 30-iteration CRF as the "
                 "300-sentence studies)")
    quoted(text, f"the SDs of the BCV estimators fall by {min(falls):.0f}-{max(falls):.0f}% (Avg "
                 f"{points(small, 'Avg', 'sd'):.2f} to {points(large, 'Avg', 'sd'):.2f} points on "
                 f"chunking, {points(pairs['ner'][0], 'Avg', 'sd'):.2f} to "
                 f"{points(pairs['ner'][1], 'Avg', 'sd'):.2f} on NER), and on chunking, where the "
                 f"means stay where they were ({means[0]:.2f} to {means[-1]:.2f} points), every "
                 f"|SNR| grows, Avg's from {abs(small['estimators']['Avg']['snr']):.2f} to "
                 f"{abs(large['estimators']['Avg']['snr']):.2f}.")


def test_results_quotes_the_spread_between_samples():
    overlap = _module(STUDIES / "sample_overlap.py")
    ratios: dict[str, dict[str, float]] = {}
    for row in table_rows(overlap.spread()):
        ratios.setdefault(row[0].removeprefix("size-"), {})[row[1]] = float(row[4]) / float(row[5])

    def where(task, larger):
        sizes = [n for n, ratio in ratios[task].items() if (ratio > 1) == larger]
        if len(sizes) == len(ratios[task]):
            return "at every size"
        return "at " + " and ".join([", ".join(sizes[:-1]), sizes[-1]] if len(sizes) > 1
                                    else sizes) + " sentences"

    text = page("docs/results.md")
    quoted(text, f"The spread of Avg's mean between the samples of a size is up to "
                 f"{max(ratios['ner'].values()):.0f} times one study's standard error on NER")
    quoted(text, f"Where the spread between samples is the larger (NER {where('ner', True)}, "
                 f"chunking {where('chunking', True)})")
    assert not any(ratio <= 1 for ratio in ratios["ner"].values())
    within = [n for n, ratio in ratios["chunking"].items() if ratio <= 1]
    assert len(within) == 1
    quoted(text, f"only at {within[0]} chunking sentences is it within a study's own error")


def test_results_generated_sentences_are_the_committed_summaries(beside):
    """The ``sizes`` and ``two-comparisons`` blocks are what studies/beside_the_paper.py makes
    of the committed summaries (regenerate: .venv/bin/python studies/beside_the_paper.py
    --write)."""
    text = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    for name in ("sizes", "two-comparisons"):
        assert beside.block(text, name) == beside.BLOCKS[name]().strip(), name


# the replay of the committed order (docs/results.md, docs/sequential.md)

@pytest.fixture(scope="module")
def replayed():
    """Each long fixed-R study replayed in its committed order through the stopping rule, as
    benchmarks/bench_replay.py does: (stop of all five, decisions, fixed-R decisions, values)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        bench = _module(ROOT / "benchmarks" / "bench_replay.py")
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    from reprocompare.estimators.verdict import verdict

    out = {}
    for name in ("chunking", "ner"):
        (record,) = records(name)
        values, s = record["values"], record["summary"]
        stop, decisions = bench.replay_order(values, s["conclusion"], range(len(values["ST"])))
        fixed = {e: verdict(values[e], s["conclusion"], time_uniform=False,
                            snr0=s["null_offsets"][e]["snr_normal"]).decision for e in decisions}
        out[name] = (stop, decisions, fixed, values, bench.as_run(values, s["conclusion"]))
    return out


@pytest.mark.slow
def test_results_quotes_the_committed_order(replayed):
    chunking, ner = replayed["chunking"], replayed["ner"]
    for stop, decisions, fixed, *_ in (chunking, ner):
        assert stop is not None and decisions == fixed  # "each the verdict of the full R"
    (r_run,) = {len(values["ST"]) for *_, values, _ in (chunking, ner)}
    text = page("docs/results.md")
    quoted(text, f"the 300-sentence chunking study's five verdicts are all decided by "
                 f"R = {chunking[0]} and the NER study's by R = {ner[0]}, each the verdict of the "
                 f"full R = {r_run}")
    # benchmarks/RESULTS.md's replay over orders starts from the same committed order
    block = (ROOT / "benchmarks" / "RESULTS.md").read_text().split(
        "<!-- replay-orders:begin -->", 1)[1].split("<!-- replay-orders:end", 1)[0]
    rows = {row[0]: row for row in table_rows(
        "\n".join(line for line in block.splitlines() if line.startswith("|")))}
    assert (rows["chunking"][2], rows["ner"][2]) == (str(chunking[0]), str(ner[0]))
    # and README quotes its distribution (issue 38, item 4)
    (orders,) = {rows["chunking"][3], rows["ner"][3]}
    quoted(page("README.md"),
           f"over {orders} random orders of their repetitions, all five verdicts came at a median "
           f"R of {rows['chunking'][5]} for chunking (within R = {r_run} in {rows['chunking'][4]} "
           f"of orders) and {rows['ner'][5]} for NER ({rows['ner'][4]}), and a decided verdict "
           f"went against the full study's in {rows['chunking'][8]} and {rows['ner'][8]} of "
           "orders.")


def test_results_quotes_what_the_live_rule_saved():
    whole = {task: summary(f"{task}-full") for task in ("ner", "chunking")}
    per_repetition = set()
    for s in whole.values():
        strategies = s["strategies"]
        per_repetition.add(2 * (1 + max(strategies["repeated-holdout"]["k"])
                                + 2 * strategies["bcv"]["m"]))
    (per,) = per_repetition
    (stopped,) = {s["stopping"]["repetitions"] for s in whole.values()}
    assert all(s["stopping"]["decided"] for s in whole.values())
    quoted(page("docs/results.md"),
           f"The whole-corpus NER study ran that rule live and stopped at R = {stopped}, and so "
           f"did the chunking study: {stopped * per:,} trainings each ({per} a repetition) where "
           f"R = 200 would have taken {200 * per:,} each.")


def test_index_says_st_has_the_smallest_snr_where_a_direction_was_decided():
    # docs/index.md's advice against ST, checked on every committed summary: where some verdict
    # decided A > B or B > A, no estimator's SNR is smaller in size than ST's, except RS's on
    # whole NER (the sentence names it)
    text = page("docs/index.md")
    assert "in every committed study where an estimator decided a direction, ST's SNR is the " \
           "smallest in size (on whole NER about as small as RS's with k = 3" in text
    decided = 0
    for study in sorted(path.name for path in STUDIES.iterdir() if (path / SUMMARIES).is_dir()):
        for record in records(study):
            s = record["summary"]
            if not any(v["decision"] in ("A>B", "B>A") for v in s["verdicts"].values()):
                continue
            decided += 1
            sizes = {name: abs(e["snr"]) for name, e in s["estimators"].items()
                     if isinstance(e, dict) and isinstance(e.get("snr"), (int, float))}
            if "ST" not in sizes:  # a study without the standard split (the two BCVs')
                continue
            others = {name: size for name, size in sizes.items() if name != "ST"}
            if study == "ner-full":
                others.pop("RS")
                assert abs(sizes["RS"] - sizes["ST"]) < 0.5, (study, sizes)
            assert sizes["ST"] <= min(others.values()), (study, record["corpus"], sizes)
    assert decided >= 10


# docs/sequential.md, "A planned design": its sentences against its generated tables

def _block(text: str, marker: str) -> list[list[str]]:
    begin, end = f"<!-- {marker}:begin -->", f"<!-- {marker}:end -->"
    return table_rows(text[text.index(begin) + len(begin):text.index(end)].strip())


def test_planned_design_quotes_its_coverage():
    raw = (ROOT / "docs" / "sequential.md").read_text(encoding="utf-8")
    rows = _block(raw, "planned-coverage")
    normal = [float(r[5]) for r in rows if r[0] == "normal"]
    textbook = [float(r[8]) for r in rows if r[0] == "normal"]
    skewed_snr = [float(r[5]) for r in rows if r[0] == "skewed"]
    skewed_share = [float(r[9]) for r in rows if r[0] == "skewed"]
    text = page("docs/sequential.md")
    quoted(text, f"cover at every planned look in {min(normal):.1f}-{max(normal):.1f}% of studies")
    quoted(text, f"The textbook levels fall to {min(textbook):.1f}% with a look after every "
                 "repetition.")
    quoted(text, f"({math.floor(min(skewed_snr)):.0f}-{math.floor(max(skewed_snr)):.0f}%, the "
                 "same as any normal-theory interval on them)")
    quoted(text, f"whose Clopper-Pearson intervals cover in {min(skewed_share):.1f}-"
                 f"{max(skewed_share):.0f}%")


def test_planned_design_quotes_the_spending_comparison():
    raw = (ROOT / "docs" / "sequential.md").read_text(encoding="utf-8")
    cell = {(r[0], r[1], r[2]): r for r in _block(raw, "planned-spending")}
    decided = lambda m, s, d: cell[(m, s, d)][5]  # noqa: E731
    mean = lambda m, s, d: cell[(m, s, d)][3]  # noqa: E731
    cs, pocock, obf = "confidence sequence", "Pocock type", "O'Brien-Fleming type"
    text = page("docs/sequential.md")
    quoted(text, f"SNR 2 is decided in {decided('10', '2', pocock)} of studies against "
                 f"{decided('10', '2', cs)}, and equal models (\"neither\") in "
                 f"{decided('10', '0', pocock)} against {decided('10', '0', cs)}")
    quoted(text, f"at a maximum of 20, {decided('20', '2', pocock)} against "
                 f"{decided('20', '2', cs)} and {decided('20', '0', pocock)} against "
                 f"{decided('20', '0', cs)}")
    quoted(text, f"(SNR 4: a mean R of {mean('10', '4', pocock)} against {mean('10', '4', cs)} "
                 f"at a maximum of 10; at a maximum of 200 {mean('200', '4', pocock)} against "
                 f"the O'Brien-Fleming type's {mean('200', '4', obf)})")
    quoted(text, f"decides a little more often by the maximum ({decided('10', '2', obf)} at SNR "
                 "2 and a maximum of 10)")
    quoted(text, f"sits on the threshold: {cell[('200', '0.84', pocock)][6]})")


def test_planned_design_quotes_the_rule_as_it_runs():
    raw = (ROOT / "docs" / "sequential.md").read_text(encoding="utf-8")

    def cells(marker):  # (law, SNR, level) -> row
        return {(r[0], r[1], r[3]): r for r in _block(raw, marker)}

    anytime, planned = cells("futility"), cells("futility-planned")
    levels, planned_levels = cells("futility-levels"), cells("futility-levels-planned")
    mean = lambda t, snr, level="0.2": t[("normal", snr, level)][4]  # noqa: E731
    decided = lambda t, snr, level="0.2": t[("normal", snr, level)][7]  # noqa: E731
    futile = lambda t, snr, level: t[("normal", snr, level)][8]  # noqa: E731
    wrong = lambda t, snr, level="0.2": t[("normal", snr, level)][9]  # noqa: E731
    near = ("0.6", "0.84", "1")

    def span(t, level="0.2", column=4):
        values = [float(t[("normal", snr, level)][column].rstrip("%")) for snr in near]
        return f"{min(values):.1f}-{max(values):.1f}"

    text = page("docs/sequential.md")
    quoted(text, f"(a mean R of {mean(planned, '0')} against {mean(anytime, '0')} at SNR 0, "
                 f"{mean(planned, '0.3')} against {mean(anytime, '0.3')} at 0.3, "
                 f"{mean(planned, '1.5')} against {mean(anytime, '1.5')} at 1.5)")
    quoted(text, f"({decided(planned, '0.6')} against {decided(anytime, '0.6')} at SNR 0.6, "
                 f"{decided(planned, '1')} against {decided(anytime, '1')} at SNR 1)")
    quoted(text, f"their mean R is higher ({span(planned)} against {span(anytime)})")
    quoted(text, f"At SNR 2, 4 and 12 it is no faster ({mean(planned, '2')}, "
                 f"{mean(planned, '4')} and {mean(planned, '12')})")
    quoted(text, f"Wrong verdicts stay at most {wrong(planned, '0.84')} (SNR 0.84; "
                 f"{wrong(planned, '0.84', 'off')} without futility")
    quoted(text, f"mean R near the threshold is {span(planned_levels, '0.4')} while it still "
                 f"decides {span(planned_levels, '0.4', 7)}% of those studies")
    quoted(text, f"it gives up {futile(planned_levels, '0.3', '0.4')} of the verdicts at SNR 0.3 "
                 f"and {futile(planned_levels, '1.5', '0.4')} at 1.5, against "
                 f"{futile(levels, '0.3', '0.4')} and {futile(levels, '1.5', '0.4')} for the "
                 "confidence sequences")
    quoted(text, f"| mean R at most 10 at SNR 4 | {mean(anytime, '4')} | {mean(planned, '4')} |")
    quoted(text, f"At level 0.5 it meets the target of a mean R of at most 70 near the threshold "
                 f"({span(planned_levels, '0.5')})")
    quoted(text, f"({', '.join(decided(planned_levels, s, '0.5') for s in near[:2])} and "
                 f"{decided(planned_levels, '1', '0.5')} at SNR 0.6, 0.84 and 1, against "
                 f"{', '.join(decided(anytime, s) for s in near[:2])} and {decided(anytime, '1')})")
    quoted(text, f"at the price of {futile(planned_levels, '0.3', '0.5')} and "
                 f"{futile(planned_levels, '1.5', '0.5')} of the verdicts at SNR 0.3 and 1.5")
    quoted(text, f"| {span(anytime)} | {span(planned)} | {span(planned_levels, '0.5')}: met |")
    quoted(text, f"and at SNR 0 {futile(levels, '0', '0.4')} (level 0.3: "
                 f"{futile(levels, '0', '0.3')}). At SNR 2 and 4 nothing changes.")
    for snr in ("2", "4"):
        assert mean(levels, snr, "0.4") == mean(anytime, snr)
    quoted(text, f"(and {futile(planned_levels, '0', '0.5')} at SNR 0); at SNR 2 and 4 it "
                 "changes nothing.")
    for snr in ("2", "4"):  # "changes nothing": the same mean R as at the default level
        assert mean(planned_levels, snr, "0.5") == mean(planned, snr)
    quoted(text, f"| mean R at most 10 at SNR 4 | {mean(anytime, '4')} | {mean(planned, '4')} | "
                 f"{mean(planned_levels, '4', '0.5')} |")
    quoted(text, f"| {mean(planned, '0')} (0.55): met | {mean(planned_levels, '0', '0.5')} (0.55): "
                 "met |")


def test_planned_design_quotes_what_a_small_budget_buys():
    raw = (ROOT / "docs" / "sequential.md").read_text(encoding="utf-8")
    cell = {(r[0], r[1], r[2]): r for r in _block(raw, "planned-budget")}
    decided = lambda m, snr, d: cell[(m, snr, d)][5]  # noqa: E731
    mean = lambda m, snr, d: cell[(m, snr, d)][3]  # noqa: E731
    text = page("docs/sequential.md")
    quoted(text, f"With a maximum of 10 the planned design decides {decided('10', '2', 'planned')} "
                 f"of the studies at SNR 2, against {decided('10', '2', 'anytime')}, and "
                 f"{decided('10', '3', 'planned')} at SNR 3, against "
                 f"{decided('10', '3', 'anytime')}; SNR 4 stops at a mean R of "
                 f"{mean('10', '4', 'planned')}, against {mean('10', '4', 'anytime')}.")
    quoted(text, f"equal models are found to be \"neither\" in {decided('20', '0', 'planned')} of "
                 f"studies, against {decided('20', '0', 'anytime')}.")
    worst = max(float(r[7].rstrip("%")) for r in cell.values())
    quoted(text, f"wrong verdicts stay at most {worst:.1f}%.")


def test_readme_says_what_the_designs_table_measured():
    """README's sentence on the designs is made from docs/sequential.md's table by the
    benchmark that wrote both (bench_designs.sentence), not retyped."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_designs
    raw = (ROOT / "docs" / "sequential.md").read_text(encoding="utf-8")
    begin, end = "<!-- designs:begin -->", "<!-- designs:end -->"
    block = raw[raw.index(begin) + len(begin):raw.index(end)]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    begin, end = "<!-- designs-readme:begin -->", "<!-- designs-readme:end -->"
    assert readme[readme.index(begin) + len(begin):readme.index(end)].strip() == \
        bench_designs.sentence(block)
    assert "<!-- designs-readme:begin -->\n<!-- designs-readme:end -->" not in readme
