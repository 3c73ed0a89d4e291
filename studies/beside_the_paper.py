"""Our Table 4 beside the paper's: the tables between the results markers of docs/results.md.

    .venv/bin/python studies/beside_the_paper.py > /tmp/results.md

Reads the summaries the studies' workflow wrote (studies/*/results/summaries/*/*.json) and puts
each estimator's SNR and reproducibility, with their 95% intervals, beside the values printed in
Table 4 of Xue et al. (quoted below; their chunking corpus is Chinese base-phrase chunking and
their NER corpus CoNLL-2003 English, ours CoNLL-2000 and CoNLL-2002 Spanish): the whole-corpus
study of a task (studies/TASK-full) where it has been run, else its 300-sentence sample
(studies/TASK). Then each task at every sample size it was run at (studies/TASK: 300 sentences,
studies/TASK-nN: N, studies/TASK-full: the whole corpus).

The blocks of docs/results.md this script makes (:data:`BLOCKS`: ``results``, the tables
above; ``sizes``, the sentences on Avg's mean and verdicts at every sample size;
``two-comparisons``, the sentences on studies/two-comparisons) are written between their markers,
with the page's other generated sentences, by

    .venv/bin/python studies/prose.py
"""

from __future__ import annotations

import json
import math
import textwrap
from pathlib import Path

import numpy as np

from reprocompare.base.markdown import md_code, md_table
from reprocompare.base.paths import CLAIMS_SUFFIX, COMPARE, ESTIMATES_FILE, SUMMARIES
from reprocompare.base.run_records import read_repetitions

HERE = Path(__file__).resolve().parent
ESTIMATORS = ("ST", "RS", "Avg", "Vote", "Mixture")

#: Xue et al., Table 4 (SNR, reproducibility), for the same conclusions: chunking "IOB2 > IOBES",
#: NER "IOBES > IOB2"
PAPER = {
    "chunking": {"SNR": (0.195, 0.483, 3.200, 1.818, 3.063),
                 "Reproducibility": (0.590, 0.665, 1.000, 0.960, 1.000)},
    "ner": {"SNR": (0.510, 1.258, 0.889, 1.179, 1.421),
            "Reproducibility": (0.678, 0.893, 0.830, 0.900, 0.940)},
}


VERDICT_WORDS = {"A>B": "A > B reproduces", "B>A": "B > A reproduces",
                 "none": "no reproducible difference", "undecided": "undecided"}


def _summary_paths(directory: Path) -> list[Path]:
    return [path for path in sorted((directory / SUMMARIES).glob("*/*.json"))
            if not path.name.endswith(CLAIMS_SUFFIX)]


def summaries() -> dict[str, dict]:
    """Each task's study beside the paper: the whole corpus where it has been run."""
    out = {}
    for study in sorted(PAPER):
        for directory in (HERE / f"{study}-full", HERE / study):
            found = _summary_paths(directory)
            if found:
                out[study] = json.loads(found[-1].read_text())
                break
    return out


def _sizes(study: str) -> list[Path]:
    """A task's studies from the smallest sample to the whole corpus."""
    return [HERE / study, *sorted(HERE.glob(f"{study}-n*")), HERE / f"{study}-full"]


def cell(value: float, low: float, high: float) -> str:
    return f"{value:.3f} [{low:.3f}, {high:.3f}]"


