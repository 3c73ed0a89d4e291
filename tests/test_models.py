"""Tests of models/: scheme round trips, determinism, featurize-once, pickling, specs, baseline.

Corpora are cut from CoNLL-2000's training file (a few dozen sentences) and models are trained for a
few iterations or epochs: these tests check behaviour, not accuracy (benchmarks/bench_models.py
measures that).
"""

from __future__ import annotations

import pickle
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from reprocompare.base.errors import UserError
from reprocompare.models.devices import cuda_devices, driver_present
from reprocompare.corpora.conll import Sentence, read_conll
from reprocompare.corpora.schemes import convert, first_violation
from reprocompare.models import (BiLSTMTagger, CRFTagger, Featurized, MajorityTagger, ModelSpec, build_model,
                    parse_spec, spec_from_mapping)
from reprocompare.models.bilstm import UNK, featurize_ids, remap_array, vocabulary

TRAIN = Path(__file__).resolve().parent.parent / "data" / "conll2000" / "train.txt.gz"


@pytest.fixture(scope="module")
def corpus():
    return read_conll(TRAIN)


@pytest.fixture(scope="module")
def train(corpus):
    sentences = corpus.sentences[:60]
    return list(sentences), [list(s.tags) for s in sentences]


@pytest.fixture(scope="module")
def test(corpus):
    sentences = corpus.sentences[60:100]
    return list(sentences), [list(s.tags) for s in sentences]


def small_crf(**kwargs):
    return CRFTagger(max_iterations=15, **kwargs)


def small_bilstm(**kwargs):
    # every training row trains (validation_fraction 0): these tests read the last epoch
    settings = dict(word_dim=8, feature_dim=4, hidden_size=8, epochs=2, batch_size=8,
                    validation_fraction=0.0, random_state=7)
    settings.update(kwargs)
    return BiLSTMTagger(**settings)


def sentence(*tokens, pos=None):
    features = () if pos is None else (tuple(pos),)
    return Sentence(tuple(tokens), ("O",) * len(tokens), features, 0, 1)


# --------------------------------------------------------------------------- schemes


@pytest.mark.slow
def test_crf_trained_with_iobes_answers_in_well_formed_iob2(train, test):
    X, y = train
    assert all(first_violation(tags, "IOB2") is None for tags in y)
    model = small_crf(scheme="IOBES").fit(X, y)
    assert model.corpus_scheme_ == "IOB2"
    # it really was trained on IOBES tags ...
    assert any(label.startswith(("E-", "S-")) for label in model.labels_)
    predicted = model.predict(test[0])
    # ... but answers in the corpus's scheme, well-formed, sentence by sentence
    assert [len(p) for p in predicted] == [len(s) for s in test[0]]
    assert all(first_violation(tags, "IOB2") is None for tags in predicted)
    assert not any(tag.startswith(("E-", "S-")) for tags in predicted for tag in tags)


@pytest.mark.parametrize("corpus_scheme", ["IOB1", "IOBES"])
@pytest.mark.parametrize("make", [lambda s: MajorityTagger(scheme=s),
                                  lambda s: small_crf(scheme=s)])
def test_predictions_come_back_in_the_detected_corpus_scheme(train, test, corpus_scheme, make):
    X, y = train
    y_corpus = [convert(tags, corpus_scheme) for tags in y]
    model = make("IOB2").fit(X, y_corpus)
    assert model.corpus_scheme_ == corpus_scheme
    predicted = model.predict(test[0])
    assert all(first_violation(tags, corpus_scheme) is None for tags in predicted)


def test_explicit_corpus_scheme_overrides_detection(train):
    X, y = train
    model = MajorityTagger().fit(X, y, corpus_scheme="IOBES")
    assert model.corpus_scheme_ == "IOBES"
    assert any(tag.startswith("S-") for tags in model.predict(X) for tag in tags)
    with pytest.raises(UserError, match="corpus_scheme"):
        MajorityTagger().fit(X, y, corpus_scheme="BIO")


