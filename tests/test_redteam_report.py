"""Red team, round 2 (issue 34): what a user writes is data, every number is finite, the
arguments after ``--`` are kept, and an interrupted sequential study resumes.

A catalogue (``CASES``) in the form of tests/test_hostile.py's (its :class:`Case` and its two
classes): each case ends in a clean **refusal** (one line naming the key or option, no
traceback) or a correct **acceptance** (the input shown or run as written). Families:

- ``finite``: NaN and the infinities at every float key of the config schema (YAML's ``.nan``,
  ``.inf``), and at a model's hyperparameters;
- ``markup``: labels and names that are markup somewhere (HTML, reST, Jinja, Markdown, a
  terminal's escape sequences) in every renderer that prints them, which must show them
  literally;
- ``arguments``: what ``reprocompare sequential -- ...`` does with the arguments it passes on.

``benchmarks/bench_hostile.py`` counts them beside the other catalogues. The slow tests at the
end check the report in a real headless Chromium and interrupt real sequential runs.
"""

from __future__ import annotations

import copy
import html.parser
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import jinja2
import pytest
import yaml
from docutils.core import publish_parts

from conftest import snakemake
from test_hostile import (ACCEPTANCE, CONFIG, REFUSAL, Case, _library_class, _mutated_config,
                          assert_ends_in_its_class)
from test_tables import make_summary

from reprocompare.commands import sequential
from reprocompare.commands.sequential import snakemake_arguments
from reprocompare.estimators.reproducibility import summarize
from reprocompare.pipeline import provenance
from reprocompare.reports.front import answer_rst
from reprocompare.reports.html import markdown_html
from reprocompare.reports.latex import escape as latex_escape
from reprocompare.reports.latex import table3_latex, table4_latex
from reprocompare.reports.tables import table3_markdown, table3_rows, table4_markdown, table4_rows
from reprocompare.study.config import SCHEMA_PATH, validate
from reprocompare.study.summary import verdicts

TESTS = Path(__file__).resolve().parent
NAN, INF = float("nan"), float("inf")


# ------------------------------------------------------------------------ finite numbers

def schema_number_keys(node: dict | None = None, path: tuple = ()) -> list[tuple]:
    """Every key of the config schema whose type admits a number, as a path (``*`` where the
    schema allows any name)."""
    node = yaml.safe_load(SCHEMA_PATH.read_text()) if node is None else node
    types = node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]
    keys = [path] if "number" in types else []
    for key, sub in node.get("properties", {}).items():
        keys += schema_number_keys(sub, (*path, key))
    if isinstance(node.get("additionalProperties"), dict):
        keys += schema_number_keys(node["additionalProperties"], (*path, "*"))
    for sub in node.get("oneOf", []) + node.get("anyOf", []) + node.get("allOf", []):
        keys += schema_number_keys(sub, path)
    return keys


#: a name for each ``*`` of a float key's path (a searched model and its parameter)
NAMES = {("search", "models"): "crf", ("search", "models", "crf", "space"): "c1"}


def _concrete(path: tuple) -> tuple:
    out: tuple = ()
    for part in path:
        out = (*out, NAMES[out] if part == "*" else part)
    return out


def _nested(path: tuple, value):
    """``{path[0]: {path[1]: ... value}}``: the value at ``path`` in a config of its own."""
    for part in reversed(path[1:]):
        value = {part: value}
    return path[0], value


def _finite_cases() -> list[Case]:
    cases = []
    for path in map(_concrete, schema_number_keys()):
        for value, shown in ((NAN, ".nan"), (INF, ".inf"), (-INF, "-.inf")):
            top, nested = _nested(path, value)
            cases.append(Case("finite", f"{'.'.join(path)}: {shown}", ((top,), nested), REFUSAL,
                              f"{'.'.join(path)}: {value} is not a finite number"))
    # a model's hyperparameters are checked by the model, after the schema: still refused first
    for key in ("c1", "c2"):
        for value, shown in ((NAN, ".nan"), (INF, ".inf")):
            cases.append(Case("finite", f"models.crf.{key}: {shown}",
                              (("models", "crf", key), value), REFUSAL,
                              f"models.crf.{key}: {value} is not a finite number"))
    cases += [
        Case("finite", "repetitions: .inf (an integer key)", (("repetitions",), INF), REFUSAL,
             "repetitions: inf is not a finite number"),
        Case("finite", "a NaN in a list (repeated_holdout.k)",
             (("strategies", "repeated_holdout", "k"), [2, NAN]), REFUSAL,
             "strategies.repeated_holdout.k.1: nan is not a finite number"),
        Case("finite", "verdict.threshold: 0.9", (("verdict",), {"threshold": 0.9}), ACCEPTANCE),
        Case("finite", "significance.alpha: 1e-300", (("significance",), {"alpha": 1e-300}),
             ACCEPTANCE),
        Case("finite", "models.crf.c1: 1e300", (("models", "crf", "c1"), 1e300), ACCEPTANCE),
    ]
    return cases


