"""The study configuration: validated against workflow/schemas/config.schema.yaml, defaults filled.

Everything is checked before any job runs: the schema (types, ranges, unknown keys), then what a
schema cannot say (a comparison naming an unknown model or corpus, a corpus file that does not
exist, a model hyperparameter out of range). Each problem is one :class:`UserError` naming the
config key, e.g. ``config/config.yaml: strategies.bcv.m: 0 is less than the minimum of 1``.
"""

from __future__ import annotations

import copy
import datetime
import inspect
import math
import re
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from reprocompare import schemas
from reprocompare.base.errors import UserError
from reprocompare.base.markdown import md_table
from reprocompare.base.paths import PROJECT
from reprocompare.base.seeds import derive_seed
from reprocompare.corpora.conll import check_has_chunks, read_conll
from reprocompare.corpora.subsample import too_small
from reprocompare.estimators.designs import MAX_LOOKS, design_named, planned_looks
from reprocompare.models import parse_spec, spec_from_mapping, tagger_class_of
from reprocompare.models.devices import cuda_devices
from reprocompare.search.config import check_config as check_search_config
from reprocompare.splitters import split_document
from reprocompare.strategies import of_estimator, splitter_arguments, strategy as strategy_of

SCHEMA_PATH = schemas.PATH


#: the most values a config may hold with its aliases expanded: a few anchors save typing; an
#: alias bomb (aliases of aliases) expands to billions, for a validator or an error message
MAX_EXPANDED = 1_000_000


def _expanded(node, sizes: dict) -> int:
    """How many values ``node`` holds once its aliases are expanded (shared nodes counted once
    per use, each counted only once in the work)."""
    if id(node) in sizes:
        if sizes[id(node)] is None:
            raise ValueError("a recursive alias (an anchor used inside itself)")
        return sizes[id(node)]
    sizes[id(node)] = None
    if isinstance(node, yaml.MappingNode):
        size = 1 + sum(_expanded(k, sizes) + _expanded(v, sizes) for k, v in node.value)
    elif isinstance(node, yaml.SequenceNode):
        size = 1 + sum(_expanded(child, sizes) for child in node.value)
    else:
        size = 1
    sizes[id(node)] = size
    return size


class _UniqueKeyLoader(yaml.SafeLoader):
    """Safe YAML that refuses a key given twice in one mapping (YAML itself keeps the last,
    silently: `repetitions:` twice, or a model defined twice, would mean one thing to the
    reader and another to the run)."""

    def construct_mapping(self, node, deep=False):
        seen: dict = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.setdefault(key, key_node.start_mark.line + 1)
            except TypeError:  # an unhashable key: the schema reports it
                continue
            if first != key_node.start_mark.line + 1:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} is given twice, on lines {first} and "
                    f"{key_node.start_mark.line + 1}; keep one", key_node.start_mark)
        return super().construct_mapping(node, deep=deep)


def load_yaml(path: str | Path) -> Any:
    """Safe YAML (no arbitrary objects, no key given twice), with errors that name the file and
    line.

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    object
        The document (None when empty).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError("no such config file", path=path) from None
    loader = _UniqueKeyLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        try:
            size = _expanded(node, {})
        except ValueError as error:
            raise UserError(str(error), path=path, line=node.start_mark.line + 1) from None
        if size > MAX_EXPANDED:
            raise UserError(f"its aliases (*name) expand to more than {MAX_EXPANDED:,} values "
                            "(an alias bomb?): write the values out", path=path,
                            line=node.start_mark.line + 1)
        return loader.construct_document(node)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise UserError(f"not valid YAML: {getattr(error, 'problem', error)}", path=path,
                        line=None if mark is None else mark.line + 1) from None
    finally:
        loader.dispose()


def blame_command_line(error: UserError, overrides: dict) -> UserError:
    """``error`` with the command line as its source when its key was given there (snakemake
    ``--config key=value``), not the config file that does not hold it.

    Parameters
    ----------
    error : UserError
        The error.
    overrides : dict
        The values given on the command line.

    Returns
    -------
    UserError
    """
    if error.key is None or error.key.split(".")[0] not in overrides:
        return error
    given = overrides[error.key.split(".")[0]]
    return UserError(f"{error.message} (given as --config {error.key.split('.')[0]}={given!r})",
                     path="the command line", key=error.key)


def _fill_defaults(value: Any, schema: dict) -> Any:
    """Insert the schema's defaults wherever a key is missing (recursively)."""
    if not isinstance(value, dict):
        return value
    for key, sub in schema.get("properties", {}).items():
        if key not in value and "default" in sub:
            value[key] = copy.deepcopy(sub["default"])
        if key in value:
            value[key] = _fill_defaults(value[key], sub)
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        for key in value:
            if key not in schema.get("properties", {}):
                value[key] = _fill_defaults(value[key], extra)
    return value


