"""``type: transformers`` (issue 37, items 1-3), tested without a download.

A tiny BERT (one layer, hidden size 32, a WordPiece vocabulary of 150 pieces learnt from
tests/data/tiny.conll, so that most words split into several subwords) is built with the library
and saved to a folder once per session; it is trained and predicted in process, through
``reprocompare compare`` and through the workflow. Checked: one tag per word whatever the
subwords, long sentences split into windows and joined back, the fold's seed (same seed, same
predictions; another seed, others), pickling, and every bad input ending in one line naming its
key.
"""

from __future__ import annotations

import doctest
import importlib.util
import json
import pickle
import subprocess
import sys

import pytest

from conftest import TEST_DATA, build_once, reprocompare, snakemake
from reprocompare.base.errors import UserError
from reprocompare.corpora.conll import read_conll
from reprocompare.models import build_model, parse_spec, spec_from_mapping

# make test installs the extra; found, not imported (0.7 s in every worker's collection)
pytestmark = pytest.mark.skipif(importlib.util.find_spec("transformers") is None,
                                reason="transformers is not installed")

TINY = TEST_DATA / "tiny.conll"
SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
#: a tiny BERT learns something in a few epochs at a learning rate a real one would not take
TRAINING = "epochs=3,learning_rate=0.002,batch_size=16"


def build_tiny_bert(folder, vocab_size: int = 150, hidden: int = 32, layers: int = 1,
                    positions: int = 128) -> None:
    """Save a randomly initialized BERT and a fast WordPiece tokenizer learnt from tiny.conll
    into ``folder``, as ``save_pretrained`` writes a real model."""
    import transformers
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers

    texts = [" ".join(s.tokens) for s in read_conll(TINY).sentences]
    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.train_from_iterator(texts, trainers.WordPieceTrainer(vocab_size=vocab_size,
                                                                   special_tokens=SPECIAL))
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls), ("[SEP]", sep)])
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
        sep_token="[SEP]", mask_token="[MASK]", model_max_length=positions)
    config = transformers.BertConfig(vocab_size=tokenizer.get_vocab_size(), hidden_size=hidden,
                                     num_hidden_layers=layers, num_attention_heads=2,
                                     intermediate_size=2 * hidden,
                                     max_position_embeddings=positions)
    transformers.utils.logging.disable_progress_bar()
    transformers.BertModel(config).save_pretrained(folder)
    fast.save_pretrained(folder)


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory):
    """The folder of the tiny BERT, built once per session."""
    return build_once(tmp_path_factory, "tiny-bert", build_tiny_bert)


def tagger(folder, extra: str = "", seed: int | None = 0):
    """A transformers tagger on ``folder`` with the test's training settings."""
    spec = f"transformers:model={folder},{TRAINING}" + (f",{extra}" if extra else "")
    return build_model(parse_spec(spec), random_state=seed)


@pytest.fixture(scope="module")
def corpus():
    return read_conll(TINY)