def table(study: str, record: dict) -> str:
    summary = record["summary"]
    estimators = summary["estimators"]
    repetitions = sorted({estimators[name]["repetitions"] for name in ESTIMATORS})
    models = summary["model_names"]
    lines = [f"**{study}**: {record['corpus']}, {summary['sentences']} sentences, "
             f"A = {models['A']} (`{summary['models']['A']}`), "
             f"B = {models['B']} (`{summary['models']['B']}`), conclusion {summary['conclusion']}, "
             f"R = {', '.join(map(str, repetitions))}, RS with k = {summary['table4_k']}",
             ""]
    rows = []
    for measure, key in (("SNR", "snr"), ("Reproducibility", "reproducibility")):
        rows.append([f"{measure}, ours [95% CI]",
                     *(cell(estimators[name][key], estimators[name][f"{key}_low"],
                            estimators[name][f"{key}_high"]) for name in ESTIMATORS)])
        rows.append([f"{measure}, paper", *(f"{v:.3f}" for v in PAPER[study][measure])])
    offsets = summary.get("null_offsets", {})
    if offsets:  # what each estimator shows with no true difference (estimators.null)
        rows.append(["If A = B (null offset): reproducibility / SNR, ours",
                     *(f"{offsets[name]['reproducibility_normal']:.3f} / "
                       f"{offsets[name]['snr_normal']:.3f}" for name in ESTIMATORS)])
    found = summary.get("verdicts", {})
    if found:  # estimators.verdict at the study's fixed R (threshold and confidence as recorded)
        rows.append(["Verdict, ours",
                     *(VERDICT_WORDS.get(found[name]["decision"], found[name]["decision"])
                       for name in ESTIMATORS)])
    rows.append(["Mean of A - B (F1 points), ours",
                 *(f"{100 * estimators[name]['mean']:+.2f}" for name in ESTIMATORS)])
    rows.append(["SD of A - B (F1 points), ours",
                 *(f"{100 * estimators[name]['sd']:.2f}" for name in ESTIMATORS)])
    return "\n".join(lines + md_table(["", *ESTIMATORS], rows))


def _tagger(summary: dict) -> str:
    """The tagger spec A and B share but for the compared setting: the CRF's iterations."""
    return ", ".join(sorted({part for spec in summary["models"].values()
                             for part in spec.split(":", 1)[-1].split(",")
                             if part.startswith("max_iterations=")})) or "-"


def by_size() -> str:
    """Each task at every sample size with one tagger spec (studies/size-TASK: three samples of
    each size, disjoint parts of one seed or overlapping samples of several, as
    studies/sample_overlap.py measures; and studies/TASK-full): mean of A - B in F1 points and
    SNR [95% CI] per estimator it ran."""
    rows = []
    for study in sorted(PAPER):
        records = [json.loads(path.read_text())["summary"]
                   for directory in (HERE / f"size-{study}", HERE / f"{study}-full")
                   for path in _summary_paths(directory)]
        for summary in sorted(records, key=lambda r: (r["sentences"], r["corpus"])):
            estimators = summary["estimators"]
            present = [name for name in ESTIMATORS if name in estimators]
            r_values = sorted({estimators[name]["repetitions"] for name in present})
            cells = [f"{100 * e['mean']:+.2f} / {e['snr']:.2f} [{e['snr_low']:.2f}, "
                     f"{e['snr_high']:.2f}]" if e else "-"
                     for e in (estimators.get(n) for n in ESTIMATORS)]
            kinds = sorted({estimators[name].get("interval_kinds", {}).get("snr", "")
                            for name in present})
            rows.append([study, summary["sentences"], md_code(summary["corpus"]),
                         _tagger(summary), ", ".join(map(str, r_values)), *cells,
                         "; ".join(kinds)])
    return "\n".join(md_table(["task", "sentences", "sample", "tagger", "R", *ESTIMATORS,
                               "SNR interval"], rows))


def _study_directories():
    for study in sorted(PAPER):
        for directory in _sizes(study):
            for path in _summary_paths(directory):
                yield study, directory, json.loads(path.read_text())


def holdout_correlation(directory: Path) -> float:
    """The mean correlation, across repetitions, between two hold-outs' differences of RS.

    Every random-splits repetition records its k hold-out differences (estimates.json, as the
    strategy's records.jsonl holds it); with R repetitions as rows, the off-diagonal mean
    of their correlation matrix says how much one hold-out's difference tells about another's.
    """
    rows = [files[ESTIMATES_FILE]["fold_differences"] for strategy in sorted(
        (directory / COMPARE).glob("*/*/repeated-holdout"))
        for files in read_repetitions(strategy).values()]
    matrix = np.corrcoef(np.asarray(rows, dtype=np.float64), rowvar=False)
    return float(matrix[~np.eye(len(matrix), dtype=bool)].mean())