def _key(path) -> str:
    return ".".join(str(p) for p in path) or "(top level)"


def _check_finite(value: Any, path: list, source: str) -> None:
    """Refuse NaN and the infinities anywhere in the config (YAML's ``.nan``, ``.inf``).

    JSON Schema cannot: every comparison with NaN is false, so ``minimum`` and ``maximum`` let
    it through, and ``.inf`` passes any ``minimum``. One check over every value, so that no
    float key (a threshold, an alpha, a hyperparameter) is forgotten."""
    if isinstance(value, float) and not math.isfinite(value):
        raise UserError(f"{value} is not a finite number: give a number (NaN and infinities "
                        "are refused)", path=source, key=_key(path))
    if isinstance(value, dict):
        for key, sub in value.items():
            _check_finite(sub, [*path, key], source)
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            _check_finite(sub, [*path, i], source)


#: characters a label may not hold: controls (a terminal acts on ESC, BEL, backspace; a tab or
#: line separator breaks a table's row) and the bidirectional overrides, which reorder what a
#: terminal or a page shows around them ("Trojan source")
_NOT_SHOWN = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                        "\u202a-\u202e\u2066-\u2069]")


def _check_shown(text: Any, source: str, key: str) -> None:
    """Refuse a label that would not be shown as written (every other character is: each
    renderer escapes it, HTML, reST, LaTeX and the Snakemake report)."""
    if isinstance(text, str) and (found := _NOT_SHOWN.search(text)):
        raise UserError(f"{text!r} holds the control character U+{ord(found.group()):04X}, "
                        "which a terminal or a page acts on instead of showing it: labels are "
                        "printed as written", path=source, key=key)


def _yaml_read_as(value: Any) -> str | None:
    """What YAML made of a plain (unquoted) scalar that is not text: "the number 7", "the
    boolean true", "null", "the date 2002-01-01"; None for text and for collections."""
    if isinstance(value, bool):  # yes, no, on, off, true, false (YAML 1.1)
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if value is None:  # null, ~, or nothing at all
        return "null"
    if isinstance(value, (datetime.date, datetime.datetime)):
        return f"the date {value.isoformat()}"
    return None


