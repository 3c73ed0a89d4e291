"""Reading CoNLL-style column corpora (plain or gzipped) into sentences, with validation.

Format: one token per line, columns separated by whitespace, a blank line after each sentence,
``-DOCSTART-`` lines starting a new document. Every token line must have the same number of
columns. The token and tag columns are configurable (default: first and last); every other column
is kept, in order, as a feature column (POS tags in CoNLL-2000).

Everything a user can get wrong ends in a :class:`~reprocompare.base.errors.UserError` naming the file
and the line. Windows line endings and a UTF-8 byte-order mark are accepted as they are.
"""

from __future__ import annotations

import gzip
import hashlib
import zlib
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from reprocompare.base.errors import UserError
from reprocompare.corpora.schemes import (SCHEMES, convert, detect_scheme, first_violation,
                                          is_chunk_tag, strip_types)

DOCSTART = "-DOCSTART-"
#: Longer than any real sentence (CoNLL-2002 Spanish has a 1,238-token stock table); a file
#: without blank lines between sentences trips it instead of being trained on as one sentence.
MAX_SENTENCE_LENGTH = 5000


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence: its tokens, gold tags, extra feature columns, document and first line."""

    tokens: tuple[str, ...]
    tags: tuple[str, ...]
    features: tuple[tuple[str, ...], ...]  # features[j][i]: column j of token i
    doc: int
    line: int  # 1-based line of the first token in the file

    def __len__(self) -> int:
        return len(self.tokens)


@dataclass(frozen=True)
class Corpus:
    """A read and validated corpus."""

    path: str
    sentences: tuple[Sentence, ...]
    scheme: str
    sha256: str  # of the decompressed text: the same corpus gzipped or not has one identity

    def __len__(self) -> int:
        return len(self.sentences)

    @property
    def tags(self) -> list[tuple[str, ...]]:
        return [s.tags for s in self.sentences]

    @property
    def docs(self) -> np.ndarray:
        """Document id of every sentence: the ``groups`` a splitter needs to keep documents whole."""
        return np.fromiter((s.doc for s in self.sentences), dtype=np.int64, count=len(self))

    @property
    def n_tokens(self) -> int:
        return sum(len(s) for s in self.sentences)

    def untyped(self) -> "Corpus":
        """The corpus with every chunk's type dropped (boundaries kept), for untyped tasks.

        The paper's NER task finds chunk boundaries "without recognizing their type labels": a
        tagger of that task learns boundary tags only. ``sha256`` stays the source's: the
        sentences, and so every split of them, are the same.
        """
        return replace(self, sentences=tuple(
            replace(s, tags=tuple(strip_types(s.tags, self.scheme))) for s in self.sentences))


def task_corpus(corpus: Corpus, *, typed: bool = True, train_typed: bool = False) -> Corpus:
    """The corpus as the task sees it: with ``typed=False`` its chunks lose their types (the
    taggers train on boundaries, the vote compares boundaries), unless ``train_typed`` keeps
    them for training while the scores still count boundaries only.

    Parameters
    ----------
    corpus : Corpus
        The corpus as read.
    typed : bool, default True
        Whether chunks keep their types.
    train_typed : bool, default False
        With ``typed=False``, keep the types for training all the same.

    Returns
    -------
    Corpus
        The corpus the taggers train on and are scored against.
    """
    return corpus if typed or train_typed else corpus.untyped()


def _decompress(path: Path, data: bytes) -> bytes:
    if data[:2] != b"\x1f\x8b":
        return data
    try:
        return gzip.decompress(data)
    except (EOFError, OSError, zlib.error):
        # Name the line where the text stops: everything before it decompresses.
        partial = zlib.decompressobj(wbits=31)
        try:
            text = partial.decompress(data)
        except zlib.error:
            text = b""
        raise UserError("truncated or corrupt gzip file; the text breaks off here",
                        path=path, line=text.count(b"\n") + 1) from None


#: byte-order marks of the encodings a text in which every character takes 2 or 4 bytes
_WIDE_MARKS = ((b"\xff\xfe\x00\x00", "UTF-32LE"), (b"\x00\x00\xfe\xff", "UTF-32BE"),
               (b"\xff\xfe", "UTF-16LE"), (b"\xfe\xff", "UTF-16BE"))


def _wide_encoding(data: bytes) -> str | None:
    """"UTF-16LE (a byte-order mark)", "UTF-16BE" ... where ``data`` reads as that: a mark, or
    (without one) a NUL in nearly every other byte, as ASCII letters give in UTF-16."""
    for mark, name in _WIDE_MARKS:
        if data.startswith(mark):
            try:
                data[len(mark):].decode(name)
            except UnicodeDecodeError:
                return None
            return f"{name} (its byte-order mark says so)"
    sample = data[:4096]
    if len(sample) < 8 or sample.count(0) < len(sample) // 3:
        return None
    for name, nuls in (("UTF-16LE", sample[1::2]), ("UTF-16BE", sample[0::2])):
        if nuls.count(0) >= 0.9 * len(nuls):
            try:
                data[:len(data) - len(data) % 2].decode(name)
            except UnicodeDecodeError:
                return None
            return f"{name} (a NUL byte beside every letter)"
    return None


def _eight_bit_hint(data: bytes, start: int) -> str:
    """Where bytes that are not UTF-8 read as Latin-1 or Windows-1252 text (accents of a
    Western European corpus, not binary junk): that encoding named, with how to convert."""
    for name in ("cp1252", "latin-1"):
        try:
            text = data.decode(name)
        except UnicodeDecodeError:
            continue
        controls = sum(1 for char in text if ord(char) < 32 and char not in "\t\n\r")
        if controls > len(text) // 1000:
            return ""
        char = bytes([data[start]]).decode(name)
        return (f": it looks like Latin-1 or Windows-1252 text (that byte is {char!r} there); "
                f"convert it to UTF-8 first (e.g. iconv -f "
                f"{'WINDOWS-1252' if name == 'cp1252' else 'LATIN1'} -t UTF-8)")
    return ""


def read_lines(path: str | Path) -> tuple[list[str], str]:
    """The lines of a text file (gzip detected by its magic bytes) and its sha256.

    Parameters
    ----------
    path : str or pathlib.Path
        The file, plain or gzip.

    Returns
    -------
    (list of str, str)
        Its lines, and the sha256 of its bytes.
    """
    path = Path(path)
    if path.exists() and not path.is_file() and not path.is_dir():  # a FIFO would hang the read
        raise UserError("not a regular file (a FIFO, socket or device; a corpus is a file)",
                        path=path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UserError("no such file", path=path) from None
    except IsADirectoryError:
        raise UserError("is a directory, not a corpus file", path=path) from None
    except OSError as error:
        raise UserError(f"cannot read: {error.strerror}", path=path) from None
    data = _decompress(path, data)
    if not data.strip():
        raise UserError("empty file: no tokens", path=path, line=1)
    wide = _wide_encoding(data)
    if wide is not None:
        raise UserError(f"not UTF-8 text: it is in {wide}; convert it to UTF-8 first "
                        f"(e.g. iconv -f {wide.split(' ')[0]} -t UTF-8)", path=path)
    nul = data.find(b"\0")
    if nul >= 0:
        raise UserError("not a text file (NUL byte)", path=path, line=data.count(b"\n", 0, nul) + 1)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UserError(f"not UTF-8 text (byte 0x{data[error.start]:02x})"
                        + _eight_bit_hint(data, error.start), path=path,
                        line=data.count(b"\n", 0, error.start) + 1) from None
    text = text.removeprefix("\ufeff")
    # split on "\n" only: str.splitlines would also split on form feeds and U+2028 inside tokens
    lines = [line.rstrip("\r") for line in text.split("\n")]
    for number, line in enumerate(lines if "\r" in text else (), start=1):
        if "\r" in line:  # str.split() would read it as a space: one line of every token
            raise UserError("a carriage return inside a line: old Mac line endings (CR only)? "
                            "convert them to newlines, e.g. tr '\\r' '\\n'", path=path,
                            line=number)
    if lines[-1] == "":  # the newline that ends the last line does not start another one
        lines.pop()
    return lines, hashlib.sha256(data).hexdigest()


def _column(index: int, n_columns: int, name: str, path: Path, line: int) -> int:
    resolved = index + n_columns if index < 0 else index
    if not 0 <= resolved < n_columns:
        raise UserError(f"{name} column {index} does not exist: the file has {n_columns} columns",
                        path=path, line=line)
    return resolved


def read_conll(path: str | Path, *, token_column: int = 0, tag_column: int = -1,
               scheme: str = "auto", ill_formed: str = "error",
               max_sentence_length: int = MAX_SENTENCE_LENGTH) -> Corpus:
    """Read and validate a CoNLL column file.

    Parameters
    ----------
    path : str or Path
        Plain text or gzip (recognised by content, not name), UTF-8.
    token_column, tag_column : int
        Column indices; negative counts from the end (default: first and last).
    scheme : {"auto", "IOB1", "IOB2", "IOBES"}
        The tag scheme: detected from the tags by default, or asserted.
    ill_formed : {"error", "repair", "keep"}
        What to do with sentences that are not well-formed in the corpus's scheme (mixed schemes,
        annotation slips): stop with an error naming the line (gold corpora, the default); repair
        them, keeping the chunks conlleval reads in them; or keep them as they are (predictions:
        conlleval scores ill-formed sequences, so we do too).
    max_sentence_length : int
        Longer sentences are an error: they mean missing blank lines, not language.

    Returns
    -------
    Corpus
        The sentences, their scheme and the file's sha256.

    Examples
    --------
    >>> corpus = read_conll("data/conll2000/test.txt.gz")  # doctest: +SKIP
    >>> len(corpus), corpus.scheme  # doctest: +SKIP
    (2012, 'IOB2')
    """
    path = Path(path)
    lines, sha256 = read_lines(path)
    sentences: list[Sentence] = []
    rows: list[list[str]] = []
    first_line = 0
    n_columns = 0
    columns_line = 0
    doc = 0
    token_at = tag_at = 0

    def flush() -> None:
        if not rows:
            return
        features = tuple(tuple(row[j] for row in rows) for j in range(n_columns)
                         if j not in (token_at, tag_at))
        sentences.append(Sentence(tokens=tuple(row[token_at] for row in rows),
                                  tags=tuple(row[tag_at] for row in rows),
                                  features=features, doc=doc, line=first_line))
        rows.clear()

    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields:
            flush()
            continue
        if fields[0] == DOCSTART:
            flush()
            doc += 1
            continue
        if not n_columns:
            n_columns, columns_line = len(fields), number
            if n_columns < 2:
                raise UserError("one column only: a corpus needs at least a token and a tag column",
                                path=path, line=number)
            token_at = _column(token_column, n_columns, "token", path, number)
            tag_at = _column(tag_column, n_columns, "tag", path, number)
            if token_at == tag_at:
                raise UserError(f"token and tag column are the same column ({token_at})",
                                path=path, line=number)
        elif len(fields) != n_columns:
            raise UserError(f"{len(fields)} columns, but line {columns_line} has {n_columns}",
                            path=path, line=number)
        tag = fields[tag_at]
        if not is_chunk_tag(tag):
            raise UserError(f"{tag!r} in column {tag_at + 1} is not a chunk tag "
                            "(expected O, or B-, I-, E-, S- and a type)", path=path, line=number)
        if not rows:
            first_line = number
        rows.append(fields)
        if len(rows) > max_sentence_length:
            raise UserError(f"sentence longer than {max_sentence_length} tokens (starting at line "
                            f"{first_line}): are blank lines between sentences missing?",
                            path=path, line=number)
    flush()
    if not sentences:
        raise UserError("no sentences: only blank lines and -DOCSTART- lines", path=path,
                        line=len(lines))
    found = _check_scheme(path, sentences, scheme, ill_formed)
    return Corpus(path=str(path), sentences=tuple(sentences), scheme=found, sha256=sha256)


def check_has_chunks(corpus: Corpus) -> None:
    """A corpus whose tags are all O has no chunk to score: every F1 would be 0 (or 0/0).

    Parameters
    ----------
    corpus : Corpus
        The corpus.
    """
    if not any(tag != "O" for sentence in corpus.sentences for tag in sentence.tags):
        raise UserError("no chunks: every tag is O, so there is nothing to score (is tag_column "
                        "the column of the chunk tags?)", path=corpus.path)


ILL_FORMED = ("error", "repair", "keep")


def _check_scheme(path: Path, sentences: list[Sentence], scheme: str, ill_formed: str) -> str:
    if ill_formed not in ILL_FORMED:
        raise UserError(f"unknown value {ill_formed!r}; expected one of {', '.join(ILL_FORMED)}",
                        key="ill_formed")
    if scheme == "auto":
        scheme, bad = detect_scheme(s.tags for s in sentences)
    elif scheme in SCHEMES:
        bad = [(k, i) for k, s in enumerate(sentences)
               if (i := first_violation(s.tags, scheme)) is not None]
    else:
        raise UserError(f"unknown tag scheme {scheme!r}; expected auto or one of "
                        f"{', '.join(SCHEMES)}", key="scheme")
    if not bad or ill_formed == "keep":
        return scheme
    if ill_formed == "error":
        k, i = bad[0]
        sentence = sentences[k]
        # every fault by its line and tag (a few), so that a stray tag is found, not a scheme
        faults = [f"{sentences[j].line + t} {sentences[j].tags[t]!r}" for j, t in bad[:5]]
        more = f" and {len(bad) - 5} more" if len(bad) > 5 else ""
        raise UserError(
            f"{sentence.tags[i]!r} is not well-formed {scheme}, the scheme of this corpus "
            f"({len(sentences) - len(bad)} of {len(sentences)} sentences are well-formed "
            f"{scheme}; the first bad tag of each that is not, by line: "
            f"{', '.join(faults)}{more}). Fix those tags, or let ill_formed=repair re-encode "
            "them as conlleval reads them", path=path, line=sentence.line + i)
    for k, _ in bad:  # repair: same chunks (conlleval's reading), written in the corpus's scheme
        sentence = sentences[k]
        sentences[k] = replace(sentence, tags=tuple(convert(sentence.tags, scheme)))
    return scheme
