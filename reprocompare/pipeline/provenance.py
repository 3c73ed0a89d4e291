"""What each job's outputs depend on: the exact config values, as the rule's one ``params:`` value.

Snakemake reruns a job when its recorded params differ from the current ones (rerun-trigger
``params``), and, through the ``mtime`` and ``input`` triggers, every job downstream of it. So a
job's outputs are a function of its inputs and of the value :func:`corpus`, :func:`split`,
:func:`compare`, :func:`summary`, :func:`reports` or :func:`checklist` returns here, and the job's
script reads its settings from that value, never from ``snakemake.config``: a config value that
changes an output reruns that output's job, and a value that does not, does not.

Each function returns one dict with a fixed key order and canonical values (model specs as their
canonical strings, never YAML mappings whose key order a user may change). One dict, not several
params: Snakemake records the set of the params' values, not their names, so two swapped values
would go unnoticed.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path

from reprocompare.base.paths import project_path
from reprocompare.strategies import splitter_arguments, strategy as strategy_of
from reprocompare.models import spec_from_mapping, tagger_class_of
from reprocompare.search.config import curves_corpus, fixed_split_seed, search_corpus
from reprocompare.study.config import corpus_seed, section_defaults
from reprocompare.study.variation import draw_record, is_default

def canonical(value):
    """``value`` with every mapping's keys sorted, recursively: Snakemake compares params by
    their text, so two configs with the same values in another key order must give the same
    params (a YAML dump with sorted keys reruns nothing).

    Parameters
    ----------
    value : object
        A value of the config (mappings, lists, scalars).

    Returns
    -------
    object
        The value, its mappings' keys sorted.
    """
    if isinstance(value, dict):
        return {key: canonical(value[key]) for key in sorted(value)}
    if isinstance(value, (list, tuple)):
        return [canonical(item) for item in value]
    return value


def source_sha256(path: str) -> str:
    """The sha256 of a corpus file's bytes: its identity, whatever its path (cached per
    modification time and size, so a DAG of thousands of jobs reads it once).

    Parameters
    ----------
    path : str
        The corpus file.

    Returns
    -------
    str
        The hex digest.
    """
    stat = Path(path).stat()
    return _file_sha256(str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)


def corpus(config: dict, name: str) -> dict:
    """The prepared copy: the source file's content and how it is read and subsampled (not
    ``typed``, not ``keep_documents``: documents always survive the copy, and scoring happens
    later). The file is known by its sha256, never its path: the same bytes moved or copied
    elsewhere rerun nothing (the rule reads the file as an ``ancient`` input, and the profiles
    leave out Snakemake's "input" rerun trigger, which would rerun on a new path).

    Parameters
    ----------
    config : dict
        The validated config.
    name : str
        The corpus's name.

    Returns
    -------
    dict
        The settings.
    """
    settings = config["corpora"][name]
    record = {"sha256": source_sha256(settings["path"]),
              **{key: settings[key] for key in ("token_column", "tag_column", "scheme",
                                                "ill_formed", "subsample")}}
    if settings["subsample"] is not None:  # the seed of no subsample changes nothing
        record["subsample_seed"] = settings["subsample_seed"]
        if settings["subsample_part"]:  # part 0 is the subsample drawn before parts existed
            record["subsample_part"] = settings["subsample_part"]
    return record


#: the modules whose code decides whether a corpus passes the check before any job
#: (reprocompare.study.config.check_corpora: reading, scheme detection, splitting)
_CHECKING_CODE = ("reprocompare.study.config", "reprocompare.strategies",
                  "reprocompare.corpora", "reprocompare.splitters")


def _source_digests(module_names) -> list[str]:
    """The sha256 of every source file of these modules or packages, found without importing
    them (cached by path, size and mtime)."""
    from importlib.util import find_spec

    files = {}
    for module_name in module_names:
        found = find_spec(module_name)
        folders = found.submodule_search_locations
        paths = ([Path(found.origin)] if folders is None else
                 sorted(path for folder in folders for path in Path(folder).rglob("*.py")))
        for path in paths:
            stat = path.stat()
            files[str(path)] = _file_sha256(str(path), stat.st_mtime_ns, stat.st_size)
    return sorted(files.values())


#: the library code a summary computes with, and the code that writes tables, figures, the front
#: page and the checklist from summaries: a job whose numbers or words this code decides reruns
#: when it changes (an upgrade of reprocompare), where Snakemake's own "code" trigger sees only
#: the rule's script (the strategies among it: they compute each repetition's record and
#: Table 4's values; the job modules the scripts call: they choose what a summary, a claims
#: record and the tables gather, e.g. which corpora the across-corpora rows pool)
SUMMARY_CODE = ("reprocompare.estimators", "reprocompare.study", "reprocompare.base",
                "reprocompare.strategies", "reprocompare.pipeline.jobs",
                "reprocompare.pipeline.report_jobs", "reprocompare.pipeline.significance_jobs")
REPORT_CODE = (*SUMMARY_CODE, "reprocompare.reports")


def library_code(module_names) -> str:
    """One sha256 of the source of these modules or packages (their .py files, subpackages
    included): a rule's param, so that a job reruns when the library it computes with changes.

    Parameters
    ----------
    module_names : sequence of str
        Importable names (:data:`SUMMARY_CODE`, :data:`REPORT_CODE`).

    Returns
    -------
    str
        The hex digest.
    """
    import hashlib

    return hashlib.sha256(json.dumps(_source_digests(module_names)).encode()).hexdigest()


def corpus_check(config: dict, name: str) -> str:
    """What the check of one corpus before any job depends on, as one sha256: the file's
    content, every config value the check reads (the corpus's settings but its path, the
    strategies, ``variation.sample_size``) and the source of the code that checks. The workflow
    keeps the keys of the checks that passed (common.smk), so that planning a study again, as
    every wave of a sequential study does, reads no corpus whose check cannot have changed.

    Parameters
    ----------
    config : dict
        The validated config.
    name : str
        The corpus's name.

    Returns
    -------
    str
        The hex digest.
    """
    import hashlib

    settings = {key: value for key, value in config["corpora"][name].items() if key != "path"}
    record = canonical({"sha256": source_sha256(config["corpora"][name]["path"]),
                        "settings": settings, "strategies": config["strategies"],
                        "sample_size": config["variation"]["sample_size"],
                        "code": _source_digests(_CHECKING_CODE)})
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()


def split(config: dict, corpus_name: str, strategy: str) -> dict:
    """One repetition's split: the strategy's settings, the corpus's seed and its documents.

    Parameters
    ----------
    config : dict
        The validated config.
    corpus_name : str
        The corpus's name.
    strategy : str
        The strategy's name.

    Returns
    -------
    dict
        The settings.
    """
    return {"strategy": strategy, **splitter_arguments(config, strategy),
            "seed": corpus_seed(config["seed"], corpus_name),
            "keep_documents": config["corpora"][corpus_name]["keep_documents"]}


@lru_cache(maxsize=None)
def _spec(mapping_json: str) -> str:
    return str(spec_from_mapping("model", json.loads(mapping_json)))


@lru_cache(maxsize=None)
def _version(mapping_json: str) -> int:
    return int(getattr(tagger_class_of(json.loads(mapping_json)), "version", 1))


def version(config: dict, name: str) -> int:
    """The version of a model's class (``SequenceTagger.version``): what its spec trains.

    Parameters
    ----------
    config : dict
        The validated config.
    name : str
        The model's name in the config.

    Returns
    -------
    int
        The version.
    """
    return _version(json.dumps(config["models"][name], sort_keys=True))


def spec(config: dict, model: str) -> str:
    """The canonical spec string of a config model (cached: asked once per job of the DAG).

    Parameters
    ----------
    config : dict
        The validated config.
    model : str
        The model's name in the config.

    Returns
    -------
    str
        The spec.
    """
    return _spec(json.dumps(config["models"][model], sort_keys=True))


@lru_cache(maxsize=None)
def _uses_gpu(mapping_json: str) -> bool:
    return bool(getattr(tagger_class_of(json.loads(mapping_json)), "uses_gpu", False))


def uses_device(config: dict, model: str) -> bool:
    """Whether the model trains on ``device`` (a capability of its class, not its type's name).

    Parameters
    ----------
    config : dict
        The validated config.
    model : str
        The model's name in the config.

    Returns
    -------
    bool
    """
    return _uses_gpu(json.dumps(config["models"][model], sort_keys=True))


def typing(config: dict, corpus_name: str) -> dict:
    """What a job trains and scores: ``typed``, and with ``typed: false`` whether the taggers
    still train on typed tags (``train_typed``). A typed corpus's record is ``typed`` alone, as
    before untyped training existed, so its jobs do not rerun.

    Parameters
    ----------
    config : dict
        The validated config.
    corpus_name : str
        The corpus's name.

    Returns
    -------
    dict
        The settings.
    """
    settings = config["corpora"][corpus_name]
    if settings["typed"]:
        return {"typed": True}
    return {"typed": False, "train_typed": settings["train_typed"]}


@lru_cache(maxsize=None)
def _file_sha256(path: str, mtime_ns: int, size: int) -> str:
    import hashlib

    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _shown_path(path: Path) -> str:
    # relative to the working directory where it can be, so that a moved project reruns nothing
    try:
        return str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def code(config: dict, model: str) -> dict:
    """The user's code behind a model: {file: sha256} of the files its class or commands name
    (:meth:`reprocompare.models.SequenceTagger.source_files`); empty for this package's taggers.

    In the settings of every job that trains the model, so that editing a ``type: python``
    tagger's module or a ``type: command`` script reruns exactly those jobs.

    Parameters
    ----------
    config : dict
        The validated config.
    model : str
        The model's name in the config.

    Returns
    -------
    dict of str to str
        The files' sha256, by file.
    """
    mapping = config["models"][model]
    params = dict(spec_from_mapping(model, mapping).params)
    files = {}
    for path in tagger_class_of(mapping).source_files(params):
        stat = path.stat()
        files[_shown_path(path)] = _file_sha256(str(path), stat.st_mtime_ns, stat.st_size)
    return dict(sorted(files.items()))


def compare(config: dict, corpus_name: str, comparison: str, strategy: str) -> dict:
    """One comparison job: its split (:func:`split`), the two specs, what is scored, how BCV
    votes, what is kept.

    ``voting`` only for BCV and ``device`` only for models that use one: a hold-out job does not
    rerun when the vote changes, nor a CRF job when the BiLSTM device does.

    Parameters
    ----------
    config : dict
        The validated config.
    corpus_name : str
        The corpus's name.
    comparison : str
        The comparison's name.
    strategy : str
        The strategy's name.

    Returns
    -------
    dict
        The settings.
    """
    pair = config["comparisons"][comparison]
    record = {"split": split(config, corpus_name, strategy)}
    for side in ("a", "b"):
        files = code(config, pair[side])  # once per side: the DAG asks for every job's params
        # the user's code, when the model has some (models of this package have none, so their
        # params are as they always were)
        found = version(config, pair[side])  # from 2 on: a class whose defaults changed
        record[side.upper()] = {"name": pair[side], "spec": spec(config, pair[side]),
                                **({"code": files} if files else {}),
                                **({"version": found} if found > 1 else {})}
    record.update(typing(config, corpus_name))
    if not is_default(config["variation"]):  # a design of samples and seeds (issue 25)
        # what a repetition's draw depends on: growing by samples or decomposing retrains nothing
        record["variation"] = canonical(draw_record(config["variation"]))
    if strategy_of(strategy).votes:  # how it votes changes its Vote and Mixture
        record["voting"] = config["strategies"][strategy_of(strategy).key]["voting"]
    record["keep_predictions"] = config["keep_predictions"]
    if any(uses_device(config, pair[side]) for side in ("a", "b")):
        record["device"] = config["device"]
    return record


def scoring(config: dict, corpus_name: str, models: list[str]) -> dict:
    """What the fixed-split jobs (search trials, seed runs, learning curves) score and where
    their models train: typed, and the device when one of ``models`` uses it.

    Parameters
    ----------
    config : dict
        The validated config.
    corpus_name : str
        The corpus's name.
    models : list of str
        The models the job trains.

    Returns
    -------
    dict
        The settings.
    """
    record = typing(config, corpus_name)
    codes = {name: files for name in models if (files := code(config, name))}
    if codes:  # the user's code of the models these jobs train
        record["code"] = codes
    if any(uses_device(config, name) for name in models):
        record["device"] = config["device"]
    return record


# ---- the search, seed-variance and learning-curve jobs: one settings dict each, everything the
# job reads (its script never reads the config) ------------------------------------------------

def _trained(config: dict, name: str) -> dict:
    """A model as a fixed-split job trains it: the mapping it is built from (no label, no
    resources) and, as a record only, its class's version from 2 on."""
    mapping = {key: value for key, value in config["models"][name].items()
               if key not in ("label", "resources")}
    found = version(config, name)
    return canonical({"name": name, "mapping": mapping,
                      **({"version": found} if found > 1 else {})})


def fixed_split(config: dict, corpus_name: str) -> dict:
    """The fixed train/validation split of a corpus (search, seed variance, learning curves).

    Parameters
    ----------
    config : dict
        The validated config.
    corpus_name : str
        The corpus's name.

    Returns
    -------
    dict
        The settings.
    """
    return {"ratio": config["search"]["ratio"], "seed": fixed_split_seed(config, corpus_name),
            "keep_documents": config["corpora"][corpus_name]["keep_documents"]}


def search_trials(config: dict, corpus_name: str, model_name: str) -> dict:
    """Trials of one model's random search: the model, its space, the search's seed, what is
    scored and where it trains (:func:`scoring`).

    Parameters
    ----------
    config : dict
        The validated config.
    corpus_name : str
        The corpus's name.
    model_name : str
        The model's name in the config.

    Returns
    -------
    dict
        The settings.
    """
    return canonical({"model": _trained(config, model_name),
                      "space": config["search"]["models"][model_name]["space"],
                      "seed": config["search"]["seed"],
                      **scoring(config, corpus_name, [model_name])})


def search_table(config: dict, corpus_name: str, trials: list[str]) -> dict:
    """The trials table: the models' order, and which trial files (a larger budget adds some:
    the profiles leave out the "input" rerun trigger, so the plan is a setting).

    Parameters
    ----------
    config : dict
        The validated config.
    corpus_name : str
        The corpus's name.
    trials : list of str
        The trial jobs' files.

    Returns
    -------
    dict
        The settings.
    """
    return {"models": list(config["search"]["models"]), "trials": trials}


def budget(config: dict) -> dict:
    """The budget analysis: the target F1 and the searched models' order.

    Parameters
    ----------
    config : dict
        The validated config.

    Returns
    -------
    dict
        The settings.
    """
    return {"target_f1": config["search"]["target_f1"],
            "models": list(config["search"]["models"])}


def search_best(config: dict, model_name: str, trials: list[str]) -> dict:
    """One searched model's best configuration: its config mapping, under the trials' draws.

    Parameters
    ----------
    config : dict
        The validated config.
    model_name : str
        The model's name in the config.
    trials : list of str
        The trial jobs' files.

    Returns
    -------
    dict
        The settings.
    """
    return canonical({"model": _trained(config, model_name), "trials": trials})


def seed_runs(config: dict, corpus_name: str, comparison: str) -> dict:
    """A comparison's two models, each trained with several seeds on the fixed split.

    Parameters
    ----------
    config : dict
        The validated config.
    corpus_name : str
        The corpus's name.
    comparison : str
        The comparison's name.

    Returns
    -------
    dict
        The settings.
    """
    pair = config["comparisons"][comparison]
    return canonical({"a": _trained(config, pair["a"]), "b": _trained(config, pair["b"]),
                      "seeds": config["seed_variance"]["seeds"],
                      "seed": config["search"]["seed"],
                      **scoring(config, corpus_name, [pair["a"], pair["b"]])})


def seed_variance(config: dict) -> dict:
    """The seed-variance table: the F1 below which a run fails.

    Parameters
    ----------
    config : dict
        The validated config.

    Returns
    -------
    dict
        The settings.
    """
    return {"failure_f1": config["seed_variance"]["failure_f1"]}


def learning_curve_runs(config: dict, corpus_name: str, model_name: str) -> dict:
    """One model trained with several seeds, its validation F1 recorded every k epochs.

    Parameters
    ----------
    config : dict
        The validated config.
    corpus_name : str
        The corpus's name.
    model_name : str
        The model's name in the config.

    Returns
    -------
    dict
        The settings.
    """
    curves = config["learning_curves"]
    return canonical({"model": _trained(config, model_name), "seeds": curves["seeds"],
                      "record_every": curves["record_every"], "seed": config["search"]["seed"],
                      **scoring(config, corpus_name, [model_name])})


def strategies(config: dict) -> dict:
    """Every strategy's settings as the reports label them (m x 2 BCV, the ratio, the k).

    Parameters
    ----------
    config : dict
        The validated config.

    Returns
    -------
    dict
        The settings, by strategy.
    """
    return canonical({strategy_of(key).name: settings
                      for key, settings in config["strategies"].items()})


def summary(config: dict, corpus_name: str, comparison: str) -> dict:
    """One comparison's summary on one corpus: everything it computes with or records.

    Parameters
    ----------
    config : dict
        The validated config.
    corpus_name : str
        The corpus's name.
    comparison : str
        The comparison's name.

    Returns
    -------
    dict
        The settings.
    """
    pair = config["comparisons"][comparison]
    return {"comparison": comparison, "corpus": corpus_name,
            "models": {"A": spec(config, pair["a"]), "B": spec(config, pair["b"])},
            "model_names": {"A": pair["a"], "B": pair["b"]},
            # the tables' short names, when a model has a label (else its name)
            **({"model_labels": {side: config["models"][pair[key]].get("label", pair[key])
                                 for side, key in (("A", "a"), ("B", "b"))}}
               if any("label" in config["models"][pair[key]] for key in ("a", "b")) else {}),
            # the corpus's, when it has one (else tables print its name)
            **({"corpus_label": config["corpora"][corpus_name]["label"]}
               if "label" in config["corpora"][corpus_name] else {}),
            "conclusion": pair["conclusion"], **typing(config, corpus_name),
            "strategies": strategies(config), "repetitions": config["repetitions"],
            "seed": config["seed"], "alpha": config["significance"]["alpha"],
            "resamples": config["significance"]["resamples"],
            # the family the verdicts' confidence is adjusted for (Bonferroni): every
            # comparison-corpus pair the study decides, times its deciding estimators
            "verdict": canonical({**config["verdict"], "comparisons": sum(
                len(c["corpora"]) for c in config["comparisons"].values()),
                "deciding": config["stopping"]["estimators"]}),
            **({"variation": canonical(config["variation"])}
               if not is_default(config["variation"]) else {}),
            # the stopping rule changes the verdicts' intervals only when it is on
            **({"stopping": canonical(config["stopping"])} if config["stopping"]["enabled"]
               else {})}


def reports(pairs: list[tuple[str, str]]) -> dict:
    """Tables and figures: which summaries, in which order (all else they print is in them).

    Parameters
    ----------
    pairs : list of (str, str)
        (corpus, comparison) of every summary.

    Returns
    -------
    dict
        The settings.
    """
    return {"summaries": [f"{comparison} on {corpus_name}" for corpus_name, comparison in pairs]}


#: the sections of the optional stages (the search, seed variance and learning curves share the
#: search's fixed split; stopping decides R in waves)
OPTIONAL_STAGES = ("search", "seed_variance", "learning_curves", "stopping")


def checklist(config: dict, source: str) -> str:
    """The config values the checklist prints, as canonical JSON (read back with
    :func:`checklist_config`): all but the corpora's settings (it prints what the corpus jobs
    recorded), keep_predictions, and the section of an optional stage that does not run (its
    values then change nothing: they are replaced by their defaults). The corpus of the search
    and of the learning curves is the one they use, named or not.

    Parameters
    ----------
    config : dict
        The validated config.
    source : str
        The config's file.

    Returns
    -------
    str
        The JSON text, with <, > and & escaped.
    """
    printed = copy.deepcopy(config)
    # of a corpus, the checklist prints what the corpus jobs recorded, and typed
    printed["corpora"] = {name: typing(config, name) for name in config["corpora"]}
    printed.pop("keep_predictions")
    printed["search"]["corpus"] = search_corpus(config)  # null means the first corpus
    printed["learning_curves"]["corpus"] = curves_corpus(config)
    for section in OPTIONAL_STAGES:
        if not printed[section]["enabled"]:
            printed[section] = section_defaults(section)
    sources = ", ".join(project_path(path) for path in source.split(", "))
    # Snakemake's report embeds a reported job's params in a <script> as they are: a label of
    # '</script><script>...' would end it and run. JSON's \u escapes of <, > and & read back
    # as the same characters (and leave every config without them as it was recorded).
    text = json.dumps({"source": sources, "config": printed}, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def checklist_config(value: str) -> tuple[dict, str]:
    """The config and its file name back from :func:`checklist`'s value.

    Parameters
    ----------
    value : str
        What :func:`checklist` returned.

    Returns
    -------
    (dict, str)
        The config and its file's name.
    """
    record = json.loads(value)
    return record["config"], record["source"]
