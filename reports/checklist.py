"""The experimental results checklist of Dodge et al. (2019, Text Box 1), filled from a run.

Text Box 1 asks, for all reported results: the computing infrastructure, the average runtime of
each approach, the details of the train/validation/test splits, the validation performance of
each reported result and a link to the code; and for experiments with hyperparameter search: the
bounds of each hyperparameter, the best configuration of each model, the number of trials, the
method of choosing hyperparameter values and the selection criterion, and the expected
validation performance as a function of the number of trials. :func:`collect` reads every answer
from the run's own records (corpus.json, scores.json and runtime.json of each comparison job, the
summaries, the search's trials table and budget analysis, the seed runs) and the validated
config, and :func:`render` writes results/checklist.md with one stable heading per item, so
nothing in it is typed by hand.
"""

from __future__ import annotations

import csv
import importlib.metadata
import io
import os
import platform
from pathlib import Path
from typing import Mapping

from reprocompare.base.markdown import md_table, md_text
from reprocompare.base.paths import RUNTIME_FILE
from reprocompare.base.files import read_json
from reprocompare.base.run_records import RUNTIME, SCORES, SUMMARY
from reprocompare.strategies import strategy as strategy_of
from reprocompare.models import spec_from_mapping, tagger_class_of
from reprocompare.models.devices import cuda_devices
from reprocompare.reports.tables import far_below_warning
from reprocompare.search.config import search_corpus, space_of
from reprocompare.search.trials import read_trials_csv

#: The sections of results/checklist.md, in order (tests check that each is present).
SECTIONS = (
    "## Computing infrastructure",
    "## Average runtime per model",
    "## Train/validation/test splits",
    "## Validation performance",
    "## Code",
    "## Hyperparameter search",
    "### Bounds for each hyperparameter",
    "### Best configuration of each model",
    "### Number of trials",
    "### Method of choosing hyperparameter values and selection criterion",
    "### Expected validation performance",
    "## Seed variance",
    "## Learning curves",
)
#: Libraries whose versions the infrastructure section lists (distribution names).
LIBRARIES = ("numpy", "scipy", "scikit-learn", "python-crfsuite", "torch", "snakemake",
             "matplotlib", "pandas")


# ------------------------------------------------------------------------------ infrastructure


def cpu_model(cpuinfo: str | Path = "/proc/cpuinfo") -> str:
    """The CPU's model name from /proc/cpuinfo (Linux), else what platform knows.

    Parameters
    ----------
    cpuinfo : str or pathlib.Path, default '/proc/cpuinfo'
        The file read on Linux.

    Returns
    -------
    str
        The model name.
    """
    try:
        for line in Path(cpuinfo).read_text(encoding="utf-8", errors="replace").splitlines():
            if line.lower().startswith(("model name", "hardware", "cpu model")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def memory_gb(meminfo: str | Path = "/proc/meminfo") -> float | None:
    """The machine's memory in GiB from /proc/meminfo (Linux), else None.

    Parameters
    ----------
    meminfo : str or pathlib.Path, default '/proc/meminfo'
        The file read.

    Returns
    -------
    float or None
    """
    try:
        for line in Path(meminfo).read_text(encoding="utf-8").splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) / 1024**2
    except (OSError, ValueError, IndexError):
        pass
    return None


def versions() -> dict[str, str]:
    """The installed version of each library of ``LIBRARIES`` ('not installed' when it is not).

    Returns
    -------
    dict of str to str
        Versions, by library.
    """
    found = {}
    for name in LIBRARIES:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def infrastructure() -> dict:
    """The machine this runs on: CPU, cores, memory, GPUs, OS, Python and library versions.

    Returns
    -------
    dict
        The machine's description, by item.
    """
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    return {"cpu": cpu_model(), "cores": os.cpu_count(), "usable_cores": usable,
            "memory_gb": memory_gb(), "gpus": cuda_devices(), "os": platform.platform(),
            "python": platform.python_version(), "versions": versions()}


# ------------------------------------------------------------------------------ records


def _csv(path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(Path(path).read_text(encoding="utf-8"))))


