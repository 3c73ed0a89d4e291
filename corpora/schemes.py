"""Chunk tag schemes IOB1, IOB2 and IOBES: chunk extraction, detection, validation, conversion.

Chunk extraction follows conlleval (CoNLL-2000 evaluation script) for ill-formed sequences, with
the IOBES extension that seqeval's default mode uses: a chunk starts at B or S, at an I or E after
O / E / S, or wherever the type changes; it ends before B, S or O, after E or S, or where the type
changes. So an ``I-NP`` after ``O`` starts a chunk, and ``B-NP I-VP`` is two chunks. Because the
rules look only at adjacent tags, every scheme (and every ill-formed mixture) maps to one set of
chunks, which is what makes conversion and scoring scheme-independent.

A chunk is ``(start, end, type)`` with ``end`` exclusive. Tags without a type (``B``, ``I``) have
type ``""``.
"""

from __future__ import annotations

from typing import Iterable, Sequence

SCHEMES = ("IOB1", "IOB2", "IOBES")
PREFIXES = frozenset("BIES")

Chunk = tuple[int, int, str]


def split_tag(tag: str) -> tuple[str, str]:
    """``"B-NP"`` -> ``("B", "NP")``; ``"O"`` -> ``("O", "")``; ``"B"`` -> ``("B", "")``.

    The type is everything after the first hyphen, so ``B-ARG-1`` has type ``ARG-1`` (as conlleval).

    Parameters
    ----------
    tag : str
        A tag.

    Returns
    -------
    (str, str)
        The prefix and the type ('' when none).
    """
    if tag == "O":
        return "O", ""
    prefix, _, chunk_type = tag.partition("-")
    return prefix, chunk_type


def is_chunk_tag(tag: str) -> bool:
    """``O``, a bare prefix (``B``), or a prefix, a hyphen and a non-empty type (``B-NP``).

    Parameters
    ----------
    tag : str
        A tag.

    Returns
    -------
    bool
        Whether it is a tag of a chunk scheme.
    """
    if tag == "O" or tag in PREFIXES:
        return True
    return len(tag) > 2 and tag[0] in PREFIXES and tag[1] == "-"


def _ends(prev: str, prefix: str, prev_type: str, chunk_type: str) -> bool:
    # conlleval's endOfChunk, extended for S as seqeval does; 'O' is the sentinel at both edges.
    if prev in ("E", "S"):
        return True
    if prev in ("B", "I") and prefix in ("B", "S", "O"):
        return True
    return prev != "O" and prev_type != chunk_type


def _starts(prev: str, prefix: str, prev_type: str, chunk_type: str) -> bool:
    # conlleval's startOfChunk, extended for S as seqeval does.
    if prefix in ("B", "S"):
        return True
    if prev in ("E", "S", "O") and prefix in ("I", "E"):
        return True
    return prefix != "O" and prev_type != chunk_type


def chunks(tags: Sequence[str], *, typed: bool = True) -> list[Chunk]:
    """The chunks of one tag sequence, with conlleval's semantics for ill-formed sequences.

    With ``typed=False`` every type is dropped before extraction, so chunk boundaries alone are
    compared (the paper's NER setting: "boundaries ... without recognizing their type labels").

    Parameters
    ----------
    tags : sequence of str
        One sentence's tags.
    typed : bool, default True
        Whether chunks keep their types.

    Returns
    -------
    list of Chunk
        ``(start, end, type)`` of every chunk, end exclusive.

    Examples
    --------
    >>> chunks(["B-NP", "I-NP", "O", "I-VP", "B-VP", "I-PP"])
    [(0, 2, 'NP'), (3, 4, 'VP'), (4, 5, 'VP'), (5, 6, 'PP')]
    >>> chunks(["B-PER", "I-LOC"], typed=False)
    [(0, 2, '')]
    """
    found: list[Chunk] = []
    prev, prev_type, start = "O", "", -1
    for i, tag in enumerate([*tags, "O"]):
        prefix, chunk_type = split_tag(tag)
        if not typed:
            chunk_type = ""
        if start >= 0 and _ends(prev, prefix, prev_type, chunk_type):
            found.append((start, i, prev_type))
            start = -1
        if _starts(prev, prefix, prev_type, chunk_type):
            start = i
        prev, prev_type = prefix, chunk_type
    return found


def _tag(prefix: str, chunk_type: str) -> str:
    return f"{prefix}-{chunk_type}" if chunk_type else prefix


def chunks_to_tags(found: Iterable[Chunk], length: int, scheme: str) -> list[str]:
    """Write non-overlapping chunks as a well-formed tag sequence in ``scheme``.

    Parameters
    ----------
    found : iterable of Chunk
        Non-overlapping ``(start, end, type)`` chunks.
    length : int
        The sentence's length.
    scheme : {'IOB1', 'IOB2', 'IOBES'}
        The tag scheme.

    Returns
    -------
    list of str
        The tags.

    Examples
    --------
    >>> chunks_to_tags([(0, 1, "NP"), (1, 3, "NP")], 3, "IOB1")
    ['I-NP', 'B-NP', 'I-NP']
    """
    check_scheme_name(scheme)
    tags = ["O"] * length
    previous_end, previous_type = -1, None
    for start, end, chunk_type in sorted(found):
        if scheme == "IOBES" and end - start == 1:
            tags[start] = _tag("S", chunk_type)
        else:
            first = "B"
            if scheme == "IOB1":
                # IOB1 uses B only to separate a chunk from a preceding one of the same type.
                first = "B" if (previous_end == start and previous_type == chunk_type) else "I"
            tags[start] = _tag(first, chunk_type)
            for i in range(start + 1, end):
                tags[i] = _tag("I", chunk_type)
            if scheme == "IOBES":
                tags[end - 1] = _tag("E", chunk_type)
        previous_end, previous_type = end, chunk_type
    return tags


