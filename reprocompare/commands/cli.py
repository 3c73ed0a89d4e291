"""The ``reprocompare`` command line.

Every subcommand is a thin layer over a library function; mistakes a user can make end in one
line on stderr naming the file and line (or the option) and exit status 2, never a traceback.
Every number an option takes has a documented range (:mod:`reprocompare.commands.options`), checked while the arguments
are parsed, before any work: ``split --k 1000000000`` is refused, not allocated. The world
failing under a command (Ctrl-C, a full disk, a closed pipe, memory) also ends in one line: exit
status 130 for an interrupt, 1 for the rest.
"""

from __future__ import annotations

import sys

# Ctrl-C while the imports below load (a second or more on a cold start) is one line and
# exit status 130, as it is once main() runs, not a traceback from inside an import
try:
    import argparse
    import errno
    import os
    from pathlib import Path

    from reprocompare import __version__
    from reprocompare.base.errors import UserError
    from reprocompare import schemas
    from reprocompare.base.files import dumps_json, write_directory_atomic, write_text_atomic
    from reprocompare.base.paths import ESTIMATES_FILE, SCORES_FILE, SPLIT_FILE
    from reprocompare.strategies.repeated_holdout import TABLE4_K
    from reprocompare.strategies import NAMES, RECOMMENDED, STRATEGIES
    from reprocompare.commands import init, plan, run
    from reprocompare.commands.options import bounded as _bounded
    from reprocompare.commands.options import shown_range as _range
    from reprocompare.commands.resume import resume
    from reprocompare.commands.sequential import run_sequential
    from reprocompare.corpora.conll import check_has_chunks, read_conll, task_corpus
    from reprocompare.corpora.schemes import is_chunk_tag
    from reprocompare.corpora.scoring import conlleval_report, count_chunks
    from reprocompare.models import build_model, catalog, parse_spec
    from reprocompare.models.registry import tagger_class
    from reprocompare.reports.tables import table4_text
    from reprocompare.splitters import dumps, split_document
    from reprocompare.study.config import corpus_seed
    from reprocompare.study.compare import run_comparison, write_comparison
except KeyboardInterrupt:
    sys.stderr.write("reprocompare: interrupted\n")
    sys.exit(130)

EXIT_USER_ERROR = 2
EXIT_FAILURE = 1
EXIT_INTERRUPTED = 130

#: the largest part of a --ratio (train:validation)
MAX_RATIO_PART = 1_000_000


class _Parser(argparse.ArgumentParser):
    """argparse's errors in one line, as the rest of the command's: no usage block first."""

    def error(self, message: str):
        self.exit(EXIT_USER_ERROR, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _corpus_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--token-column", type=_bounded("--token-column"), default=0,
                        metavar="I", help="column of the tokens (default: 0, the first; "
                                          f"{_range('--token-column')})")
    parser.add_argument("--tag-column", type=_bounded("--tag-column"), default=-1, metavar="I",
                        help="column of the gold tags (default: -1, the last; "
                             f"{_range('--tag-column')})")
    parser.add_argument("--scheme", default="auto", choices=["auto", "IOB1", "IOB2", "IOBES"],
                        help="tag scheme of the corpus (default: detected)")
    parser.add_argument("--ill-formed", default="error", choices=["error", "repair", "keep"],
                        help="sentences not well-formed in the corpus's scheme: stop (default), "
                             "repair them as conlleval reads them, or keep them")


def _read_corpus(args: argparse.Namespace):
    corpus = read_conll(args.corpus, token_column=args.token_column, tag_column=args.tag_column,
                        scheme=args.scheme, ill_formed=args.ill_formed)
    check_has_chunks(corpus)  # nothing to compare on: every F1 would be 0
    return corpus


def _ratio(text: str) -> str:
    parts = text.split(":")
    if len(parts) != 2 or not all(p.isdigit() and 0 < int(p) <= MAX_RATIO_PART for p in parts):
        raise argparse.ArgumentTypeError(f"{text!r} is not a ratio like 8:1 (two whole numbers "
                                         f"in 1..{MAX_RATIO_PART})")
    return text