def _compare_runs(scores_paths: list[str], runtime_paths: list[str]) -> list[dict]:
    """One record per comparison job: where it ran, its specs, fold sizes and fold times."""
    runtimes = {str(Path(p).parent): p for p in runtime_paths}
    runs = []
    for path in sorted(scores_paths):
        directory = Path(path).parent
        scores = SCORES.read(directory)
        runtime = (RUNTIME.read(directory) if str(directory) in runtimes else {"folds": []})
        runs.append({"corpus": directory.parents[2].name, "comparison": directory.parents[1].name,
                     "strategy": directory.parent.name, "repetition": directory.name,
                     "models": scores["models"],
                     "sizes": [(f["n_train"], f["n_validation"]) for f in scores["folds"]],
                     "seconds": runtime["folds"]})
    return runs


def collect(config: dict, inputs: Mapping[str, list[str]], *,
            config_source: str = "config/config.yaml", machine: dict | None = None) -> dict:
    """Everything the checklist says, read from the run's records.

    Parameters
    ----------
    config : dict
        The validated config (defaults filled).
    inputs : mapping of str to list of paths
        ``infos`` (results/corpora/*/corpus.json), ``summaries``, ``scores`` and ``runtimes``
        (of every comparison job), and, when those stages ran, ``fixed_splits``, ``trials``
        (trials.csv), ``budget`` (budget.json), ``budget_figure``, ``seed_runs``,
        ``seed_variance`` (seed_variance.csv), ``learning_curve`` (learning_curve.csv) and
        ``learning_curve_figure``. Missing keys are empty.
    machine : dict, optional
        :func:`infrastructure` output; measured here when omitted.
    config_source : str, default 'config/config.yaml'
        The config's file, as the checklist names it.

    Returns
    -------
    dict
        The records :func:`render` writes.
    """
    get = lambda key: list(inputs.get(key) or [])  # noqa: E731
    records = {"config": config, "config_source": config_source,
               "machine": machine if machine is not None else infrastructure(),
               "corpora": {Path(p).parent.name: read_json(p) for p in get("infos")},
               "summaries": [SUMMARY.read_file(p) for p in sorted(get("summaries"))],
               "compare_runs": _compare_runs(get("scores"), get("runtimes")),
               "fixed_splits": {}, "trials": [], "budget": None, "budget_figure": None,
               "seed_runs": [read_json(p) for p in sorted(get("seed_runs"))],
               "seed_variance": [], "learning_curve": [], "learning_curve_figure": None}
    for path in get("fixed_splits"):
        document = read_json(path)
        (fold,) = document["folds"]
        records["fixed_splits"][Path(path).parent.name] = {
            "ratio": document["ratio"], "seed": document["seed"],
            "n_sentences": document["n_sentences"], "corpus_sha256": document["corpus_sha256"],
            "train": len(fold["train"]), "validation": len(fold["validation"])}
    if get("trials"):
        records["trials"] = read_trials_csv(get("trials")[0])
    if get("budget"):
        records["budget"] = read_json(get("budget")[0])
    if get("seed_variance"):
        records["seed_variance"] = _csv(get("seed_variance")[0])
    if get("learning_curve"):
        records["learning_curve"] = _csv(get("learning_curve")[0])
    for key in ("budget_figure", "learning_curve_figure"):
        if get(key):
            records[key] = get(key)[0]
    return records


# ------------------------------------------------------------------------------ rendering


def _f(value, digits: int = 4) -> str:
    return "-" if value is None else f"{float(value):.{digits}f}"


def _table(header: list[str], rows: list[list]) -> list[str]:
    return md_table(header, rows) + [""]


def _spec(name: str, mapping: Mapping) -> str:
    return str(spec_from_mapping(name, mapping))


def _infrastructure(machine: dict, config: dict) -> list[str]:
    gpu = ", ".join(machine["gpus"]) if machine["gpus"] else "none (torch.cuda sees no device)"
    memory = f"{machine['memory_gb']:.1f} GB" if machine.get("memory_gb") else "unknown"
    lines = ["Measured on the machine that wrote this checklist (the training jobs ran there too "
             "unless the run was submitted to a cluster).", "",
             f"- CPU: {machine['cpu']} ({machine['cores']} logical cores, "
             f"{machine['usable_cores']} usable)",
             f"- Memory: {memory}",
             f"- GPU: {gpu}",
             f"- BiLSTM device (config `device`): {config['device']}",
             f"- Operating system: {machine['os']}",
             f"- Python: {machine['python']}"]
    lines += [f"- {name}: {version}" for name, version in machine["versions"].items()]
    return lines + [""]