def random_splits() -> str:
    """RS by k: SNR at the smallest and largest k, what sqrt(k) growth predicts, the hold-outs'
    correlation, and Avg's SNR beside it."""
    rows = []
    for study, directory, record in _study_directories():
        summary = record["summary"]
        by_k = {int(k): v for k, v in summary["random_splits_by_k"].items()}
        low, high = min(by_k), max(by_k)
        rows.append([study, summary["sentences"], _tagger(summary), by_k[low]["repetitions"],
                     f"{holdout_correlation(directory):+.3f}",
                     f"{by_k[low]['snr']:.3f} (k = {low})",
                     f"{by_k[high]['snr']:.3f} (k = {high})",
                     f"{math.sqrt(high / low) * by_k[low]['snr']:.3f}",
                     f"{summary['estimators']['Avg']['snr']:.3f}"])
    return "\n".join(md_table(["task", "sentences", "tagger", "R",
                                "correlation of two hold-outs' differences", "SNR at smallest k",
                                "SNR at largest k", "sqrt(k) growth predicts", "Avg's SNR"], rows))


def sd_ratio(values, reference, confidence: float = 0.95) -> tuple[float, float, float]:
    """SD(values) / SD(reference) and its interval from the F distribution (two independent
    normal samples: s1^2/s2^2 over F(n1 - 1, n2 - 1) is pivotal), as (ratio, low, high)."""
    from scipy import stats

    a, b = np.asarray(values, dtype=np.float64), np.asarray(reference, dtype=np.float64)
    ratio = float(np.std(a, ddof=1) / np.std(b, ddof=1))
    alpha = 1 - confidence
    upper = stats.f.ppf(1 - alpha / 2, a.size - 1, b.size - 1)
    lower = stats.f.ppf(alpha / 2, a.size - 1, b.size - 1)
    return ratio, ratio / math.sqrt(upper), ratio / math.sqrt(lower)


def sd_ratios() -> str:
    """Criterion I with its intervals: how many times Avg's SD of A - B are ST's and RS's.

    A study that stopped by looking could have stopped at any of its looks up to its maximum:
    each interval is then at 1 - 0.05 / L for its L possible looks (Bonferroni), which holds at
    whichever look it stopped. The F interval assumes normal estimates: where Shapiro-Wilk or
    ties rejected that model for either sample (the verdict's path), the row says so.
    """
    from reprocompare.estimators.sequential import looks

    rows = []
    for study, _, record in _study_directories():
        summary, values = record["summary"], record["values"]
        stopping = summary.get("stopping")
        possible = len(looks(stopping["max_repetitions"], stopping["wave"])) if stopping else 1
        confidence = 1 - 0.05 / possible
        kind = ("F, fixed R" if possible == 1 else
                f"F at {100 * confidence:.2f}% (Bonferroni over {possible} possible looks)")
        rejected = [name for name in ("ST", "RS", "Avg")
                    if summary["verdicts"][name].get("path", "normal") != "normal"]
        cells = []
        for name in ("ST", "RS"):
            ratio, low, high = sd_ratio(values[name], values["Avg"], confidence)
            cells.append(f"{ratio:.2f} [{low:.2f}, {high:.2f}]")
        rows.append([study, summary["sentences"], _tagger(summary), len(values["Avg"]), *cells,
                     kind, ", ".join(rejected) + " (approximate)" if rejected else "normal"])
    return "\n".join(md_table(["task", "sentences", "tagger", "R", "SD(ST) / SD(Avg) [95%]",
                                "SD(RS) / SD(Avg) [95%]", "interval", "estimates"], rows))


