"""A tagger from any framework: two shell commands, run once per fold (``type: command``).

::

    models:
      mine:
        type: command
        train: "python my_tagger.py train {train} {model_dir}"
        predict: "python my_tagger.py predict {model_dir} {input} {output}"

``fit`` writes the fold's training sentences to ``{train}`` (CoNLL: token, the corpus's extra
columns, gold tag in the model's ``scheme``; a blank line after each sentence) and runs ``train``
with ``{model_dir}``, an empty directory private to this model and fold. ``predict`` writes the
sentences to tag to ``{input}`` (the same columns without the tag) and runs ``predict``, which
must write ``{output}``: token and predicted tag per line, a blank line after each sentence.
``{seed}`` is the fold's training seed (the same for models A and B of a fold) and ``{scheme}``
the scheme of the tags in ``{train}``, in which ``{output}`` must answer. Paths are shell-quoted;
write ``{{`` and ``}}`` for literal braces.

The output is checked before it is scored: as many sentences as in ``{input}``, the same tokens,
and every tag ``O`` or a prefix of the scheme, a hyphen and a type. Every problem, and a command
that exits non-zero (its exit status and the tail of its stderr), is a UserError; the compare
step adds the fold and the model. The tags are those of the model's ``scheme``, with a type
when {train} held typed tags and bare (``B``, ``I``) when it held bare ones (an untyped task,
``typed: false``): the check every tagger's output meets (models.base.tag_problem). A command
that runs longer than ``timeout`` seconds (default 86400, a day) is killed with every process it
started (its own process group, and any descendant that left it) and is a UserError saying
what was killed and what, if anything, survived; processes a command leaves running when it
exits are killed too, with a warning in the job's log (models.processes). The files live in a temporary directory
(``reprocompare-command-HOST-PID-*``) removed when the model is, on any failure or interrupt at
once, and at exit, a SIGTERM included (it becomes a normal exit); one that a SIGKILL left behind
is removed by the next run on the same host, once its process is gone: nothing partial remains.
"""

from __future__ import annotations

import glob
import os
import shlex
import shutil
import signal
import socket
import string
import sys
import tempfile
import threading
import weakref
from pathlib import Path
from typing import Hashable, Sequence

from reprocompare.base.errors import UserError
from reprocompare.corpora.conll import Sentence
from reprocompare.models.base import (SCHEME_PARAM, TIMEOUT_PARAM, Featurized, Param,
                                      SequenceTagger, tag_problem)
from reprocompare.models.processes import DEFAULT_TIMEOUT, MAX_TIMEOUT, run_command

#: The placeholders each command may use; the first ones listed for a command it must use.
TRAIN_FIELDS = ("train", "model_dir", "seed", "scheme")
PREDICT_FIELDS = ("model_dir", "input", "output", "seed", "scheme")
_MUST = {"train": ("train",), "predict": ("input", "output")}
#: Lines of a failing command's stderr shown in the error.
STDERR_TAIL = 20
__all__ = ["CommandTagger", "read_predictions", "DEFAULT_TIMEOUT", "MAX_TIMEOUT"]
#: How the temporary directories begin: the host and process own them.
_WORK_PREFIX = "reprocompare-command-"


def _work_prefix(pid: int | None = None) -> str:
    return f"{_WORK_PREFIX}{socket.gethostname()}-{os.getpid() if pid is None else pid}-"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def _sweep_left_behind() -> None:
    """Remove the temporary directories of this host's processes that are gone (a SIGKILL or a
    power cut gives no process the chance to clean up after itself)."""
    mine = f"{_WORK_PREFIX}{socket.gethostname()}-"
    for path in Path(tempfile.gettempdir()).glob(f"{glob.escape(mine)}*"):
        pid = path.name[len(mine):].split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


def _exit_on_sigterm(signum, frame):
    raise SystemExit(128 + signum)


def _clean_up_on_sigterm() -> None:
    """Make a SIGTERM (Snakemake's or a scheduler's kill) a normal exit, which runs the
    finalizers that remove the temporary directories; only in the main thread, and only where
    nothing else handles SIGTERM already."""
    if threading.current_thread() is threading.main_thread() \
            and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _exit_on_sigterm)


def _check_command(name: str, allowed: tuple[str, ...]):
    def check(text: str) -> str | None:
        if not text.strip():
            return "must be a shell command"
        try:
            fields = {field for _, field, _, _ in string.Formatter().parse(text)
                      if field is not None}
        except ValueError as error:
            return f"is not a command template ({error}); write {{{{ and }}}} for literal braces"
        unknown = sorted(fields - set(allowed))
        if unknown:
            return (f"uses unknown placeholder {{{unknown[0]}}}; allowed: "
                    f"{', '.join('{' + f + '}' for f in allowed)}")
        missing = [f for f in _MUST[name] if f not in fields]
        if missing:
            return f"must use {{{missing[0]}}}"
        return None
    return check


