"""The torch half of the BiLSTM tagger: the network, its training loop and prediction.

:mod:`reprocompare.models.bilstm` declares the tagger (its parameters, capabilities and
featurization) without importing torch, so that reading a spec, a config or the workflow's GPU
requests never pays for torch (seconds of start-up, hundreds of MB); its ``fit``, ``predict`` and
unpickling import this module.
"""

from __future__ import annotations

import copy
import math
from contextlib import contextmanager

import numpy as np
import torch
from sklearn.utils import check_random_state
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from reprocompare.base.errors import UserError
from reprocompare.corpora.scoring import count_chunks
from reprocompare.models.base import Featurized
from reprocompare.models.bilstm import PAD, UNK, BiLSTMTagger, IdTables, vocabulary
from reprocompare.models.devices import cuda_devices


class Network(nn.Module):
    """The BiLSTM's network: word, feature-column and character embeddings (a character CNN or
    BiLSTM), a bidirectional LSTM and a linear layer to the tags' scores.

    Parameters
    ----------
    n_words, n_chars : int
        Sizes of the word and character vocabularies.
    column_sizes : list of int
        Vocabulary size of each feature column.
    n_tags : int
        Number of tags.
    word_dim, feature_dim, char_dim : int
        Embedding sizes (0: no feature or character embedding).
    char_model : str
        The character model, 'cnn' or 'lstm'.
    char_hidden : int
        Width of the character model.
    hidden_size : int
        Width of the LSTM, each direction.
    num_layers : int
        LSTM layers.
    dropout : float
        Dropout rate.
    """
    def __init__(self, n_words: int, n_chars: int, column_sizes: list[int], n_tags: int, *,
                 word_dim: int, feature_dim: int, char_dim: int, char_model: str,
                 char_hidden: int, hidden_size: int, num_layers: int, dropout: float):
        super().__init__()
        self.words = nn.Embedding(n_words, word_dim, padding_idx=PAD)
        width = word_dim
        self.columns = nn.ModuleList()
        if feature_dim:
            for size in column_sizes:
                self.columns.append(nn.Embedding(size, feature_dim, padding_idx=PAD))
                width += feature_dim
        self.char_model = char_model if char_dim else None
        if char_dim:
            self.chars = nn.Embedding(n_chars, char_dim, padding_idx=PAD)
            if char_model == "cnn":
                self.char_encoder = nn.Conv1d(char_dim, char_hidden, kernel_size=3, padding=1)
                width += char_hidden
            else:
                self.char_encoder = nn.LSTM(char_dim, char_hidden, batch_first=True,
                                            bidirectional=True)
                width += 2 * char_hidden
        self.dropout = nn.Dropout(dropout)
        self.lstm = nn.LSTM(width, hidden_size, num_layers=num_layers, batch_first=True,
                            bidirectional=True, dropout=dropout if num_layers > 1 else 0.0)
        self.output = nn.Linear(2 * hidden_size, n_tags)

    def _char_features(self, chars: torch.Tensor) -> torch.Tensor:
        batch, length, width = chars.shape
        flat = chars.reshape(batch * length, width)
        embedded = self.chars(flat)  # (B*T, L, char_dim)
        if self.char_model == "cnn":
            hidden = self.char_encoder(embedded.transpose(1, 2))  # (B*T, H, L)
            hidden = hidden.masked_fill((flat == PAD).unsqueeze(1), float("-inf"))
            pooled = hidden.max(dim=2).values
            # padding tokens have no characters at all: -inf everywhere, zero them
            pooled = torch.where(torch.isfinite(pooled), pooled, torch.zeros_like(pooled))
        else:
            lengths = (flat != PAD).sum(dim=1)
            pooled = torch.zeros(flat.shape[0], 2 * self.char_encoder.hidden_size,
                                 device=chars.device)
            present = lengths > 0
            if present.any():
                packed = pack_padded_sequence(embedded[present], lengths[present].cpu(),
                                              batch_first=True, enforce_sorted=False)
                _, (h, _) = self.char_encoder(packed)
                pooled[present] = torch.cat([h[0], h[1]], dim=1)
        return pooled.reshape(batch, length, -1)

    def forward(self, words, columns, chars, lengths):
        parts = [self.words(words)]
        for j, embedding in enumerate(self.columns):
            parts.append(embedding(columns[:, j]))
        if self.char_model is not None:
            parts.append(self._char_features(chars))
        x = self.dropout(torch.cat(parts, dim=-1))
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        out, _ = self.lstm(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=words.shape[1])
        return self.output(self.dropout(out))