NUMBER_WORDS = ("none", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve")


def _word(count: int) -> str:
    return NUMBER_WORDS[count] if count < len(NUMBER_WORDS) else f"{count:,}"


def _wrap(text: str, indent: str = "") -> str:
    """``text`` in lines of at most 100 characters, never broken inside "A - B", "A > B" or
    "B > A" (a line that began with "- " or "> " would turn into a list or a quote)."""
    kept = text.replace(" - ", "\0-\0").replace(" > ", "\0>\0")
    return textwrap.fill(kept, width=100, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False).replace("\0", " ")


def _verdicts(decisions: list[str]) -> str:
    """How a set of samples decided, in words: "none decided", "all three "A > B reproduces"",
    "one of three "A > B reproduces"" (the undecided ones left unsaid)."""
    decided = [d for d in decisions if d != "undecided"]
    if not decided:
        return "none decided"
    n = len(decisions)
    if n == 1:
        return f'"{VERDICT_WORDS.get(decided[0], decided[0])}"'
    if len(decided) == n and len(set(decided)) == 1:
        return f'all {_word(n)} "{VERDICT_WORDS.get(decided[0], decided[0])}"'
    return ", ".join(f'{_word(decided.count(d))} of {_word(n)} "{VERDICT_WORDS.get(d, d)}"'
                     for d in sorted(set(decided)))


def sizes() -> str:
    """The sentences of docs/results.md on each task at every sample size, one tagger per task.

    Reads the committed summaries of studies/size-TASK (several samples of each size) and
    studies/TASK-full (the whole corpus) and says, per size, the range of Avg's mean A - B over
    the samples and how Avg's verdicts fell, then the whole corpus, then how often ST decided.

    Returns
    -------
    str
        A Markdown list, one item per task (between the ``sizes`` markers of docs/results.md).
    """
    items = []
    for study in sorted(PAPER):
        by_size: dict[int, list[dict]] = {}
        for path in _summary_paths(HERE / f"size-{study}"):
            summary = json.loads(path.read_text())["summary"]
            by_size.setdefault(summary["sentences"], []).append(summary)
        whole = [json.loads(path.read_text())["summary"]
                 for path in _summary_paths(HERE / f"{study}-full")]
        if not by_size:
            continue
        first = next(iter(by_size.values()))[0]
        parts = []
        for index, (n, found) in enumerate(sorted(by_size.items())):
            means = sorted(100 * s["estimators"]["Avg"]["mean"] for s in found)
            avg = _verdicts([s["verdicts"]["Avg"]["decision"] for s in found])
            spread = (f"{means[0]:+.2f}" if len(means) == 1 else
                      f"from {means[0]:+.2f} to {means[-1]:+.2f}")
            if index == 0:
                lead = (f"at {n:,} sentences Avg's mean A - B {'is' if len(means) == 1 else 'runs'}"
                        f" {spread} F1 points across the {_word(len(found))} "
                        f"sample{'s' if len(found) > 1 else ''}")
            else:
                lead = f"at {n:,} {spread}"
            parts.append(f"{lead} ({avg})")
        for summary in whole:
            decision = summary["verdicts"]["Avg"]["decision"]
            words = VERDICT_WORDS.get(decision, decision)
            parts.append(f"on the whole corpus ({summary['sentences']:,} sentences) "
                         f"{100 * summary['estimators']['Avg']['mean']:+.2f} "
                         + ("(undecided)" if decision == "undecided" else f'("{words}")'))
        samples = [s for found in by_size.values() for s in found]
        st = sum(s["verdicts"]["ST"]["decision"] != "undecided" for s in samples)
        names = first["model_names"]
        items.append(_wrap(f"- **{study}** (A = {names['A']}, B = {names['B']}): "
                           + "; ".join(parts) + f". ST decides on {_word(st)} of the "
                           f"{_word(len(samples))} samples.", indent="  "))
    return "\n".join(items)


def _same_sample(corpus_json: Path) -> str | None:
    """The study and corpus of a size study that holds the very sample ``corpus_json`` records."""
    record = json.loads(corpus_json.read_text())
    key = (record.get("source_sha256"), record.get("subsample"), record.get("subsample_seed"))
    for other in sorted(HERE.glob("size-*/results/corpora/*/corpus.json")):
        found = json.loads(other.read_text())
        if (found.get("source_sha256"), found.get("subsample"), found.get("subsample_seed")) == key:
            return f"`{other.parts[-2]}` of `studies/{other.parts[-5]}`"
    return None


def two_comparisons() -> str:
    """The paragraph of docs/results.md on studies/two-comparisons, from its committed summaries.

    Returns
    -------
    str
        One Markdown paragraph: the sample, then per comparison its models, R, Avg's mean A - B
        and every estimator's verdict (between the ``two-comparisons`` markers).
    """
    directory = HERE / "two-comparisons"
    records = [json.loads(path.read_text()) for path in _summary_paths(directory)]
    corpora = sorted({record["corpus"] for record in records})
    sample = []
    for corpus in corpora:
        summary = next(r["summary"] for r in records if r["corpus"] == corpus)
        same = _same_sample(directory / "results" / "corpora" / corpus / "corpus.json")
        sample.append(f"`{corpus}` ({summary['sentences']:,} sentences"
                      + (f", the sample {same}" if same else "") + ")")
    described = []
    for record in sorted(records, key=lambda r: (r["corpus"], r["comparison"])):
        summary = record["summary"]
        names, specs, estimators = summary["model_names"], summary["models"], summary["estimators"]
        present = [name for name in ESTIMATORS if name in estimators]
        groups: dict[str, list[str]] = {}
        for name in present:
            decision = summary["verdicts"][name]["decision"]
            words = VERDICT_WORDS.get(decision, decision)
            groups.setdefault(words if decision == "undecided" else f'"{words}"', []).append(name)
        verdicts = ("undecided for every estimator" if list(groups) == ["undecided"] else
                    ", ".join(f"{words} for {' and '.join(names_)}" if len(names_) < len(present)
                              else f"{words} for every estimator"
                              for words, names_ in sorted(groups.items(),
                                                          key=lambda kv: kv[0] == "undecided")))
        r_values = ", ".join(map(str, sorted({estimators[n]["repetitions"] for n in present})))
        described.append(f"{names['A']} against {names['B']} (`{specs['A']}` against "
                         f"`{specs['B']}`) at R = {r_values}: Avg's mean A - B "
                         f"{100 * estimators['Avg']['mean']:+.2f} F1 points, {verdicts}")
    levels = sorted({f"{100 * r['summary']['verdicts']['Avg']['confidence']:g}%" for r in records})
    return _wrap(f"`studies/two-comparisons` holds {_word(len(records))} comparisons on "
                 f"{' and '.join(sample)}; each verdict at {', '.join(levels)} (Bonferroni over "
                 "the comparisons), the significance tests with Holm's correction: "
                 + "; ".join(described) + ".")


def results() -> str:
    """The tables between the ``results`` markers of docs/results.md (what this script prints).

    Returns
    -------
    str
        Table 4 beside the paper's per task, then the tables by sample size, by k and of
        Criterion I with intervals.
    """
    drawn = {}  # (task, sentences) -> the (seed, part) of each of its samples
    for study in sorted(PAPER):
        for path in _summary_paths(HERE / f"size-{study}"):
            corpus = path.parent.name
            record = json.loads((HERE / f"size-{study}" / "results" / "corpora" / corpus /
                                 "corpus.json").read_text())
            drawn.setdefault((study, record["sentences"]), []).append(
                (record["subsample_seed"], record.get("subsample_part", 0)))
    samples = ""
    if drawn:  # the size studies' samples per size (studies/sample_overlap.py measures overlap)
        found = {len(parts) for parts in drawn.values()}
        # parts of one seed share no sentence (corpora/subsample.py); other seeds' samples do
        kinds = {}
        for (_, n), parts in sorted(drawn.items(), key=lambda item: item[0][1]):
            disjoint = len({seed for seed, _ in parts}) == 1 and len(set(parts)) == len(parts)
            kinds.setdefault("disjoint" if disjoint else "overlapping", []).append(f"{n:,}")
        sizes = "; ".join(f"{kind} at {' and '.join(dict.fromkeys(ns))}"
                          for kind, ns in sorted(kinds.items()))
        samples = (f"; {_word(found.pop()) if len(found) == 1 else 'several'} samples of each "
                   f"size, {sizes} sentences" if len(kinds) > 1 else
                   f"; {_word(found.pop()) if len(found) == 1 else 'several'} {next(iter(kinds))} "
                   "samples of each size")
    return "\n".join([
        "\n\n".join(table(study, record) for study, record in summaries().items()),
        "\nBy sample size, one tagger per task (mean of A - B in F1 points / SNR [95% "
        f"interval of the kind in the last column]{samples}):\n",
        by_size(),
        "\nRandom splits by k (SNR relative to the conclusion under test):\n",
        random_splits(),
        "\nCriterion I with its intervals: the SD of A - B of ST and of RS (k as in Table 4) "
        "over Avg's, 95% intervals; 'approximate' where the normal model the interval assumes "
        "was rejected for that sample (ties or Shapiro-Wilk):\n",
        sd_ratios()])


#: docs/results.md's blocks this script makes: marker name -> what goes between the markers
#: (studies/prose.py writes them)
BLOCKS = {"results": results, "sizes": sizes, "two-comparisons": two_comparisons}


def main() -> None:
    print(results())


if __name__ == "__main__":
    main()