def test_training_in_another_scheme_keeps_the_gold_chunks():
    # A majority tagger memorizes a sentence of distinct words: whatever scheme it counts in, the
    # conversions there and back must give the gold tags exactly.
    X = [sentence("He", "reckons", "the", "current", "account", "deficit", "will", "narrow")]
    y = [["B-NP", "B-VP", "B-NP", "I-NP", "I-NP", "I-NP", "B-VP", "I-VP"]]
    for scheme in ("IOB1", "IOB2", "IOBES"):
        model = MajorityTagger(scheme=scheme).fit(X, y)
        assert model.predict(X) == y
        assert set(model.word_tags_.values()) == set(convert(y[0], scheme))


# --------------------------------------------------------------------------- baseline


def test_majority_tags_each_word_with_its_majority_tag_and_unknown_words_with_the_global_one():
    X = [sentence("the", "dog"), sentence("the", "dog"), sentence("a", "dog"), sentence("runs")]
    y = [["B-NP", "I-NP"], ["B-NP", "I-NP"], ["O", "B-NP"], ["B-VP"]]
    model = MajorityTagger().fit(X, y)
    assert model.word_tags_ == {"the": "B-NP", "dog": "I-NP", "a": "O", "runs": "B-VP"}
    assert model.default_tag_ == "B-NP"  # 3 of 7 tags
    assert model.predict([sentence("the", "dog", "barks")]) == [["B-NP", "I-NP", "B-NP"]]
    # words are matched as written: "The" is unknown
    assert model.predict([sentence("The")]) == [["B-NP"]]


def test_majority_ties_go_to_the_lexicographically_smallest_tag():
    X = [sentence("x"), sentence("x"), sentence("y"), sentence("y")]
    y = [["O"], ["B-NP"], ["B-VP"], ["O"]]
    for order in ([0, 1, 2, 3], [3, 2, 1, 0]):
        model = MajorityTagger().fit([X[i] for i in order], [y[i] for i in order])
        assert model.word_tags_ == {"x": "B-NP", "y": "B-VP"}  # "B-..." < "O"
        assert model.default_tag_ == "O"  # 2 of 4
    # a tie overall too: B-NP and B-VP once each
    assert MajorityTagger().fit(X[1:3], y[1:3]).default_tag_ == "B-NP"


def test_majority_counts_in_its_own_scheme():
    # In IOBES the one-word chunk of "it" is S-NP, not B-NP: counts are taken after conversion.
    X = [sentence("it", "runs"), sentence("it")]
    y = [["B-NP", "B-VP"], ["B-NP"]]
    model = MajorityTagger(scheme="IOBES").fit(X, y)
    assert model.word_tags_ == {"it": "S-NP", "runs": "S-VP"}
    assert model.predict(X) == y


# --------------------------------------------------------------------------- determinism


def test_crf_is_deterministic(train, test):
    a = small_crf(scheme="IOBES").fit(*train)
    b = small_crf(scheme="IOBES").fit(*train)
    assert a.model_bytes_ == b.model_bytes_
    assert a.predict(test[0]) == b.predict(test[0])


@pytest.mark.slow
def test_bilstm_is_deterministic_for_a_seed(train, test):
    import torch

    settings = dict(char_dim=4, char_hidden=4, validation_fraction=0.2, patience=1)
    a = small_bilstm(**settings).fit(*train)
    b = small_bilstm(**settings).fit(*train)
    assert a.predict(test[0]) == b.predict(test[0])
    state_a, state_b = a.module_.state_dict(), b.module_.state_dict()
    assert state_a.keys() == state_b.keys()
    assert all(torch.equal(state_a[k], state_b[k]) for k in state_a)
    # the seed is what fixes them: another seed trains other weights
    c = small_bilstm(random_state=8, **settings).fit(*train)
    assert not all(torch.equal(state_a[k], c.module_.state_dict()[k]) for k in state_a)


