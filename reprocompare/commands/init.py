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
import shutil
import textwrap
from pathlib import Path

import yaml

from reprocompare.base.errors import UserError
from reprocompare.base.records import write_text_atomic
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
    init.add_argument("directory", type=Path, metavar="DIR",
                      help="the study's folder (created if missing)")
    init.add_argument("--corpus", type=Path, required=True, metavar="FILE",
                      help="CoNLL column file (plain or .gz)")
    init.add_argument("--a", default=DEFAULT_A, metavar="SPEC",
                      help=f"model A ({DEFAULT_A}; every type and hyperparameter: "
                           "`reprocompare models`)")
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
                      ill_formed=args.ill_formed)
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
    for key, item in value.items():
        sub = properties.get(key) or (extra if isinstance(extra, dict) else {})
        lines += _comment(notes.get(key, (sub.get("description") or "").strip()), indent)
        # a mapping of fixed keys (or of named entries) opens up, one commented key a line;
        # a free one (a model's hyperparameters) stays on one line
        entries = isinstance(sub.get("additionalProperties"), dict) and not sub.get("properties")
        nested = isinstance(item, dict) and item and (
            sub.get("additionalProperties") is False or entries)
        if nested:
            lines.append(f"{indent}{key}:")
            lines += _emit(item, sub, indent + "  ", notes.get(f"{key}.", {}))
        else:
            lines.append(f"{indent}{key}: {_scalar(item)}")
    return lines


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
    models = {"a": model_entry(a, "--a"), "b": model_entry(b, "--b")}
    config = validate({"corpora": {name: {"path": str(corpus_path), "tag_column": column,
                                          "scheme": corpus.scheme, "ill_formed": ill_formed}},
                       "models": models,
                       "comparisons": {"a_vs_b": {"a": "a", "b": "b", "corpora": [name]}}},
                      source=source)
    keys = CORPUS_KEYS + (("ill_formed",) if ill_formed != "error" else ())
    config["corpora"][name] = {key: config["corpora"][name][key] for key in keys}
    types = sorted({split_tag(tag)[1] for sentence in corpus.sentences for tag in sentence.tags
                    if tag != "O"})
    columns = len(corpus.sentences[0].features) + 2
    shown = ", ".join(types[:12]) + (f" and {len(types) - 12} more" if len(types) > 12 else "")
    corpus_notes = {
        "path": "The corpus file (an absolute path: the study runs in its own folder).",
        "tag_column": f"The gold chunk tags: column {column % columns + 1} of {columns} "
                      "(counted from 0 here; negative counts from the end), found as the last "
                      "column of chunk tags.",
        "scheme": f"Tag scheme: {corpus.scheme}, detected in the corpus (auto detects it "
                  "again on every run).",
        "typed": f"Typed chunks ({len(types)} types: {shown}); false scores boundaries only.",
        "ill_formed": "Sentences whose tags are not well-formed in the scheme are re-encoded "
                      "as conlleval reads them (init --ill-formed repair); error would stop "
                      "on the first.",
        "subsample": f"The corpus has {len(corpus):,} sentences ({corpus.n_tokens:,} tokens); "
                     "a number here studies a random subset of that many sentences (quicker "
                     "for a first look), null the whole corpus.",
    }
    notes = {"corpora.": {f"{name}.": corpus_notes},
             "models": "The two taggers compared: a, trained from --a, and b, from --b "
                       "(their types and hyperparameters: `reprocompare models`; a `label:` "
                       "names one in tables)."}
    header = [*textwrap.wrap(f"A reprocompare study: does a > b reproduce on {name}? Written "
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
               b: str = DEFAULT_B, force: bool = False, ill_formed: str = "error") -> Path:
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

    Returns
    -------
    pathlib.Path
        The config written.
    """
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