# ------------------------------------------------------------------------ markup

ROOT = TESTS.parent
#: texts that are markup somewhere: HTML (ending the report's <script>, an event handler), reST
#: (a link to javascript:, a substitution, roles, a directive), Jinja (ending the front page's
#: raw block, an expression), Markdown, and HTML entities that must stay as typed
MARKUP = [
    "</script><svg onload=document.title=7>", "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>", "{% endraw %}{{ 7*7 }}{% raw %}", "{{ 7*7 }}", "{# x #}",
    "{%- endraw -%}", "`x <javascript:alert(1)>`_", "javascript:alert(1)", "|sub| *em* _t_",
    "**bold** `code`", ":raw-html:`<b>x</b>`", ".. raw:: html", "a & b &amp; &lt;c&gt;",
    "ends in a backslash \\", "`` double ``", "[1]_ [#]_", "CRF (IOBES)", "é ü 中文 🙂",
    "  spaces  around  ", "'\"quotes\"'", "50% <> 100%", "-", "=cmd|' /C calc'!A0",
]
#: a label that a terminal or a page would act on: refused by the config, naming the key
NOT_SHOWN = {"ESC (clears the terminal)": "a\x1b[2Jb", "BEL": "a\x07", "backspace": "AB\x08\x08",
             "a tab": "a\tb", "NUL": "a\x00b", "DEL": "a\x7fb", "a C1 control": "a\x9bb",
             "right-to-left override": "a\u202eb", "left-to-right isolate": "\u2066a",
             "line separator": "a\u2028b"}
#: the elements and attributes our renderers write; anything else came from a user's text
TAGS = {"html", "head", "meta", "title", "style", "body", "div", "p", "tt", "span", "code",
        "strong", "em", "h1", "h3", "ul", "li", "table", "colgroup", "col", "thead", "tbody",
        "tr", "th", "td", "a", "blockquote"}
ATTRIBUTES = {"class", "charset", "width", "href", "id", "name", "border", "valign"}


class _Elements(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attributes, self.hrefs, self.text = set(), set(), [], []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes |= {name for name, _ in attrs}
        self.hrefs += [value for name, value in attrs if name in ("href", "src")]

    def handle_data(self, data):
        self.text.append(data)


def injected(page: str, text: str) -> str:
    """'' when ``page`` holds only our elements and shows ``text`` literally (spaces
    collapsed), else what went wrong."""
    parser = _Elements()
    parser.feed(page)
    parser.close()
    shown = " ".join("".join(parser.text).split())
    if parser.tags - TAGS:
        return f"elements from the text: {sorted(parser.tags - TAGS)}"
    if parser.attributes - ATTRIBUTES:
        return f"attributes from the text: {sorted(parser.attributes - ATTRIBUTES)}"
    if any(not href.startswith(("#", "http")) for href in parser.hrefs):
        return f"a link from the text: {parser.hrefs}"
    if " ".join(text.split()) not in shown:
        return f"{text!r} is not shown as written"
    return ""


def snakemake_rendered(rst: str, config: dict | None = None) -> str:
    """reST as Snakemake's report renders a description or caption: a Jinja template (its
    environment's settings), then docutils' HTML."""
    class Snakemake:
        pass

    Snakemake.config = config
    environment = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)
    text = environment.from_string(rst).render(snakemake=Snakemake)
    return publish_parts(text, writer="html",
                         settings_overrides={"report_level": 5})["html_body"]


#: estimates with a spread, so that every estimator has an ordinary verdict
SPREAD = {"ST": [0.002, -0.001, 0.004, 0.003], "Avg": [0.003, 0.004, 0.002, 0.005],
          "Vote": [0.01, 0.012, 0.009, 0.011], "Mixture": [0.004, 0.001, 0.006, 0.005]}