def _conll(sentences: Sequence[Sentence], tags: Sequence[Sequence[str]] | None) -> str:
    lines = []
    for s, sentence in enumerate(sentences):
        for i, token in enumerate(sentence.tokens):
            columns = [token, *(column[i] for column in sentence.features)]
            if tags is not None:
                columns.append(tags[s][i])
            lines.append(" ".join(columns))
        lines.append("")
    return "\n".join(lines) + "\n" if lines else ""


class CommandTagger(SequenceTagger):
    """A tagger whose training and prediction are two shell commands (see the module docstring).

    Parameters
    ----------
    scheme : {"IOB2", "IOBES", "IOB1"}
        Scheme of the tags in ``{train}`` and of the tags the predict command writes; they are
        returned in the corpus's scheme.
    train : str
        Training command; must use ``{train}``; may use ``{model_dir}``, ``{seed}``, ``{scheme}``.
    predict : str
        Prediction command; must use ``{input}`` and ``{output}``; may use ``{model_dir}``,
        ``{seed}``, ``{scheme}``.
    timeout : float
        Seconds each command may run (default 86400, a day); then it is killed with every
        process it started, and that is a UserError.
    random_state : int or None
        The ``{seed}`` (0 when None).
    """

    name = "command"
    PARAMS = (
        SCHEME_PARAM,
        Param("train", str, "", _check_command("train", TRAIN_FIELDS), required=True,
              help="shell command that trains: {train} {model_dir} {seed} {scheme}"),
        Param("predict", str, "", _check_command("predict", PREDICT_FIELDS), required=True,
              help="shell command that writes {output} (token and tag per line) from {input}: "
                   "{model_dir} {input} {output} {seed} {scheme}"),
        TIMEOUT_PARAM,
    )

    @classmethod
    def source_files(cls, params: dict) -> list[Path]:
        """The files the two commands name, by path relative to the working directory or
        absolute (``python my_tagger.py train ...`` names my_tagger.py; ``--config=x.yaml``
        names x.yaml): editing them reruns the jobs that train this model. An interpreter or a
        program on PATH is not a file here, and is not hashed."""
        found = set()
        for command in (params.get("train", ""), params.get("predict", "")):
            try:
                words = shlex.split(command)
            except ValueError:  # the spec check reports an unbalanced quote
                continue
            for word in words:
                for candidate in (word, word.partition("=")[2]):
                    if candidate and "{" not in candidate and Path(candidate).is_file():
                        found.add(Path(candidate).resolve())
        return sorted(found)

    def __init__(self, scheme="IOB2", train="", predict="", timeout=DEFAULT_TIMEOUT,
                 random_state=None):
        self.scheme = scheme
        self.train = train
        self.predict_command = predict
        self.timeout = timeout
        self.random_state = random_state

    # scikit-learn's get_params reads attributes named as the __init__ arguments; ``predict`` is
    # the method, so the command is stored as ``predict_command`` and mapped here.
    def get_params(self, deep=True):
        return {"scheme": self.scheme, "train": self.train, "predict": self.predict_command,
                "timeout": self.timeout, "random_state": self.random_state}

    def set_params(self, **params):
        for key, value in params.items():
            if key not in self.get_params():
                raise ValueError(f"invalid parameter {key!r} for CommandTagger")
            setattr(self, "predict_command" if key == "predict" else key, value)
        return self

    def _check_params(self) -> None:
        for param in self.PARAMS:
            value = self.get_params()[param.name]
            if param.type is float:
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise UserError(f"must be a number, got {value!r}", key=param.name)
            elif not isinstance(value, str):
                raise UserError(f"must be a string, got {value!r}", key=param.name)
            problem = param.problem(value)
            if problem:
                raise UserError(problem, key=param.name)

    # ----------------------------------------------------------------- features
    def feature_key(self) -> Hashable:
        """The sentences themselves: every command model shares one Featurized."""
        return ("command", 1)

    def featurize(self, sentences: Sequence[Sentence]) -> Featurized:
        return Featurized(self.feature_key(), list(sentences))

    # ----------------------------------------------------------------- running
    def _seed(self) -> int:
        return 0 if self.random_state is None else int(self.random_state)

    def _run(self, which: str, template: str, **paths: str) -> None:
        fields = {name: shlex.quote(path) for name, path in paths.items()}
        command = template.format(seed=self._seed(), scheme=self.scheme, **fields)
        # Its output goes to ours (the job's log): stdout as it comes, stderr once it is done
        # (kept to quote its tail when the command fails). Its own process group, so that a
        # timeout or an interrupt kills the shell and everything it started, not the shell
        # alone; what it leaves running when it exits is killed too (models.processes).
        status, stderr, left = run_command(command, timeout=self.timeout, which=which)
        if left:
            stderr += f"warning: {left}\n"
        if status == 0:
            sys.stderr.write(stderr)
        else:
            tail = stderr.rstrip().splitlines()[-STDERR_TAIL:]
            shown = "\n".join(f"    {line}" for line in tail) or "    (nothing on stderr)"
            raise UserError(f"the {which} command failed with exit status "
                            f"{status}: {command}\n  its stderr ends with:\n{shown}",
                            key=which)

    def _release(self) -> None:
        finalizer = getattr(self, "_finalizer", None)
        if finalizer is not None:
            finalizer()

    def _fit(self, featurized: Featurized, y: list[list[str]]) -> None:
        self._release()  # a refit starts from an empty model directory
        _sweep_left_behind()
        _clean_up_on_sigterm()
        work = tempfile.mkdtemp(prefix=_work_prefix())
        # removed with the model (or at exit); never left behind by a failure
        self._finalizer = weakref.finalize(self, shutil.rmtree, work, ignore_errors=True)
        self.work_dir_ = work
        model_dir = os.path.join(work, "model")
        os.mkdir(model_dir)
        train = os.path.join(work, "train.conll")
        try:
            Path(train).write_text(_conll(featurized.rows, y), encoding="utf-8")
            self._run("train", self.train, train=train, model_dir=model_dir)
        except BaseException:
            self._release()
            raise
        self.labels_ = sorted({tag for tags in y for tag in tags})

    def _predict(self, featurized: Featurized) -> list[list[str]]:
        if not os.path.isdir(getattr(self, "work_dir_", "")):
            raise ValueError("this CommandTagger's model directory is gone (was it pickled or "
                             "released?); fit it again")
        work = tempfile.mkdtemp(prefix="predict-", dir=self.work_dir_)
        try:
            source = os.path.join(work, "input.conll")
            output = os.path.join(work, "output.conll")
            Path(source).write_text(_conll(featurized.rows, None), encoding="utf-8")
            self._run("predict", self.predict_command, input=source, output=output,
                      model_dir=os.path.join(self.work_dir_, "model"))
            return read_predictions(output, featurized.rows, self.scheme,
                                    getattr(self, "typed_tags_", True))
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def __getstate__(self):
        raise TypeError("a fitted CommandTagger is a directory its commands wrote; it does not "
                        "pickle")