def _runtimes(records: dict) -> list[str]:
    config = records["config"]
    rows = []
    per_model: dict[tuple[str, str], list[float]] = {}
    for run in records["compare_runs"]:
        pair = config["comparisons"].get(run["comparison"], {})
        for side in ("A", "B"):
            name = pair.get(side.lower(), side)
            key = (name, run["models"][side])
            per_model.setdefault(key, []).extend(f[side] for f in run["seconds"] if side in f)
    for (name, spec), seconds in sorted(per_model.items()):
        if seconds:
            rows.append([name, f"`{spec}`", "comparisons (one fold: fit + predict)", len(seconds),
                         _f(sum(seconds) / len(seconds), 3), _f(sum(seconds), 1)])
    trials: dict[str, list[float]] = {}
    for trial in records["trials"]:
        trials.setdefault(trial["model"], []).append(trial["seconds"])
    for name, seconds in trials.items():
        rows.append([name, "(search trials: various)", "search (one trial: fit + predict)",
                     len(seconds), _f(sum(seconds) / len(seconds), 3), _f(sum(seconds), 1)])
    for record in records["seed_runs"]:
        for model in record["models"].values():
            seconds = [r["seconds"] for r in model["runs"]]
            rows.append([model["name"], f"`{model['spec']}`",
                         f"seed runs of {record['comparison']} on {record['corpus']}",
                         len(seconds), _f(sum(seconds) / len(seconds), 3), _f(sum(seconds), 1)])
    if not rows:
        return ["No training job has recorded a runtime.", ""]
    return [f"Wall-clock seconds per training run, from each job's records ({RUNTIME_FILE} of "
            "the comparison jobs; the trials table; the seed runs).", "",
            *_table(["model", "spec", "runs of", "trainings", "mean seconds", "total seconds"],
                    rows)]


def _splits(records: dict) -> list[str]:
    config = records["config"]
    lines = ["### Corpora", ""]
    rows = []
    for name, info in records["corpora"].items():
        subsample = (f"random {info['sentences']} of {info['source_sentences']} "
                     f"(seed {info['subsample_seed']})" if info.get("subsample") else "all")
        rows.append([name, f"`{info['source']}`", f"`{info['source_sha256']}`",
                     info["source_sentences"], subsample, info["sentences"], info["tokens"],
                     info["scheme"], f"`{info['sha256']}`"])
    lines += _table(["corpus", "file", "file sha256", "sentences in file", "sentences used",
                     "sentences", "tokens", "scheme", "sha256 of the sentences used"], rows)
    lines += ["### Splitting strategies", "",
              f"Every comparison is repeated R = {config['repetitions']} times per strategy; "
              f"base seed {config['seed']} (each corpus, strategy and repetition derives its "
              "own). There is no test set: every score below is a validation score.", ""]
    sizes: dict[str, set] = {}
    for run in records["compare_runs"]:
        sizes.setdefault(run["strategy"], set()).update(run["sizes"])
    rows = []
    strategies = config["strategies"]
    for key, settings in strategies.items():
        found = strategy_of(key)
        observed = sorted(sizes.get(found.name, ()))
        text = ", ".join(f"{t} / {v}" for t, v in observed) or "-"
        rows.append([found.name, found.describe(settings), config["repetitions"], text])
    lines += _table(["strategy", "splits", "repetitions", "train / validation sentences per fold"],
                    rows)
    lines += _variation(config)
    lines += ["### Fixed train/validation split (search, seed variance, learning curves)", ""]
    if records["fixed_splits"]:
        rows = [[c, s["ratio"], s["seed"], s["n_sentences"], s["train"], s["validation"],
                 f"`{s['corpus_sha256']}`"] for c, s in records["fixed_splits"].items()]
        lines += _table(["corpus", "ratio", "seed", "sentences", "train", "validation",
                         "corpus sha256"], rows)
    else:
        lines += ["Not used in this run.", ""]
    return lines