def _summary(label_a: str) -> dict:
    # both models learned something (no warning of their own), every estimate has a spread
    per_model = make_summary()["per_model"]
    return make_summary(model_labels={"A": label_a, "B": "B"},
                        per_model={"A": per_model["A"], "B": per_model["A"]},
                        estimators={name: summarize(v).as_dict() for name, v in SPREAD.items()},
                        **verdicts(SPREAD, {}, "A>B"))


def render(where: str, text: str) -> str:
    """The page ``text`` lands on, written by the renderer ``where``."""
    if where in ("front page", "front page warning"):
        rows = table4_rows({"p on c": _summary(text if where == "front page" else "A")})
        if where == "front page warning":
            rows = [{**row, "warning": text} for row in rows]
        return snakemake_rendered(answer_rst(rows, {}))
    if where in ("description", "description command"):
        config = validate(copy.deepcopy(CONFIG), "study.yaml")
        if where == "description":
            config["models"]["crf"]["label"] = text
            config["corpora"]["tiny"]["label"] = text  # issue 36: "on tiny (label)"
        else:  # a value the schema does not bound (a command tagger's command), lines included
            config["models"]["maj"]["command"] = f"{text}\n\n.. raw:: html\n\n   <b>x</b>"
        description = (ROOT / "workflow" / "report" / "workflow.rst").read_text()
        return snakemake_rendered(description, config)
    if where == "HTML table":
        return markdown_html(f"### {text}\n\n| model | F1 |\n|---|---|\n| {text} | 1 |\n\n- {text}"
                             f"\n\n{text}", text)
    if where == "front page corpus":  # corpora.<name>.label (issue 36)
        rows = table4_rows({f"p on {text}": {**_summary("A"), "corpus_label": text}})
        return snakemake_rendered(answer_rst(rows, {}))
    if where in ("Table 3 corpus", "Table 4 corpus"):
        summaries = {f"p on {text}": {**make_summary(), "corpus_label": text}}
        markdown = (table3_markdown(table3_rows(summaries)) if where == "Table 3 corpus"
                    else table4_markdown(table4_rows(summaries)))
        return markdown_html(markdown, "Table")
    raise AssertionError(where)


def corpus_outcome(where: str, text: str) -> tuple[str, str]:
    """A corpus label in a LaTeX caption (escaped: every special character as its command) or
    a figure's title (literal: no mathtext, no error)."""
    summaries = {f"p on {text}": {**make_summary(), "corpus_label": text}}
    if where == "LaTeX corpus":
        tex = table3_latex(table3_rows(summaries)) + table4_latex(table4_rows(summaries))
        shown = latex_escape(text)
        if shown not in tex:
            return "altered", f"{shown!r} not in the caption"
        # with its escaped form taken out, no trace of the text is left bare
        if shown != text and text.strip() and text in tex.replace(shown, ""):
            return "injected", f"{text!r} printed unescaped"
        return ACCEPTANCE, ""
    if where == "figure corpus":
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure

        from reprocompare.reports.figures import _panel_title

        figure = Figure()
        ax = figure.add_subplot()
        _panel_title(ax, f"p on {text}", {"A": text, "B": "B"})
        figure.canvas.draw()  # mathtext would raise here, or render the text as math
        title = ax.get_title()
        if "$" in text and "\\$" not in title:
            return "injected", f"{title!r}: a $ left to mathtext"
        return ACCEPTANCE, ""
    raise AssertionError(where)


RENDERERS = ("front page", "front page warning", "description", "description command",
             "HTML table", "front page corpus", "Table 3 corpus", "Table 4 corpus")
#: where a corpus's label lands outside HTML: LaTeX captions, matplotlib's titles
CORPUS_RENDERERS = ("LaTeX corpus", "figure corpus")


