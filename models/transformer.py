"""A Hugging Face token-classification model fine-tuned as a tagger (``type: transformers``).

The question this project answers is asked today mostly of fine-tuned transformers, where the
training seed alone moves F1 by points (Dodge et al. 2020; Mosbach et al. 2021): the tagger
takes the fold's derived seed, so ``variation.seeds`` varies it like any other source.

``model`` names an ``AutoModelForTokenClassification``: a local folder holding its
``config.json`` (and its tokenizer), or a hub name already in the Hugging Face cache; nothing is
ever downloaded (the library runs offline). The tokenizer must be a fast one: words are aligned
to subwords through ``word_ids()``.

- **Labels on the first subword** of each word; the word's other subwords are ignored in the loss
  (label -100), and a word's prediction is read from its first subword, so there is exactly one
  tag per word.
- **Long sentences are split, never truncated**: a sentence of more than ``max_length`` subwords
  (special tokens included) is cut between words into windows that fit, each tagged on its own,
  and the windows' tags are joined back into one sentence. A single word longer than a whole
  window keeps its first subwords (the one its tag is read from included).
- **Seeded**: the head's initialization, dropout and batch order come from ``random_state``.
- **Mixed precision on a GPU** (bfloat16 where the GPU has it, else float16 with loss scaling);
  full precision on the CPU.

This module declares the tagger (its parameters and capabilities) and imports neither torch nor
transformers: specs, configs and the workflow's GPU requests read it for free. Tokenization,
training and prediction live in :mod:`reprocompare.models.transformer_torch`, imported when the
tagger featurizes, trains, predicts or is unpickled; without the optional dependency
(``pip install reprocompare[transformers]``) that import ends in one line naming it.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Hashable, Sequence

from reprocompare.corpora.conll import Sentence
from reprocompare.models.base import SCHEME_PARAM, Featurized, Param, SequenceTagger, between

#: bumped when the windows a corpus is cut into change
FEATURE_VERSION = 1
#: the fewest subwords a window may hold: special tokens and at least a few words
MIN_LENGTH = 8


#: what to install when transformers is missing (pyproject.toml's optional dependencies)
EXTRA = "pip install reprocompare[transformers]"
#: the one line that says so, when a spec is read and when a job would import it
MISSING = f"type transformers needs the optional dependency: {EXTRA}"

#: a hub name: "name" or "organization/name"
_HUB_NAME = re.compile(r"[A-Za-z0-9][\w.-]*(/[A-Za-z0-9][\w.-]*)?")
#: the files a saved tokenizer leaves (any of them): tokenizer.json is a fast one's
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "vocab.json",
                   "spiece.model", "sentencepiece.bpe.model", "merges.txt")


def _check_model(value) -> str | None:
    """``model`` at config validation, before any job runs, without torch or transformers: a
    folder holds a config.json and a tokenizer's files, a hub name is in the Hugging Face cache.
    What only the library can tell (a slow tokenizer, the position limit against
    ``max_length``) is refused when the job featurizes, before either model of the job trains."""
    if not value.strip():
        return "must name a model folder or a cached hub model"
    folder = Path(value).expanduser()
    if folder.exists():
        if not (folder / "config.json").is_file():
            return (f"{value!r} is not a folder with a config.json (a saved Hugging Face model)")
        if not any((folder / name).is_file() for name in TOKENIZER_FILES):
            return (f"{value!r} holds no tokenizer (tokenizer.json); save the model's fast "
                    "tokenizer beside it (tokenizer.save_pretrained)")
        return None
    # a relative folder is read from where the job runs (a study's folder): named as resolved,
    # and its fix (a config's) said before the hub's, which a download would serve
    where, fix = "", ""
    if not folder.is_absolute():
        where = f" (as a folder: {folder.absolute()})"
        fix = ("; a relative folder is read from the folder the study runs in, as above: give "
               "the model folder's absolute path")
    absent = (f"{value!r}{where} is neither a folder with a config.json nor a model in the "
              f"Hugging Face cache{fix}")
    if not _HUB_NAME.fullmatch(value.strip()):
        return absent
    # a hub name is relative too, so the folder's fix comes first
    absent += (f"; a hub model must be cached first (nothing is downloaded: e.g. "
               f"`hf download {value.strip()}`)")
    try:  # the cache lookup transformers makes offline (huggingface_hub comes with it)
        from huggingface_hub import try_to_load_from_cache
    except ImportError:  # no extra: featurizing says which one to install
        return None
    cached = try_to_load_from_cache(value.strip(), "config.json")
    return None if isinstance(cached, str) else absent


class TransformerTagger(SequenceTagger):
    """Fine-tuned Hugging Face token-classification model (first-subword labels, AdamW with warmup).

    Parameters
    ----------
    scheme : {"IOB2", "IOBES", "IOB1"}
        Tag scheme the model is trained in; predictions are returned in the corpus's scheme.
    model : str
        A folder with the model's ``config.json`` and its (fast) tokenizer, or a hub name already
        in the Hugging Face cache. Nothing is downloaded.
    epochs : int
        Training epochs over the training rows.
    learning_rate : float
        AdamW's peak learning rate.
    batch_size : int
        Windows per batch.
    warmup_ratio : float
        Share of the training steps over which the learning rate rises linearly from 0; it then
        falls linearly to 0.
    weight_decay : float
        AdamW's decoupled weight decay (not applied to biases and normalization weights).
    max_length : int
        The most subwords (special tokens included) a window holds; longer sentences are split
        between words. At least 8, at most the model's position limit.
    device : {"cpu", "cuda"}
        Where to train; "cuda" without a CUDA device is an error, not a silent fallback. On a
        GPU the forward pass runs in mixed precision.
    num_threads : int
        Torch intra-op threads while fitting and predicting (0: torch's own setting).
    random_state : int, RandomState or None
        Seeds the classification head's initialization, dropout and batch order.

    Attributes
    ----------
    module_ : transformers.PreTrainedModel
        The fine-tuned model (on CPU after unpickling).
    labels_ : list of str
        Output labels, in the model's scheme.
    n_epochs_ : int
        Epochs trained.

    Examples
    --------
    >>> tagger = TransformerTagger(model="models/tiny-bert", epochs=5)
    >>> tagger.uses_gpu, tagger.max_length
    (True, 128)

    A spec is checked when it is read, before any job runs:

    >>> from reprocompare.models import parse_spec
    >>> parse_spec("transformers:model=no/such/folder")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    reprocompare.base.errors.UserError: model: 'no/such/folder' (as a folder: ...) is neither ...
    """

    name = "transformers"
    version = 1
    uses_gpu = True

    @classmethod
    def missing_dependency(cls) -> str | None:
        """The extra, when transformers is not installed (found without importing it)."""
        if importlib.util.find_spec("transformers") is None:
            return MISSING
        return None

    needs_characters = True  # subword tokenizers read the characters of words
    PARAMS = (
        SCHEME_PARAM,
        Param("model", str, "", _check_model, required=True,
              help="a folder with the model's config.json and fast tokenizer, or a hub name "
                   "already cached (nothing is downloaded)"),
        Param("epochs", int, 3, between(1, 1000), help="training epochs"),
        Param("learning_rate", float, 5e-5, between(1e-8, 1.0), help="AdamW peak learning rate"),
        Param("batch_size", int, 16, between(1, 4096), help="windows per batch"),
        Param("warmup_ratio", float, 0.1, between(0.0, 1.0),
              help="share of the steps the learning rate warms up over (then linear decay)"),
        Param("weight_decay", float, 0.01, between(0.0, 1.0), help="AdamW weight decay"),
        Param("max_length", int, 128, between(MIN_LENGTH, 131_072),
              help="subwords per window, special tokens included (longer sentences are split "
                   "between words); at most the model's position limit"),
        Param("device", str, "cpu", choices=("cpu", "cuda"),
              help="torch device (cuda: mixed precision)"),
        Param("num_threads", int, 1, between(0, 4096), help="torch CPU threads (0: torch default)"),
    )

    def __init__(self, scheme="IOB2", model="", epochs=3, learning_rate=5e-5, batch_size=16,
                 warmup_ratio=0.1, weight_decay=0.01, max_length=128, device="cpu",
                 num_threads=1, random_state=None):
        self.scheme = scheme
        self.model = model
        self.epochs = epochs
        self.learning_rate = learning_rate
        self.batch_size = batch_size
        self.warmup_ratio = warmup_ratio
        self.weight_decay = weight_decay
        self.max_length = max_length
        self.device = device
        self.num_threads = num_threads
        self.random_state = random_state

    # ----------------------------------------------------------------- provenance
    @classmethod
    def source_files(cls, params: dict) -> list[Path]:
        """The files of a model folder (weights, configuration, tokenizer): the workflow hashes
        them, so that a model saved anew into the same folder retrains the jobs that use it.
        None for a hub name (a cached model is as an installed package: rerun by hand).

        Parameters
        ----------
        params : dict
            The spec's hyperparameters (``model``).

        Returns
        -------
        list of pathlib.Path
            The folder's files.
        """
        folder = Path(str(params.get("model", ""))).expanduser()
        if not str(params.get("model", "")).strip() or not folder.is_dir():
            return []
        return sorted(path.resolve() for path in folder.iterdir() if path.is_file())

    # ----------------------------------------------------------------- features
    def feature_key(self) -> Hashable:
        """The windows depend on the tokenizer (``model``) and on ``max_length`` only."""
        return ("transformers", FEATURE_VERSION, self.model, self.max_length)

    def featurize(self, sentences: Sequence[Sentence]) -> Featurized:
        """Each sentence tokenized once and cut into windows of at most ``max_length`` subwords
        (see :func:`reprocompare.models.transformer_torch.featurize`).

        Parameters
        ----------
        sentences : sequence of Sentence
            The sentences.

        Returns
        -------
        Featurized
            One list of windows per sentence.
        """
        self._check_params()
        from reprocompare.models import transformer_torch  # lazy: torch and transformers

        return transformer_torch.featurize(self, list(sentences))

    # ----------------------------------------------------------------- training
    def _fit(self, featurized: Featurized, y: list[list[str]]) -> None:
        from reprocompare.models import transformer_torch  # lazy: torch and transformers

        transformer_torch.fit(self, featurized, y)

    def _predict(self, featurized: Featurized) -> list[list[str]]:
        from reprocompare.models import transformer_torch  # lazy: torch and transformers

        return transformer_torch.predict(self, featurized)

    # ----------------------------------------------------------------- pickling
    def __getstate__(self):
        state = super().__getstate__()
        module = state.pop("module_", None)
        if module is not None:
            state["module_config_"] = module.config.to_dict()
            state["module_state_"] = {k: v.detach().cpu() for k, v in module.state_dict().items()}
        return state

    def __setstate__(self, state):
        module_state = state.pop("module_state_", None)
        module_config = state.pop("module_config_", None)
        super().__setstate__(state)
        if module_state is not None:
            from reprocompare.models import transformer_torch  # lazy: torch and transformers

            self.module_ = transformer_torch.rebuild(module_config, module_state)