def _quoted_example(value: Any) -> str:
    """How ``value`` may have been written, in quotes: '7', 'yes', 'null', '2002-01-01'."""
    if isinstance(value, bool) or value is None:
        return {None: "'null'", True: "'yes'", False: "'no'"}[value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return f"'{value.isoformat()}'"
    return f"'{value}'"


def _check_names(value: Any, path: list, source: str) -> None:
    """Every key of every mapping is text: a name YAML reads as something else (a comparison
    called 7, a corpus called 2002, a model called yes or null) is refused where it stands,
    before a table joins it to text or a rule's wildcard fails to find it."""
    if isinstance(value, dict):
        for key, sub in value.items():
            read = _yaml_read_as(key)
            if read is not None:
                raise UserError(f"the name {key!r} is read by YAML as {read}, not as a name: "
                                f"write the name in quotes, e.g. {_quoted_example(key)}",
                                path=source, key=_key(path))
            _check_names(sub, [*path, key], source)
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            _check_names(sub, [*path, i], source)


def _type_message(error) -> str:
    """jsonschema's "7 is not of type 'string'", with why where YAML read text as another type:
    a value written unquoted (2002, 1e-3 and yes are a number, text and a boolean to YAML)."""
    expected = error.validator_value if isinstance(error.validator_value, list) \
        else [error.validator_value]
    read = _yaml_read_as(error.instance)
    if "string" in expected and read is not None:
        return (f"{error.message}: YAML reads it as {read}; write it in quotes (e.g. "
                f"{_quoted_example(error.instance)}) where text is meant")
    if isinstance(error.instance, str) and {"number", "integer"} & set(expected) \
            and re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)[eE][-+]?\d+", error.instance.strip()):
        # YAML 1.1 reads a number in exponent form only with a dot and a signed exponent
        mantissa, _, exponent = error.instance.strip().lower().partition("e")
        mantissa = mantissa if "." in mantissa else f"{mantissa}.0"
        exponent = exponent if exponent[:1] in "+-" else f"+{exponent}"
        return (f"{error.message}: YAML reads {error.instance} as text; write it as "
                f"{mantissa}e{exponent} (a dot in the number, a sign in the exponent) or as a "
                "decimal")
    return error.message


def validate(config: Any, source: str = "config") -> dict:
    """The config with defaults filled in, or a UserError naming the first wrong key.

    Parameters
    ----------
    config : object
        The config as read.
    source : str, default 'config'
        The config's name in messages (its file).

    Returns
    -------
    dict
        The config.
    """
    if not isinstance(config, dict):
        raise UserError("the config must be a mapping of keys to values", path=source)
    _check_finite(config, [], source)
    _check_names(config, [], source)
    config = copy.deepcopy(config)
    schema = schemas.schema()
    validator = jsonschema.Draft202012Validator(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(config))
    if error is not None:
        path = list(error.absolute_path)
        message = _type_message(error) if error.validator == "type" else error.message
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            known = sorted(error.schema.get("properties", {}))
            unexpected = sorted(set(error.instance) - set(known))
            path.append(unexpected[0])
            message = f"unknown key (allowed: {', '.join(known)})"
        if error.validator == "pattern" and "propertyNames" in error.schema_path:
            # a name becomes a directory under results/: '.', '..' or '/' would leave it
            message = (f"name {error.instance!r} is not allowed: a name is letters, digits, _, "
                       "- and dots, not starting with a dot (it names a directory of results/)")
        raise UserError(message, path=source, key=_key(path))
    config = _fill_defaults(config, schema)
    _check_references(config, source)
    check_search_config(config, source)  # search spaces, seed variance, learning curves
    return config


#: where the corpora of the shipped configs come from, for the error that finds one missing
CORPUS_SOURCES = {
    "data/conll2002/": "CoNLL-2002 Spanish NER is for research use only and not shipped: get "
                       "esp.train.gz from the CoNLL-2002 shared task's data and place it in "
                       "data/conll2002/ (`make data/conll2002/esp.train.gz` links it from "
                       "../shared/corpora/ where that exists; README, 'Data')",
}


def _where_from(path: str) -> str:
    for prefix, where in CORPUS_SOURCES.items():
        if Path(path).as_posix().startswith(prefix) or prefix in Path(path).as_posix():
            return f"; {where}"
    return ""