def _markup_cases() -> list[Case]:
    cases = [Case("markup", f"{where}: {text!r}", (where, text), ACCEPTANCE)
             for where in RENDERERS for text in MARKUP
             if not (where == "HTML table" and "|" in text)]  # a cell's | is the table's
    cases += [Case("markup", f"report data: {text!r}", ("report data", text), ACCEPTANCE)
              for text in MARKUP]
    cases += [Case("markup", f"label with {name}", ("label", text), REFUSAL,
                   f"models.crf.label: {text!r} holds the control character")
              for name, text in NOT_SHOWN.items()]
    # a corpus's label (issue 36): refused where it could not be shown, else shown as written
    cases += [Case("markup", f"corpus label with {name}", ("corpus label", text), REFUSAL,
                   f"corpora.tiny.label: {text!r} holds the control character")
              for name, text in NOT_SHOWN.items()]
    cases += [
        Case("markup", "corpus label empty", ("corpus label", ""), REFUSAL,
             "corpora.tiny.label"),
        Case("markup", "corpus label of 41 characters", ("corpus label", "x" * 41), REFUSAL,
             "corpora.tiny.label"),
        Case("markup", "corpus label with a line break", ("corpus label", "a\nb"), REFUSAL,
             "corpora.tiny.label"),
        Case("markup", "corpus label of 40 characters", ("corpus label", "x" * 40), ACCEPTANCE),
        Case("markup", "corpus label 'CoNLL-2002 Dutch'", ("corpus label", "CoNLL-2002 Dutch"),
             ACCEPTANCE),
        Case("markup", "corpus label naming another corpus", ("corpus label", "other"),
             REFUSAL, "corpora.tiny.label: 'other' already names corpus 'other'"),
    ]
    cases += [Case("markup", f"{where}: {text!r}", (where, text), ACCEPTANCE)
              for where in CORPUS_RENDERERS for text in MARKUP + ["$x$ and $y", "100% & #1"]]
    return cases


def markup_outcome(where: str, text: str) -> tuple[str, str]:
    if where == "label":
        return _library_class(lambda: validate(_mutated_config(("models", "crf", "label"),
                                                               text), "study.yaml"))
    if where == "corpus label":
        config = _mutated_config(("corpora", "tiny", "label"), text)
        if text == "other":  # a second corpus, unlabelled: tables would print both "other"
            config["corpora"] = {"other": {"path": config["corpora"]["tiny"]["path"]},
                                 **config["corpora"]}
        return _library_class(lambda: validate(config, "study.yaml"))
    if where in CORPUS_RENDERERS:
        return corpus_outcome(where, text)
    if where == "report data":
        # the checklist's params, which Snakemake's report embeds in a <script> as they are
        config = validate(copy.deepcopy(CONFIG), "study.yaml")
        config["models"]["crf"]["label"] = text
        value = provenance.checklist(config, "study.yaml")
        if set(value) & set("<>&"):
            return "injected", f"{value} holds < > or &"
        if provenance.checklist_config(value)[0]["models"]["crf"]["label"] != text:
            return "altered", "the label does not read back as written"
        return ACCEPTANCE, ""
    problem = injected(render(where, text), text)
    return ("injected", problem) if problem else (ACCEPTANCE, "")


# ------------------------------------------------------------------------ arguments after --

def _argument_cases() -> list[Case]:
    refused = [
        (["--config", "repetitions=7"], "--config repetitions is what each wave sets"),
        (["--config", "seed=1", "-C", "repetitions=3"], "--config repetitions"),
        (["--configfile", "other.yaml"], "--configfile is set by every wave"),
        (["--configfiles", "other.yaml"], "is set by every wave"),
        (["--directory", "elsewhere"], "--directory is set by every wave"),
        (["-d", "elsewhere"], "--directory is set by every wave"),
        (["--snakefile", "Snakefile"], "--snakefile is set by every wave"),
        (["--conf", "seed=5"], "ambiguous option: --conf"),
        (["--config", "seed"], "--config seed"),
        (["--config", "9lives=1"], "valid identifier"),
        (["--no-such-option"], "unrecognized arguments: --no-such-option"),
    ]
    accepted = [
        (["--config", "seed=5"], {"seed": 5}),
        (["--config=seed=5"], {"seed": 5}),
        (["-C", "seed=5", "keep_predictions=True"], {"seed": 5, "keep_predictions": True}),
        (["--config", "seed=5", "--cores", "2", "--config", "keep_predictions=False"],
         {"seed": 5, "keep_predictions": False}),
        (["--profile", "profiles/slurm", "--config", "seed=5"], {"seed": 5}),
        (["--cores", "2", "--quiet"], {}),
    ]
    return ([Case("arguments", " ".join(args), (args, None), REFUSAL, fragment)
             for args, fragment in refused]
            + [Case("arguments", " ".join(args), (args, merged), ACCEPTANCE)
               for args, merged in accepted])


def arguments_outcome(args: list[str], merged: dict | None) -> tuple[str, str]:
    def check():
        rest, entries, overrides = snakemake_arguments(args)
        # every --config entry is kept, none of them left among the other arguments
        assert overrides == merged and not {"--config", "-C"} & set(rest), (rest, overrides)

    return _library_class(check)