def test_the_declaration_imports_neither_torch_nor_transformers():
    code = ("import sys, reprocompare.models.transformer as t; "
            "from reprocompare.models import tagger_class; tagger_class('transformers'); "
            "assert t.TransformerTagger.uses_gpu; "
            "print(sorted(m for m in ('torch', 'transformers') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_doctests():
    from reprocompare.models import transformer, transformer_torch

    assert doctest.testmod(transformer_torch).failed == 0
    assert doctest.testmod(transformer).failed == 0


@pytest.mark.slow
def test_the_workflow_hashes_the_model_folder(tiny_bert):
    from reprocompare.models import TransformerTagger

    files = TransformerTagger.source_files({"model": str(tiny_bert)})
    assert {f.name for f in files} >= {"config.json", "model.safetensors", "tokenizer.json"}
    assert TransformerTagger.source_files({"model": "some-org/cached-model"}) == []


@pytest.mark.slow
def test_reprocompare_models_lists_transformers_with_its_ranges():
    result = reprocompare("models")
    assert result.returncode == 0, result.stderr
    text = result.stdout.split("transformers  (", 1)[1].split("\n\n", 1)[0]
    assert "capabilities: uses_gpu" in text and "fold's derived seed" in text
    for name in ("model", "epochs", "learning_rate", "batch_size", "warmup_ratio",
                 "weight_decay", "max_length", "device"):
        assert f"  {name} " in text, name


@pytest.mark.slow
def test_a_word_of_several_subwords_gets_one_position_and_long_sentences_are_windowed(
        tiny_bert, corpus):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(tiny_bert), local_files_only=True)
    split = [w for w in corpus.sentences[0].tokens if len(tokenizer.tokenize(w)) > 1]
    assert split, "the tiny vocabulary splits words"
    featurized = tagger(tiny_bert, "max_length=12").featurize(corpus.sentences)
    for sentence, windows in zip(corpus.sentences, featurized.rows):
        # every word has exactly one first subword, in one window; the windows cover the words
        assert sum(len(starts) for _, _, starts in windows) == len(sentence.tokens)
        assert [first for first, _, _ in windows] == sorted({first for first, _, _ in windows})
        assert all(len(ids) <= 12 for _, ids, _ in windows)
        for first, ids, starts in windows:
            assert ids[0] == tokenizer.cls_token_id and ids[-1] == tokenizer.sep_token_id
            assert ids[starts[0]] == tokenizer(sentence.tokens[first:first + 1],
                                               is_split_into_words=True,
                                               add_special_tokens=False)["input_ids"][0]
    assert max(len(windows) for windows in featurized.rows) > 3


@pytest.mark.slow
def test_fit_predict_one_tag_per_word_seeded_and_pickled(tiny_bert, corpus):
    X, y = corpus.sentences, corpus.tags
    # windows of 10 subwords: most sentences of tiny.conll are split and joined back
    first = tagger(tiny_bert, "max_length=10", seed=1)
    featurized = first.featurize(X)
    assert sum(len(windows) > 1 for windows in featurized.rows) > len(X) * 3 // 4
    train, test = featurized.take(range(80)), featurized.take(range(80, 120))
    predicted = first.fit(train, y[:80]).predict(test)
    assert [len(tags) for tags in predicted] == [len(s.tokens) for s in X[80:]]
    assert len(first.labels_) > 3 and first.n_epochs_ == 3
    same = tagger(tiny_bert, "max_length=10", seed=1).fit(train, y[:80]).predict(test)
    other = tagger(tiny_bert, "max_length=10", seed=2).fit(train, y[:80]).predict(test)
    assert same == predicted
    assert other != predicted
    restored = pickle.loads(pickle.dumps(first))
    assert restored.predict(test) == predicted


