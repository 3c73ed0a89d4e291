"""The torch half of the transformer tagger: loading offline, windows, fine-tuning, prediction.

:mod:`reprocompare.models.transformer` declares the tagger without importing torch or
transformers; its ``featurize``, ``fit``, ``predict`` and unpickling import this module. The
Hugging Face libraries run offline (``HF_HUB_OFFLINE``, ``local_files_only``): a model is a
local folder or already cached, and nothing is ever downloaded.
"""

from __future__ import annotations

import os

# before huggingface_hub is imported: it reads the variable once
os.environ["HF_HUB_OFFLINE"] = "1"

from contextlib import nullcontext  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402
from sklearn.utils import check_random_state  # noqa: E402

from reprocompare.base.errors import UserError  # noqa: E402
from reprocompare.corpora.conll import Sentence  # noqa: E402
from reprocompare.models.base import Featurized  # noqa: E402
from reprocompare.models.bilstm_torch import deterministic, threads, torch_device  # noqa: E402
from reprocompare.models.transformer import (FEATURE_VERSION, MIN_LENGTH,  # noqa: E402
                                             MISSING, TransformerTagger)

try:
    import transformers  # noqa: E402
except ImportError:  # pragma: no cover - the extra is installed by make test
    transformers = None

#: windows per batch when predicting
PREDICT_BATCH = 64


def library():
    """The transformers module, quiet (no progress bars, no load reports); a one-line UserError
    naming the optional dependency when it is not installed.

    Returns
    -------
    module
        ``transformers``.
    """
    if transformers is None:
        raise UserError(MISSING, key="type")
    transformers.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()
    return transformers


def load_config(name: str):
    """The model's configuration, from a folder with a ``config.json`` or the Hugging Face cache
    (never downloaded); UserError naming ``model`` otherwise.

    Parameters
    ----------
    name : str
        The tagger's ``model``.

    Returns
    -------
    transformers.PretrainedConfig
        Its configuration.
    """
    lib = library()
    folder = Path(name).expanduser()
    if folder.exists():
        if not (folder / "config.json").is_file():
            raise UserError(f"{name!r} is not a folder with a config.json (a saved Hugging Face "
                            "model)", key="model")
        name = str(folder)
    try:
        return lib.AutoConfig.from_pretrained(name, local_files_only=True)
    except (OSError, ValueError) as error:
        if folder.exists():
            raise UserError(f"{name!r}: its config.json cannot be read: "
                            f"{str(error).splitlines()[0]}", key="model") from None
        raise UserError(f"{name!r} is neither a folder with a config.json nor a model in the "
                        "Hugging Face cache (nothing is downloaded: fetch it first, e.g. "
                        f"`hf download {name}`)", key="model") from None


def load_tokenizer(name: str):
    """The model's fast tokenizer (offline); UserError naming ``model`` when there is none or it
    is a slow one, which gives no word alignment.

    Parameters
    ----------
    name : str
        The tagger's ``model``.

    Returns
    -------
    transformers.PreTrainedTokenizerBase
        The tokenizer.
    """
    lib = library()
    try:
        tokenizer = lib.AutoTokenizer.from_pretrained(name, local_files_only=True)
    except (OSError, ValueError, TypeError) as error:
        raise UserError(f"{name!r}: no tokenizer can be loaded from it: "
                        f"{str(error).splitlines()[0] if str(error) else type(error).__name__}",
                        key="model") from None
    if not getattr(tokenizer, "is_fast", False):
        raise UserError(f"{name!r}: its tokenizer ({type(tokenizer).__name__}) is a slow one, "
                        "without offsets to align words to subwords; save a fast tokenizer "
                        "(tokenizer.json) with the model", key="model")
    if tokenizer.unk_token is None:
        raise UserError(f"{name!r}: its tokenizer has no unknown token", key="model")
    return tokenizer


