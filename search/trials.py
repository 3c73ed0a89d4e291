"""Training on one fixed train/validation split: search trials and repeated-seed runs.

Dodge et al. (2019) compare models by their validation performance over many training runs on
*one* train/validation split: the runs differ in hyperparameters (random search) or only in their
random seed (seed variance; Potts' notebook, seed 003: "report scores for multiple complete runs
of a model with different randomly chosen initializations"). Both are run here, on the split that
:func:`fixed_split` draws (a seeded hold-out at the configured ratio), and scored by chunk F1 on
its validation set (conlleval's, as everywhere in the project). Features are computed once per
process per feature template and shared by every run, as in a comparison.
"""

from __future__ import annotations

import csv
import inspect
import io
import json
import sys
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

import numpy as np

from reprocompare.base.errors import UserError
from reprocompare.base.spreadsheet import csv_text
from reprocompare.strategies.holdout import STRATEGY as STANDARD_SPLIT
from reprocompare.corpora.conll import Corpus
from reprocompare.models import build_model, spec_from_mapping, tagger_class_of
from reprocompare.models.engine import Features, train_fold
from reprocompare.search.space import Dimension, draw, training_seed
from reprocompare.splitters import split_document

#: Columns of a trials table. ``seconds`` (wall time of one trial: fit plus predicting the
#: validation set) is the only column that differs between reruns; it comes last.
TRIAL_COLUMNS = ("model", "trial", "f1", "precision", "recall", "spec", "config", "seconds")


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def fixed_split(corpus: Corpus, *, ratio: str, seed: int, keep_documents: bool = False) -> dict:
    """The one train/validation split the search, the learning curves and seed variance use.

    A hold-out split document (:func:`splitters.split_document`) at ``ratio``, seeded.

    Parameters
    ----------
    corpus : Corpus
        The corpus.
    ratio : str
        The train:validation ratio, e.g. ``"8:1"``.
    seed : int
        The split's seed (:func:`reprocompare.search.config.fixed_split_seed`).
    keep_documents : bool, default False
        Keep the corpus's documents whole.

    Returns
    -------
    dict
        The split document.
    """
    try:
        return split_document(STANDARD_SPLIT.name, len(corpus), groups=corpus.docs if keep_documents
                              else None, corpus_sha256=corpus.sha256, ratio=ratio, seed=seed)
    except ValueError as error:
        raise UserError(str(error), path=corpus.path) from None


@dataclass
class SplitData:
    """A corpus, its fixed split, and the features computed so far (one per feature template)."""
    corpus: Corpus
    train: np.ndarray
    validation: np.ndarray
    typed: bool = True
    features: Features = None

    def __post_init__(self) -> None:
        if self.features is None:
            self.features = Features(self.corpus.sentences)

    @classmethod
    def from_document(cls, corpus: Corpus, split: dict, *, typed: bool = True) -> "SplitData":
        if split["n_sentences"] != len(corpus) or (split.get("corpus_sha256")
                                                  and split["corpus_sha256"] != corpus.sha256):
            raise UserError("the split was made for another corpus (size or sha256 differs)",
                            path=corpus.path)
        (fold,) = split["folds"]
        return cls(corpus, np.asarray(fold["train"], dtype=np.int64),
                   np.asarray(fold["validation"], dtype=np.int64), typed)


def train_and_score(data: SplitData, model, *, learning_curve: bool = False) -> dict:
    """Fit ``model`` on the split's training rows, predict its validation rows, score them
    (models.engine, the engine every training job uses).

    Returns ``{"f1", "precision", "recall", "seconds"}`` and, with ``learning_curve`` (a model
    whose ``fit`` takes ``eval_set``: the BiLSTM), ``"curve"``: its ``learning_curve_``, the
    validation chunk F1 every ``record_every`` epochs, as ``[[epoch, f1], ...]``.

    Parameters
    ----------
    data : SplitData
        The featurized split.
    model : SequenceTagger
        An unfitted tagger.
    learning_curve : bool, default False
        Also record the learning curve.

    Returns
    -------
    dict
        The scores, the seconds and, with ``learning_curve``, the curve.
    """
    trained = train_fold(model, data.features.of(model), data.train, data.validation,
                         data.corpus.tags, scheme=data.corpus.scheme, typed=data.typed,
                         where=f"{type(model).__name__} on the fixed split",
                         eval_on_validation=learning_curve)
    score = trained.counts.score()
    result = {"f1": score.f1, "precision": score.precision, "recall": score.recall,
              "seconds": trained.seconds}
    if learning_curve:
        result["curve"] = [[int(epoch), float(f1)] for epoch, f1 in model.learning_curve_]
    return result