def _check_out_file(out: Path, *inputs: Path) -> None:
    """--out of a file: not a directory, never one of the command's own inputs, never anything
    but a regular file (a device, FIFO or socket is refused, never replaced: outputs are written
    to a temporary file and renamed onto the target, which would replace /dev/null itself), and
    in a folder we can write to, checked before any work."""
    if out.is_dir():
        raise UserError("is a directory; --out names the file to write", path=out, key="--out")
    if out.exists() and not out.is_file():
        raise UserError("exists and is not a regular file (a device, FIFO or socket): "
                        "reprocompare never replaces what it did not write", path=out, key="--out")
    _check_writable_parent(out)
    for source in inputs:
        if out.exists() and source.exists() and out.resolve() == source.resolve():
            raise UserError(f"is the input {source} itself: writing there would overwrite it",
                            path=out, key="--out")


def _check_writable_parent(out: Path) -> None:
    """The folder that will hold ``out`` exists (or can be made) and is writable: said before
    any training, not after it."""
    parent = out.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise UserError(f"cannot be created: {parent} is a file, not a folder", path=out,
                        key="--out")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UserError(f"cannot be written: no write permission in {parent}", path=out,
                        key="--out")


def _check_out_directory(out: Path) -> None:
    """--out of a directory: a new or empty one, so no earlier run's files mix with this one's."""
    if out.exists() and not out.is_dir():
        raise UserError("is a file; --out names the directory to create", path=out, key="--out")
    _check_writable_parent(out)
    if out.is_dir() and any(out.iterdir()):
        raise UserError("exists and is not empty: choose a new directory, or remove this one",
                        path=out, key="--out")


def cmd_split(args: argparse.Namespace) -> int:
    """``reprocompare split``: print the split document of one repetition of a strategy on a corpus.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit status (0).
    """
    if args.out:
        _check_out_file(args.out, args.corpus)
    text = dumps(_make_split(args, _read_corpus(args)))
    if args.out:
        write_text_atomic(args.out, text)
    else:
        sys.stdout.write(text)
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    """``reprocompare score``: chunk precision, recall and F1 of predictions against gold, as
    conlleval reports them.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit status (0).
    """
    if args.pred is None:  # conlleval's input: gold and predicted tag are the last two columns
        gold = read_conll(args.gold, tag_column=-2)
        predicted = [s.features[-1] for s in gold.sentences]
        pred_source, pred_lines = args.gold, [s.line for s in gold.sentences]
    else:
        gold = read_conll(args.gold)
        pred = read_conll(args.pred, ill_formed="keep")
        predicted = [s.tags for s in pred.sentences]
        pred_source, pred_lines = args.pred, [s.line for s in pred.sentences]
        # sentence by sentence, token by token: scores of misaligned files would mean nothing
        for g, p in zip(gold.sentences, pred.sentences):
            if len(g) != len(p):
                raise UserError(f"sentence of {len(p)} tokens, but the gold sentence at "
                                f"{args.gold}:{g.line} has {len(g)}", path=args.pred, line=p.line)
            for i, (gold_token, pred_token) in enumerate(zip(g.tokens, p.tokens)):
                if gold_token != pred_token:
                    raise UserError(f"token {pred_token!r}, but the gold file has "
                                    f"{gold_token!r} at {args.gold}:{g.line + i}: the files are "
                                    "not aligned", path=args.pred, line=p.line + i)
        if len(pred) != len(gold):
            shorter, longer = (pred, gold) if len(pred) < len(gold) else (gold, pred)
            extra = longer.sentences[len(shorter)]
            raise UserError(f"{len(pred)} sentences, but the gold file {args.gold} has "
                            f"{len(gold)}: the first sentence without a partner is at "
                            f"{longer.path}:{extra.line}", path=args.pred)
    for tags, line in zip(predicted, pred_lines):
        for i, tag in enumerate(tags):
            if not is_chunk_tag(tag):
                raise UserError(f"predicted tag {tag!r} is not a chunk tag", path=pred_source,
                                line=line + i)
    score = count_chunks(gold.tags, predicted, typed=not args.untyped).score()
    if args.json:
        sys.stdout.write(dumps_json(score.as_dict()))
    else:
        sys.stdout.write(conlleval_report(score))
    return 0


