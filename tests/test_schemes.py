"""Tag schemes: conlleval's chunk semantics, detection, validation and conversion."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from seqeval.metrics.sequence_labeling import get_entities

from reprocompare.corpora.schemes import (chunks, chunks_to_tags, convert, detect_scheme, first_violation,
                             is_chunk_tag, split_tag)


def test_split_tag():
    assert split_tag("B-NP") == ("B", "NP")
    assert split_tag("I-ARG-1") == ("I", "ARG-1")
    assert split_tag("O") == ("O", "")
    assert split_tag("B") == ("B", "")


@pytest.mark.parametrize("tag,ok", [("O", True), ("B-NP", True), ("S-LOC", True), ("I", True),
                                    ("NN", False), ("B-", False), ("X-NP", False), ("", False),
                                    ("b-NP", False), ("BNP", False)])
def test_is_chunk_tag(tag, ok):
    assert is_chunk_tag(tag) is ok


@pytest.mark.parametrize("tags,expected", [
    # an I- after O opens a chunk (conlleval)
    (["O", "I-NP", "I-NP"], [(1, 3, "NP")]),
    # a type change ends one chunk and opens another, whatever the prefix
    (["B-NP", "I-VP"], [(0, 1, "NP"), (1, 2, "VP")]),
    # IOB1: B- separates adjacent chunks of one type
    (["I-NP", "B-NP", "I-NP"], [(0, 1, "NP"), (1, 3, "NP")]),
    # IOBES
    (["B-NP", "I-NP", "E-NP", "S-VP", "O"], [(0, 3, "NP"), (3, 4, "VP")]),
    # ill-formed IOBES: E after O opens and closes a chunk; B then O closes it
    (["O", "E-NP", "B-PP", "O"], [(1, 2, "NP"), (2, 3, "PP")]),
    # untyped tags
    (["B", "I", "O", "B"], [(0, 2, ""), (3, 4, "")]),
])
def test_chunks_conlleval_semantics(tags, expected):
    assert chunks(tags) == expected


def test_untyped_ignores_types():
    assert chunks(["B-PER", "I-LOC", "O", "B-ORG"], typed=False) == [(0, 2, ""), (3, 4, "")]


TAGS = st.lists(st.sampled_from(["O", "B-NP", "I-NP", "E-NP", "S-NP", "B-VP", "I-VP", "E-VP",
                                 "S-VP"]), max_size=12)


@given(TAGS)
def test_chunks_equal_seqeval_on_any_sequence(tags):
    # seqeval's get_entities is conlleval's reading (with the S/E extension), inclusive ends.
    theirs = sorted((start, end + 1, kind) for kind, start, end in get_entities(list(tags)))
    assert chunks(tags) == theirs


@given(TAGS)
def test_convert_keeps_chunks_and_is_well_formed(tags):
    for scheme in ("IOB1", "IOB2", "IOBES"):
        converted = convert(tags, scheme)
        assert chunks(converted) == chunks(tags)
        assert first_violation(converted, scheme) is None


@given(TAGS)
def test_round_trips_are_identity_on_valid_sequences(tags):
    iob2 = convert(tags, "IOB2")
    assert convert(convert(iob2, "IOBES"), "IOB2") == iob2
    assert convert(convert(iob2, "IOB1"), "IOB2") == iob2
    iobes = convert(tags, "IOBES")
    assert convert(convert(iobes, "IOB2"), "IOBES") == iobes


def test_convert_examples():
    assert convert(["B-NP", "I-NP", "B-VP"], "IOBES") == ["B-NP", "E-NP", "S-VP"]
    assert convert(["B-NP", "B-NP", "O"], "IOB1") == ["I-NP", "B-NP", "O"]
    assert chunks_to_tags([(0, 2, "")], 3, "IOBES") == ["B", "E", "O"]


def test_first_violation():
    assert first_violation(["B-NP", "I-NP"], "IOB2") is None
    assert first_violation(["O", "I-NP"], "IOB2") == 1
    assert first_violation(["B-NP", "O"], "IOBES") == 0
    assert first_violation(["I-NP", "I-NP"], "IOB1") is None
    with pytest.raises(ValueError, match="unknown tag scheme"):
        first_violation(["O"], "BIO")


@pytest.mark.parametrize("sequences,scheme,bad", [
    ([["B-NP", "I-NP", "O"], ["B-VP"]], "IOB2", []),
    ([["I-NP", "I-NP", "O"], ["I-NP", "B-NP"]], "IOB1", []),
    ([["B-NP", "E-NP", "S-VP"], ["S-NP"]], "IOBES", []),
    ([["O", "O"]], "IOB2", []),
    # IOB2 and IOBES mixed: the IOB2 sentence is ill-formed IOBES
    ([["B-NP", "E-NP"], ["B-NP", "I-NP", "O"]], "IOBES", [(1, 1)]),
    # mostly IOB2 with one IOB1-style sentence: majority IOB2, the slip is reported
    ([["B-NP"], ["B-VP", "O"], ["O", "I-NP"]], "IOB2", [(2, 1)]),
    # IOB2 with one stray E- or S-: still IOB2, the stray tag reported (issue 50)
    ([["B-NP", "I-NP"], ["B-VP", "O"], ["B-NP", "E-NP"]], "IOB2", [(2, 1)]),
    ([["B-NP", "I-NP"], ["S-VP", "O"], ["B-NP", "I-NP", "B-PP"]], "IOB2", [(1, 0)]),
])
def test_detect_scheme(sequences, scheme, bad):
    assert detect_scheme(sequences) == (scheme, bad)
