"""`reprocompare init DIR --corpus FILE`: a study's folder with a commented config ready to run.

The config is written from what the corpus holds (its columns, tag scheme, chunk types and size,
read and validated as the workflow's corpus job reads it) and from the config schema: every
value the corpus does not decide is the schema's default, and every key carries the first
sentence of the schema's description as its comment. The text is validated as the workflow
validates it before it is written, so `reprocompare run DIR` starts from a config that passes.
Nothing is written when something is wrong (a file that is not a corpus, a bad model spec, a
config already there without --force).
"""

from __future__ import annotations

import argparse
import re
import shlex
import shutil
import sys
import textwrap
from pathlib import Path

import yaml

from reprocompare.base.errors import UserError
from reprocompare.base.paths import COMPARE
from reprocompare.base.files import write_text_atomic
from reprocompare.corpora.conll import DOCSTART, check_has_chunks, read_conll, read_lines
from reprocompare.corpora.schemes import is_chunk_tag, split_tag
from reprocompare import schemas
from reprocompare.study.config import load_yaml, model_entry, validate

#: the config a study's folder holds (`reprocompare run DIR` reads it)
CONFIG_NAME = "config.yaml"
#: the pair of models compared when --a and --b are not given: the demo's CRF, trained on IOB2
#: and on IOBES tags (the paper's tag-scheme comparison)
DEFAULT_A, DEFAULT_B = "crf:scheme=IOB2", "crf:scheme=IOBES"
#: token lines read to find the column of the chunk tags
PROBE_LINES = 2000
#: the sections written, in this order (the others keep their defaults, unwritten)
SECTIONS = ("corpora", "models", "comparisons", "strategies", "repetitions", "seed", "verdict")
#: the keys of a corpus entry written (the others keep their defaults, unwritten)
CORPUS_KEYS = ("path", "token_column", "tag_column", "scheme", "typed", "subsample")
WIDTH = 99
#: the longest part of a model's name taken from one of its values (a model folder's name)
NAME_PART = 24
#: a word of a command that can be rewritten in place (no quotes, no shell syntax)
_PLAIN_WORD = re.compile(r"[A-Za-z0-9_./+~-]+")


def add_parser(sub) -> None:
    """``reprocompare init``, registered on the CLI's subcommands.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The CLI's subcommands.
    """
    init = sub.add_parser(
        "init", help="start a study: DIR/config.yaml for a corpus, ready for `reprocompare run`",
        description="Write DIR/config.yaml: a commented study config for the corpus FILE (its "
                    "columns, tag scheme and size read from it; every other value the config "
                    "schema's default) comparing model A with model B. Then: reprocompare run "
                    "DIR.")
    init.add_argument("directory", metavar="DIR",
                      help="the study's folder (created if missing)")
    init.add_argument("--corpus", required=True, metavar="FILE",
                      help="CoNLL column file (plain or .gz)")
    init.add_argument("--a", default=DEFAULT_A, metavar="SPEC",
                      help=f"model A ({DEFAULT_A}; every type and hyperparameter: "
                           "`reprocompare models`; a relative path in it is read from the "
                           "folder init runs in)")
    init.add_argument("--b", default=DEFAULT_B, metavar="SPEC", help=f"model B ({DEFAULT_B})")
    init.add_argument("--ill-formed", default="error", choices=["error", "repair"],
                      help="sentences whose tags are not well-formed in the corpus's scheme: "
                           "stop (error) or re-encode them as conlleval reads them (repair, "
                           "written into the config as the corpus's ill_formed)")
    init.add_argument("--force", action="store_true",
                      help="replace an existing DIR/config.yaml")
    init.set_defaults(run=cmd_init)


def cmd_init(args: argparse.Namespace) -> int:
    """``reprocompare init``: write a study's config.yaml for a corpus and two models.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit status (0).
    """
    path = init_study(args.directory, args.corpus, a=args.a, b=args.b, force=args.force,
                      ill_formed=args.ill_formed, warn=lambda line: print(
                          f"reprocompare init: warning: {line}", file=sys.stderr))
    print(f"wrote {path}; run the study with: reprocompare run {args.directory}")
    return 0


def tag_column(path: Path) -> int:
    """The column of the chunk tags: the last one whose values are all chunk tags in the first
    token lines (-1, the schema's default, when that is the last column or none is; reading
    the corpus then says what is wrong).

    Parameters
    ----------
    path : pathlib.Path
        The corpus file.

    Returns
    -------
    int
        The column's index.
    """
    lines, _ = read_lines(path)
    rows = [fields for fields in (line.split() for line in lines)
            if fields and fields[0] != DOCSTART][:PROBE_LINES]
    width = len(rows[0]) if rows else 0
    if width < 2 or any(len(row) != width for row in rows):
        return -1
    for column in range(width - 1, 0, -1):
        if all(is_chunk_tag(row[column]) for row in rows):
            return -1 if column == width - 1 else column
    return -1