def _split_options(parser: argparse.ArgumentParser, *, required: bool = True) -> None:
    # without --strategy: the paper's recommendation, the BCV
    parser.add_argument("--strategy", required=required,
                        choices=NAMES, **({} if required else {"default": RECOMMENDED.name}))
    # a workflow's defaults: max(k) hold-outs, the 3 x 2 BCV
    k, m = max(schemas.default("strategies.repeated_holdout.k")), schemas.default("strategies.bcv.m")
    parser.add_argument("--k", type=_bounded("--k"), default=k,
                        help=f"hold-outs of repeated-holdout ({k}; {_range('--k')})")
    parser.add_argument("--m", type=_bounded("--m"), default=m,
                        help=f"repetitions of the m x 2 BCV ({m}; {_range('--m')})")
    ratio = schemas.default("strategies.holdout.ratio")
    parser.add_argument("--ratio", type=_ratio, default=ratio, help=f"train:validation ({ratio})")
    parser.add_argument("--seed", type=_bounded("--seed"), default=0,
                        help="the splits' seed (0; 0..2^63-1); with --corpus-name, the "
                             "config's seed")
    parser.add_argument("--corpus-name", metavar="NAME",
                        help="derive the splits' seed from --seed and this corpus name as the "
                             "workflow does (config `seed`, `corpora.NAME`): the same splits "
                             "as its jobs; the derived seed is printed")
    parser.add_argument("--repetition", type=_bounded("--repetition"), default=0,
                        help="repetition index; each derives its own seed (0; "
                             f"{_range('--repetition')})")
    parser.add_argument("--keep-documents", action="store_true",
                        help="never split a -DOCSTART- document across train and validation")


def _split_seed(args: argparse.Namespace) -> int:
    """--seed itself, or with --corpus-name the seed the workflow derives for that corpus."""
    if args.corpus_name is None:
        return args.seed
    seed = corpus_seed(args.seed, args.corpus_name)
    print(f"seed {seed}: the workflow's for corpus {args.corpus_name!r} at seed {args.seed}",
          file=sys.stderr)
    return seed


def _make_split(args: argparse.Namespace, corpus) -> dict:
    seed = _split_seed(args)
    try:
        return split_document(
            args.strategy, len(corpus), groups=corpus.docs if args.keep_documents else None,
            corpus_sha256=corpus.sha256, k=args.k, m=args.m, ratio=args.ratio, seed=seed,
            repetition=args.repetition, tags=corpus.tags)
    except ValueError as error:  # the splitters' own checks, e.g. a corpus too small
        raise UserError(str(error), path=args.corpus) from None


def cmd_compare(args: argparse.Namespace) -> int:
    """``reprocompare compare``: one repetition of one strategy for a pair of models, written to
    its directory.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit status (0).
    """
    specs = {}
    for name, text, option in (("A", args.a, "--a"), ("B", args.b, "--b")):
        try:
            specs[name] = parse_spec(text)
        except UserError as error:  # say which of the two specs is wrong
            raise UserError(str(error), key=option) from None
    _check_out_directory(args.out)
    if args.train_typed and not args.untyped:
        raise UserError("--train-typed trains typed and scores untyped: give it with --untyped",
                        key="--train-typed")
    corpus = _read_corpus(args)
    split = _make_split(args, corpus)  # as read: the workflow's split of the same corpus
    corpus = task_corpus(corpus, typed=not args.untyped, train_typed=args.train_typed)
    models = {name: build_model(spec) for name, spec in specs.items()}
    run = run_comparison(corpus, split, models, {n: str(s) for n, s in specs.items()},
                         typed=not args.untyped, voting=args.voting,
                         train_typed=args.train_typed if args.untyped else None)
    out = write_directory_atomic(
        args.out, lambda temporary: write_comparison(run, corpus, temporary,
                                                     keep_predictions=not args.no_predictions))
    # A - B in F1 points, as every table prints it (estimates.json keeps fractions)
    print("A - B, F1 points:")
    recorded = run.estimates.as_json()
    for key in (key for strategy in STRATEGIES for key in strategy.estimates):
        if isinstance(recorded.get(key), float):  # the differences, not a fold's list
            print(f"{key:>8}: {100 * recorded[key]:+.2f} F1 points")
    print(f"wrote {out}/", file=sys.stderr)
    return 0


def cmd_models(args: argparse.Namespace) -> int:
    """``reprocompare models``: the model types, their hyperparameters and capabilities (Markdown
    with ``--markdown``).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit status (0).
    """
    for name in args.types:
        tagger_class(name)  # an unknown type is a one-line error listing the known ones
    types = args.types or None
    sys.stdout.write(catalog.markdown(types) if args.markdown else catalog.text(types))
    return 0


def cmd_summarize(args: argparse.Namespace) -> int:
    """``reprocompare summarize``: SNR, reproducibility and the verdicts over many ``compare``
    directories.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit status (0).
    """
    from reprocompare.study.summary import summarize_runs  # lazy: scipy

    summary = summarize_runs(args.directories, conclusion=args.conclusion, table4_k=args.k)
    if args.json:
        sys.stdout.write(dumps_json(summary))
    else:
        sys.stdout.write(table4_text(summary))
    return 0