def position_limit(config, tokenizer) -> int | None:
    """The most subwords the model reads at once: its position embeddings, or the tokenizer's
    ``model_max_length`` when that is smaller (RoBERTa keeps 2 of its 514 positions for padding).

    Parameters
    ----------
    config : transformers.PretrainedConfig
        The model's configuration.
    tokenizer : transformers.PreTrainedTokenizerBase
        Its tokenizer.

    Returns
    -------
    int or None
        The limit; None when neither says.
    """
    limits = [getattr(config, "max_position_embeddings", None),
              getattr(tokenizer, "model_max_length", None)]
    limits = [int(v) for v in limits if isinstance(v, int) and 0 < v < 10**7]
    return min(limits) if limits else None


def special_tokens(tokenizer) -> tuple[list[int], list[int]]:
    """The ids the tokenizer puts before and after a sequence (``[CLS]`` and ``[SEP]``, ``<s>``
    and ``</s>``), read from how it encodes one word.

    Parameters
    ----------
    tokenizer : transformers.PreTrainedTokenizerBase
        A fast tokenizer.

    Returns
    -------
    (list of int, list of int)
        The prefix and the suffix.
    """
    encoding = tokenizer([tokenizer.unk_token], is_split_into_words=True)
    ids, words = encoding["input_ids"], encoding.word_ids()
    inside = [k for k, w in enumerate(words) if w is not None]
    return list(ids[:inside[0]]), list(ids[inside[-1] + 1:])


def word_pieces(tokenizer, sentences: list[Sentence]) -> list[list[list[int]]]:
    """The subword ids of every word of every sentence; a word the tokenizer drops entirely
    (a control character) becomes the unknown token, so that every word has a first subword.

    Parameters
    ----------
    tokenizer : transformers.PreTrainedTokenizerBase
        A fast tokenizer.
    sentences : list of Sentence
        The sentences.

    Returns
    -------
    list of list of list of int
        Per sentence, per word, its subword ids.
    """
    pieces: list[list[list[int]]] = []
    batch = [list(s.tokens) for s in sentences if s.tokens]
    encoded = tokenizer(batch, is_split_into_words=True, add_special_tokens=False) if batch \
        else None
    k = 0
    for s in sentences:
        words: list[list[int]] = [[] for _ in s.tokens]
        if s.tokens:
            for piece, word in zip(encoded["input_ids"][k], encoded.word_ids(k)):
                if word is not None:
                    words[word].append(piece)
            k += 1
        pieces.append([w or [tokenizer.unk_token_id] for w in words])
    return pieces


def windows(words: list[list[int]], budget: int) -> list[tuple[int, list[int], list[int]]]:
    """A sentence's words cut, between words, into windows of at most ``budget`` subwords.

    A word longer than ``budget`` on its own fills one window with its first ``budget``
    subwords (the first, which its tag is read from, included).

    Parameters
    ----------
    words : list of list of int
        The subword ids of each word.
    budget : int
        The most subwords a window holds (``max_length`` less the special tokens).

    Returns
    -------
    list of (int, list of int, list of int)
        Per window: its first word, its subword ids and the position of each of its words'
        first subword in them.

    Examples
    --------
    >>> windows([[1], [2, 3], [4], [5, 6, 7]], budget=3)
    [(0, [1, 2, 3], [0, 1]), (2, [4], [0]), (3, [5, 6, 7], [0])]
    """
    out: list[tuple[int, list[int], list[int]]] = []
    first, ids, starts = 0, [], []
    for w, pieces in enumerate(words):
        pieces = pieces[:budget]
        if ids and len(ids) + len(pieces) > budget:
            out.append((first, ids, starts))
            first, ids, starts = w, [], []
        starts.append(len(ids))
        ids = ids + pieces
    if ids:
        out.append((first, ids, starts))
    return out