def read_predictions(path: str, sentences: Sequence[Sentence], scheme: str,
                     typed: bool | None = True) -> list[list[str]]:
    """The tags of a predict command's output, checked against the sentences it was given.

    Every problem is a UserError naming the output and its line: a missing file, a line without
    a tag, a token that differs from the input, too few or too many sentences, a tag that is not
    ``O`` or one of the scheme's prefixes, a hyphen and a type (``typed``), or a bare prefix
    when {train} held bare tags (an untyped task, ``typed=False``): the check of every tagger's
    tags, :func:`reprocompare.models.base.tag_problem`.

    Parameters
    ----------
    path : str
        The command's output file.
    sentences : sequence of Sentence
        The sentences.
    scheme : str
        The tag scheme.
    typed : bool or None, default True
        Whether the training tags carried types.

    Returns
    -------
    list of list of str
        One tag sequence per sentence.
    """
    where = "the predict command's {output}"
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError("was not written", path=where) from None
    except UnicodeDecodeError as error:
        raise UserError(f"is not UTF-8 text ({error.reason})", path=where) from None
    predicted: list[list[str]] = []
    current: list[str] = []
    lines = text.splitlines()

    def close(line: int) -> None:
        s = len(predicted)
        if s >= len(sentences):
            raise UserError(f"more sentences than the {len(sentences)} in {{input}}",
                            path=where, line=line)
        if len(current) != len(sentences[s]):
            raise UserError(f"sentence {s + 1} has {len(current)} tokens, {{input}} has "
                            f"{len(sentences[s])}", path=where, line=line)
        predicted.append(list(current))
        current.clear()

    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields:
            if current:
                close(number)
            continue
        s, i = len(predicted), len(current)
        if s >= len(sentences):
            raise UserError(f"more sentences than the {len(sentences)} in {{input}}",
                            path=where, line=number)
        if len(fields) < 2:
            raise UserError(f"expected a token and a tag, got {line!r}", path=where, line=number)
        token, tag = fields[0], fields[-1]
        if i >= len(sentences[s]):
            raise UserError(f"sentence {s + 1} has more tokens than the {len(sentences[s])} in "
                            "{input} (a missing blank line?)", path=where, line=number)
        if token != sentences[s].tokens[i]:
            raise UserError(f"token {i + 1} of sentence {s + 1} should be "
                            f"{sentences[s].tokens[i]!r}, got {token!r}", path=where, line=number)
        problem = tag_problem(tag, scheme, typed)
        if problem:
            raise UserError(problem, path=where, line=number)
        current.append(tag)
    if current:
        close(len(lines))
    if len(predicted) != len(sentences):
        raise UserError(f"{len(predicted)} sentences, {{input}} has {len(sentences)}",
                        path=where, line=len(lines) or None)
    return predicted
