"""The sentences of README "Results" and docs/results.md that quote the committed studies,
written from the data between markers, as the tables are.

    .venv/bin/python studies/prose.py           # rewrite every generated block of both pages
    .venv/bin/python studies/prose.py --check   # write nothing; exit 1 naming each stale block

A block is the page's own words with each number formatted from the committed summaries
(studies/*/results/summaries/, read with reprocompare.base.files) or from the generated
blocks of benchmarks/RESULTS.md (the replay over orders, the CRF convergence tables). Where the
data decide a word ("none decided", "two of three", which direction, which estimators) the
block chooses it; where the words claim something of the numbers that no word of the template
can follow (two intervals overlap, every |SNR| grows), writing stops with a :class:`ProseError`
that names the sentence: rewrite that template here and run again. Paper values and the prose
between the blocks are the pages' own.

The same command writes the tables and sentences of studies/beside_the_paper.py (``results``,
``sizes``, ``two-comparisons``) and studies/sample_overlap.py (``samples``), so one run rewrites
every generated block of both pages (``make docs`` runs it); tests/test_results_prose.py checks
that the committed blocks are what it writes. The block-regularized BCV's sentences read its two
studies through benchmarks/bench_regularized_bcv.py's ``--study`` (the summaries' values, the
records' fold differences), its divergence table in benchmarks/RESULTS.md and its calibration
block in docs/statistics.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import re
import sys
from pathlib import Path

import numpy as np
from scipy import stats

from reprocompare.base.paths import CLAIMS_SUFFIX, SUMMARIES
from reprocompare.base.files import read_json

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
#: where the studies are read from (a test points it at a copy)
STUDIES = HERE
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
BCV = ("Avg", "Vote", "Mixture")


def _sibling(name: str, folder: Path = HERE):
    """A script of studies/ (or of ``folder``) as a module (they are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(f"_{folder.name}_{name}", folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


beside = _sibling("beside_the_paper")
overlap = _sibling("sample_overlap")
regular = _sibling("bench_regularized_bcv", ROOT / "benchmarks")


class ProseError(Exception):
    """The committed data no longer say what a block's fixed words claim."""


def claim(holds: bool, sentence: str) -> None:
    if not holds:
        raise ProseError(f"the data no longer fit the words of studies/prose.py: {sentence}")


def one(values: set, what: str):
    """The one value the studies a sentence names share (one R, one threshold, one verdict)."""
    claim(len(values) == 1, f"one {what} where the studies hold {sorted(map(str, values))}")
    return values.pop()


# reading the committed studies

def records(study: str) -> list[dict]:
    """A committed study's summary records (one per corpus and comparison)."""
    return [read_json(path) for path in sorted((STUDIES / study / SUMMARIES).glob("*/*.json"))
            if not path.name.endswith(CLAIMS_SUFFIX)]


def summary(study: str) -> dict:
    """The summary of a study with one corpus and one comparison."""
    (record,) = records(study)
    return record["summary"]


def by_size(study: str) -> dict[int, list[dict]]:
    """A size study's summaries by sample size, smallest first."""
    found: dict[int, list[dict]] = {}
    for record in records(study):
        found.setdefault(record["summary"]["sentences"], []).append(record["summary"])
    return dict(sorted(found.items()))


def points(s: dict, estimator: str, key: str = "mean") -> float:
    """An estimator's mean (or SD, interval end) of A - B in F1 points."""
    return 100 * s["estimators"][estimator][key]


def decision(s: dict, estimator: str) -> str:
    return s["verdicts"][estimator]["decision"]


def repetitions(s: dict) -> int:
    r = one({e["repetitions"] for e in s["estimators"].values()}, "R per estimator")
    return r


def scheme(s: dict, model: str) -> str:
    """The tag scheme of model A or B (``crf:scheme=IOBES,...`` -> IOBES)."""
    return re.search(r"scheme=(\w+)", s["models"][model]).group(1)


def iterations(s: dict) -> int:
    n = one({int(re.search(r"max_iterations=(\d+)", spec).group(1))
            for spec in s["models"].values()}, "tagger iteration budget")
    return n


def disjoint_sizes(study: str) -> dict[int, tuple[int, ...]]:
    """A size study's sample sizes whose samples are the disjoint parts of one seed -> the
    parts (the others are draws of several seeds, which overlap)."""
    drawn: dict[int, set] = {}
    for path in sorted((STUDIES / study / "results" / "corpora").glob("*/corpus.json")):
        d = read_json(path)
        drawn.setdefault(d["subsample"], set()).add((d["subsample_seed"],
                                                     d.get("subsample_part", 0)))
    return {n: tuple(sorted(part for _, part in found)) for n, found in sorted(drawn.items())
            if len({seed for seed, _ in found}) == 1}


def words(d: str) -> str:
    return beside.VERDICT_WORDS.get(d, d)


def named(estimators) -> str:
    """Estimators in a sentence: "Avg, Vote and the mixture"."""
    names = ["the mixture" if e == "Mixture" else e for e in estimators]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def sizes_in_words(sizes) -> str:
    """300, 1,200 and 4,800."""
    shown = [f"{n:,}" for n in sizes]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def table_rows(markdown: str) -> list[list[str]]:
    """The body rows of a Markdown table, as cells."""
    return [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in markdown.splitlines()[2:] if line.startswith("|")]


def replay_orders() -> dict[str, list[str]]:
    """benchmarks/RESULTS.md's replay over orders (bench_replay.py --orders), by study: R run,
    the committed order's stop, orders, all decided within R, median and 90th percentile stop,
    P(stop <= the committed order's), a decided verdict against the fixed-R one."""
    text = block(RESULTS.read_text(encoding="utf-8"), "replay-orders")
    return {row[0]: row for row in table_rows(
        "\n".join(line for line in text.splitlines() if line.startswith("|")))}


def convergence_beyond() -> float:
    """The largest change of F1, in points, from 200 to 400 L-BFGS iterations
    (benchmarks/RESULTS.md, "CRF convergence")."""
    section = RESULTS.read_text(encoding="utf-8").split("## CRF convergence", 1)[1].split(
        "\n## ", 1)[0]
    beyond = [abs(float(row[3].split()[0])) for row in table_rows(
        "\n".join(line for line in section.splitlines() if line.startswith("|")))
        if row[1] == "400"]
    claim(len(beyond) == 4, "CRF convergence: two schemes on each of two corpora")
    return max(beyond)


def wrap(text: str, indent: str = "") -> str:
    """``text`` in lines of at most 100 characters (beside_the_paper's), never breaking "R = 10"
    nor starting a line with "10. " (a list would begin there)."""
    kept = re.sub(r" (?=\d+\.(\s|$))", "\0", text.replace(" = ", "\0=\0"))
    return beside._wrap(kept, indent)


def item(text: str) -> str:
    return wrap(f"- {text}", indent="  ")


# docs/results.md

def scales() -> str:
    """The studies at their three scales (the list under the page's first paragraph)."""
    small = {task: summary(task) for task in ("chunking", "ner")}
    n600 = {task: summary(f"{task}-n600") for task in ("chunking", "ner")}
    n_small = one({s["sentences"] for s in small.values()}, "sample size")
    it_small = one({iterations(s) for s in [*small.values(), *n600.values()]}, "iteration budget")
    r_small = one({repetitions(s) for s in small.values()}, "R")
    k = one({tuple(s["strategies"]["repeated-holdout"]["k"]) for s in small.values()}, "k")
    n_600 = one({s["sentences"] for s in n600.values()}, "sample size")
    r_600 = one({repetitions(s) for s in n600.values()}, "R")
    # the identical NER sample at the unconverged and at the converged CRF
    sizes = {study: by_size(study) for study in ("size-chunking", "size-ner")}
    thirty = small["ner"]
    converged = next(s for s in sizes["size-ner"][n_small] if s["corpus"].endswith("_s0"))
    claim(thirty["corpus_sha256"] == converged["corpus_sha256"],
          "the identical 300-sentence NER sample at 30 and at 200 iterations")
    found = one({tuple(s) for s in sizes.values()}, "set of sample sizes")
    count = one({len(samples) for s in sizes.values() for samples in s.values()},
                "number of samples a size")
    it_size = one({iterations(s) for study in sizes.values() for samples in study.values()
                  for s in samples}, "iteration budget")
    most = one({s["stopping"]["max_repetitions"] for study in sizes.values()
               for samples in study.values() for s in samples}, "maximum R")
    disjoint = one({tuple(disjoint_sizes(study).items()) for study in sizes},
                   "set of disjoint sizes")
    apart = [n for n in found if n not in dict(disjoint)]
    parts = one({p for _, p in disjoint}, "set of parts")
    claim(bool(disjoint) and len(apart) == 1, "disjoint at the smaller sizes, one size drawn "
          "with several seeds")
    whole = [summary("chunking-full"), summary("ner-full")]
    it_whole = one({iterations(s) for s in whole}, "iteration budget")
    k_whole = one({tuple(s["strategies"]["repeated-holdout"]["k"]) for s in whole}, "k")
    stop = one({(s["stopping"]["wave"], s["stopping"]["max_repetitions"]) for s in whole},
               "wave and maximum")
    stopped = one({s["stopping"]["repetitions"] for s in whole}, "stop")
    deciding = one({tuple(s["stopping"]["estimators"]) for s in whole},
                   "set of deciding estimators")
    return "\n".join([
        item(f"`studies/chunking`, `studies/ner` (`config/study-*.yaml`): a seeded "
             f"{n_small}-sentence sample, {it_small} L-BFGS iterations, R = {r_small} repetitions "
             f"of ST, RS (k = {min(k)}..{max(k)}) and 3x2 BCV;"),
        item(f"`studies/*-n{n_600}`: a {n_600}-sentence sample, {it_small} iterations, "
             f"R = {r_600}. These four train a CRF that has not converged ({it_small} "
             "iterations): they are the paper's Tables 3-4 and Figures 1-2 at a fixed R, and are "
             f"never compared by size with the studies below (on the identical {n_small}-sentence "
             f"NER sample, Avg's mean is {points(thirty, 'Avg'):+.2f} points at {it_small} "
             f"iterations and {points(converged, 'Avg'):+.2f} at {iterations(converged)});"),
        item(f"`studies/size-*` (`config/study-size-*.yaml`): {beside._word(count)} samples of "
             f"{sizes_in_words(found)} sentences, CRFs trained to convergence ({it_size} "
             f"iterations), BCV and ST, sequential with at most R = {most}. The samples of "
             f"{sizes_in_words(n for n, _ in disjoint)} sentences are disjoint (the parts "
             f"{sizes_in_words(parts)} of one seed's shuffle); the corpora hold no "
             f"{beside._word(count)} disjoint {apart[0]:,}-sentence samples, so those are drawn "
             f"with {beside._word(count)} seeds and overlap (table below);"),
        item(f"`studies/*-full` (`config/study-*-full.yaml`): the whole training set "
             f"({whole[0]['sentences']:,} and {whole[1]['sentences']:,} sentences), CRFs trained "
             f"to convergence ({it_whole} iterations: F1 moves by at most "
             f"{convergence_beyond():.2f} points beyond; benchmarks/RESULTS.md, \"CRF "
             f"convergence\"), RS with k = {', '.join(map(str, k_whole))}, as sequential studies "
             f"that stop once {named(deciding)} have verdicts (waves of {stop[0]}, at most "
             f"{stop[1]}). Both stopped at R = {stopped}."),
    ])


def verdicts() -> str:
    """How the verdicts were read (the paragraph after the tables)."""
    fixed = [summary(name) for name in ("chunking", "ner", "chunking-n600", "ner-n600")]
    whole = [summary("chunking-full"), summary("ner-full")]
    threshold = one({v["threshold"] for s in fixed + whole for v in s["verdicts"].values()},
                    "verdict threshold")
    level = one({v["confidence"] for s in fixed for v in s["verdicts"].values()}, "confidence")
    sizes = sorted({s["sentences"] for s in fixed})
    deciding = one({tuple(s["stopping"]["estimators"]) for s in whole},
                   "set of deciding estimators")
    each = one({v["confidence"] for s in whole for v in s["verdicts"].values()},
               "confidence of a deciding estimator")
    claim(math.isclose(each, 1 - (1 - level) / len(deciding)),
          "the deciding estimators share the study's level (Bonferroni)")
    design = one({s["stopping"]["design"] for s in whole}, "stopping design")
    claim(design == "planned", "the whole-corpus studies ran the planned design, the default")
    return wrap(
        "The NER studies train untyped, on boundary tags only (the taggers see B, I and O without "
        f"the entity types, and are scored the same way). The verdicts read the {100 * level:g}% "
        f"interval of P(x > 0) with threshold {threshold:g} (`verdict:` in the config; "
        "[Statistics, \"Verdicts\"](statistics.md#verdicts-and-sequential-studies)): the fixed-R "
        f"exact interval for the {'- and '.join(map(str, sizes))}-sentence studies, the repeated "
        f"confidence intervals of the {design} design (`stopping.design: {design}`, the default) "
        f"for the sequential whole-corpus studies ({100 * level:g}% for {named(deciding)} "
        f"together, so {100 * each:g}% each).")


def _spread(values: list[float], digits: int = 2, sign: str = "") -> str:
    return f"{min(values):{sign}.{digits}f}-{max(values):{sign}.{digits}f}"


def _shown(s: dict, name: str) -> str:
    e = s["estimators"][name]
    return f"[{e['snr_low']:.2f}, {e['snr_high']:.2f}]"


def _overlap(s: dict, a: str, b: str) -> bool:
    ea, eb = s["estimators"][a], s["estimators"][b]
    return ea["snr_low"] < eb["snr_high"] and eb["snr_low"] < ea["snr_high"]


def _one_verdict(s: dict, estimators) -> str:
    """The one decision ``estimators`` share in ``s`` (the words claim it)."""
    d = one({decision(s, e) for e in estimators}, "verdict")
    return d


def agrees() -> str:
    """"What agrees with the paper": its four items."""
    ner, chunking = summary("ner-full"), summary("chunking-full")
    # whole NER: every estimator, one direction
    d = _one_verdict(ner, ner["estimators"])
    claim(d == "A>B", "whole NER: every estimator says A > B reproduces")
    claim({e["reproducibility"] for e in ner["estimators"].values()} == {1.0},
          "whole NER: reproducibility 1.0 in every column")
    means = {e: points(ner, e) for e in ner["estimators"]}
    low, high = min(means, key=means.get), max(means, key=means.get)
    claim("planned look" in ner["estimators"][low]["interval_kinds"]["mean"],
          "whole NER: the mean's interval is the planned design's")
    first = (f"*NER: {scheme(ner, 'A')} beats {scheme(ner, 'B')}, reproducibly, on the whole "
             f"corpus.* Every estimator says \"{words(d)}\" after R = {repetitions(ner)}: "
             f"{scheme(ner, 'A')} ahead by {means[low]:.2f} ({low}; 95% repeated confidence "
             f"interval {points(ner, low, 'mean_low'):.2f}-{points(ner, low, 'mean_high'):.2f}, "
             f"since the study stopped by looking) to {means[high]:.2f} ({high}) F1 points, "
             "reproducibility 1.0 in every column (the paper: 0.68-0.94 at R = 1000).")

    # Criterion I: the SDs, and their ratios with intervals
    k = one({ner["table4_k"], chunking["table4_k"]}, "k")
    for s in (ner, chunking):
        claim(max(points(s, e, "sd") for e in BCV) < min(points(s, e, "sd") for e in ("ST", "RS")),
              "BCV has the smallest variance")

    def bcv(s, digits):
        return _spread([points(s, e, "sd") for e in BCV], digits)

    rows = {(row[0], int(row[1])): row for row in table_rows(beside.sd_ratios())}
    row_ner, row_chunking = rows[("ner", ner["sentences"])], rows[("chunking",
                                                                  chunking["sentences"])]

    def split(cell):
        ratio, interval = cell.split(" [")
        return ratio, "[" + interval

    lows = [float(split(cell)[1][1:].split(",")[0]) for row in rows.values() for cell in row[4:6]]
    claim(min(lows) > 1, "every SD ratio's interval lies above 1 at every size")
    factors = []
    for row in (row_ner, row_chunking):
        for cell in row[4:6]:
            ratio, interval = split(cell)
            lo, hi = (float(x) for x in interval.strip("[]").split(", "))
            factors += [float(ratio) / lo, hi / float(ratio)]
    factor = (f"{min(factors):.1f}" if f"{min(factors):.1f}" == f"{max(factors):.1f}" else
              f"{min(factors):.1f}-{max(factors):.1f}")
    second = (f"*BCV has the smallest variance* (Criterion I). On whole NER the SD of A - B is "
              f"{bcv(ner, 2)} F1 points for the 3x2 BCV estimators against "
              f"{points(ner, 'RS', 'sd'):.2f} (RS, k = {k}) and {points(ner, 'ST', 'sd'):.2f} "
              f"(ST); on whole chunking {bcv(chunking, 3)} against "
              f"{points(chunking, 'RS', 'sd'):.3f} and {points(chunking, 'ST', 'sd'):.3f} "
              "(Figure 2: `studies/*/results/figures/figure2.png`). With their intervals "
              "(\"Criterion I with its intervals\" above): ST's SD is {} times Avg's on whole "
              "NER {} and {} times on whole chunking {}, RS's {} and {}; ".format(
                  *split(row_ner[4]), *split(row_chunking[4]), row_ner[5], row_chunking[5])
              + "every interval lies above 1 at every size, so the order holds, though at "
              f"R = {repetitions(ner)} its size is known only to a factor of about {factor} "
              "either way.")

    # ST on whole chunking
    most = chunking["stopping"]["max_repetitions"]
    claim(decision(chunking, "ST") == "undecided"
          and f"more than the maximum of {most}" in chunking["verdicts"]["ST"]["text"],
          "whole chunking: ST undecided with no verdict in sight by the maximum")
    bcv_says = _one_verdict(chunking, BCV)
    claim(bcv_says != "undecided", "whole chunking: the BCV estimators decide")
    snrs = sorted((chunking["estimators"][e]["snr"] for e in BCV), key=abs)
    third = ("*A standard split is the least reliable on chunking*: on the whole corpus after "
             f"{repetitions(chunking)} repetitions ST is undecided with no verdict in sight by the "
             f"maximum of {most} (SNR {chunking['estimators']['ST']['snr']:.2f}), where the BCV "
             f"estimators' SNRs are {snrs[0]:.1f} to {snrs[-1]:.1f} and all "
             f"{beside._word(len(BCV))} decide \"{words(bcv_says)}\".")

    # random splits by k
    whole = {ner["sentences"], chunking["sentences"]}
    correlations = sorted(float(row[4]) for row in table_rows(beside.random_splits())
                          if int(row[1].replace(",", "")) not in whole)
    claim(max(map(abs, correlations)) < 0.1, "two hold-outs' differences nearly uncorrelated")
    small = summary("chunking")
    by_k = {int(k_): v["snr"] for k_, v in small["random_splits_by_k"].items()}
    k_low, k_high = min(by_k), max(by_k)
    predicted = math.sqrt(k_high / k_low) * by_k[k_low]
    avg = small["estimators"]["Avg"]["snr"]
    claim(abs(by_k[k_low]) < abs(by_k[k_high]) < abs(avg),
          "RS's SNR grows with k and stays below Avg's")
    fourth = ("*More random splits help.* Two hold-outs' differences are nearly uncorrelated on "
              f"the samples (correlation {correlations[0]:+.3f} to {correlations[-1]:+.3f}, "
              "\"Random splits by k\"), so RS's SNR grows about like sqrt(k) on chunking "
              f"({abs(by_k[k_low]):.2f} at k = {k_low}, {abs(by_k[k_high]):.2f} at k = {k_high} "
              f"against {abs(predicted):.2f} predicted); even at k = {k_high} it stays below "
              f"Avg's magnitude ({abs(avg):.2f}).")
    return "\n".join(["**What agrees with the paper.**",
                      *(item(text) for text in (first, second, third, fourth))])


def disagrees() -> str:
    """"What does not": its four items."""
    ner_sizes, ner, chunking = by_size("size-ner"), summary("ner-full"), summary("chunking-full")
    small, middle, large = ner_sizes
    means = {n: sorted(points(s, "Avg") for s in found) for n, found in ner_sizes.items()}
    claim(means[small][0] < 0 < means[small][-1], "the smallest NER samples disagree in sign")
    claim(means[middle][0] > 0, "the middle NER samples all lean to A")
    leaning = [decision(s, "Avg") for s in ner_sizes[middle]]
    claim(set(leaning) <= {"A>B", "undecided"}, "the middle NER samples decide A > B or nothing")
    claim([decision(s, "Avg") for s in ner_sizes[large]] == ["A>B"] * len(ner_sizes[large])
          and decision(ner, "Avg") == "A>B",
          "the largest NER samples decide as the whole corpus does")
    n = beside._word(len(ner_sizes[small]))
    first = (f"*The NER direction needs more than {small:,} sentences.* With one converged tagger "
             f"(\"By sample size\"), the {n} {small:,}-sentence samples disagree in sign (Avg "
             f"{means[small][0]:+.2f} to {means[small][-1]:+.2f} points, "
             f"{beside._verdicts([decision(s, 'Avg') for s in ner_sizes[small]])}), the "
             f"{beside._word(len(ner_sizes[middle]))} {middle:,}-sentence samples all lean to "
             f"{scheme(ner, 'A')} ({means[middle][0]:+.2f} to {means[middle][-1]:+.2f}, "
             f"{beside._word(leaning.count('A>B'))} \"{words('A>B')}\"), and all "
             f"{beside._word(len(ner_sizes[large]))} {large:,}-sentence samples decide "
             f"\"{words('A>B')}\", as the whole corpus does. A paper run on one small sample would "
             "have reported that sample's sign.")

    chunking_sizes = by_size("size-chunking")
    deciding = [e for e in chunking["estimators"] if decision(chunking, e) == "B>A"]
    claim(bool(deciding) and scheme(chunking, "B") == "IOBES" and points(chunking, "Avg") < 0,
          "whole chunking: IOBES (B) ahead, B > A reproduces")
    sample_means = sorted(points(s, "Avg") for found in chunking_sizes.values() for s in found)
    claim(sample_means[-1] < 0, "every chunking sample leaned the same way")
    second = ("*Chunking reverses the paper at every size.* On the whole CoNLL-2000 training set "
              f"{scheme(chunking, 'B')} chunks {-points(chunking, 'Avg'):.2f} points better than "
              f"{scheme(chunking, 'A')} (Avg, 95% repeated confidence interval "
              f"{-points(chunking, 'Avg', 'mean_high'):.2f}-"
              f"{-points(chunking, 'Avg', 'mean_low'):.2f}), and \"{words('B>A')}\" for "
              f"{named(deciding)} after R = {repetitions(chunking)}, against the paper's \"IOB2 > "
              "IOBES\" (reproducibility 0.96-1.0 at R = 1000 on Chinese base-phrase chunking). "
              f"Every sample of {sizes_in_words(chunking_sizes)} sentences leaned the same way "
              f"(Avg {sample_means[0]:+.2f} to {sample_means[-1]:+.2f} points). A converged CRF on "
              f"CoNLL-2000 prefers {scheme(chunking, 'B')}; the paper's corpus and tagger differ, "
              "so this is a different finding, not a failed reproduction of theirs.")

    for s, a, b in ((ner, "Avg", "Mixture"), (chunking, "Vote", "Avg"), (ner, "ST", "RS")):
        claim(_overlap(s, a, b), f"the SNR intervals of {a} and {b} overlap")
    looks = one({tuple(s["verdicts"]["Avg"]["looks"]) for s in (ner, chunking)}, "set of looks")
    claim(all("planned look" in s["estimators"]["Avg"]["interval_kinds"]["snr"]
              for s in (ner, chunking)), "the SNRs' intervals are repeated confidence intervals")
    offset = ner["null_offsets"]["Mixture"]
    third = ("*Which estimator has the highest SNR is not resolved on the whole corpora.* The "
             "paper finds the mixture highest on NER and SRL and a close second on chunking. At "
             f"R = {looks[0]}-{looks[-1]} the SNRs' 95% repeated confidence intervals overlap "
             f"almost entirely (whole NER: Avg {_shown(ner, 'Avg')}, the mixture "
             f"{_shown(ner, 'Mixture')}; whole chunking: Vote {_shown(chunking, 'Vote')}, Avg "
             f"{_shown(chunking, 'Avg')}), so no order among them is claimed here. The mixture's "
             "values are also read against its null offset "
             f"({offset['reproducibility_normal']:.2f} / {offset['snr_normal']:.2f} on whole NER: "
             "what it shows with no difference at all).")
    fourth = (f"*ST and RS with k = {ner['table4_k']} are not ordered on whole NER*: their SNRs "
              f"({ner['estimators']['ST']['snr']:.1f} and {ner['estimators']['RS']['snr']:.1f}) "
              f"have overlapping intervals ({_shown(ner, 'ST')} and {_shown(ner, 'RS')}).")
    return "\n".join(["**What does not.**",
                      *(item(text) for text in (first, second, third, fourth))])


def twice() -> str:
    """The 600-sentence studies against the 300-sentence ones (one paragraph)."""
    pairs = {task: (summary(task), summary(f"{task}-n600")) for task in ("chunking", "ner")}
    small, large = pairs["chunking"]
    claim(all(b["sentences"] == 2 * a["sentences"] and iterations(a) == iterations(b)
              for a, b in pairs.values()), "twice the sample, the same CRF")
    falls = [100 * (1 - points(b, e, "sd") / points(a, e, "sd"))
             for a, b in pairs.values() for e in BCV]
    claim(min(falls) > 0, "the BCV estimators' SDs fall")
    claim(all(abs(large["estimators"][e]["snr"]) > abs(small["estimators"][e]["snr"])
              for e in small["estimators"]), "on chunking every |SNR| grows")
    means = sorted((points(large, e) for e in large["estimators"]), key=abs)
    ner_small, ner_large = pairs["ner"]
    return wrap(
        f"**With twice the sample** ({large['sentences']} sentences, R = {repetitions(large)}, the "
        f"same {iterations(large)}-iteration CRF as the {small['sentences']}-sentence studies) the "
        f"SDs of the BCV estimators fall by {min(falls):.0f}-{max(falls):.0f}% (Avg "
        f"{points(small, 'Avg', 'sd'):.2f} to {points(large, 'Avg', 'sd'):.2f} points on chunking, "
        f"{points(ner_small, 'Avg', 'sd'):.2f} to {points(ner_large, 'Avg', 'sd'):.2f} on NER), "
        f"and on chunking, where the means stay where they were ({means[0]:.2f} to "
        f"{means[-1]:.2f} points), every |SNR| grows, Avg's from "
        f"{abs(small['estimators']['Avg']['snr']):.2f} to "
        f"{abs(large['estimators']['Avg']['snr']):.2f}.")


def _twinned(study: str) -> tuple[int, ...]:
    """The sizes whose ``_s0`` sample of a size study is also another study's corpus (the same
    source, size, seed and part in its corpus.json)."""
    def key(d):
        return d.get("source_sha256"), d.get("subsample"), d.get("subsample_seed"), \
            d.get("subsample_part", 0)

    others = {key(read_json(path)) for path in STUDIES.glob("*/results/corpora/*/corpus.json")
              if not path.parts[-5].startswith("size-")}
    return tuple(sorted(d["subsample"] for d in (
        read_json(path) for path in (STUDIES / study / "results" / "corpora").glob(
            "*_s0/corpus.json")) if key(d) in others))


def intervals() -> str:
    """How the size studies' samples were drawn (the paragraph before the samples tables)."""
    studies = ("size-chunking", "size-ner")
    disjoint = one({tuple(disjoint_sizes(study).items()) for study in studies},
                   "set of disjoint sizes")
    parts = one({p for _, p in disjoint}, "set of parts")
    drawn: dict[int, set] = {}
    sources = set()
    for study in studies:
        for path in (STUDIES / study / "results" / "corpora").glob("*/corpus.json"):
            d = read_json(path)
            drawn.setdefault(d["subsample"], set()).add((study, d["subsample_seed"]))
            sources.add(d["source_sentences"])
    apart = [n for n in drawn if n not in dict(disjoint)]
    claim(len(apart) == 1, "one size drawn with several seeds")
    seeds = one({len({seed for s, seed in drawn[apart[0]] if s == study}) for study in studies},
                "number of seeds")
    claim(all(seeds * apart[0] > n for n in sources),
          "the overlapping samples together do not fit in their corpus")
    twinned = one({_twinned(study) for study in studies}, "set of sizes shared with a study")
    shown = [f"{n:,}" for n, _ in disjoint]
    return wrap(
        f"**A study's intervals are not about new data.** The {beside._word(len(parts))} samples "
        f"of {' and of '.join(shown)} sentences share no sentence (`corpora.NAME.subsample_part` "
        f"{sizes_in_words(parts)}: consecutive slices of one seeded shuffle of the corpus); the "
        f"{beside._word(seeds)} of {apart[0]:,} are drawn with {beside._word(seeds)} seeds, as "
        f"{seeds} x {apart[0]:,} sentences do not fit in "
        f"{' or '.join(f'{n:,}' for n in sorted(sources))}, so two of them share about n / N of "
        f"their sentences. The `_s0` samples of {sizes_in_words(twinned)} sentences are also the "
        "sentences of other studies. `studies/sample_overlap.py` redraws every sample from what "
        "its `corpus.json` records (the source's sha256 and size, the sample's size, seed and "
        "part) and measures the overlap:")


def spread() -> str:
    """The spread between samples against a study's own error (after the samples tables)."""
    ratios: dict[str, dict[int, float]] = {}
    for row in table_rows(overlap.spread()):
        ratios.setdefault(row[0].removeprefix("size-"), {})[int(row[1].replace(",", ""))] = \
            float(row[4]) / float(row[5])

    def where(task):
        larger = [n for n, ratio in ratios[task].items() if ratio > 1]
        if len(larger) == len(ratios[task]):
            return "at every size"
        return f"at {sizes_in_words(larger)} sentences"

    within = [n for n, ratio in ratios["chunking"].items() if ratio <= 1]
    claim(all(ratio > 1 for ratio in ratios["ner"].values()) and len(within) == 1,
          "the spread between samples is the larger on NER at every size, on chunking but at one")
    disjoint = {tuple(disjoint_sizes(f"size-{task}")) for task in ratios}
    (shared,) = disjoint
    return wrap(
        "The spread of Avg's mean between the samples of a size is up to "
        f"{max(ratios['ner'].values()):.0f} times one study's standard error on NER (the second "
        f"table), between samples that share no sentence at {sizes_in_words(shared)}: a study's "
        "intervals describe re-splits of its one sample, and its verdict is a verdict on that "
        f"corpus. Where the spread between samples is the larger (NER {where('ner')}, chunking "
        f"{where('chunking')}), another sample of the same size could well give another answer; "
        f"only at {within[0]:,} chunking sentences is it within a study's own error.")


def _live() -> tuple[int, int]:
    """The whole-corpus studies' stop and their trainings a repetition (2 models x (ST + k RS
    hold-outs + 2m BCV folds))."""
    whole = [summary(f"{task}-full") for task in ("ner", "chunking")]
    per = one({2 * (1 + max(s["strategies"]["repeated-holdout"]["k"])
                   + 2 * s["strategies"]["bcv"]["m"]) for s in whole},
              "number of trainings a repetition")
    stopped = one({s["stopping"]["repetitions"] for s in whole}, "stop")
    claim(all(s["stopping"]["decided"] for s in whole), "both whole-corpus studies decided")
    return stopped, per


def replay() -> str:
    """The replay of the 300-sentence studies in their committed order and over random orders
    (benchmarks/RESULTS.md's replay-orders block, bench_replay.py --orders), and what the live
    rule saved on the whole corpora."""
    rows = replay_orders()
    chunking, ner = rows["chunking"], rows["ner"]
    r_run = one({chunking[1], ner[1]}, "R run")
    orders = one({chunking[3], ner[3]}, "number of orders")
    n = one({summary(task)["sentences"] for task in ("chunking", "ner")}, "tagger iteration budget")
    claim(max(float(row[8].rstrip("%")) for row in (chunking, ner)) <= 5,
          "the verdicts over orders are robust")
    stopped, per = _live()
    return wrap(
        "**Fewer repetitions would have said the same, but how many fewer is luck.** Replayed in "
        "the order they ran, through the sequential stopping rule of the default design (waves of "
        f"5, the planned design's repeated confidence intervals up to R = {r_run}; "
        "`benchmarks/bench_replay.py`, benchmarks/RESULTS.md \"Replay\"), the "
        f"{n}-sentence chunking study's five verdicts are all decided by R = {chunking[2]} and "
        f"the NER study's by R = {ner[2]}, each the verdict of the full R = {r_run}. That order "
        f"is one draw: over {orders} random orders of the same repetitions "
        "(benchmarks/RESULTS.md, \"The replay over orders\"), the chunking study decides all five "
        f"within R = {r_run} in {chunking[4]} of orders (median stop {chunking[5]}, and by "
        f"R = {chunking[2]} in {chunking[7]}), the NER study in {ner[4]} (median stop {ner[5]}, "
        f"90th percentile {ner[6]}, and by R = {ner[2]} in {ner[7]}). The verdicts are robust (a "
        f"decided verdict went against the full study's in {chunking[8]} and {ner[8]} of "
        "orders); the savings of the committed order are not what a rerun should expect. The "
        f"whole-corpus NER study ran that rule live and stopped at R = {stopped}, and so did the "
        f"chunking study: {stopped * per:,} trainings each ({per} a repetition) where R = {r_run} "
        f"would have taken {int(r_run) * per:,} each.")


def samples() -> str:
    """studies/sample_overlap.py's two tables (what it prints)."""
    return (overlap.table() + "\n" + overlap.spread()).strip()


# the block-regularized BCV (docs/results.md, "Regularized BCV"; README's sentence on it)

#: the two studies of both BCVs: study -> the sample's words
REGULARIZED = {"regularized-chunking": "CoNLL-2000 chunking",
               "regularized-ner": "CoNLL-2002 Spanish NER"}
STATISTICS = ROOT / "docs" / "statistics.md"


def _regularized() -> dict[str, dict]:
    """Each regularized study's summary, fold correlations and variance ratios (what
    ``bench_regularized_bcv.py --study`` prints), by study; read afresh by each block (0.03 CPU s),
    so that a block always follows the data it is asked about."""
    found = {}
    for study in REGULARIZED:
        ((name, record, where),) = regular.comparisons(STUDIES / study)
        found[study] = {
            "summary": record["summary"],
            "folds": {row["strategy"]: row for row in regular.fold_correlations(name, where)},
            "ratios": regular.variance_ratios(name, record, np.random.default_rng(0))}
    return found


def _short(d: str) -> str:
    return {"A>B": "A > B", "B>A": "B > A"}.get(d, d)


def _interval(low: float, high: float) -> str:
    return f"{low:.2f}, {high:.2f}"


def regularized_table() -> str:
    """The SNRs, variance ratios and verdicts of both BCVs on the same samples."""
    lines = ["| sample (R each) | " + " | ".join(f"{p} / {r}" for p, r in regular.PAIRS) + " |",
             "|---|---|---|---|"]
    for study, found in _regularized().items():
        s, rows = found["summary"], found["ratios"]
        r = one({row["R"] for row in rows}, "R per pair")
        lines.append(f"| SNR, {REGULARIZED[study]}, {s['sentences']:,} (R = {r}) | " + " | ".join(
            f"{row['snr_plain']:.2f} / {row['snr_regularized']:.2f}" for row in rows) + " |")
        lines.append("| variance ratio, regularized / plain [95%: F; bootstrap] | " + " | ".join(
            f"{row['variance_ratio']:.2f} [{_interval(*row['f_95'])}; "
            f"{_interval(*row['bootstrap_95'])}]" for row in rows) + " |")
        lines.append("| verdicts (plain / regularized) | " + " | ".join(
            f"{_short(decision(s, p))} / {_short(decision(s, q))}" for p, q in regular.PAIRS)
                     + " |")
    return "\n".join(lines)


def _differing(found: dict) -> list[int]:
    """How many repetitions more each undecided side of a pair whose verdicts differ needs."""
    more = []
    for study in found.values():
        s = study["summary"]
        for pair in regular.PAIRS:
            decided = {e: decision(s, e) for e in pair}
            if len(set(decided.values())) > 1:
                claim("undecided" in decided.values(), "a differing verdict is an undecided one")
                more.extend(s["verdicts"][e]["more"] for e in pair if decided[e] == "undecided")
    return more


def regularized_gain() -> str:
    """The sentences under the table: no measurable gain, and what R would show one."""
    found = _regularized()
    rows = [row for study in found.values() for row in study["ratios"]]
    claim(all(row["f_95"][0] <= 1 <= row["f_95"][1] and
              row["bootstrap_95"][0] <= 1 <= row["bootstrap_95"][1] for row in rows),
          "every variance ratio's interval holds 1")
    ways = []
    for study, data in found.items():
        sample = REGULARIZED[study].split()[-1]
        steadier = [row["regularized"] for row in data["ratios"] if row["variance_ratio"] < 1]
        if not steadier:
            ways.append(f"every regularized estimator less steady on {sample}")
        elif len(steadier) == len(data["ratios"]):
            ways.append(f"every regularized estimator steadier on {sample}")
        else:
            ways.append(f"{named(steadier)} steadier on {sample}")
    claim(any(row["variance_ratio"] < 1 for row in rows)
          and any(row["variance_ratio"] > 1 for row in rows), "the point ratios go both ways")
    for study in found.values():
        e = study["summary"]["estimators"]
        for p, q in regular.PAIRS:
            claim(e[p]["snr_low"] <= e[q]["snr_high"] and e[q]["snr_low"] <= e[p]["snr_high"],
                  "each pair's SNR intervals overlap")
    more = _differing(found)
    claim(bool(more) and None not in more, "the undecided side of each differing pair projects")
    f, r = stats.f, 200
    return wrap(
        "(`studies/regularized-chunking` and `studies/regularized-ner`, Table 4 there; "
        "`benchmarks/bench_regularized_bcv.py --study DIR` for the ratios: the sample variance of "
        "the regularized estimator over the plain one's, with the F interval of two independent "
        "samples and a bootstrap over the R repetition pairs, 10,000 resamples; the two "
        "strategies' splits come from independent seeds, so the pairs share only their index.) "
        "Every interval holds 1: no measurable gain. The point ratios go both ways "
        f"({', '.join(ways)}), and each pair's SNR intervals overlap (Table 4 "
        f"of each study). {beside._word(len(more)).capitalize()} "
        f"verdict{'s' if len(more) != 1 else ''} differ, each where the undecided side is "
        f"{beside._word(min(more))} to {beside._word(max(more))} repetitions from deciding. A "
        "likely reason balancing does not steady the estimates: the folds' divergence is small "
        "even unbalanced (a few thousandths of a bit), and what varies between re-splits is "
        "which sentences a model trains on more than their tag shares. At these R, a variance "
        "ratio of 0.5 would go undetected; a study that must know needs R in the hundreds (at "
        f"R = {r} the F interval of a ratio of 1 is about "
        f"[{1 / f.ppf(0.975, r - 1, r - 1):.2f}, {1 / f.ppf(0.025, r - 1, r - 1):.2f}]).")


def _sizes() -> dict[str, list[str]]:
    """docs/statistics.md's calibration block: the size rows of each BCV's tests, by
    "BCV test"."""
    text = block(STATISTICS.read_text(encoding="utf-8"), "regularized-calibration-docs")
    table = text.split("Size at alpha", 1)[1].split("\n\n", 2)[1]
    return {f"{row[0]} {row[1]}": row[2:] for row in table_rows(table)}


def regularized_folds() -> str:
    """The folds' correlation in each study, and the blocked t's constant that follows."""
    found = _regularized()
    plain = [found[s]["folds"]["bcv"] for s in REGULARIZED]
    reg = [found[s]["folds"]["regularized-bcv"] for s in REGULARIZED]
    pooled = read_json(ROOT / "benchmarks" / "regularized_calibration.json")[
        "measured"]["pooled"]["regularized-bcv"]
    sizes = _sizes()
    calibrated = one({key for key in sizes if key.startswith("regularized blocked_3x2_t (C = 0.")},
                     "calibrated blocked t")
    constant = re.search(r"C = (0\.\d+), ([\d.]+) df", calibrated)
    normal, skewed = (sizes[calibrated][i].split(" / ") for i in (0, 1))
    authors = (sizes["regularized blocked_3x2_t (C = 1, 5 df)"][0].split(" / ")[0],
               sizes["regularized blocked_3x2_t (C = 1, 5 df)"][1].split(" / ")[0])
    rho = lambda rows, key: " and ".join(f"{row[key]:+.2f}" for row in rows)  # noqa: E731
    return wrap(
        "**The folds correlate otherwise.** Over the repetitions, the 6 fold differences of the "
        f"plain BCV correlate at rho1 = {rho(plain, 'rho1')} (chunking and NER) within a 2-fold "
        f"CV and rho2 = {rho(plain, 'rho2')} between two; the regularized folds at rho1 = "
        f"{rho(reg, 'rho1')}, rho2 = {rho(reg, 'rho2')} (R = "
        f"{' and '.join(str(row['R']) for row in reg)}): its two halves being alike, plausibly "
        "a 2-fold CV's two models err alike. Pooled over both studies (rho1 = "
        f"{pooled['rho1']:.2f}, rho2 = {pooled['rho2']:.2f}, kappa = rho1 + 4 rho2 = "
        f"{pooled['kappa']:.2f} [{pooled['kappa_95'][0]:.2f}, {pooled['kappa_95'][1]:.2f}]), the "
        "regularized strategy's blocked t divides by the variance inflation of its correlated "
        f"folds, C = sqrt((1 + kappa) / (5 - kappa)) = {constant.group(1)}, with "
        f"{constant.group(2)} degrees of freedom: size {normal[0]}% (normal) and {skewed[0]}% "
        f"(skewed) where the authors' C = 1 gave {authors[0]}% and {authors[1]}%, but "
        f"{normal[2]}-{skewed[2]}% at the upper end of kappa's interval (docs/statistics.md, "
        "\"The block-regularized BCV's tests and intervals\"). With it, the regularized blocked "
        f"t claims {_claimed(_blocked_claims('regularized-bcv', 'regularized_blocked_3x2_t'))}, "
        "where the plain BCV's blocked t (the authors' constant) claims "
        f"{_claimed(_blocked_claims('bcv', 'blocked_3x2_t'))} (each study's "
        f"`results/tables/claims.md`). A size of {skewed[0]}% "
        "under skew is above alpha: read those claims with it.")


def _blocked_claims(strategy: str, test: str) -> list[tuple[str, int, int]]:
    """Per regularized study (chunking, NER): the direction the blocked t claims, in how many
    repetitions (p < 0.05), of how many (the claims records)."""
    found = []
    for study in REGULARIZED:
        (path,) = (STUDIES / study / SUMMARIES).glob(f"*/*{CLAIMS_SUFFIX}")
        runs = [run[test] for run in read_json(path)["repetitions"][strategy]]
        signs = {"A>B" if t["statistic"] > 0 else "B>A" for t in runs if t["p_value"] < 0.05}
        claim(len(signs) <= 1, "the blocked t's claims go one way in each study")
        found.append((_short(signs.pop()) if signs else "nothing",
                      sum(t["p_value"] < 0.05 for t in runs), len(runs)))
    return found


def _claimed(found: list[tuple[str, int, int]]) -> str:
    """"B > A in 8 of the 10 chunking repetitions and A > B in 10 of the 15 NER ones"."""
    parts = [f"{d} in {n} of the {r} {task} repetitions" if n else f"nothing in the {r} {task} "
             "repetitions" for (d, n, r), task in zip(found, ("chunking", "NER"))]
    return " and ".join(parts)


def readme_regularized() -> str:
    """README's sentence on the block-regularized BCV."""
    rows = [row for study in _regularized().values() for row in study["ratios"]]
    divergence = table_rows("\n".join(
        line for line in RESULTS.read_text(encoding="utf-8").split(
            "**Divergence on the same split seeds**", 1)[1].split("\n\n", 2)[1].splitlines()
        if line.startswith("|")))
    factors = [float(row[3].split(" / ")[0]) / float(row[4].split(" / ")[0])
               for row in divergence]
    claim(all(row["f_95"][0] <= 1 <= row["f_95"][1] for row in rows),
          "every variance ratio's interval holds 1")
    ratios = [row["variance_ratio"] for row in rows]
    rs = sorted({row["R"] for row in rows})
    return wrap(
        "The paper's future work, a block-regularized BCV whose training and validation sets "
        "share their tag and length distributions (`regularized_bcv`), cuts that divergence by a "
        f"factor of {min(factors):,.0f} to {max(factors):,.0f} but gives no measurable gain in "
        f"SNR on 1,200-sentence samples (variance ratios {min(ratios):.2f} to {max(ratios):.2f}, "
        f"every 95% interval holding 1, R = {' and '.join(map(str, rs))}).")


# docs/index.md, "Which estimator to use"

TASKS = {"conll2000": "chunking", "conll2002_esp": "NER"}


def _task(corpus: str) -> str:
    return next(task for prefix, task in TASKS.items() if corpus.startswith(prefix))


def index_st() -> str:
    """docs/index.md's advice against ST, from every committed summary: where a direction was
    decided no estimator's SNR is smaller in size than ST's but within ST's interval (named),
    and where every |SNR| stays below 0.5 no ranking is claimed."""
    exceptions, barely = [], set()
    for study in sorted(path.name for path in STUDIES.iterdir() if (path / SUMMARIES).is_dir()):
        for record in records(study):
            s = record["summary"]
            sizes = {name: abs(e["snr"]) for name, e in s["estimators"].items()
                     if isinstance(e, dict) and isinstance(e.get("snr"), (int, float))}
            if max(sizes.values()) < 0.5:
                barely.add((_task(record["corpus"]), s["sentences"]))
            if "ST" not in sizes or not any(v["decision"] in ("A>B", "B>A")
                                            for v in s["verdicts"].values()):
                continue
            st = s["estimators"]["ST"]
            for name, size in sizes.items():
                if size < sizes["ST"]:
                    e = s["estimators"][name]
                    claim(e["snr_low"] <= st["snr_high"] and st["snr_low"] <= e["snr_high"],
                          "an estimator below ST in size overlaps ST's interval")
                    claim(study.endswith("-full"), "only a whole corpus has an exception")
                    named_as = f"RS's with k = {s['table4_k']}" if name == "RS" else f"{name}'s"
                    exceptions.append(f"on whole {_task(record['corpus'])} about as small as "
                                      f"{named_as}")
    claim(bool(barely), "some study barely differs")
    tasks = one({task for task, _ in barely}, "task where A and B barely differ")
    where = f" ({'; '.join(exceptions)}, with overlapping intervals)" if exceptions else ""
    return wrap(
        "Avoid a single standard split (ST): in every committed study where an estimator decided "
        f"a direction, ST's SNR is the smallest in size{where}; where A and B barely differ "
        f"({tasks} at {sizes_in_words(sorted(n for _, n in barely))} sentences) every estimator's "
        "SNR is near 0 and no ranking holds.")


# README.md, "Results"

def readme_results() -> str:
    """README's first paragraph of "Results"."""
    ner = summary("ner-full")
    d = _one_verdict(ner, ner["estimators"])
    means = {e: points(ner, e) for e in ner["estimators"]}
    low, high = min(means, key=means.get), max(means, key=means.get)
    sizes = {n: found for study in ("size-chunking", "size-ner")
             for n, found in by_size(study).items()}
    ner_sizes = by_size("size-ner")
    small, large = min(ner_sizes), max(ner_sizes)
    small_means = sorted(points(s, "Avg") for s in ner_sizes[small])
    claim(small_means[0] < 0 < small_means[-1], "the smallest NER samples disagree in sign")
    claim(small in disjoint_sizes("size-ner"), "the smallest NER samples are disjoint")
    claim({decision(s, "Avg") for s in ner_sizes[large]} == {d},
          "the largest NER samples decide as the whole corpus does")
    rows = replay_orders()
    orders = one({rows["chunking"][3], rows["ner"][3]}, "number of orders")
    r_run = one({rows["chunking"][1], rows["ner"][1]}, "R run")
    return wrap(
        "Xue et al. published no code and ran on corpora that are not all public. We reran their "
        "chunking and NER comparisons on public corpora (CoNLL-2000 chunking, CoNLL-2002 Spanish "
        f"NER), on samples of {min(sizes):,} to {max(sizes):,} sentences and on the whole "
        "training set, and committed under `studies/` what cannot be derived; `make study-NAME` "
        "rebuilds every table from it without training. One result: on the whole CoNLL-2002 NER "
        f"corpus every estimator says \"{words(d)}\" after R = {repetitions(ner)}, the CRF "
        f"trained on {scheme(ner, 'A')} tags ahead of {scheme(ner, 'B')} by {means[low]:.2f} "
        f"({low}) to {means[high]:.2f} ({high}) F1 points, as the paper found. With the same "
        f"converged CRF, {beside._word(len(ner_sizes[small]))} disjoint {small:,}-sentence "
        f"samples disagree in sign (Avg {small_means[0]:+.2f} to {small_means[-1]:+.2f} points, "
        f"{beside._verdicts([decision(s, 'Avg') for s in ner_sizes[small]])}), and all "
        f"{beside._word(len(ner_sizes[large]))} {large:,}-sentence samples decide "
        f"\"{words(d)}\": on a small sample, the sample sets the sign. Stopping as soon as the "
        "verdicts are decided saves trainings, but how many is luck: over "
        f"{orders} random orders of their repetitions, all five verdicts came at a median R of "
        f"{rows['chunking'][5]} for chunking (within R = {r_run} in {rows['chunking'][4]} of "
        f"orders) and {rows['ner'][5]} for NER ({rows['ner'][4]}), and a decided verdict went "
        f"against the full study's in {rows['chunking'][8]} and {rows['ner'][8]} of orders.")


def readme_chunking() -> str:
    """README's sentence on whole chunking (after the figure)."""
    chunking = summary("chunking-full")
    deciding = [e for e in chunking["estimators"] if decision(chunking, e) == "B>A"]
    claim(bool(deciding) and points(chunking, "Avg") < 0, "whole chunking goes the other way")
    return wrap(
        "On whole CoNLL-2000 chunking the same pair goes the other way "
        f"({scheme(chunking, 'B')} ahead by {-points(chunking, 'Avg'):.2f} points, "
        f"\"{words('B>A')}\" for {named(deciding)} after R = {repetitions(chunking)}), against "
        "the paper's \"IOB2 > IOBES\" on Chinese base-phrase chunking. Table 4 beside the "
        "paper's, every sample size, what agrees and what does not: "
        "[docs/results.md](docs/results.md).")


#: each page (from the project's root) -> its blocks: marker name -> what goes between
PAGES = {
    "README.md": {"results-readme": readme_results, "chunking-readme": readme_chunking,
                  "regularized-readme": readme_regularized},
    "docs/results.md": {**beside.BLOCKS, "scales": scales, "verdicts": verdicts,
                        "agrees": agrees, "disagrees": disagrees, "twice": twice,
                        "intervals": intervals, "samples": samples, "spread": spread,
                        "replay": replay, "regularized-table": regularized_table,
                        "regularized-gain": regularized_gain,
                        "regularized-folds": regularized_folds},
    "docs/index.md": {"st-advice": index_st},
}


def block(text: str, name: str) -> str:
    """What lies between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` in ``text``, without
    the marker lines."""
    inner = text.split(f"<!-- {name}:begin -->\n", 1)[1].split(f"<!-- {name}:end -->", 1)[0]
    return inner.removesuffix("\n")


def written(text: str, blocks: dict) -> str:
    """``text`` with each of ``blocks`` rewritten between its markers."""
    for name, make in blocks.items():
        begin, end = f"<!-- {name}:begin -->\n", f"<!-- {name}:end -->"
        if begin not in text or end not in text:
            raise ProseError(f"no {name} markers")
        head, rest = text.split(begin, 1)
        text = head + begin + make().strip() + "\n" + end + rest.split(end, 1)[1]
    return text


def stale(root: Path = ROOT) -> list[str]:
    """``page: block`` for every committed block that is not what its maker writes now."""
    found = []
    for page, blocks in PAGES.items():
        text = (root / page).read_text(encoding="utf-8")
        for name, make in blocks.items():
            if block(text, name) != make().strip():
                found.append(f"{page}: {name}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 naming each stale block")
    args = parser.parse_args(argv)
    try:
        if args.check:
            found = stale()
            if found:
                print(f"stale: {'; '.join(found)}; run .venv/bin/python studies/prose.py",
                      file=sys.stderr)
                return 1
            return 0
        for page, blocks in PAGES.items():
            path = ROOT / page
            text = path.read_text(encoding="utf-8")
            new = written(text, blocks)
            if new != text:
                path.write_text(new, encoding="utf-8")
    except ProseError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