#: what varying each source adds to a paper's claim (README, "Sources of variation")
SOURCE_CLAIMS = {
    "split": ("splits: whether the conclusion survives another split of these sentences (the "
              "paper's question; the verdicts and intervals answer it)"),
    "seed": ("training seeds: whether it survives retraining on the same split (zero for "
             "models without a seed, such as the CRF)"),
    "sample": ("data samples: whether it is a property of the kind of data or of the one "
               "sample drawn"),
}


def _variation(config: dict) -> list[str]:
    """Which sources of variation the repetitions drew, what each adds to the claim, and what
    the study leaves out (issue 25, item 5)."""
    v = {"samples": 1, "seeds": 1, "decompose": False, **(config.get("variation") or {})}
    varied = ["split"] + [s for s, key in (("seed", "seeds"), ("sample", "samples"))
                          if v[key] > 1]
    lines = ["### Sources of variation", ""]
    if varied == ["split"]:
        lines.append(f"Each of the R = {config['repetitions']} repetitions is a fresh split of "
                     "the one corpus (the paper's design), its models seeded with it.")
    else:
        splits = v.get("splits") or config["repetitions"] // v["seeds"]
        lines.append(f"R = {config['repetitions']} repetitions: {v['samples']} data sample(s)"
                     + (f" of {v['sample_size']} sentences" if v["samples"] > 1 else "")
                     + f" x {splits} split(s) each x {v['seeds']} training seed(s) per split.")
    lines += ["", "Varied, and what each adds to the claim:", ""]
    lines += [f"- {SOURCE_CLAIMS[s]}" for s in varied]
    missing = [s for s in ("seed", "sample") if s not in varied]
    if missing:
        lines += ["", "Not varied, so the claim says nothing of them:", ""]
        lines += [f"- {SOURCE_CLAIMS[s]} (`variation.{s}s`)" for s in missing]
    if len(varied) > 1:
        lines += ["", "Variance by source: " + ("`results/tables/variance.md` (and its figure)."
                                                if v["decompose"] else
                                                "not decomposed (`variation.decompose`).")]
    return lines + [""]


def _validation(records: dict) -> list[str]:
    lines = ["Mean validation chunk F1 of each model over the repetitions of the standard split "
             "(ST), with its 95% interval (Table 3), from results/summaries.", ""]
    rows = []
    for summary in records["summaries"]:
        pair = records["config"]["comparisons"].get(summary["comparison"], {})
        for side, m in summary["summary"].get("per_model", {}).items():
            rows.append([summary["corpus"], summary["comparison"], side,
                         pair.get(side.lower(), side),
                         f"`{summary['summary']['models'].get(side, '')}`", m["repetitions"],
                         _f(m["mean"]), f"[{_f(m['low'])}, {_f(m['high'])}]"])
    lines += _table(["corpus", "comparison", "side", "model", "spec", "repetitions",
                     "mean F1", "95% interval"], rows) if rows else ["No summaries.", ""]
    # a model with F1 = 0 on every fold learned nothing: say so where its numbers are read
    warnings = [w for summary in records["summaries"]
                for w in summary["summary"].get("warnings", [])]
    # and a model far below the other (reports.tables.FAR_BELOW_POINTS) is probably undertrained
    warnings += [md_text(f"{summary['comparison']} on {summary['corpus']}: {text}").rstrip(".")
                 for summary in records["summaries"]
                 if (text := far_below_warning(summary["summary"]))]
    lines += [f"**Warning:** {w}." for w in warnings] + ([""] if warnings else [])
    if records["budget"]:
        lines += ["Best validation chunk F1 of the random search (fixed split):", ""]
        lines += _table(["model", "trials", "best F1", "best trial", "mean F1 over trials"],
                        [[n, m["trials"], _f(m["best"]["f1"]), m["best"]["trial"],
                          _f(m["f1"]["mean"])]
                         for n, m in records["budget"]["models"].items()])
    if records["seed_variance"]:
        lines += ["Mean validation chunk F1 over seeds (fixed split; see Seed variance):", ""]
        lines += _table(["corpus", "comparison", "side", "model", "runs", "mean F1"],
                        [[r["corpus"], r["comparison"], r["side"], r["model"], r["runs"],
                          _f(r["mean"])] for r in records["seed_variance"]])
    return lines