@pytest.mark.slow
def test_bilstm_fit_leaves_global_torch_state_alone(train):
    import torch

    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    small_bilstm(epochs=1).fit(*train)
    assert torch.equal(torch.rand(3), expected)
    assert not torch.are_deterministic_algorithms_enabled()
    threads = torch.get_num_threads()
    small_bilstm(epochs=1, num_threads=threads + 1).fit(*train)
    assert torch.get_num_threads() == threads


@pytest.mark.slow
def test_bilstm_char_lstm_trains(train, test):
    model = small_bilstm(char_dim=4, char_hidden=3, char_model="lstm", epochs=1).fit(*train)
    assert [len(p) for p in model.predict(test[0])] == [len(s) for s in test[0]]


# --------------------------------------------------------------------------- featurize once


@pytest.mark.slow
@pytest.mark.parametrize("make", [MajorityTagger, small_crf, small_bilstm])
def test_fit_on_taken_rows_equals_fit_on_the_sentences(corpus, make):
    sentences = list(corpus.sentences[:100])
    rng = np.random.default_rng(0)
    train_index = np.sort(rng.choice(100, size=50, replace=False))
    test_index = np.setdiff1d(np.arange(100), train_index)
    y = [list(s.tags) for s in sentences]

    model = make()
    features = model.featurize(sentences)  # once, for both folds
    model.fit(features.take(train_index), [y[i] for i in train_index])
    from_rows = model.predict(features.take(test_index))

    direct = make().fit([sentences[i] for i in train_index], [y[i] for i in train_index])
    assert direct.predict([sentences[i] for i in test_index]) == from_rows


def test_take_selects_rows_without_copying_them(train):
    features = CRFTagger().featurize(train[0])
    taken = features.take(np.array([5, 2, 5]))
    assert len(taken) == 3 and taken.key == features.key
    assert taken.rows[0] is features.rows[5] and taken.rows[1] is features.rows[2]


def test_feature_keys_say_who_can_share_features(train):
    assert CRFTagger(scheme="IOB2").feature_key() == CRFTagger(scheme="IOBES", c1=0.5).feature_key()
    assert CRFTagger().feature_key() != CRFTagger(word_window=1).feature_key()
    assert BiLSTMTagger(word_dim=20).feature_key() == BiLSTMTagger(word_dim=10).feature_key()
    assert len({CRFTagger().feature_key(), BiLSTMTagger().feature_key(),
                MajorityTagger().feature_key()}) == 3
    # an IOBES CRF trains on the IOB2 CRF's features ...
    features = CRFTagger(scheme="IOB2").featurize(train[0])
    CRFTagger(scheme="IOBES", max_iterations=2).fit(features, train[1])
    # ... but another template's features are refused
    with pytest.raises(ValueError, match="features were made for"):
        CRFTagger(word_window=1, max_iterations=2).fit(features, train[1])


def test_crf_template_options_change_the_features(train):
    def attributes(**template):
        return set(CRFTagger(**template).featurize(train[0][:1]).rows[0].items()[3])
    full = attributes()
    assert "c0[0]=" + train[0][0].features[0][3] in full  # POS of token 3
    assert not any(a.startswith("c0") for a in attributes(columns=False))
    assert not any(a.startswith(("p1", "s1")) for a in attributes(affix_length=0))
    assert not any(a.startswith("w[2]") for a in attributes(word_window=1))
    assert any(a.startswith("w[2]") for a in full)


# --------------------------------------------------------------------------- vocabulary


def test_words_outside_the_training_rows_are_unknown():
    sentences = [sentence("the", "cat"), sentence("the", "dog"), sentence("a", "zebra")]
    features = featurize_ids(sentences)
    words = features.shared.words
    seen, counts = vocabulary([features.rows[0], features.rows[1]], len(words))
    remap = remap_array(seen, len(words))
    assert sorted(words[i] for i in seen) == ["cat", "dog", "the"]
    assert counts.tolist() == [2, 1, 1]  # the, cat, dog in corpus-id order
    held_row = features.rows[2][0]
    assert remap[held_row].tolist() == [UNK, UNK]
    assert all(remap[i] > UNK for i in seen)