@contextmanager
def threads(count: int):
    """Run with ``count`` torch intra-op threads (0: leave torch's setting), then restore it.

    Parameters
    ----------
    count : int
        The thread count.

    Yields
    ------
    None
    """
    before = torch.get_num_threads()
    if count:
        torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(before)


@contextmanager
def deterministic(seed: int, device: torch.device):
    """Seed torch's global RNG (init, dropout) inside a fork, and ask for deterministic kernels.

    Forking leaves the caller's RNG state as it was, and the deterministic flag is restored:
    fitting a model has no global side effect.

    Parameters
    ----------
    seed : int
        The training seed.
    device : torch.device
        The device trained on.

    Yields
    ------
    None
    """
    was_deterministic = torch.are_deterministic_algorithms_enabled()
    was_warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
    # an empty device list forks the CPU generator only (and never initializes CUDA)
    devices = [device.index or 0] if device.type == "cuda" else []
    with torch.random.fork_rng(devices=devices, device_type="cuda"):
        torch.manual_seed(seed)
        # warn_only: a CUDA kernel without a deterministic version warns instead of failing
        torch.use_deterministic_algorithms(True, warn_only=True)
        try:
            yield
        finally:
            torch.use_deterministic_algorithms(was_deterministic, warn_only=was_warn_only)


def torch_device(tagger: BiLSTMTagger) -> torch.device:
    """The tagger's device; "cuda" without a CUDA device is an error, not a silent fallback.

    Parameters
    ----------
    tagger : BiLSTMTagger
        The tagger (its hyperparameters and, once fitted, its vocabularies).

    Returns
    -------
    torch.device
        The device.
    """
    if tagger.device == "cuda":
        if not cuda_devices():
            raise UserError("CUDA was asked for, but torch sees no CUDA device (CPU-only build "
                            "or no GPU); use device=cpu", key="device")
        return torch.device("cuda")
    return torch.device("cpu")


def make_batches(tagger: BiLSTMTagger, encoded: list[tuple], order: np.ndarray, size: int,
                 device: torch.device, tags: list[np.ndarray] | None = None) -> list[tuple]:
    """Padded tensors for groups of ``size`` rows taken in ``order``.

    Parameters
    ----------
    tagger : BiLSTMTagger
        The tagger (its hyperparameters and, once fitted, its vocabularies).
    encoded : list of tuple
        The rows as model ids.
    order : numpy.ndarray
        The rows' order.
    size : int
        Rows per batch.
    device : torch.device
        Where the tensors go.
    tags : list of numpy.ndarray, optional
        The rows' tag ids, when training.

    Returns
    -------
    list of tuple
        One batch of padded tensors per group.
    """
    use_chars = bool(tagger.char_dim)
    batches = []
    for start in range(0, len(order), size):
        members = order[start:start + size]
        lengths = np.array([len(encoded[k][0]) for k in members], dtype=np.int64)
        width = int(lengths.max())
        n_columns = encoded[members[0]][2].shape[0]
        words = np.zeros((len(members), width), dtype=np.int64)
        columns = np.zeros((len(members), n_columns, width), dtype=np.int64)
        char_width = max(encoded[k][1].shape[1] for k in members) if use_chars else 1
        chars = np.zeros((len(members), width, char_width), dtype=np.int64)
        gold = np.full((len(members), width), -100, dtype=np.int64)
        for b, k in enumerate(members):
            w, c, cols = encoded[k]
            words[b, :len(w)] = w
            columns[b, :, :len(w)] = cols
            if use_chars:
                chars[b, :len(w), :c.shape[1]] = c
            if tags is not None:
                gold[b, :len(w)] = tags[k]
        batches.append((members, torch.from_numpy(words).to(device),
                        torch.from_numpy(columns).to(device),
                        torch.from_numpy(chars).to(device) if use_chars else None,
                        torch.from_numpy(lengths),
                        torch.from_numpy(gold).to(device) if tags is not None else None))
    return batches