# ------------------------------------------------------------------------ the catalogue

CASES: list[Case] = [*_finite_cases(), *_markup_cases(), *_argument_cases()]


def outcome(case: Case, tmp: Path) -> tuple[str, str]:
    """(the class the case ended in, its message); ``tmp`` is an empty folder of its own."""
    if case.family == "finite":
        return _library_class(lambda: validate(_mutated_config(*case.input), "study.yaml"))
    if case.family == "markup":
        return markup_outcome(*case.input)
    if case.family == "arguments":
        return arguments_outcome(*case.input)
    raise AssertionError(f"no runner for family {case.family!r}")


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("redteam-report")


def test_every_float_key_of_the_schema_is_in_the_catalogue():
    keys = {_concrete(path) for path in schema_number_keys()}
    # the keys issue 34 found letting NaN through, and the search's (the walk must reach them)
    assert {("verdict", "threshold"), ("verdict", "confidence"), ("significance", "alpha"),
            ("seed_variance", "failure_f1"), ("search", "models", "crf", "space", "c1", "low")} \
        <= keys
    named = {case.name.split(":")[0] for case in CASES if case.family == "finite"}
    assert {".".join(key) for key in keys} <= named


def test_the_catalogue_is_well_formed():
    assert len({str(case) for case in CASES}) == len(CASES), "every case has its own name"
    assert all(case.fragment for case in CASES if case.expected == REFUSAL)
    for family in {case.family for case in CASES}:
        assert {case.expected for case in CASES if case.family == family} == \
            {REFUSAL, ACCEPTANCE}, family


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_red_team_case_ends_in_its_class(case, shared):
    tmp = Path(tempfile.mkdtemp(dir=shared))
    assert_ends_in_its_class(case, *outcome(case, tmp))


def test_a_nan_in_the_yaml_file_is_refused_naming_the_file_and_key(tmp_path):
    """YAML's own spellings, read as the workflow reads a config file."""
    from reprocompare.study.config import load_yaml

    for text, shown in ((".nan", "nan"), (".inf", "inf"), ("-.Inf", "-inf"), (".NaN", "nan")):
        path = tmp_path / "study.yaml"
        path.write_text(yaml.safe_dump(CONFIG) + f"verdict: {{threshold: {text}}}\n")
        with pytest.raises(ValueError) as error:
            validate(load_yaml(path), str(path))
        assert str(error.value) == (f"{path}: verdict.threshold: {shown} is not a finite "
                                    "number: give a number (NaN and infinities are refused)")


# ------------------------------------------------------------------------ in a real browser

#: a study whose labels would run a script in the report, or end the front page's raw block:
#: majority baselines (seconds to run), each label within the schema's 40 characters
HOSTILE_STUDY = {
    "corpora": {"tiny": {"path": str(TESTS / "data" / "tiny.conll")}},
    "models": {"maj": {"type": "majority", "label": "</script><svg onload=document.title=7>"},
               "maj2": {"type": "majority", "scheme": "IOBES",
                        "label": "{% endraw %}{{ 7*7 }}{% raw %}<b>"},
               "maj3": {"type": "majority", "label": "<img src=x onerror=document.title=8>"}},
    "comparisons": {"p1": {"a": "maj", "b": "maj2", "corpora": ["tiny"]}},
    "strategies": {"holdout": {}},
    "repetitions": 2,
    "seed": 3,
    "significance": {"resamples": 100},
}