def featurize(tagger: TransformerTagger, sentences: list[Sentence]) -> Featurized:
    """Every sentence tokenized once and cut into windows of at most ``max_length`` subwords,
    special tokens included; the model's folder or cache name, its tokenizer and ``max_length``
    checked here, each failure one line naming its key.

    Parameters
    ----------
    tagger : TransformerTagger
        The tagger (``model`` and ``max_length``).
    sentences : list of Sentence
        The sentences.

    Returns
    -------
    Featurized
        Rows: per sentence, a list of windows ``(first word, input ids, first-subword
        positions)`` as int64 arrays, the positions counting the prefix's special tokens.
    """
    config = load_config(tagger.model)
    tokenizer = load_tokenizer(tagger.model)
    limit = position_limit(config, tokenizer)
    if limit is not None and tagger.max_length > limit:
        raise UserError(f"must be at most {limit}, the positions {tagger.model!r} reads, got "
                        f"{tagger.max_length}", key="max_length")
    prefix, suffix = special_tokens(tokenizer)
    budget = tagger.max_length - len(prefix) - len(suffix)
    if tagger.max_length < MIN_LENGTH or budget < 1:
        raise UserError(f"must be at least {max(MIN_LENGTH, len(prefix) + len(suffix) + 1)}, "
                        f"got {tagger.max_length}", key="max_length")
    rows = []
    for words in word_pieces(tokenizer, sentences):
        rows.append([(first, np.array(prefix + ids + suffix, dtype=np.int64),
                      np.array(starts, dtype=np.int64) + len(prefix))
                     for first, ids, starts in windows(words, budget)])
    pad = tokenizer.pad_token_id
    return Featurized(("transformers", FEATURE_VERSION, tagger.model, tagger.max_length), rows,
                      {"pad": 0 if pad is None else int(pad)})


def _batch(items: list[tuple[np.ndarray, np.ndarray]], pad: int,
           device: torch.device) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    width = max(len(ids) for ids, _ in items)
    input_ids = np.full((len(items), width), pad, dtype=np.int64)
    mask = np.zeros((len(items), width), dtype=np.int64)
    target = np.full((len(items), width), -100, dtype=np.int64)
    for b, (ids, labels) in enumerate(items):
        input_ids[b, :len(ids)] = ids
        mask[b, :len(ids)] = 1
        target[b, :len(labels)] = labels
    return (torch.from_numpy(input_ids).to(device), torch.from_numpy(mask).to(device),
            torch.from_numpy(target).to(device))


def precision(device: torch.device):
    """Mixed precision on a GPU (bfloat16 where it has it, else float16), none on the CPU.

    Parameters
    ----------
    device : torch.device
        The device trained on.

    Returns
    -------
    (context manager factory, torch.amp.GradScaler or None)
        What the forward pass runs in, and the loss scaler float16 needs.
    """
    if device.type != "cuda":
        return nullcontext, None
    dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    scaler = torch.amp.GradScaler("cuda") if dtype is torch.float16 else None
    return (lambda: torch.autocast("cuda", dtype=dtype)), scaler


