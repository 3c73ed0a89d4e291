"""Reading CoNLL files: structure, options, and one clear error for every kind of bad file."""

from __future__ import annotations

import gzip

import pytest

from conftest import write
from reprocompare.base.errors import UserError
from reprocompare.corpora.conll import read_conll

GOOD = "He PRP B-NP\nreckons VBZ B-VP\n\nthe DT B-NP\ncurrent JJ I-NP\n"


def test_reads_shipped_corpus(conll2000_test):
    assert len(conll2000_test) == 2012
    assert conll2000_test.n_tokens == 47377  # the README's figure for section 20
    assert conll2000_test.scheme == "IOB2"
    first = conll2000_test.sentences[0]
    assert first.tokens[:3] == ("Rockwell", "International", "Corp.")
    assert first.features[0][:3] == ("NNP", "NNP", "NNP")  # POS kept as a feature column
    assert first.tags[:3] == ("B-NP", "I-NP", "I-NP")
    assert first.line == 1


def test_sentences_lines_documents_and_columns(tmp_path):
    text = "-DOCSTART- -X- O\n\n" + GOOD + "\n-DOCSTART- -X- O\nx NN O\n"
    corpus = read_conll(write(tmp_path / "c.txt", text))
    assert [s.tokens for s in corpus.sentences] == [("He", "reckons"), ("the", "current"), ("x",)]
    assert [s.line for s in corpus.sentences] == [3, 6, 10]
    assert corpus.docs.tolist() == [1, 1, 2]
    other = read_conll(write(tmp_path / "d.txt", GOOD), token_column=1, tag_column=2)
    assert other.sentences[0].tokens == ("PRP", "VBZ")
    assert other.sentences[0].features == (("He", "reckons"),)


def test_gzip_plain_crlf_and_bom_are_the_same_corpus(tmp_path):
    plain = read_conll(write(tmp_path / "a.txt", GOOD))
    zipped = read_conll(write(tmp_path / "b.txt", gzip.compress(GOOD.encode())))
    windows = read_conll(write(tmp_path / "c.txt", "\ufeff" + GOOD.replace("\n", "\r\n")))
    assert plain.sentences == zipped.sentences == windows.sentences
    assert plain.sha256 == zipped.sha256


def test_repair_and_keep(tmp_path):
    text = "a B-NP\nb I-NP\n\nc B-VP\n\nd O\ne I-NP\n"
    path = write(tmp_path / "slip.txt", text)
    with pytest.raises(UserError, match=r"slip.txt:7: 'I-NP' is not well-formed IOB2"):
        read_conll(path)
    assert read_conll(path, ill_formed="repair").sentences[2].tags == ("O", "B-NP")
    assert read_conll(path, ill_formed="keep").sentences[2].tags == ("O", "I-NP")


BAD = {
    "empty": (b"", 1, "empty file"),
    "blank lines only": (b"\n\n  \n", 1, "empty file"),
    "docstart only": (b"-DOCSTART- -X- O\n\n", 2, "no sentences"),
    "wrong column count": (b"a NN B-NP\nb NN I-NP\n\nc B-NP\n", 4, "2 columns, but line 1 has 3"),
    "one column": (b"a\nb\n", 1, "one column only"),
    "not a chunk tag": (b"a NN B-NP\nb NN NNP\n", 2, "'NNP' in column 3 is not a chunk tag"),
    "IOB2 and IOBES mixed": (b"a S-NP\n\nb B-NP\nc I-NP\nd O\n", 4, "not well-formed IOBES"),
    "binary": (b"a B-NP\nb\x00\x01\x02 O\n", 2, "not a text file"),
    "not UTF-8": (b"a B-NP\n\xe9t\xe9 O\n", 2, "not UTF-8"),
    "too long": (b"w O\n" * 5001, 5001, "longer than 5000 tokens"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_files_name_file_and_line(tmp_path, name):
    content, line, message = BAD[name]
    path = write(tmp_path / "bad.txt", content)
    with pytest.raises(UserError) as caught:
        read_conll(path)
    assert str(caught.value).startswith(f"{path}:{line}: ")
    assert message in str(caught.value)


def test_truncated_gzip_names_the_line_where_text_stops(tmp_path):
    data = gzip.compress((GOOD * 2000).encode())
    path = write(tmp_path / "cut.txt.gz", data[: len(data) // 2])
    with pytest.raises(UserError, match=r"cut.txt.gz:\d+: truncated or corrupt gzip") as caught:
        read_conll(path)
    assert caught.value.line > 1


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(UserError, match="no such file"):
        read_conll(tmp_path / "nope.txt")
    with pytest.raises(UserError, match="is a directory"):
        read_conll(tmp_path)


def test_column_options_are_checked(tmp_path):
    path = write(tmp_path / "c.txt", GOOD)
    with pytest.raises(UserError, match="tag column 5 does not exist: the file has 3 columns"):
        read_conll(path, tag_column=5)
    with pytest.raises(UserError, match="same column"):
        read_conll(path, token_column=2)
    with pytest.raises(UserError, match="scheme: unknown tag scheme 'BIO'"):
        read_conll(path, scheme="BIO")