def build(model_name: str, mapping: Mapping, *, random_state: int | None = None,
          device: str = "cpu", **params):
    """A fresh model of a config mapping, with its seed, device and extra parameters set.

    ``params`` the model does not take are ignored: ``num_threads`` goes to the models that run
    threads of their own (the BiLSTM's torch), ``record_every`` to those that train by epochs.

    Parameters
    ----------
    model_name : str
        The model's name in the config.
    mapping : mapping
        The model's config mapping.
    random_state : int, optional
        The training seed.
    device : str, default 'cpu'
        The device of a model that has one.
    **params
        Extra parameters, set where the model takes them.

    Returns
    -------
    SequenceTagger
        The model, unfitted.
    """
    spec = spec_from_mapping(model_name, mapping)
    model = build_model(spec, random_state=random_state)
    settable = model.get_params()
    if "device" in settable:
        model.set_params(device=device)
    model.set_params(**{k: v for k, v in params.items() if k in settable})
    return spec, model


def is_random(mapping: Mapping) -> bool:
    """Whether a model's training depends on its seed (the BiLSTM); the CRF's L-BFGS does not.

    Parameters
    ----------
    mapping : mapping
        The model's config mapping.

    Returns
    -------
    bool
    """
    return "random_state" in inspect.signature(tagger_class_of(mapping)).parameters


def run_trials(data: SplitData, model_name: str, mapping: Mapping, space: Mapping[str, Dimension],
               *, seed: int, trials: Iterable[int], device: str = "cpu", threads: int = 1,
               progress: Callable[[str], None] | None = _stderr) -> list[dict]:
    """Random-search trials of one model: draw each assignment, train, score on validation.

    Trial i trains the model's config mapping with the assignment :func:`search.space.draw` gives
    trial i laid over it, seeded with :func:`search.space.training_seed` (both functions of
    (seed, model, i) only). Returns one record per trial with the columns of
    :data:`TRIAL_COLUMNS` (``config`` as a dict of the drawn values).

    Parameters
    ----------
    data : SplitData
        The featurized split.
    model_name : str
        The model's name in the config.
    mapping : mapping
        The model's config mapping.
    space : mapping of str to Dimension
        The search space.
    seed : int
        The search's seed.
    trials : iterable of int
        The trials to run.
    device : str, default 'cpu'
        The device.
    threads : int, default 1
        Threads per model.
    progress : callable, optional
        Called with a line per trial; default to stderr.

    Returns
    -------
    list of dict
        One record per trial.
    """
    say = progress or (lambda message: None)
    records = []
    for trial in trials:
        assignment = draw(space, seed, model_name, trial)
        spec, model = build(model_name, {**mapping, **assignment}, device=device,
                            random_state=training_seed(seed, model_name, trial),
                            num_threads=max(1, threads))
        result = train_and_score(data, model)
        records.append({"model": model_name, "trial": int(trial), "f1": result["f1"],
                        "precision": result["precision"], "recall": result["recall"],
                        "spec": str(spec), "config": assignment, "seconds": result["seconds"]})
        say(f"{model_name} trial {trial}: {spec} F1 {result['f1']:.4f} "
            f"({result['seconds']:.1f} s)")
    return records


# ------------------------------------------------------------------------------- trials tables


def _cell(value) -> str:
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    return repr(value) if isinstance(value, float) else str(value)


def trials_csv(records: Iterable[Mapping]) -> str:
    """A trials table as CSV text, rows in the order given; floats in full (``repr``).

    Parameters
    ----------
    records : iterable of mapping
        The trial records.

    Returns
    -------
    str
        The CSV text.
    """
    return csv_text(records, TRIAL_COLUMNS, _cell)


def read_trials_csv(path_or_text, *, text: bool = False) -> list[dict]:
    """Records of a trials table (:func:`trials_csv`), with typed values.

    Parameters
    ----------
    path_or_text : str or os.PathLike
        The file, or its text with ``text=True``.
    text : bool, default False
        Whether ``path_or_text`` is the text itself.

    Returns
    -------
    list of dict
        The records.
    """
    from pathlib import Path

    content = path_or_text if text else Path(path_or_text).read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(content)))
    if rows and list(rows[0]) != list(TRIAL_COLUMNS):
        raise UserError(f"not a trials table: columns {', '.join(rows[0])}", path=None if text
                        else path_or_text)
    return [{"model": row["model"], "trial": int(row["trial"]), "f1": float(row["f1"]),
             "precision": float(row["precision"]), "recall": float(row["recall"]),
             "spec": row["spec"], "config": json.loads(row["config"]),
             "seconds": float(row["seconds"])} for row in rows]


def best_trial(records: Iterable[Mapping]) -> dict:
    """The trial with the highest validation F1 (the selection criterion); ties: lowest trial.

    Parameters
    ----------
    records : iterable of mapping
        The trial records.

    Returns
    -------
    dict
        The best record.
    """
    records = list(records)
    if not records:
        raise UserError("no trials")
    return max(records, key=lambda r: (r["f1"], -r["trial"]))
