"""Pipeline overhead: the whole Snakemake workflow against one plain process doing the same work.

The plain script reads and subsamples the corpus, featurizes it once, trains the same CRFs on the
same splits with the same seeds and computes the same estimates and summaries, all in one process.
The pipeline runs the workflow (``--cores 1``, so both use one core) on the same config. The two
alternate ``--rounds`` times in one session; the ratio of median wall times is the overhead.
Both must give the same estimates, which the script checks.

    .venv/bin/python benchmarks/bench_overhead.py --rounds 3 --json benchmarks/runs/overhead.json
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from reprocompare.base.paths import ESTIMATES_FILE

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "benchmarks" / "configs" / "overhead.yaml"


def pipeline(workdir: Path, cores: int = 1) -> float:
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "snakemake", "--snakefile", str(ROOT / "Snakefile"),
                    "--directory", str(workdir), "--configfile", str(CONFIG),
                    "--cores", str(cores), "--quiet", "all"], check=True, cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def plain(out: Path) -> float:
    """The same work in one fresh process (imports included, as the pipeline pays them too)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, __file__, "--plain-child", str(out)], check=True, cwd=ROOT)
    return time.perf_counter() - started


def plain_child(out: Path) -> None:
    from reprocompare.corpora.conll import read_conll
    from reprocompare.models import build_model, spec_from_mapping
    from reprocompare.study.compare import run_comparison
    from reprocompare.strategies import splitter_arguments, strategy as strategy_of
    from reprocompare.study.config import corpus_seed, load_yaml, validate
    from reprocompare.corpora.subsample import subsample
    from reprocompare.study.summary import summarize_runs  # noqa: F401  (the same summary code)
    from reprocompare.splitters import split_document

    config = validate(load_yaml(CONFIG), str(CONFIG))
    (name, settings), = config["corpora"].items()
    (comparison, pair), = config["comparisons"].items()
    corpus = subsample(read_conll(settings["path"]), settings["subsample"],
                       settings["subsample_seed"])
    models = {side.upper(): build_model(spec_from_mapping(pair[side], config["models"][pair[side]]))
              for side in ("a", "b")}
    # featurize once for every strategy and repetition: the best a single process can do
    features = models["A"].featurize(corpus.sentences)
    for model in models.values():
        model.featurize = lambda sentences, f=features: f
    estimates = {}
    seed = corpus_seed(config["seed"], name)
    for key in config["strategies"]:
        strategy = strategy_of(key).name
        for repetition in range(config["repetitions"]):
            split = split_document(strategy, len(corpus), seed=seed, repetition=repetition,
                                   **splitter_arguments(config, strategy))
            split["corpus_sha256"] = ""  # the prepared corpus file has another checksum
            run = run_comparison(corpus, split, models, progress=None)
            plain = run.estimates.as_json()
            plain.pop("models")  # as pipeline_estimates reads them
            estimates[f"{strategy}/rep{repetition}"] = plain
    out.write_text(json.dumps(estimates, indent=1))


def pipeline_estimates(workdir: Path) -> dict:
    found = {}
    for path in sorted(workdir.glob(f"results/compare/*/*/*/rep*/{ESTIMATES_FILE}")):
        data = json.loads(path.read_text())
        data.pop("models")
        found[f"{path.parent.parent.name}/{path.parent.name}"] = data
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write the measurements here")
    parser.add_argument("--plain-child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.plain_child:
        plain_child(args.plain_child)
        return
    scratch = Path(tempfile.mkdtemp(prefix="overhead-"))
    times = {"pipeline": [], "plain": []}
    for round_ in range(args.rounds):
        # alternate which goes first, so a drifting machine load favours neither
        order = ("pipeline", "plain") if round_ % 2 == 0 else ("plain", "pipeline")
        for kind in order:
            seconds = pipeline(scratch / "pipeline") if kind == "pipeline" else \
                plain(scratch / "plain.json")
            times[kind].append(seconds)
            print(f"round {round_ + 1}: {kind:8} {seconds:7.1f} s", flush=True)
    mine = json.loads((scratch / "plain.json").read_text())
    theirs = pipeline_estimates(scratch / "pipeline")
    assert mine.keys() == theirs.keys(), (sorted(mine), sorted(theirs))
    for key in mine:
        for name, value in mine[key].items():
            assert theirs[key][name] == value, (key, name, theirs[key][name], value)
    started = time.perf_counter()
    two_cores = pipeline(scratch / "pipeline2", cores=2)
    result = {
        "pipeline_s": times["pipeline"], "plain_s": times["plain"],
        "median_pipeline_s": statistics.median(times["pipeline"]),
        "median_plain_s": statistics.median(times["plain"]),
        "ratio": statistics.median(times["pipeline"]) / statistics.median(times["plain"]),
        "pipeline_2_cores_s": two_cores,
        "speedup_2_cores": statistics.median(times["pipeline"]) / two_cores,
        "estimates_identical": True,
    }
    print(json.dumps(result, indent=1))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