def fit(tagger: TransformerTagger, featurized: Featurized, y: list[list[str]]) -> None:
    """Fine-tune the tagger's model on the windows of ``featurized``: labels on each word's
    first subword, AdamW, a linear warmup and decay, seeded from ``random_state``.

    Parameters
    ----------
    tagger : TransformerTagger
        The tagger.
    featurized : Featurized
        The training rows (:func:`featurize`).
    y : list of list of str
        Their tags, in the model's scheme.
    """
    lib = library()
    device = torch_device(tagger)
    seed = int(check_random_state(tagger.random_state).randint(0, 2**31 - 1))
    tagger.labels_ = sorted({tag for tags in y for tag in tags})
    index = {tag: t for t, tag in enumerate(tagger.labels_)}
    items = []
    for row, tags in zip(featurized.rows, y):
        for first, ids, starts in row:
            labels = np.full(len(ids), -100, dtype=np.int64)
            labels[starts] = [index[tag] for tag in tags[first:first + len(starts)]]
            items.append((ids, labels))
    pad = featurized.shared["pad"]
    autocast, scaler = precision(device)
    with deterministic(seed, device), threads(tagger.num_threads):
        module = lib.AutoModelForTokenClassification.from_pretrained(
            str(Path(tagger.model).expanduser()) if Path(tagger.model).expanduser().exists()
            else tagger.model, local_files_only=True, num_labels=len(tagger.labels_),
            id2label=dict(enumerate(tagger.labels_)), label2id=index,
            ignore_mismatched_sizes=True).to(device)
        tagger.module_ = module
        no_decay = [p for n, p in module.named_parameters() if n.endswith("bias") or "norm" in
                    n.lower()]
        decay = [p for n, p in module.named_parameters() if not (n.endswith("bias") or "norm" in
                                                                 n.lower())]
        optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": tagger.weight_decay},
                                       {"params": no_decay, "weight_decay": 0.0}],
                                      lr=tagger.learning_rate)
        steps = tagger.epochs * -(-len(items) // tagger.batch_size)
        schedule = lib.get_linear_schedule_with_warmup(
            optimizer, int(tagger.warmup_ratio * steps), max(1, steps))
        generator = torch.Generator().manual_seed(seed)
        module.train()
        tagger.n_epochs_ = 0
        for epoch in range(1, tagger.epochs + 1):
            order = torch.randperm(len(items), generator=generator).tolist()
            for start in range(0, len(order), tagger.batch_size):
                input_ids, mask, target = _batch([items[k] for k in
                                                  order[start:start + tagger.batch_size]],
                                                 pad, device)
                optimizer.zero_grad()
                with autocast():
                    loss = module(input_ids=input_ids, attention_mask=mask, labels=target).loss
                if scaler is not None:
                    scaler.scale(loss).backward()
                    scaler.unscale_(optimizer)
                    torch.nn.utils.clip_grad_norm_(module.parameters(), 1.0)
                    scaler.step(optimizer)
                    scaler.update()
                else:
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(module.parameters(), 1.0)
                    optimizer.step()
                schedule.step()
            tagger.n_epochs_ = epoch
    module.eval()


def predict(tagger: TransformerTagger, featurized: Featurized) -> list[list[str]]:
    """The fitted tagger's tags of the rows of ``featurized``: each window tagged on its own,
    each word's tag read from its first subword, the windows of a sentence joined back.

    Parameters
    ----------
    tagger : TransformerTagger
        The fitted tagger.
    featurized : Featurized
        The rows (:func:`featurize`).

    Returns
    -------
    list of list of str
        One tag per word of every sentence.
    """
    module = tagger.module_
    device = next(module.parameters()).device
    autocast, _ = precision(device)
    items = [(r, first, ids, starts) for r, row in enumerate(featurized.rows)
             for first, ids, starts in row]
    items.sort(key=lambda item: len(item[2]))  # similar lengths together: little padding
    n_words = [sum(len(starts) for _, _, starts in row) for row in featurized.rows]
    predicted = [[""] * n for n in n_words]
    pad = featurized.shared["pad"]
    labels = tagger.labels_
    module.eval()
    with torch.no_grad(), threads(getattr(tagger, "num_threads", 0)):
        for start in range(0, len(items), PREDICT_BATCH):
            group = items[start:start + PREDICT_BATCH]
            input_ids, mask, _ = _batch([(ids, np.zeros(0, dtype=np.int64))
                                         for _, _, ids, _ in group], pad, device)
            with autocast():
                best = module(input_ids=input_ids, attention_mask=mask).logits.argmax(-1)
            best = best.cpu().numpy()
            for b, (r, first, _, starts) in enumerate(group):
                predicted[r][first:first + len(starts)] = [labels[t] for t in best[b, starts]]
    return predicted


def rebuild(config: dict, state: dict):
    """A fitted model from its pickled configuration and weights (on the CPU, in evaluation
    mode).

    Parameters
    ----------
    config : dict
        ``module.config.to_dict()``.
    state : dict
        ``module.state_dict()``, on the CPU.

    Returns
    -------
    transformers.PreTrainedModel
        The model.
    """
    lib = library()
    config = dict(config)
    module = lib.AutoModelForTokenClassification.from_config(
        lib.AutoConfig.for_model(config.pop("model_type"), **config))
    module.load_state_dict(state)
    module.eval()
    return module