def corpus_name(path: Path) -> str:
    """A config name for the corpus (the schema's pattern): its file name before the first dot.

    Parameters
    ----------
    path : pathlib.Path
        The corpus file.

    Returns
    -------
    str
        The name.
    """
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", path.name.split(".")[0]).lstrip(".")
    return name or "corpus"


def _first_sentence(text: str) -> str:
    """Up to the first full stop outside parentheses that a capital letter follows."""
    depth = 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "." and depth == 0 and text[i + 1:i + 2] == " " and text[i + 2:i + 3].isupper():
            return text[:i + 1]
    return text if text.endswith(".") else text + "."


def _shown(text: str) -> str:
    """``text`` safe in a YAML comment: what is not printable (a newline in a file name would
    end the comment and start a key) as its escape."""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def _comment(text: str | None, indent: str) -> list[str]:
    if not text:
        return []
    sentence = _shown(_first_sentence(" ".join(text.split(" "))))
    return textwrap.wrap(sentence, WIDTH - len(indent) - 2, initial_indent=f"{indent}# ",
                         subsequent_indent=f"{indent}# ")


def _scalar(value) -> str:
    """A value as one line of YAML (flow style)."""
    return yaml.safe_dump(value, default_flow_style=True, width=10_000, sort_keys=False,
                          allow_unicode=True).strip().removesuffix("\n...").removesuffix("...")\
        .strip()


def _emit(value: dict, schema: dict, indent: str, notes: dict) -> list[str]:
    """``value`` (a mapping) as commented YAML: each key under the schema's description of it,
    or ``notes``'s line where the corpus decided it."""
    lines = []
    properties = schema.get("properties", {})
    extra = schema.get("additionalProperties")
    named = isinstance(extra, dict) and not properties  # a mapping of named entries
    for key, item in value.items():
        sub = properties.get(key) or (extra if isinstance(extra, dict) else {})
        lines += _comment(notes.get(key, (sub.get("description") or "").strip()), indent)
        # a mapping of fixed keys (or of named entries) opens up, one commented key a line;
        # a free one (a model's hyperparameters) stays on one line
        entries = isinstance(sub.get("additionalProperties"), dict) and not sub.get("properties")
        nested = isinstance(item, dict) and item and (
            sub.get("additionalProperties") is False or entries)
        # a name (of a corpus, a model, a comparison) in quotes: YAML reads 2002, 1.5, yes,
        # null or 2002-01-01 unquoted as a number, a boolean, null or a date
        shown = _quoted(key) if named else key
        if nested:
            lines.append(f"{indent}{shown}:")
            lines += _emit(item, sub, indent + "  ", notes.get(f"{key}.", {}))
        else:
            lines.append(f"{indent}{shown}: {_scalar(item)}")
    return lines


def _quoted(name: str) -> str:
    """A name as a YAML string in single quotes (a quote inside doubled)."""
    return "'" + name.replace("'", "''") + "'"


def _part(value) -> str:
    """A value of a spec as a piece of a name: a path or hub name by its last part, a number or
    word as written, characters a name may not hold as hyphens."""
    text = str(value).rstrip("/")
    if "/" in text:
        text = text.rsplit("/", 1)[1]
    text = re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-.")
    return text[:NAME_PART].strip("-.")