def convert(tags: Sequence[str], scheme: str) -> list[str]:
    """Convert a tag sequence in any scheme to ``scheme`` (the chunks are kept exactly).

    Parameters
    ----------
    tags : sequence of str
        One sentence's tags.
    scheme : {'IOB1', 'IOB2', 'IOBES'}
        The scheme to write.

    Returns
    -------
    list of str
        The tags.

    Examples
    --------
    >>> convert(["B-NP", "I-NP", "B-VP"], "IOBES")
    ['B-NP', 'E-NP', 'S-VP']
    """
    return chunks_to_tags(chunks(tags), len(tags), scheme)


def strip_types(tags: Sequence[str], scheme: str) -> list[str]:
    """The same chunks without their types, written in ``scheme`` (untyped training, issue 20).

    The chunks are read with their types first, so two adjacent chunks of different types stay
    two chunks (``I-PER I-LOC`` in IOB1 becomes ``I B``): only the labels go, never a boundary.

    Parameters
    ----------
    tags : sequence of str
        One sentence's tags.
    scheme : {'IOB1', 'IOB2', 'IOBES'}
        The tag scheme.

    Returns
    -------
    list of str
        The tags.

    Examples
    --------
    >>> strip_types(["B-PER", "I-PER", "B-LOC", "O"], "IOBES")
    ['B', 'E', 'S', 'O']
    """
    return chunks_to_tags([(start, end, "") for start, end, _ in chunks(tags)], len(tags), scheme)


def check_scheme_name(scheme: str) -> str:
    """``scheme`` itself when it names a tag scheme; a ValueError listing the schemes otherwise.

    Parameters
    ----------
    scheme : str
        The name.

    Returns
    -------
    str
        The name.
    """
    if scheme not in SCHEMES:
        raise ValueError(f"unknown tag scheme {scheme!r}; expected one of {', '.join(SCHEMES)}")
    return scheme


def first_violation(tags: Sequence[str], scheme: str) -> int | None:
    """Index of the first tag that makes ``tags`` ill-formed in ``scheme``, or None if well-formed.

    Well-formed means ``convert(tags, scheme) == tags``: the sequence is exactly how ``scheme``
    writes its own chunks.

    Parameters
    ----------
    tags : sequence of str
        One sentence's tags.
    scheme : {'IOB1', 'IOB2', 'IOBES'}
        The tag scheme.

    Returns
    -------
    int or None
        The index, or None.
    """
    expected = convert(tags, scheme)
    for i, (tag, want) in enumerate(zip(tags, expected)):
        if tag != want:
            return i
    return None


def _evidence(tags: Sequence[str]) -> dict[str, int]:
    """Positions that only one scheme can produce: the first of each kind in ``tags``."""
    seen: dict[str, int] = {}
    prev, prev_type = "O", ""
    for i, tag in enumerate(tags):
        prefix, chunk_type = split_tag(tag)
        if prefix in ("E", "S"):
            seen.setdefault("IOBES", i)
        continued = prev in ("B", "I") and prev_type == chunk_type
        if prefix == "I" and not continued:
            seen.setdefault("IOB1", i)  # a chunk opened by I: only IOB1 does that
        if prefix == "B" and not continued:
            seen.setdefault("IOB2", i)  # a B that separates nothing: never IOB1
        prev, prev_type = prefix, chunk_type
    return seen


def detect_scheme(sequences: Iterable[Sequence[str]]) -> tuple[str, list[tuple[int, int]]]:
    """The scheme of a corpus, and where its sequences are not well-formed in that scheme.

    Returns ``(scheme, ill_formed)`` with ``ill_formed`` a list of ``(sequence index, token
    index)``, the first bad tag of every ill-formed sequence. The evidence for IOB1 and IOB2 is
    counted by sequence: a chunk opened by I- is IOB1, a B- that follows no chunk of its type is
    IOB2, and the majority wins (ties and no evidence: IOB2). An E- or S- tag makes it IOBES
    where IOBES leaves no more sequences ill-formed than that. Counting keeps one annotation
    slip (CoNLL-2002 Spanish has one chunk per file that crosses a sentence break; a stray E-
    in an IOB2 corpus) from changing the scheme of a whole corpus; the slip is reported as
    ill-formed.

    Parameters
    ----------
    sequences : iterable of sequence of str
        The corpus's tag sequences.

    Returns
    -------
    (str, list of (int, int))
        The scheme and the ill-formed places.
    """
    sequences = list(sequences)
    votes = {"IOB1": 0, "IOB2": 0, "IOBES": 0}
    for tags in sequences:
        for found in _evidence(tags):
            votes[found] += 1
    scheme = "IOB1" if votes["IOB1"] > votes["IOB2"] else "IOB2"
    ill_formed = _ill_formed(sequences, scheme)
    if votes["IOBES"]:
        # an E- or S- tag says IOBES only where IOBES fits at least as many sentences: one
        # stray E- in an IOB2 corpus is that sentence's fault, not the other sentences'
        as_iobes = _ill_formed(sequences, "IOBES")
        if len(as_iobes) <= len(ill_formed):
            scheme, ill_formed = "IOBES", as_iobes
    return scheme, ill_formed


def _ill_formed(sequences: list[Sequence[str]], scheme: str) -> list[tuple[int, int]]:
    """(sequence index, token index) of the first bad tag of every sequence ill-formed in
    ``scheme``."""
    found = []
    for s, tags in enumerate(sequences):
        i = first_violation(tags, scheme)
        if i is not None:
            found.append((s, i))
    return found