def _check_references(config: dict, source: str) -> None:
    shown: dict[str, str] = {}  # what tables call each corpus: its label, else its name
    for name, corpus in config["corpora"].items():
        _check_shown(corpus.get("label"), source, f"corpora.{name}.label")
        label = corpus.get("label", name)
        if label in shown:  # tables and figures would print two corpora as one
            raise UserError(f"{label!r} already names corpus {shown[label]!r}: give each "
                            "corpus its own label", path=source, key=f"corpora.{name}.label")
        shown[label] = name
        if corpus["typed"] and corpus["train_typed"]:
            raise UserError("train_typed: true trains typed and scores untyped, so it needs "
                            "typed: false (typed: true already trains and scores typed)",
                            path=source, key=f"corpora.{name}.train_typed")
        # relative to the working directory, else to the repository (snakemake --directory)
        if not Path(corpus["path"]).exists() and (PROJECT / corpus["path"]).exists():
            corpus["path"] = str(PROJECT / corpus["path"])
        if not Path(corpus["path"]).exists():
            raise UserError(f"corpus file {corpus['path']!r} does not exist"
                            + _where_from(corpus["path"]), path=source,
                            key=f"corpora.{name}.path")
    for name, mapping in config["models"].items():
        _check_shown(mapping.get("label"), source, f"models.{name}.label")
        try:
            spec_from_mapping(name, mapping)
        except UserError as error:
            raise UserError(error.message, path=source, key=error.key or f"models.{name}") \
                from None
    for name, comparison in config["comparisons"].items():
        for side in ("a", "b"):
            if comparison[side] not in config["models"]:
                raise UserError(f"unknown model {comparison[side]!r} (models: "
                                f"{', '.join(config['models'])})", path=source,
                                key=f"comparisons.{name}.{side}")
        if comparison["a"] == comparison["b"]:
            raise UserError("a and b are the same model", path=source,
                            key=f"comparisons.{name}.b")
        specs = [str(spec_from_mapping(m, config["models"][m])) for m in
                 (comparison["a"], comparison["b"])]
        if specs[0] == specs[1]:  # trained with one seed per fold: every difference is 0
            raise UserError(f"{comparison['a']} and {comparison['b']} are one model under two "
                            f"names ({specs[0]}): A - B would be 0 on every fold; give them "
                            "different settings", path=source, key=f"comparisons.{name}.b")
        for corpus in comparison["corpora"]:
            if corpus not in config["corpora"]:
                raise UserError(f"unknown corpus {corpus!r} (corpora: "
                                f"{', '.join(config['corpora'])})", path=source,
                                key=f"comparisons.{name}.corpora")
    _check_stopping(config, source)
    _check_variation(config, source)
    for key, settings in config["strategies"].items():
        strategy_of(key).check_settings(settings, source)



def _check_stopping(config: dict, source: str) -> None:
    """A stopping rule that can be met: one wave fits in the maximum, a planned design's looks
    are few enough to spend its error over, and every deciding estimator is one the study
    runs."""
    stopping = config["stopping"]
    if not stopping["enabled"]:  # off: its values change nothing
        return
    if stopping["max_repetitions"] < max(stopping["wave"], 2):
        raise UserError(f"{stopping['max_repetitions']} is less than one wave of "
                        f"{stopping['wave']} repetitions (and 2, the fewest an SNR needs): the "
                        "study could never run a wave", path=source,
                        key="stopping.max_repetitions")
    if design_named(stopping["design"]).planned:
        taken = len(planned_looks(stopping["wave"], stopping["max_repetitions"]))
        if taken > MAX_LOOKS:
            raise UserError(f"waves of {stopping['wave']} up to {stopping['max_repetitions']} "
                            f"are {taken} planned looks, more than the {MAX_LOOKS} a planned "
                            "design spends its error over: give a larger wave (or design: "
                            "anytime)", path=source, key="stopping.wave")
    for name in stopping["estimators"]:
        if of_estimator(name).key not in config["strategies"]:
            raise UserError(f"{name} needs strategies.{of_estimator(name).key}, which this "
                            f"study does not run (strategies: {', '.join(config['strategies'])})",
                            path=source, key="stopping.estimators")