def _program(command: str) -> str:
    """The script a command runs (its first word that is a file, by its stem), else its first
    word: ``python tag.py train ...`` is ``tag``."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    files = [word for word in words if "{" not in word and Path(word).is_file()
             and Path(word).name not in ("python", "python3")]
    return Path(files[0]).stem if files else (words[0] if words else "")


def _name_parts(entry: dict, other: dict) -> list[str]:
    """What tells the model of ``entry`` from that of ``other``: its values that differ (a
    model folder by its name, a hyperparameter as key-value), and its scheme where the schemes
    differ or nothing else names it."""
    parts, program = [], None
    for key, value in entry.items():
        if key in ("type", "scheme") or (entry["type"] == other["type"]
                                         and other.get(key) == value):
            continue
        if key in ("train", "predict"):  # a command: by the program or script it runs
            if program == (program := _part(_program(value))):
                continue
            part = program
        else:
            part = _part(value)
        if key not in ("model", "path", "class", "train", "predict"):
            part = f"{key}-{part}" if part else ""
        if part:
            parts.append(part)
    if entry["scheme"] != other["scheme"] or not parts:
        parts.insert(0, entry["scheme"].lower())
    return parts


def model_names(a: dict, b: dict) -> tuple[str, str]:
    """The config names of models A and B, from their entries (:func:`model_entry`): the type
    and what tells the two apart, e.g. ``crf_iob2`` and ``crf_iobes``, or ``crf_iob2`` and
    ``transformers_tiny-bert`` (every table then says which model is which); ``_a`` and ``_b``
    added where the two would read the same.

    Parameters
    ----------
    a, b : dict
        The entries of models A and B.

    Returns
    -------
    (str, str)

    Examples
    --------
    >>> model_names({"type": "crf", "scheme": "IOB2"}, {"type": "crf", "scheme": "IOBES"})
    ('crf_iob2', 'crf_iobes')
    >>> model_names({"type": "crf", "scheme": "IOB2", "c1": 0.1},
    ...             {"type": "crf", "scheme": "IOB2", "c1": 0.5})
    ('crf_c1-0.1', 'crf_c1-0.5')
    """
    names = ["_".join([_part(entry["type"]) or "model", *_name_parts(entry, other)])
             for entry, other in ((a, b), (b, a))]
    if names[0] == names[1]:
        names = [f"{names[0]}_a", f"{names[1]}_b"]
    return names[0], names[1]


def _absolute_words(command: str) -> str:
    """``command`` with each plain word (or ``--option=word``) that names a file or folder
    relative to here written as its absolute path: the study's jobs run in its own folder."""
    try:
        words = shlex.split(command)
    except ValueError:  # an unbalanced quote: the spec's check says so
        return command
    for word in dict.fromkeys(words):
        for candidate in dict.fromkeys((word, word.partition("=")[2])):
            if candidate and _PLAIN_WORD.fullmatch(candidate) and "{" not in candidate \
                    and not Path(candidate).expanduser().is_absolute() \
                    and Path(candidate).expanduser().exists():
                absolute = shlex.quote(str(Path(candidate).expanduser().absolute()))
                command = re.sub(rf"(?<![^\s=]){re.escape(candidate)}(?!\S)", absolute.replace(
                    "\\", "\\\\"), command)
    return command


def resolved_entry(entry: dict) -> dict:
    """A model's config entry with every path in it that exists relative to the folder init
    runs in written absolute (a model folder, a tagger's code folder, a file a command names):
    `reprocompare run` works in the study's folder, where a relative path means another place.
    A value that names nothing here (a hub model's name) is left as written.

    Parameters
    ----------
    entry : dict
        The entry (:func:`reprocompare.study.config.model_entry`).

    Returns
    -------
    dict
        The entry, its paths absolute.
    """
    out = dict(entry)
    for key, value in entry.items():
        if key in ("type", "scheme", "class") or not isinstance(value, str):
            continue
        if entry["type"] == "command" and key in ("train", "predict"):
            out[key] = _absolute_words(value)
        elif value.strip() and not Path(value).expanduser().is_absolute() \
                and Path(value).expanduser().exists():
            out[key] = str(Path(value).expanduser().absolute())
    return out


