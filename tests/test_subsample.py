"""Subsamples of a corpus and their disjoint parts (corpora/subsample.py; issue 38, item 2)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import TEST_DATA
from reprocompare.base.errors import UserError
from reprocompare.base.seeds import generator
from reprocompare.corpora.conll import read_conll
from reprocompare.corpora.subsample import subsample, subsample_indices
from reprocompare.pipeline import provenance
from reprocompare.pipeline.jobs import prepare_corpus
from reprocompare.study.config import check_corpora, validate

TINY = TEST_DATA / "tiny.conll"  # 120 sentences


def config(**corpus) -> dict:
    return validate({"corpora": {"tiny": {"path": str(TINY), **corpus}},
                     "models": {"a": {"type": "majority"}, "b": {"type": "majority", "scheme": "IOBES"}},
                     "comparisons": {"p": {"a": "a", "b": "b", "corpora": ["tiny"]}},
                     "strategies": {"holdout": {}}, "repetitions": 2}, "study.yaml")


def test_part_0_is_the_subsample_drawn_before_parts_existed():
    # committed studies drew their samples as one seeded choice without replacement
    for size, n, seed in ((8323, 300, 0), (8936, 1200, 2), (120, 7, 5)):
        before = np.sort(generator(seed).choice(size, size=n, replace=False))
        assert subsample_indices(size, n, seed).tolist() == before.tolist()
        assert subsample_indices(size, n, seed, part=0).tolist() == before.tolist()


@pytest.mark.parametrize("size, n, parts", [(8323, 1200, 6), (8323, 4000, 2), (120, 40, 3)])
def test_the_parts_of_one_seed_are_disjoint_samples_of_n(size, n, parts):
    drawn = [subsample_indices(size, n, seed=3, part=p) for p in range(parts)]
    for positions in drawn:
        assert len(positions) == n == len(set(positions.tolist()))
        assert positions.min() >= 0 and positions.max() < size
        assert (np.diff(positions) > 0).all()  # corpus order
    union = set().union(*(set(p.tolist()) for p in drawn))
    assert len(union) == n * parts  # no sentence in two parts
    # the same seed and part give the same sentences; another seed others
    assert subsample_indices(size, n, 3, parts - 1).tolist() == drawn[-1].tolist()
    assert subsample_indices(size, n, 4, parts - 1).tolist() != drawn[-1].tolist()


def test_a_part_beyond_the_corpus_is_refused():
    with pytest.raises(ValueError, match="needs 160 sentences, not 120"):
        subsample_indices(120, 40, 0, part=3)
    corpus = read_conll(str(TINY))
    assert len(subsample(corpus, 40, 0, part=2).sentences) == 40


def test_the_config_check_names_the_key_and_the_file():
    check_corpora(config(subsample=40, subsample_part=2))
    with pytest.raises(UserError) as error:
        check_corpora(config(subsample=40, subsample_part=3))
    assert error.value.key == "subsample_part"
    message = str(error.value)
    assert "tiny.conll" in message and "subsample_part 3 of 40-sentence subsamples needs 160 " \
        "sentences (parts 0 to 3 share none), but the corpus has 120" in message
    assert "\n" not in message
    # without a subsample a part changes nothing and is not checked
    check_corpora(config(subsample_part=9))


def test_settings_name_a_part_only_from_1_so_part_0_keeps_its_results():
    assert "subsample_part" not in provenance.corpus(config(subsample=40), "tiny")
    assert "subsample_part" not in provenance.corpus(config(subsample=40, subsample_part=0),
                                                     "tiny")
    assert provenance.corpus(config(subsample=40, subsample_part=1),
                             "tiny")["subsample_part"] == 1
    assert "subsample_part" not in provenance.corpus(config(subsample_part=1), "tiny")


def test_the_corpus_job_writes_the_part_and_its_sentences(tmp_path):
    settings = provenance.corpus(config(subsample=40, subsample_part=1), "tiny")
    out, info = tmp_path / "corpus.conll", tmp_path / "corpus.json"
    prepare_corpus(str(TINY), settings, str(out), str(info))
    record = json.loads(info.read_text())
    assert (record["subsample"], record["subsample_seed"], record["subsample_part"]) == (40, 0, 1)
    assert record["sentences"] == 40 and record["source_sentences"] == 120
    # part 0 records what a subsample recorded before parts existed (committed corpus.json
    # files are rewritten byte for byte when a clone rebuilds a study)
    zero = tmp_path / "zero.json"
    prepare_corpus(str(TINY), provenance.corpus(config(subsample=40), "tiny"),
                   str(tmp_path / "zero.conll"), str(zero))
    assert "subsample_part" not in json.loads(zero.read_text())
    whole = read_conll(str(TINY))
    expected = [whole.sentences[i].tokens for i in subsample_indices(120, 40, 0, 1).tolist()]
    assert [s.tokens for s in read_conll(str(out)).sentences] == expected
    # too large a part: one line naming the key, nothing written
    settings["subsample_part"] = 3
    other = tmp_path / "other"
    with pytest.raises(UserError) as error:
        prepare_corpus(str(TINY), settings, str(other / "corpus.conll"),
                       str(other / "corpus.json"))
    assert error.value.key == "subsample_part" and not other.exists()