def _check_variation(config: dict, source: str) -> None:
    """A design of samples x splits x seeds that is what it says (reprocompare.study.variation)."""
    def fail(message: str, key: str):
        raise UserError(message, path=source, key=key)

    v, repetitions = config["variation"], config["repetitions"]
    if v["samples"] >= 2 and v["sample_size"] is None:
        fail(f"{v['samples']} data samples of how many sentences? give sample_size",
             "variation.sample_size")
    if v["samples"] == 1 and v["sample_size"] is not None:
        fail("one sample of a corpus is corpora.<name>.subsample; sample_size draws a fresh "
             "sample per data sample, so it needs samples >= 2", "variation.sample_size")
    if v["samples"] >= 2 and v["splits"] is None:
        fail("with samples >= 2 the splits per sample are fixed (the study grows by samples)",
             "variation.splits")
    if v["splits"] is not None and v["samples"] * v["splits"] * v["seeds"] != repetitions:
        fail(f"{v['samples']} samples x {v['splits']} splits x {v['seeds']} seeds is "
             f"{v['samples'] * v['splits'] * v['seeds']} repetitions, not {repetitions}",
             "repetitions")
    if repetitions % v["seeds"]:
        fail(f"{repetitions} repetitions are not whole splits of {v['seeds']} seeds",
             "repetitions")
    if v["decompose"]:  # every source it separates needs 2 levels (estimators.variance)
        if v["samples"] == 1 and v["seeds"] == 1:
            fail("nothing to decompose: one sample and one seed per split vary the split alone "
                 "(give seeds >= 2 or samples >= 2)", "variation.decompose")
        if v["samples"] >= 2 and v["splits"] == 1:
            fail("one split per sample cannot tell the split's variance from the sample's: "
                 "give 2 splits per sample or more to decompose", "variation.splits")
        if v["samples"] == 1 and repetitions // v["seeds"] < 2:
            fail(f"{repetitions} repetitions of {v['seeds']} seeds are one split, which cannot "
                 "tell the split's variance from the seed's: run 2 splits or more",
                 "repetitions")
    if config["stopping"]["enabled"] and (v["samples"] > 1 or v["seeds"] > 1):
        fail("a sequential study adds waves of repetitions, which would cut a design of "
             "samples and seeds short: run the design at a fixed R", "variation")
    if v["seeds"] > 1:
        for name, pair in config["comparisons"].items():
            seeded = [m for m in (pair["a"], pair["b"]) if "random_state" in inspect.signature(
                tagger_class_of(config["models"][m])).parameters]
            if not seeded:
                fail(f"neither {pair['a']} nor {pair['b']} (comparisons.{name}) trains with a "
                     "seed: more seeds would repeat identical runs", "variation.seeds")


def check_corpora(config: dict) -> None:
    """Read every corpus once, so a bad corpus stops the run before any job writes anything.

    A read takes a fraction of a second (CoNLL-2000: 0.25 s); the corpus rule reads it again to
    write the clean copy, and the error, if any, names the file and line either way.

    Parameters
    ----------
    config : dict
        The validated config.
    """
    for corpus in config["corpora"].values():
        read = read_conll(corpus["path"], token_column=corpus["token_column"],
                          tag_column=corpus["tag_column"], scheme=corpus["scheme"],
                          ill_formed=corpus["ill_formed"])
        check_has_chunks(read)
        n = corpus["subsample"] or len(read)
        part = corpus["subsample_part"] if corpus["subsample"] else 0
        if (part + 1) * n > len(read):
            raise UserError(too_small(n, part, len(read)), path=corpus["path"],
                            key="subsample_part" if part else None)
        sample = config["variation"]["sample_size"]
        if sample is not None:  # each data sample of a design is split, not the corpus
            if sample >= n:
                raise UserError(f"a data sample of {sample} sentences needs a corpus of more "
                                f"than its {n}", path=corpus["path"],
                                key="variation.sample_size")
            n = sample
        for key in config["strategies"]:
            name = strategy_of(key).name
            try:  # a corpus too small for a strategy fails here, not in a job
                split_document(name, n,
                               groups=read.docs[:n] if corpus["keep_documents"] else None,
                               tags=read.tags[:n],
                               **splitter_arguments(config, name))
            except ValueError as error:
                raise UserError(f"too small for {name}: {error}",
                                path=corpus["path"]) from None


def gpu_models(config: dict) -> list[str]:
    """The models the run trains that use ``device`` (a capability of their class).

    Parameters
    ----------
    config : dict
        The validated config.

    Returns
    -------
    list of str
        The models' names, sorted.
    """
    used = {config["comparisons"][c][side] for c in config["comparisons"] for side in ("a", "b")}
    if config["learning_curves"]["enabled"]:
        used.update(config["learning_curves"]["models"])
    if config["search"]["enabled"]:
        used.update(config["search"]["models"])
    return sorted(name for name in used
                  if getattr(tagger_class_of(config["models"][name]), "uses_gpu", False))