def config_text(corpus_path: Path, a: str, b: str, source: str,
                ill_formed: str = "error") -> str:
    """The commented config of a study of ``corpus_path`` comparing ``a`` with ``b``.

    Parameters
    ----------
    corpus_path : pathlib.Path
        The corpus file.
    a, b : str
        The specs of models A and B.
    source : str
        The corpus's path as the config names it.
    ill_formed : {"error", "repair"}, default "error"
        What to do with sentences whose tags are not well-formed (the corpus's ``ill_formed``).

    Returns
    -------
    str
        The config's YAML text.
    """
    corpus_path = corpus_path.absolute()
    if not corpus_path.exists():
        raise UserError("no such file", path=corpus_path, key="--corpus")
    try:
        column = tag_column(corpus_path)
        corpus = read_conll(corpus_path, tag_column=column, ill_formed=ill_formed)
        check_has_chunks(corpus)  # nothing to compare on: every F1 would be 0
    except UserError as error:  # said as what it means here: this file cannot be studied
        # the reader's advice, in the words of this command
        message = error.message.replace("let ill_formed=repair re-encode them",
                                        "give --ill-formed repair to re-encode them")
        raise UserError(f"not a corpus reprocompare can study: {message}",
                        path=error.path, line=error.line) from None
    name = corpus_name(corpus_path)
    entries = resolved_entry(model_entry(a, "--a")), resolved_entry(model_entry(b, "--b"))
    a_name, b_name = model_names(*entries)
    types = sorted({split_tag(tag)[1] for sentence in corpus.sentences for tag in sentence.tags
                    if tag != "O"} - {""})
    # bare B, I, O tags: chunks without types, scored by their boundaries
    typed = bool(types)
    config = validate({"corpora": {name: {"path": str(corpus_path), "tag_column": column,
                                          "scheme": corpus.scheme, "typed": typed,
                                          "ill_formed": ill_formed}},
                       "models": {a_name: entries[0], b_name: entries[1]},
                       "comparisons": {f"{a_name}_vs_{b_name}": {
                           "a": a_name, "b": b_name, "corpora": [name]}}},
                      source=source)
    keys = CORPUS_KEYS + (("ill_formed",) if ill_formed != "error" else ())
    config["corpora"][name] = {key: config["corpora"][name][key] for key in keys}
    columns = len(corpus.sentences[0].features) + 2
    shown = ", ".join(types[:12]) + (f" and {len(types) - 12} more" if len(types) > 12 else "")
    corpus_notes = {
        "path": "The corpus file (an absolute path: the study runs in its own folder).",
        "tag_column": f"The gold chunk tags: column {column % columns + 1} of {columns} "
                      "(counted from 0 here; negative counts from the end), found as the last "
                      "column of chunk tags.",
        "scheme": f"Tag scheme: {corpus.scheme}, detected in the corpus (auto detects it "
                  "again on every run).",
        "typed": f"Typed chunks ({len(types)} types: {shown}); false scores boundaries only."
                 if typed else "Chunks without types (bare B, I, O tags): scored by their "
                               "boundaries.",
        "ill_formed": "Sentences whose tags are not well-formed in the scheme are re-encoded "
                      "as conlleval reads them (init --ill-formed repair); error would stop "
                      "on the first.",
        "subsample": f"The corpus has {len(corpus):,} sentences ({corpus.n_tokens:,} tokens); "
                     "a number here studies a random subset of that many sentences (quicker "
                     "for a first look), null the whole corpus.",
    }
    notes = {"corpora.": {f"{name}.": corpus_notes},
             "models": f"The two taggers compared: {a_name}, trained from --a, and "
                       f"{b_name}, from --b (their types and hyperparameters: `reprocompare "
                       "models`; a `label:` names one in tables; a relative path is read from "
                       "the study's folder)."}
    header = [*textwrap.wrap(f"A reprocompare study: does {a_name} > {b_name} reproduce on "
                             f"{name}? Written "
                             f"by `reprocompare init` from {_shown(str(corpus_path))}.",
                             WIDTH - 2, initial_indent="# ", subsequent_indent="# ",
                             break_long_words=False, break_on_hyphens=False),
              "# Run it with `reprocompare run DIR` (DIR: this file's folder). Keys not "
              "written here keep their",
              "# defaults; every key, its default and its meaning: the config reference "
              "(docs/config.md).", ""]
    lines = header + _emit({key: config[key] for key in SECTIONS}, schemas.schema(), "", notes)
    return "\n".join(lines) + "\n"


def init_study(directory: str | Path, corpus: str | Path, *, a: str = DEFAULT_A,
               b: str = DEFAULT_B, force: bool = False, ill_formed: str = "error",
               warn=None) -> Path:
    """Write ``directory``/config.yaml for a study of ``corpus`` comparing ``a`` with ``b``;
    nothing is written (nor any folder made) when the corpus, a spec or the folder is wrong.

    Parameters
    ----------
    directory : str or os.PathLike
        The study's directory.
    corpus : str or os.PathLike
        The corpus file.
    a : str, default DEFAULT_A
        Model A's spec.
    b : str, default DEFAULT_B
        Model B's spec.
    force : bool, default False
        Overwrite a config.yaml that exists.
    ill_formed : {"error", "repair"}, default "error"
        What to do with sentences whose tags are not well-formed.
    warn : callable, optional
        Called with a line before the config is written into a folder that holds results.

    Returns
    -------
    pathlib.Path
        The config written.
    """
    for given, option in ((directory, "DIR"), (corpus, "--corpus")):
        if not str(given).strip():  # Path("") is ".": the current folder, unasked
            raise UserError("is empty (an unset shell variable?): name the "
                            f"{'study folder' if option == 'DIR' else 'corpus file'}",
                            key=option)
    directory, corpus = Path(directory), Path(corpus)
    target = directory / CONFIG_NAME
    if directory.exists() and not directory.is_dir():
        raise UserError("is a file; DIR names the study's folder", path=directory)
    if target.exists() and not force:
        raise UserError("exists: a study's config is never overwritten; give --force to "
                        "replace it, or choose another DIR", path=target)
    text = config_text(corpus, a, b, str(target), ill_formed)
    # what the workflow will read: the text as written, validated again
    validate(yaml.safe_load(text), source=str(target))
    results = directory / COMPARE
    if warn is not None and results.is_dir() and any(results.iterdir()):
        warn(f"{results} holds a study's results: `reprocompare run {directory}` keeps those "
             "this config asks for again and reruns the rest; move the folder away first for "
             "a fresh study")
    made = not directory.exists()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        write_text_atomic(target, text)
        load_yaml(target)  # a key given twice, as the workflow checks it
    except BaseException:
        if made:
            shutil.rmtree(directory, ignore_errors=True)
        raise
    return target