def test_bilstm_vocabulary_excludes_the_validation_rows():
    # every sentence has a word of its own: the held-back rows' words must be UNK
    names = [f"word{chr(ord('a') + k)}" for k in range(20)]  # no digits: those normalize to 0
    sentences = [sentence("the", names[k], pos=["DT", "NN"]) for k in range(20)]
    y = [["B-NP", "I-NP"]] * 20
    model = small_bilstm(validation_fraction=0.25, epochs=1).fit(sentences, y)
    held = set(model.validation_index_.tolist())
    assert len(held) == 5
    assert set(model.words_) == {"the"} | {names[k] for k in range(20) if k not in held}
    encoded = model._encode(model.featurize(sentences))
    for k in range(20):
        assert (encoded[k][0][1] == UNK) == (k in held)


@pytest.mark.slow
def test_bilstm_early_stopping_keeps_the_best_epoch(train):
    model = small_bilstm(epochs=4, validation_fraction=0.3, patience=1).fit(*train)
    scores = [f1 for _, f1 in model.validation_curve_]
    assert [epoch for epoch, _ in model.validation_curve_] == list(range(1, model.n_epochs_ + 1))
    assert model.best_epoch_ == 1 + int(np.argmax(scores))
    # it stops once `patience` epochs bring no improvement, and not before
    assert model.n_epochs_ == 4 or model.n_epochs_ - model.best_epoch_ == 1
    assert model.learning_curve_ == []


@pytest.mark.slow
def test_bilstm_records_the_learning_curve_on_schedule(train, test):
    model = small_bilstm(epochs=3, record_every=2).fit(*train, eval_set=test)
    assert [epoch for epoch, _ in model.learning_curve_] == [2, 3]
    # the last point is the score of the returned model
    from reprocompare.corpora.scoring import count_chunks
    assert model.learning_curve_[-1][1] == count_chunks(test[1], model.predict(test[0])).f1()