@pytest.mark.slow
def test_bad_input_ends_in_one_line_naming_the_key(tiny_bert, tmp_path, corpus, monkeypatch):
    from reprocompare.models import transformer_torch

    sentences = corpus.sentences[:2]
    cases = [(tmp_path / "nowhere", "model", "neither a folder with a config.json nor"),
             (tmp_path, "model", "not a folder with a config.json"),
             ("no-such-org/no-such-model", "model", "nothing is downloaded")]
    for model, key, words in cases:
        with pytest.raises(UserError, match=words) as error:
            tagger(model).featurize(sentences)
        assert error.value.key == key and "\n" not in str(error.value)
    with pytest.raises(UserError, match="at most 128") as error:
        tagger(tiny_bert, "max_length=512").featurize(sentences)
    assert error.value.key == "max_length"
    with pytest.raises(UserError, match="must be in \\[8,") as error:
        tagger(tiny_bert, "max_length=7")
    assert error.value.key == "max_length"

    # refused when the spec is read (config validation), before any job runs: no folder, no
    # config.json, no tokenizer, a hub name not in the cache
    for model, words in [(tmp_path / "nowhere", "neither a folder with a config.json nor"),
                         (tmp_path, "not a folder with a config.json"),
                         ("no-such-org/no-such-model", "hf download no-such-org/no-such-model")]:
        with pytest.raises(UserError, match=words) as error:
            parse_spec(f"transformers:model={model}")
        assert error.value.key == "model" and "\n" not in str(error.value)
    bare = tmp_path / "no-tokenizer"
    bare.mkdir()
    (bare / "config.json").write_text((tiny_bert / "config.json").read_text())
    with pytest.raises(UserError, match="holds no tokenizer") as error:
        spec_from_mapping("bert", {"type": "transformers", "model": str(bare)})
    assert error.value.key == "models.bert.model"
    parse_spec(f"transformers:model={tiny_bert}")  # a saved model passes

    class Slow:  # what a tokenizer without a Rust backend (no word_ids, no offsets) says
        is_fast = False

    monkeypatch.setattr(transformer_torch.transformers.AutoTokenizer, "from_pretrained",
                        lambda *args, **kwargs: Slow())
    with pytest.raises(UserError, match="slow one") as error:
        tagger(tiny_bert).featurize(sentences)
    assert error.value.key == "model"
    monkeypatch.setattr(transformer_torch, "transformers", None)
    with pytest.raises(UserError, match=r"pip install reprocompare\[transformers\]"):
        tagger(tiny_bert).featurize(sentences)


@pytest.mark.slow
def test_compare_trains_and_predicts_it_against_a_crf(tiny_bert, tmp_path):
    out = tmp_path / "run"
    result = reprocompare("compare", str(TINY), "--strategy", "holdout", "--a",
                          "crf:max_iterations=15", "--b",
                          f"transformers:model={tiny_bert},{TRAINING},max_length=16",
                          "--out", str(out))
    assert result.returncode == 0, result.stderr[-3000:]
    scores = json.loads((out / "scores.json").read_text())
    assert 0 < scores["folds"][0]["B"]["f1"] < 1
    gold = [line.split() for line in (out / "fold0" / "B.conll").read_text().splitlines()]
    assert len([g for g in gold if g]) == len([g for g in (out / "fold0" / "A.conll")
                                               .read_text().splitlines() if g.strip()])
    bad = reprocompare("compare", str(TINY), "--strategy", "holdout", "--a", "crf", "--b",
                       f"transformers:model={tmp_path / 'nowhere'}", "--out",
                       str(tmp_path / "bad"))
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
    assert "model" in bad.stderr and "config.json" in bad.stderr
    assert not (tmp_path / "bad").exists()


@pytest.mark.slow
def test_the_workflow_trains_it_against_a_crf_with_seeds_as_a_source(tiny_bert, tmp_path):
    config = {
        "corpora": {"tiny": {"path": str(TINY)}},
        "models": {"crf": {"type": "crf", "max_iterations": 15},
                   "bert": {"type": "transformers", "model": str(tiny_bert), "epochs": 3,
                            "learning_rate": 0.002, "batch_size": 16, "max_length": 16}},
        "comparisons": {"p": {"a": "crf", "b": "bert", "corpora": ["tiny"]}},
        "strategies": {"holdout": {}},
        "variation": {"seeds": 2},
        "repetitions": 2,
        "keep_predictions": True,
        "seed": 5,
    }
    snakemake(tmp_path, "results/summaries/tiny/p.json", config=config)
    runs = tmp_path / "results" / "compare" / "tiny" / "p" / "holdout"
    splits = [json.loads((runs / f"rep{r}" / "split.json").read_text()) for r in range(2)]
    assert splits[0]["folds"] == splits[1]["folds"]  # one split, two training seeds
    tags = [(runs / f"rep{r}" / "fold0" / "B.conll").read_text() for r in range(2)]
    crf = [(runs / f"rep{r}" / "fold0" / "A.conll").read_text() for r in range(2)]
    assert crf[0] == crf[1]  # the CRF takes no seed
    assert tags[0] != tags[1]  # the transformer does