def _code(records: dict) -> list[str]:
    used = {m["type"] if m["type"] != "python" else m["class"]: tagger_class_of(m)
            for m in records["config"]["models"].values()}
    version = records["machine"]["versions"]
    lines = [f"- reprocompare {_own_version()}: the workflow (`Snakefile`, `workflow/`) and this "
             f"run's config (`{records['config_source']}`)"]
    for kind, cls in sorted(used.items()):
        lines.append(f"- {kind}: `{cls.__module__.replace('.', '/')}.py` ({cls.__qualname__})")
    lines.append(f"- chunk F1: `corpora/scoring.py` (conlleval's, to the last digit); "
                 f"python-crfsuite {version.get('python-crfsuite', '?')}, "
                 f"torch {version.get('torch', '?')}")
    return lines + [""]


def _own_version() -> str:
    try:
        return importlib.metadata.version("reprocompare")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


def _search(records: dict) -> list[str]:
    config = records["config"]
    budget = records["budget"]
    lines = ["## Hyperparameter search", ""]
    if not budget:
        lines += ["No search: fixed hyperparameters. Every model was trained with the one "
                  "configuration below.", ""]
        fixed = _table(["model", "spec (all non-default hyperparameters)"],
                       [[n, f"`{_spec(n, m)}`"] for n, m in config["models"].items()])
        lines += ["### Bounds for each hyperparameter", "",
                  "No search: fixed hyperparameters (no bounds).", "", *fixed,
                  "### Best configuration of each model", "",
                  "No search: each model's only configuration is the one above.", "",
                  "### Number of trials", "", "No search: 0 trials (one configuration per "
                  "model).", "",
                  "### Method of choosing hyperparameter values and selection criterion", "",
                  "No search: the values are fixed in the config "
                  f"(`{records['config_source']}`); no selection.", "",
                  "### Expected validation performance", "",
                  "No search: no expected validation performance curve.", ""]
        return lines

    search = config["search"]
    trials_by_model: dict[str, int] = {}
    for trial in records["trials"]:
        trials_by_model[trial["model"]] = trials_by_model.get(trial["model"], 0) + 1
    rows = []
    for name, m in budget["models"].items():
        for param, dimension in space_of(config, name).items():
            rows.append([name, param, dimension.bounds(), _value(m["best"]["config"][param])])
    fixed = [[name, f"`{_spec(name, config['models'][name])}`"] for name in budget["models"]]
    lines += ["### Bounds for each hyperparameter", "",
              *_table(["model", "hyperparameter", "search space", "best assignment"], rows),
              "Fixed hyperparameters of the searched models (the drawn values are laid over "
              "them):", "", *_table(["model", "fixed spec"], fixed)]
    lines += ["### Best configuration of each model", "",
              *_table(["model", "best trial", "validation F1", "spec"],
                      [[n, m["best"]["trial"], _f(m["best"]["f1"]), f"`{m['best']['spec']}`"]
                       for n, m in budget["models"].items()])]
    used = ("The comparisons used these best configurations (`search.feed_best: true`)."
            if search.get("feed_best") else "The comparisons used the fixed configurations of "
            "the config (`search.feed_best: false`).")
    lines += [used, ""]
    lines += ["### Number of trials", "",
              *_table(["model", "trials run", "trials configured"],
                      [[n, trials_by_model.get(n, 0), search["models"][n]["trials"]]
                       for n in budget["models"]])]
    corpus = search_corpus(config)
    split = records["fixed_splits"].get(corpus)
    split_text = (f"{split['train']} training / {split['validation']} validation sentences, "
                  f"ratio {split['ratio']}" if split else f"ratio {search['ratio']}")
    typed = "typed" if config["corpora"][corpus]["typed"] else "untyped (boundaries only)"
    lines += ["### Method of choosing hyperparameter values and selection criterion", "",
              "- Method: uniform random sampling. Each trial's values are drawn i.i.d. from the "
              "distributions above (independent across hyperparameters and trials; trial i of "
              f"model m seeded by (search seed {search['seed']}, m, i)), and each trial trains "
              "with its own seed.",
              f"- Selection criterion: {typed} chunk F1 on the validation part of one fixed "
              f"split of corpus {corpus} ({split_text}); the best configuration is the trial "
              "with the highest validation F1 (ties: the earliest trial).", ""]
    lines += ["### Expected validation performance", "",
              f"- Figure: `{records['budget_figure'] or 'results/figures/budget.png'}` (against "
              "trials and against time; unbiased estimator of Tang et al. 2020 with a +/- 1 sd "
              "band clipped to the observed scores, and Dodge et al.'s MeanMax)",
              "- Table: `results/tables/budget.md`; numbers: "
              f"`results/search/{corpus}/budget.json`", ""]
    rows = []
    for name, m in budget["models"].items():
        unbiased = m["curves"]["unbiased"]
        reach = (m.get("budget_to_reach") or {}).get("unbiased")
        rows.append([name, _f(unbiased["expected"][0]), m["trials"], _f(unbiased["expected"][-1]),
                     _f(unbiased["std"][-1]),
                     "-" if budget["target_f1"] is None else (reach or "not reached")])
    lines += _table(["model", "E[max] at n = 1", "N", "E[max] at n = N", "sd at n = N",
                     f"trials to reach F1 {budget['target_f1']}"], rows)
    for pair in budget["pairs"]:
        found = pair["crossings"]["unbiased"]
        lines.append(f"- {pair['a']} vs {pair['b']} (n = 1..{pair['budgets']}): the better model "
                     f"changes at n = {', '.join(map(str, found))}" if found else
                     f"- {pair['a']} vs {pair['b']} (n = 1..{pair['budgets']}): no crossing")
    return lines + [""]