@pytest.mark.slow
def test_bilstm_stops_on_a_development_split_by_default(train, test):
    """Version 3 defaults (benchmarks/RESULTS.md, 'BiLSTM defaults (issue 37)'): a tenth of the
    training rows held back, at most 50 epochs, stopped after 10 without a better development
    F1, Adam at 0.01, a character CNN of 30; the best epoch's weights kept."""
    assert (BiLSTMTagger().validation_fraction, BiLSTMTagger().epochs,
            BiLSTMTagger().patience, BiLSTMTagger().learning_rate, BiLSTMTagger().char_dim,
            BiLSTMTagger.version) == (0.1, 50, 10, 0.01, 30, 3)
    # the class's defaults are the spec's: `type: bilstm` trains what the class does
    assert {p.name: p.default for p in BiLSTMTagger.PARAMS if p.name != "scheme"} == {
        name: getattr(BiLSTMTagger(), name) for name in
        (p.name for p in BiLSTMTagger.PARAMS if p.name != "scheme")}
    model = BiLSTMTagger(word_dim=8, feature_dim=4, hidden_size=8, batch_size=8, patience=1,
                         random_state=7)
    model.fit(*train)
    assert len(model.validation_index_) == -(-len(train[1]) // 10)
    assert model.best_epoch_ <= model.n_epochs_ <= 50 and len(model.validation_curve_) >= 1
    best = max(f1 for _, f1 in model.validation_curve_)
    assert dict(model.validation_curve_)[model.best_epoch_] == best


def test_bilstm_cuda_without_a_device_is_a_user_error(train, monkeypatch):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(UserError, match="CUDA") as error:
        small_bilstm(device="cuda").fit(*train)
    assert error.value.key == "device"


@pytest.mark.skipif(sys.platform != "linux", reason="device files are how Linux reaches a GPU")
@pytest.mark.parametrize("files,present", [((), False), (("nvidiactl", "nvidia0"), True),
                                           (("kfd",), True), (("dxg",), True),
                                           (("null", "tty"), False)])
def test_a_gpu_driver_is_known_by_its_device_files(tmp_path, files, present):
    for name in files:
        (tmp_path / name).touch()
    assert driver_present(tmp_path) is present


def test_without_a_driver_torch_sees_no_gpu_and_is_not_imported():
    """The shortcut's premise, checked against torch on this machine, and its point: a
    fresh process answers without importing torch."""
    import torch

    if driver_present():
        assert cuda_devices() == [torch.cuda.get_device_name(i)
                                  for i in range(torch.cuda.device_count())]
        return
    assert not torch.cuda.is_available() and cuda_devices() == []
    probe = ("import sys; from reprocompare.models.devices import cuda_devices; "
             "print(cuda_devices(), 'torch' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.split() == ["[]", "False"], result.stdout + result.stderr


# --------------------------------------------------------------------------- pickling


@pytest.mark.slow
@pytest.mark.parametrize("make", [MajorityTagger, lambda: small_crf(scheme="IOBES"),
                                  lambda: small_bilstm(char_dim=4, scheme="IOBES")])
def test_pickle_round_trip_predicts_the_same(train, test, make):
    model = make().fit(*train)
    expected = model.predict(test[0])
    restored = pickle.loads(pickle.dumps(model))
    assert restored.predict(test[0]) == expected
    assert restored.get_params() == model.get_params()
    # pickling leaves the pickled model as it was (the BiLSTM's network and indexes, the
    # CRF's open tagger were once popped from the live instance)
    assert model.predict(test[0]) == expected


def test_unfitted_model_refuses_to_predict(train):
    with pytest.raises(ValueError, match="not fitted"):
        CRFTagger().predict(train[0])


# --------------------------------------------------------------------------- specs


def test_parse_spec_types_values_by_the_declared_parameter():
    spec = parse_spec("crf:scheme=IOBES,c1=0.05,max_iterations=50,all_possible_transitions=false")
    assert spec == ModelSpec("crf", "IOBES", (("all_possible_transitions", False), ("c1", 0.05),
                                               ("max_iterations", 50)))
    assert isinstance(spec.params["c1"], float) and isinstance(spec.params["max_iterations"], int)
    assert parse_spec("bilstm:word_dim=10,epochs=5").params == {"word_dim": 10, "epochs": 5}
    assert parse_spec("crf:c1=1").params == {"c1": 1.0}
    assert parse_spec(" majority ") == ModelSpec("majority")
    assert parse_spec("bilstm:char_model=LSTM,scheme=iobes") == ModelSpec(
        "bilstm", "IOBES", (("char_model", "lstm"),))


def test_spec_canonical_forms_round_trip():
    spec = parse_spec("crf: c1 = 0.05 , scheme=IOBES")
    assert str(spec) == "crf:scheme=IOBES,c1=0.05"
    assert parse_spec(str(spec)) == spec
    assert spec.to_dict() == {"type": "crf", "scheme": "IOBES", "c1": 0.05}
    assert spec_from_mapping("A", spec.to_dict()) == spec
    # defaults are dropped, so equal models have equal specs
    assert parse_spec("crf:c2=1.0,scheme=IOB2") == parse_spec("crf")
    assert hash(parse_spec("crf:c2=1")) == hash(parse_spec("crf"))


def test_spec_from_mapping_reads_yaml_values():
    import yaml
    entry = yaml.safe_load("{type: bilstm, scheme: IOBES, word_dim: 20, dropout: 0.5, "
                           "learning_rate: 1e-3, device: cpu}")
    spec = spec_from_mapping("A", entry)
    assert spec.scheme == "IOBES"
    assert spec.params == {"word_dim": 20, "dropout": 0.5, "learning_rate": 0.001}


def test_values_with_commas_or_quotes_are_json_strings_in_the_string_form():
    train = 'fit "{train}", {model_dir}'
    spec = ModelSpec("command", "IOB2", (("predict", "p {input} {output}"), ("train", train)))
    text = str(spec)
    assert text == ('command:scheme=IOB2,predict=p {input} {output},'
                    'train="fit \\"{train}\\", {model_dir}"')
    assert parse_spec(text) == spec
    # spaces around a quoted value and its comma are allowed; unquoted values are stripped
    assert parse_spec('command: train = "fit {train}" , predict= p {input} {output} ') == \
        parse_spec("command:train=fit {train},predict=p {input} {output}")


def test_build_model_makes_a_fresh_configured_model():
    model = build_model(parse_spec("bilstm:word_dim=10,scheme=IOBES"), random_state=3)
    assert isinstance(model, BiLSTMTagger) and not hasattr(model, "module_")
    assert (model.word_dim, model.scheme, model.random_state) == (10, "IOBES", 3)
    assert model.epochs == BiLSTMTagger().epochs
    crf = build_model("crf:c1=0.05", random_state=3)
    assert isinstance(crf, CRFTagger) and crf.c1 == 0.05
    assert isinstance(build_model(parse_spec("majority:scheme=IOB1")), MajorityTagger)


@pytest.mark.parametrize("text, key, message", [
    ("svm:c=1", "type",
     "unknown model type 'svm'; expected one of bilstm, command, crf, majority, python"),
    ('command:train="fit {train}', "train", "unterminated quoted value"),
    ('command:train="fit {train}" x,predict=p {input} {output}', "train",
     "expected a comma after the quoted value"),
    ("crf:=1", "type", "expected key=value"),
    ("", "type", "empty model spec"),
    ("crf:c3=1", "c3", "allowed: affix_length, all_possible_transitions"),
    ("crf:c1=-0.5", "c1", "must be >= 0"),
    ("bilstm:word_dim=0", "word_dim", "must be in [1, 4096]"),
    ("crf:scheme=BIO", "scheme", "must be one of IOB1, IOB2, IOBES"),
    ("crf:c1=abc", "c1", "expected a finite number, got 'abc'"),
    ("crf:c1=nan", "c1", "finite"),
    ("bilstm:epochs=2.5", "epochs", "expected an integer"),
    ("bilstm:dropout=1.0", "dropout", "must be in [0.0, 1.0)"),
    ("crf:lower=maybe", "lower", "expected true or false"),
    ("crf:c1", "c1", "expected key=value"),
    ("crf:c1=1,c1=2", "c1", "given twice"),
    ("bilstm:device=tpu", "device", "must be one of cpu, cuda"),
    ("bilstm:random_state=1", "random_state", "unknown hyperparameter"),
])
def test_parse_spec_errors_name_the_key(text, key, message):
    with pytest.raises(UserError) as error:
        parse_spec(text)
    assert error.value.key == key
    assert message in str(error.value)
    assert str(error.value).startswith(f"{key}: ")


@pytest.mark.parametrize("mapping, key, message", [
    ({"type": "crf", "c1": -1}, "models.A.c1", "must be >= 0"),
    ({"type": "crf", "c1": "lots"}, "models.A.c1", "expected a finite number"),
    ({"type": "crf", "c1": True}, "models.A.c1", "expected a finite number"),
    ({"type": "bilstm", "word_dim": 0}, "models.A.word_dim", "must be in [1, 4096]"),
    ({"type": "bilstm", "epochs": 2.0}, "models.A.epochs", "expected an integer"),
    ({"type": "bilstm", "wrd_dim": 20}, "models.A.wrd_dim", "allowed: batch_size, char_dim"),
    ({"type": "crf", "scheme": "IOE"}, "models.A.scheme", "must be one of"),
    ({"type": "tree"}, "models.A.type", "unknown model type 'tree'"),
    ({"scheme": "IOB2"}, "models.A.type", "missing"),
    (["crf"], "models.A", "expected a mapping"),
])
def test_spec_from_mapping_errors_name_the_full_key(mapping, key, message):
    with pytest.raises(UserError) as error:
        spec_from_mapping("A", mapping)
    assert error.value.key == key
    assert message in str(error.value)


def test_invalid_hyperparameters_are_caught_at_fit_too(train):
    with pytest.raises(UserError) as error:
        CRFTagger(c1=-1.0).fit(*train)
    assert error.value.key == "c1"
    with pytest.raises(UserError) as error:
        BiLSTMTagger(scheme="BIO").fit(*train)
    assert error.value.key == "scheme"
    with pytest.raises(UserError, match="must be an integer") as error:
        BiLSTMTagger(word_dim="10").fit(*train)
    assert error.value.key == "word_dim"
    # numpy numbers, as a parameter grid makes them, are numbers
    assert MajorityTagger().set_params(scheme=np.str_("IOBES")).fit(*train).scheme == "IOBES"
    small_crf(c1=np.float64(0.1), c2=np.int64(1)).fit(*train)


def test_featurized_is_exported_and_sized(train):
    features = MajorityTagger().featurize(train[0])
    assert isinstance(features, Featurized) and len(features) == len(train[0])


@pytest.mark.parametrize("text, message", [
    ("crf:word_window=1000000000", "must be in [0, 20]"),
    ("crf:max_iterations=10000000", "must be in [1, 1000000]"),
    ("bilstm:hidden_size=1000000000", "must be in [1, 8192]"),
    ("bilstm:epochs=1000000000", "must be in [1, 100000]"),
    ("bilstm:learning_rate=1e9", "must be in [1e-08, 10.0]"),
])
def test_a_hyperparameter_beyond_what_its_library_can_train_is_refused(text, message):
    """Issue 23, item 2: a value that would hang or exhaust memory (a 10^9-word window, a
    10^9-unit LSTM) is refused when the spec is read, with its range (models/README.md)."""
    with pytest.raises(UserError, match=re.escape(message)):
        parse_spec(text)


def test_the_catalogue_prints_every_numbers_range():
    from reprocompare.models.catalog import markdown

    text = markdown()
    assert "| `word_window` | integer | [0, 20] | `2` |" in text
    assert "| `learning_rate` | number | [1e-08, 10.0] | `0.01` |" in text


@pytest.mark.parametrize("spec", ["crf:scheme=IOBES,c1=0.05,max_iterations=7", "majority",
                                  "bilstm:word_dim=20,epochs=2",
                                  "command:train=fit {train},predict=p {input} {output}"])
def test_parameters_are_scikit_learns_without_importing_it(spec, train):
    """SequenceTagger's get_params, set_params, clone and repr are scikit-learn's BaseEstimator's
    (its own code is the oracle here), though the tagger modules never import scikit-learn
    (models.base.Estimator: the Snakefile reads the tagger classes at every snakemake start)."""
    from sklearn.base import BaseEstimator, clone as sklearn_clone

    from reprocompare.models.base import Estimator, clone

    model = build_model(parse_spec(spec))
    names = BaseEstimator._get_param_names.__func__(type(model))
    assert type(model)._get_param_names() == names
    if spec.startswith("command"):  # it maps ``predict`` to its attribute itself
        assert sorted(model.get_params()) == names
    else:
        assert model.get_params() == BaseEstimator.get_params(model)
    # as scikit-learn writes it: the parameters that differ from the defaults, sorted
    assert repr(model) == {
        "crf": "CRFTagger(c1=0.05, max_iterations=7, scheme='IOBES')",
        "majority": "MajorityTagger()", "bilstm": "BiLSTMTagger(epochs=2, word_dim=20)",
        "command": "CommandTagger(predict='p {input} {output}', train='fit {train}')",
    }[spec.split(":")[0]]
    copy = clone(model)
    assert copy is not model and type(copy) is type(model)
    assert copy.get_params() == sklearn_clone(model).get_params() == model.get_params()
    assert copy.set_params(scheme="IOBES") is copy and copy.get_params()["scheme"] == "IOBES"
    assert model.get_params()["scheme"] != "IOBES" or spec.startswith("crf")
    with pytest.raises(ValueError, match="nonsense"):
        model.set_params(nonsense=1)
    assert isinstance(model, Estimator)
    if spec == "majority":  # a fitted model pickles, and clone drops what it learned
        X, y = train
        fitted = model.fit(X, y)
        again = pickle.loads(pickle.dumps(fitted))
        assert again.predict(X[:5]) == fitted.predict(X[:5])
        assert not any(k.endswith("_") for k in vars(clone(fitted)))