def check_device(config: dict, source: str = "config") -> None:
    """``device: cuda`` on a machine whose torch sees no GPU fails here, not in the tenth job.

    Only for runs on this machine: a cluster's submit host need not have the GPU its jobs get.

    Parameters
    ----------
    config : dict
        The validated config.
    source : str, default 'config'
        The config's name in messages (its file).
    """
    if config["device"] != "cuda":
        return
    models = gpu_models(config)
    if not models:
        return
    if not cuda_devices():
        raise UserError(f"cuda, but torch sees no CUDA GPU on this machine (models "
                        f"{', '.join(models)} would train on it); use device: cpu, or a cluster "
                        "profile whose jobs get a GPU", path=source, key="device")


def section_defaults(section: str) -> dict:
    """A top-level section of the config with every key at its schema default.

    Parameters
    ----------
    section : str
        The section's key.

    Returns
    -------
    dict
        The section.
    """
    return _fill_defaults({}, schemas.schema()["properties"][section])


def model_entry(spec: str, key: str) -> dict:
    """The config entry (``models.<name>``) of a model spec such as ``crf:scheme=IOBES``: what
    ``reprocompare init`` writes for its --a and --b; a bad spec names ``key``.

    Parameters
    ----------
    spec : str
        The model spec.
    key : str
        The option or key it was given as, for messages.

    Returns
    -------
    dict
        The entry.
    """
    try:
        return parse_spec(spec).to_dict()
    except UserError as error:
        raise UserError(f"{spec!r}: {error}", key=key) from None


def widest(config: dict) -> dict:
    """The validated ``config`` at the most repetitions its study may run: a sequential study's
    waves go past its first R, up to ``stopping.max_repetitions``.

    Parameters
    ----------
    config : dict
        The validated config.

    Returns
    -------
    dict
        The config.
    """
    if config["stopping"]["enabled"]:
        return {**config, "repetitions": config["stopping"]["max_repetitions"]}
    return config


def corpus_seed(base_seed: int, corpus: str) -> int:
    """The seed of a corpus's splits: adding corpora never changes another corpus's splits.

    Parameters
    ----------
    base_seed : int
        The config's ``seed``.
    corpus : str
        The corpus's name.

    Returns
    -------
    int
        The seed.
    """
    return derive_seed(base_seed, corpus)


def schema_markdown() -> str:
    """config/README.md: every key of the schema with its type, default and description.

    Returns
    -------
    str
        The Markdown.
    """
    lines = ["# Configuration", "",
             "A study is one YAML file: `config/config.yaml` (the demo, used by default) or any",
             "other given with `--configfile` (e.g. `config/paper.yaml`, the paper's scale). It is",
             "checked against `workflow/schemas/config.schema.yaml` before any job runs.",
             "This page is generated from that schema (`python -m reprocompare.study.config`).", ""]
    rows: list[list[str]] = []

    def walk(schema: dict, prefix: str) -> None:
        for key, sub in schema.get("properties", {}).items():
            add(f"{prefix}{key}", sub)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            add(f"{prefix}<name>", extra)

    def add(key: str, sub: dict) -> None:
        kind = sub.get("type", "enum" if "enum" in sub else "")
        kind = " or ".join(kind) if isinstance(kind, list) else kind
        if "enum" in sub:
            kind = " / ".join(map(str, sub["enum"]))
        default = f"`{sub['default']}`" if "default" in sub else ""
        text = " ".join(str(sub.get("description", "")).split())
        if sub.get("properties") or isinstance(sub.get("additionalProperties"), dict):
            kind = "mapping"
        rows.append([f"`{key}`", kind, default, text])
        walk(sub, f"{key}.")

    walk(schemas.schema(), "")
    lines += md_table(["key", "type", "default", "description"], rows)
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(schema_markdown(), end="")