def tag_rows(tagger: BiLSTMTagger, encoded: list[tuple], device: torch.device) -> list[list[str]]:
    """The network's best tags of the rows ``encoded``, in their order, in evaluation mode (the
    module's mode restored).

    Parameters
    ----------
    tagger : BiLSTMTagger
        The tagger (its hyperparameters and, once fitted, its vocabularies).
    encoded : list of tuple
        The rows as model ids.
    device : torch.device
        Where the network runs.

    Returns
    -------
    list of list of str
        One tag sequence per row.
    """
    module = tagger.module_
    was_training = module.training
    module.eval()
    order = np.argsort([len(row[0]) for row in encoded], kind="stable")
    order = order[[len(encoded[k][0]) > 0 for k in order]]
    predicted: list[list[str]] = [[] for _ in encoded]
    labels = tagger.labels_
    with torch.no_grad():
        for members, words, columns, chars, lengths, _ in make_batches(tagger, encoded, order,
                                                                       256, device):
            best = module(words, columns, chars, lengths).argmax(dim=-1).cpu().numpy()
            for b, k in enumerate(members):
                predicted[k] = [labels[t] for t in best[b, :lengths[b]]]
    module.train(was_training)
    return predicted


def fit(tagger: BiLSTMTagger, featurized: Featurized, y: list[list[str]], eval_set=None) -> None:
    """Train the tagger's network on the rows of ``featurized``: vocabularies from the training
    rows, Adam, early stopping on a held-out share of the rows (``validation_fraction``, the best
    epoch kept); ``eval_set`` only records the learning curve.

    Parameters
    ----------
    tagger : BiLSTMTagger
        The tagger (its hyperparameters and, once fitted, its vocabularies).
    featurized : Featurized
        The training rows.
    y : list of list of str
        Their tags.
    eval_set : tuple, optional
        (featurized rows, tags) on which the learning curve is recorded.
    """
    device = torch_device(tagger)
    rng = check_random_state(tagger.random_state)
    seed = int(rng.randint(0, 2**31 - 1))
    n = len(featurized)
    held = np.zeros(0, dtype=np.int64)
    if tagger.validation_fraction > 0:
        n_held = min(n - 1, max(1, math.ceil(tagger.validation_fraction * n)))
        held = np.sort(rng.permutation(n)[:n_held]) if n_held > 0 else held
    in_training = np.ones(n, dtype=bool)
    in_training[held] = False
    train_index = np.flatnonzero(in_training)
    tagger.validation_index_ = held

    # Vocabulary from the training rows only (not the held-back ones).
    tables: IdTables = featurized.shared
    train_rows = [featurized.rows[k] for k in train_index]
    seen_words, word_counts = vocabulary(train_rows, len(tables.words), field=0)
    seen_chars, _ = vocabulary(train_rows, len(tables.chars), field=1)
    seen_chars = seen_chars[seen_chars != PAD]
    column_vocabs = [vocabulary(train_rows, len(values), field=2, column=j)[0]
                     for j, values in enumerate(tables.columns)]
    # Sorted strings, not corpus ids, fix the model ids: the same training sentences give the
    # same model whether they were featurized alone or as rows of a larger corpus.
    word_order = sorted(range(len(seen_words)), key=lambda k: tables.words[seen_words[k]])
    tagger._set_vocabulary([tables.words[seen_words[k]] for k in word_order],
                         sorted(tables.chars[i] for i in seen_chars),
                         [sorted(values[i] for i in seen) for values, seen in
                          zip(tables.columns, column_vocabs)])
    singleton = np.zeros(len(tagger.words_) + 2, dtype=bool)
    singleton[2:] = word_counts[word_order] == 1
    singleton = torch.from_numpy(singleton).to(device)

    tagger.labels_ = sorted({tag for tags in (y[k] for k in train_index) for tag in tags})
    label_index = {tag: t for t, tag in enumerate(tagger.labels_)}
    gold = [np.array([label_index.get(tag, -100) for tag in tags], dtype=np.int64)
            for tags in y]
    encoded = tagger._encode(featurized)

    eval_encoded = eval_gold = None
    if eval_set is not None:
        eval_X, eval_y = eval_set
        eval_encoded = tagger._encode(tagger._featurized(eval_X))
        eval_gold = [list(tags) for tags in eval_y]
        if len(eval_gold) != len(eval_encoded):
            raise ValueError(f"eval_set: {len(eval_encoded)} sentences but {len(eval_gold)} "
                             "tag sequences")
    held_gold = [y[k] for k in held]
    held_encoded = [encoded[k] for k in held]

    tagger.module_config_ = dict(
        n_words=len(tagger.words_) + 2, n_chars=len(tagger.chars_) + 2,
        column_sizes=[len(c) + 2 for c in tagger.column_values_], n_tags=len(tagger.labels_),
        word_dim=tagger.word_dim, feature_dim=tagger.feature_dim, char_dim=tagger.char_dim,
        char_model=tagger.char_model, char_hidden=tagger.char_hidden,
        hidden_size=tagger.hidden_size, num_layers=tagger.num_layers, dropout=tagger.dropout)
    tagger.learning_curve_ = []
    tagger.validation_curve_ = []
    with deterministic(seed, device), threads(tagger.num_threads):
        module = tagger.module_ = Network(**tagger.module_config_).to(device)
        optimizer = torch.optim.Adam(module.parameters(), lr=tagger.learning_rate)
        generator = torch.Generator().manual_seed(seed)
        # Batch composition is fixed (similar lengths together, ties in random order); only
        # the batch order is reshuffled each epoch, so tensors are padded once, not per epoch.
        trainable = train_index[[len(encoded[k][0]) > 0 for k in train_index]]
        shuffled = trainable[torch.randperm(len(trainable), generator=generator).numpy()]
        by_length = shuffled[np.argsort([len(encoded[k][0]) for k in shuffled],
                                        kind="stable")]
        batches = make_batches(tagger, encoded, by_length, tagger.batch_size, device, gold)
        loss_function = nn.CrossEntropyLoss(ignore_index=-100)
        best_f1, best_state, since_best = -1.0, None, 0
        tagger.best_epoch_ = tagger.n_epochs_ = 0
        for epoch in range(1, tagger.epochs + 1):
            module.train()
            for b in torch.randperm(len(batches), generator=generator).tolist():
                _, words, columns, chars, lengths, target = batches[b]
                if tagger.word_dropout > 0:
                    drop = singleton[words] & (torch.rand(words.shape, generator=generator)
                                               .to(device) < tagger.word_dropout)
                    words = words.masked_fill(drop, UNK)
                optimizer.zero_grad()
                scores = module(words, columns, chars, lengths)
                loss = loss_function(scores.reshape(-1, scores.shape[-1]), target.reshape(-1))
                loss.backward()
                nn.utils.clip_grad_norm_(module.parameters(), 5.0)
                optimizer.step()
            tagger.n_epochs_ = epoch
            last = epoch == tagger.epochs
            if held_encoded:
                f1 = count_chunks(held_gold, tag_rows(tagger, held_encoded, device)).f1()
                tagger.validation_curve_.append((epoch, f1))
                if f1 > best_f1:
                    best_f1, since_best, tagger.best_epoch_ = f1, 0, epoch
                    best_state = copy.deepcopy(module.state_dict())
                else:
                    since_best += 1
                    # patience counts once a chunk was found: a network whose development F1
                    # is still 0 has not started to learn (a small NER sample takes epochs)
                    last = last or (best_f1 > 0 and since_best >= tagger.patience)
            else:
                tagger.best_epoch_ = epoch
            if eval_encoded is not None and (epoch % tagger.record_every == 0 or last):
                predicted = tagger._to_corpus_scheme(tag_rows(tagger, eval_encoded, device))
                tagger.learning_curve_.append((epoch, count_chunks(eval_gold, predicted).f1()))
            if last:
                break
        if best_state is not None:
            module.load_state_dict(best_state)
    module.eval()


def predict(tagger: BiLSTMTagger, featurized: Featurized) -> list[list[str]]:
    """The fitted tagger's tags of the rows of ``featurized``.

    Parameters
    ----------
    tagger : BiLSTMTagger
        The tagger (its hyperparameters and, once fitted, its vocabularies).
    featurized : Featurized
        The rows.

    Returns
    -------
    list of list of str
        One tag sequence per row.
    """
    device = next(tagger.module_.parameters()).device
    with threads(getattr(tagger, "num_threads", 0)):
        return tag_rows(tagger, tagger._encode(featurized), device)