def _value(value) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def _seed_variance(records: dict) -> list[str]:
    lines = ["## Seed variance", ""]
    rows = records["seed_variance"]
    if not rows:
        return lines + ["Not run (`seed_variance.enabled: false`).", ""]
    threshold = rows[0]["failure_f1"]
    lines += [f"Each model of each comparison trained with different seeds on the fixed split; "
              f"a run fails below validation F1 {threshold}. Table: "
              "`results/tables/seed_variance.md`.", ""]
    lines += _table(["corpus", "comparison", "model", "runs", "mean", "sd", "min", "max",
                     "failure rate"],
                    [[r["corpus"], r["comparison"], r["model"],
                      r["runs"] + ("" if r["random"] == "yes" else " (deterministic)"),
                      _f(r["mean"]), _f(r["sd"]), _f(r["min"]), _f(r["max"]),
                      _f(r["failure_rate"], 2)] for r in rows])
    return lines


def _curves(records: dict) -> list[str]:
    lines = ["## Learning curves", ""]
    rows = records["learning_curve"]
    if not rows:
        return lines + ["Not run (`learning_curves.enabled: false`).", ""]
    last: dict[str, dict] = {}
    for row in rows:
        last[row["model"]] = row
    lines += [f"Figure: `{records['learning_curve_figure'] or 'results/figures/learning_curve.png'}`"
              " (validation chunk F1 against epochs, mean over seeds with a 95% t-interval); "
              "numbers: `results/tables/learning_curve.csv`.", ""]
    lines += _table(["model", "seeds", "last epoch", "mean F1", "95% t-interval"],
                    [[m, r["runs"], r["epoch"], _f(r["mean"]),
                      f"[{_f(r['ci_low'])}, {_f(r['ci_high'])}]"] for m, r in last.items()])
    return lines


def render(records: dict) -> str:
    """results/checklist.md: every item of Text Box 1 under its own heading (:data:`SECTIONS`).

    Parameters
    ----------
    records : dict
        What :func:`collect` returns.

    Returns
    -------
    str
        The Markdown.
    """
    lines = ["# Experimental results checklist", "",
             "Dodge et al. (2019), *Show your work*, Text Box 1, filled in from this run's records "
             f"(config `{records['config_source']}`).", "",
             "## Computing infrastructure", "", *_infrastructure(records["machine"],
                                                                records["config"]),
             "## Average runtime per model", "", *_runtimes(records),
             "## Train/validation/test splits", "", *_splits(records),
             "## Validation performance", "", *_validation(records),
             "## Code", "", *_code(records),
             *_search(records), *_seed_variance(records), *_curves(records)]
    return "\n".join(lines).rstrip("\n") + "\n"