def cmd_sequential(args: argparse.Namespace) -> int:
    """``reprocompare sequential``: run a study's waves until its stopping rule is met.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit status (0).
    """
    arguments = args.snakemake[1:] if args.snakemake[:1] == ["--"] else args.snakemake
    run_sequential(args.configfile, args.directory, arguments or None)
    return 0


def cmd_resume(args: argparse.Namespace) -> int:
    """``reprocompare resume``: check a study's results against its config and make them current for
    Snakemake.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit status (0).
    """
    resume(args.configfile, args.directory)
    return 0


def cmd_expected_max(args: argparse.Namespace) -> int:
    """``reprocompare expected-max``: the expected maximum validation score against budget of a
    score file.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit status (0).
    """
    from reprocompare.estimators.expected_max import expected_max  # lazy: scipy
    from reprocompare.estimators.trial_scores import read_scores  # lazy: numpy

    try:
        scores, _ = read_scores(args.file)
    except OSError as error:
        raise UserError(f"cannot read: {error.strerror}", path=args.file) from None
    except ValueError as error:
        raise UserError(str(error)) from None
    expected, std = expected_max(scores, estimator=args.estimator)
    rows = [{"n": n, "expected_max": float(e), "std": float(s)}
            for n, (e, s) in enumerate(zip(expected, std), start=1)]
    if args.json:
        sys.stdout.write(dumps_json(rows))
    else:
        sys.stdout.write(f"{'n':>6} {'expected_max':>14} {'std':>10}\n")
        for row in rows:
            sys.stdout.write(f"{row['n']:>6} {row['expected_max']:>14.6f} {row['std']:>10.6f}\n")
    return 0