def chromium() -> str:
    """The Chromium to open pages in; skipped, saying why, where there is none (under CI,
    which `make test` gives Chromium through tests/system-packages.sh, a failure)."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    message = ("REPORT NOT CHECKED IN A BROWSER: Chromium is not installed; install it with "
               "`apt-get install chromium` (tests/system-packages.sh does, as root)")
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def dom(browser: str, page: Path, profile: Path, window: tuple[int, int] | None = None,
        screenshot: Path | None = None) -> str:
    """The page's document after its scripts ran (ten seconds of virtual time, so that the
    report's React app has drawn it), as headless Chromium serializes it; in a window of
    ``window`` (width, height: headless Chromium's page is 143 px less high), and with a
    ``screenshot`` of it taken on the way when given."""
    flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--user-data-dir={profile}", "--virtual-time-budget=10000"]
    if window is not None:
        flags.append(f"--window-size={window[0]},{window[1]}")
    if screenshot is not None:
        taken = subprocess.run([*flags, f"--screenshot={screenshot}", page.as_uri()],
                               capture_output=True, text=True, timeout=120)
        assert taken.returncode == 0 and screenshot.is_file(), taken.stderr[-2000:]
    result = subprocess.run([*flags, "--dump-dom", page.as_uri()],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


@pytest.mark.slow
def test_no_script_a_user_wrote_runs_in_the_report(tmp_path):
    browser = chromium()
    # the control: these flags run a page's scripts, so a title left alone means something
    control = tmp_path / "control.html"
    control.write_text("<title>before</title><svg onload=document.title='ran'></svg>")
    assert "<title>ran</title>" in dom(browser, control, tmp_path / "profile")

    study = tmp_path / "study"
    snakemake(study, config=HOSTILE_STUDY)
    snakemake(study, "--report", "results/report.html", config=HOSTILE_STUDY, cores=None)
    page = dom(browser, study / "results" / "report.html", tmp_path / "profile")
    assert "<title>Snakemake Report</title>" in page  # neither 7 nor 8
    # the app drew the front page, and it shows each label as written (escaped by the DOM)
    assert "The answer." in page
    assert "onload=document.title=7&gt;" in page and "{% endraw " in page and "{{" in page
    # 7*7 never evaluated: no 49 standing alone (a score such as 49.8 may stand there)
    answer = page.split("The answer.")[1].split("How the study was run")[0]
    assert not re.search(r"(?<![\d.])49(?![\d.])", answer)
    assert "onerror=document.title=8&gt;" in page


def test_the_users_config_reaches_every_wave_with_its_repetitions(tmp_path, monkeypatch):
    """`sequential -- --config seed=5` ran the waves with the config's seed: sequential's own
    --config came last, and snakemake keeps the last."""
    config = copy.deepcopy(CONFIG)
    config["stopping"] = {"enabled": True, "estimators": ["ST"], "wave": 2,
                          "max_repetitions": 4}
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(config))
    commands = []

    class Snakemake:  # a wave that fails at once: its command is what this test reads
        def __init__(self, command, **options):
            commands.append(command)
            self.pid = os.getpid()

        def wait(self, timeout=None):
            return 1

        def communicate(self, input=None):  # the watchdog, told that snakemake has ended
            return None, None

        poll = wait

    # snakemake's parser imports its SLURM plugin, which runs `which sacct` once per process:
    # before Popen is replaced (alone, this test would otherwise fail on that, not on a wave)
    from snakemake.cli import get_argument_parser

    get_argument_parser()
    monkeypatch.setattr(sequential.subprocess, "Popen", Snakemake)
    monkeypatch.setattr(sequential, "_group_alive", lambda group: False)
    with pytest.raises(ValueError, match="the wave at R = 2 failed"):
        sequential.run_waves(path, tmp_path, ["--config", "seed=5", "--cores", "1"],
                             say=lambda *a, **k: None)
    wave = commands[0]
    assert wave[wave.index("--config"):] == ["--config", "seed=5", "repetitions=2"]
    assert wave.count("--config") == 1 and "--cores" in wave
    # what sequential itself reads (the stopping rule, the comparisons) has the override too
    with pytest.raises(ValueError, match=r"the command line: seed: -1 is less than the minimum"):
        sequential.run_waves(path, tmp_path, ["--config", "seed=-1"], say=lambda *a: None)


# ---- Markdown code spans and CSV cells (round 2, the lead's tables) -----------------------------

@pytest.mark.parametrize("spec", ["command:train=`rm -rf x`", "a|b", "``x``", "`", "=1+1"])
def test_a_spec_stays_one_code_span_and_one_cell(spec):
    from reprocompare.base.markdown import md_code

    span = md_code(spec, in_table=True)
    fence = span[:len(span) - len(span.lstrip("`"))]
    inner = span[len(fence):-len(fence)]
    # the fence is longer than any backtick run inside, and no bare pipe splits the cell
    assert "`" * len(fence) not in inner and "|" not in inner.replace("\\|", "")
    assert inner.strip().replace("\\|", "|") == spec


def test_a_label_that_reads_as_a_formula_is_inert_in_every_csv():
    from reprocompare.base.spreadsheet import csv_text

    text = csv_text([{"label": "=HYPERLINK(\"http://x\")", "mean": -0.25}], ["label", "mean"],
                    lambda v: v if isinstance(v, str) else f"{v:.2f}")
    assert text.splitlines()[1] == "\"'=HYPERLINK(\"\"http://x\"\")\",-0.25"