def cmd_expected_max_bias(args: argparse.Namespace) -> int:
    """``reprocompare expected-max-bias``: the simulated bias of both expected-max estimators (Tang
    et al. 2020).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit status (0).
    """
    from reprocompare.estimators.expected_max_bias import simulate_bias  # lazy: scipy, pandas

    try:
        table = simulate_bias(distribution=args.distribution, n_trials=args.trials,
                              budgets=args.budgets, n_simulations=args.simulations,
                              random_state=args.seed)
    except ValueError as error:
        raise UserError(str(error)) from None
    rows = table.to_dict(orient="records")
    if args.json:
        sys.stdout.write(dumps_json(rows))
        return 0
    sys.stdout.write(f"{args.simulations} simulated searches of N = {args.trials} trials from "
                     f"the {args.distribution} distribution; bias = mean estimate - true "
                     f"E[max of n]\n{'estimator':<10} {'n':>5} {'bias':>12} {'MC s.e.':>10}\n")
    for row in rows:
        sys.stdout.write(f"{row['estimator']:<10} {row['n']:>5} {row['bias']:>12.6f} "
                         f"{row['mc_se']:>10.6f}\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser: every subcommand with its options.

    Returns
    -------
    argparse.ArgumentParser
        The parser.
    """
    parser = _Parser(
        prog="reprocompare",
        description="Will 'model A beats model B' on this corpus reproduce? Splits, paired "
                    "taggers, avg/vote/mixture estimators, SNR and reproducibility.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    split = sub.add_parser("split", help="write the train/validation folds of one repetition",
                           description="Split a corpus by sentences: a standard 8:1 hold-out, "
                                       "k repeated hold-outs, or blocked m x 2 cross-validation "
                                       "(paper Table 1). Writes JSON.")
    split.add_argument("corpus", type=Path, help="CoNLL column file (plain or .gz)")
    _split_options(split)
    split.add_argument("--out", type=Path, help="output file (default: stdout)")
    _corpus_options(split)
    split.set_defaults(run=cmd_split)

    score = sub.add_parser("score", help="chunk precision, recall and F1, as conlleval",
                           description="Score predicted chunk tags against gold, figure for "
                                       "figure as conlleval. With PRED omitted, GOLD holds the "
                                       "gold and the predicted tag as its last two columns.")
    score.add_argument("gold", type=Path, help="gold CoNLL file (tag in the last column)")
    score.add_argument("pred", type=Path, nargs="?",
                       help="predictions, aligned with GOLD (tag in the last column)")
    score.add_argument("--untyped", action="store_true",
                       help="score chunk boundaries only, ignoring types")
    score.add_argument("--json", action="store_true", help="print JSON (fractions in [0, 1])")
    score.set_defaults(run=cmd_score)

    compare = sub.add_parser(
        "compare", help="one repetition of one strategy for a pair of models",
        description="Split CORPUS (as `reprocompare split` with the same arguments), train "
                    f"models A and B on every fold, and write {SPLIT_FILE}, fold predictions, "
                    f"{SCORES_FILE} and {ESTIMATES_FILE} into --out.")
    compare.add_argument("corpus", type=Path, help="CoNLL column file (plain or .gz)")
    compare.add_argument("--a", required=True, metavar="SPEC",
                         help="model A, e.g. crf:scheme=IOB2 or bilstm:word_dim=20 (every type "
                              "and hyperparameter: `reprocompare models`)")
    compare.add_argument("--b", required=True, metavar="SPEC", help="model B")
    _split_options(compare)
    compare.add_argument("--out", type=Path, required=True, metavar="DIR")
    compare.add_argument("--untyped", action="store_true",
                         help="chunk boundaries only (the paper's NER setting): the taggers "
                              "train on boundary tags and the scores count boundaries")
    compare.add_argument("--train-typed", action="store_true",
                         help="with --untyped: train on the typed tags, score boundaries only")
    compare.add_argument("--voting", choices=["chunk", "token"], default="chunk",
                         help="how the vote estimator combines basis predictions (chunk)")
    compare.add_argument("--no-predictions", action="store_true",
                         help="do not write fold predictions (they are large at scale)")
    _corpus_options(compare)
    compare.set_defaults(run=cmd_compare)

    models = sub.add_parser(
        "models", help="model types, their hyperparameters, defaults and capabilities",
        description="Every model type a spec may name (built-in and registered through the "
                    "entry-point group reprocompare.taggers), with each hyperparameter's type, "
                    "default and help, read from the tagger classes.")
    models.add_argument("types", nargs="*", metavar="TYPE", help="only these types")
    models.add_argument("--markdown", action="store_true",
                        help="print Markdown tables (models/README.md is this, for the built-ins)")
    models.set_defaults(run=cmd_models)

    summarize = sub.add_parser(
        "summarize", help="SNR and reproducibility over many `compare` directories",
        description="Table 4 (SNR, Eq. 4; reproducibility, Eq. 1; with 95% intervals) and "
                    "Table 3 (per-model intervals over the hold-out repetitions) from the output "
                    "directories of many `reprocompare compare` runs of one pair.")
    summarize.add_argument("directories", type=Path, nargs="+", metavar="DIR")
    summarize.add_argument("--conclusion", choices=["A>B", "B>A"], default="A>B",
                           help="the conclusion whose reproducibility is measured (A>B)")
    summarize.add_argument("--k", type=_bounded("--table4-k"), default=TABLE4_K,
                           help=f"hold-outs in the RS column of Table 4 ({TABLE4_K}, as the paper; "
                                f"{_range('--table4-k')})")
    summarize.add_argument("--json", action="store_true", help="print JSON")
    summarize.set_defaults(run=cmd_summarize)

    resume = sub.add_parser(
        "resume", help="make a study's committed results current before a run (README, Results)",
        description="Check every complete repetition in a study's directory against the config "
                    "(the settings it recorded, the corpus it split), prepare the corpora, and "
                    "mark the repetitions current for Snakemake, so that the next `snakemake "
                    "--configfile CONFIG --directory DIR` trains only what is missing. A "
                    "repetition made with other settings stops it with one line naming it.")
    resume.add_argument("--configfile", type=Path, required=True, metavar="CONFIG",
                        help="the study's config, e.g. config/study-chunking.yaml")
    resume.add_argument("--directory", type=Path, required=True, metavar="DIR",
                        help="the study's working directory, e.g. studies/chunking")
    resume.set_defaults(run=cmd_resume)

    sequential = sub.add_parser(
        "sequential", help="run a study in waves until its verdicts are decided (stopping:)",
        description="Run waves of stopping.wave repetitions through the workflow until every "
                    "estimator of stopping.estimators has a verdict on every comparison, or "
                    "stopping.max_repetitions is reached; interrupted, the same command "
                    "resumes; then DIR/results/report.html is written. Arguments after -- go "
                    "to every snakemake run (default: --profile profiles/local; for a cluster: "
                    "-- --profile profiles/slurm ...).")
    sequential.add_argument("--configfile", type=Path, required=True, metavar="CONFIG")
    sequential.add_argument("--directory", type=Path, default=Path("."), metavar="DIR",
                            help="the study's working directory (.)")
    sequential.add_argument("snakemake", nargs=argparse.REMAINDER,
                            help="-- then snakemake's own arguments")
    sequential.set_defaults(run=cmd_sequential)

    init.add_parser(sub)  # reprocompare/commands/init.py
    run.add_parser(sub)  # reprocompare/commands/run.py
    plan.add_parser(sub)  # reprocompare/commands/plan.py

    expected = sub.add_parser(
        "expected-max",
        help="expected validation performance against budget (Dodge et al. 2019, Tang et al. "
             "2020)",
        description="Expected maximum validation score of n random-search trials, n = 1..N, "
                    "from N observed scores (one per line; an optional second column is the "
                    "trial's runtime in seconds).")
    expected.add_argument("file", type=Path)
    expected.add_argument("--estimator", choices=["unbiased", "meanmax"], default="unbiased",
                          help="the unbiased U-statistic of Tang et al. (2020; the default) or "
                               "Dodge et al.'s (2019) MeanMax")
    expected.add_argument("--json", action="store_true", help="print JSON")
    expected.set_defaults(run=cmd_expected_max)

    bias = sub.add_parser(
        "expected-max-bias",
        help="simulate the bias of both expected-max estimators (Tang et al. 2020)",
        description="Reproduce Tang et al.'s (2020) finding: on a known score distribution Dodge "
                    "et al.'s (2019) estimator (MeanMax) is biased low and the U-statistic is "
                    "not. Prints each estimator's bias and its Monte Carlo standard error at "
                    "several budgets.")
    bias.add_argument("--distribution", choices=["normal", "beta"], default="normal",
                      help="Normal(0.8, 0.05) clipped to [0, 1], or Beta(16, 4) (normal)")
    bias.add_argument("--trials", type=_bounded("--trials"), default=50,
                      help=f"N trials per search (50; {_range('--trials')})")
    bias.add_argument("--budgets", type=_bounded("--budgets"), nargs="+", metavar="N",
                      help="budgets n to report, each at most N (default: 1, N/4, N/2, 3N/4, N)")
    bias.add_argument("--simulations", type=_bounded("--simulations"), default=2000,
                      help=f"simulated searches (2000; {_range('--simulations')}, and "
                           "N x searches within what simulate_bias holds in memory)")
    bias.add_argument("--seed", type=_bounded("--seed"), default=0, help="seed (0; 0..2^63-1)")
    bias.add_argument("--json", action="store_true", help="print JSON")
    bias.set_defaults(run=cmd_expected_max_bias)
    return parser


def _quiet_stdout() -> None:
    """Point stdout at /dev/null once writing to it failed, so that the flush at exit does not
    fail a second time with Python's own message."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):  # a stdout without a file (captured)
        pass


def _world_error(error: OSError) -> str:
    """One line for an OSError nothing closer to it turned into a UserError."""
    if isinstance(error, BrokenPipeError) or error.errno == errno.EPIPE:
        return "the output was closed before it was written (broken pipe)"
    where = f": {error.filename}" if error.filename else ""
    if error.errno == errno.ENOSPC:
        return f"no space left on the device{where or ' (the output)'}"
    return f"{error.strerror or error}{where}"


def main(argv: list[str] | None = None) -> int:
    """Run the command line: a user's error, an interrupt, a full disk or exhausted memory ends in
    one line on stderr and an exit status, never a traceback.

    Parameters
    ----------
    argv : list of str, optional
        The arguments; default ``sys.argv[1:]``.

    Returns
    -------
    int
        The exit status.
    """
    try:
        args = build_parser().parse_args(argv)
    except KeyboardInterrupt:  # before a command is known
        print("reprocompare: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    try:
        status = args.run(args)
        sys.stdout.flush()  # a full disk or a closed pipe is found here, not at exit
        return status
    except UserError as error:
        print(f"reprocompare {args.command}: error: {error}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        print(f"reprocompare {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as error:
        _quiet_stdout()
        print(f"reprocompare {args.command}: error: {_world_error(error)}", file=sys.stderr)
        return EXIT_FAILURE
    except MemoryError:
        print(f"reprocompare {args.command}: error: out of memory (a smaller corpus, model or "
              "option value needs less)", file=sys.stderr)
        return EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
