"""The numbers README "Results" and docs/results.md quote from the committed studies.

Every sentence of those pages that quotes a number of a committed study is a generated block:
studies/prose.py writes it between ``<!-- NAME:begin -->`` / ``<!-- NAME:end -->`` markers from
the committed summaries (studies/*/results/summaries/) and benchmarks/RESULTS.md's generated
blocks, as studies/beside_the_paper.py writes the tables. The tests here check that each
committed block is what the generator writes now, and that the generator follows the data: a
changed number in a copied summary changes the block, a changed outcome changes its words, and an
outcome the words cannot follow stops it. Regenerate after a rerun: .venv/bin/python
studies/prose.py.

The sentences of docs/index.md and docs/sequential.md checked further down are still quoted
here, against the data and the generated tables they come from.
"""

from __future__ import annotations

import importlib.util
import json
import math
import shutil
import sys
from pathlib import Path

import pytest

from reprocompare.base.paths import SUMMARIES
from reprocompare.base.records import read_json

ROOT = Path(__file__).resolve().parents[1]
STUDIES = ROOT / "studies"


def _module(path: Path):
    spec = importlib.util.spec_from_file_location(f"_prose_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def prose():
    return _module(STUDIES / "prose.py")


def page(relative: str) -> str:
    """A page with its line breaks and runs of spaces made single spaces (and a quote's "> "
    taken off the start of its lines)."""
    lines = (ROOT / relative).read_text(encoding="utf-8").splitlines()
    return " ".join(" ".join(line.removeprefix(">") for line in lines).split())


def records(study: str) -> list[dict]:
    """A committed study's summaries (one per corpus and comparison), as the workflow wrote them."""
    return [read_json(path) for path in sorted((STUDIES / study / SUMMARIES).glob("*/*.json"))
            if not path.name.endswith(".claims.json")]


def table_rows(markdown: str) -> list[list[str]]:
    """The body rows of a Markdown table, as cells."""
    return [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in markdown.splitlines()[2:] if line.startswith("|")]


def quoted(text: str, sentence: str) -> None:
    assert sentence in text, f"the page does not quote what the committed files say:\n{sentence}"


# README "Results" and docs/results.md: generated blocks

def test_every_block_is_what_the_committed_studies_give(prose, tmp_path):
    """Each block of both pages is what studies/prose.py writes now, and ``--check`` names a
    block edited by hand."""
    assert prose.stale() == [], "regenerate: .venv/bin/python studies/prose.py"
    for name in ("README.md", "docs/results.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    readme = tmp_path / "README.md"
    text = readme.read_text(encoding="utf-8")
    inside = prose.block(text, "chunking-readme")
    readme.write_text(text.replace(inside, inside.replace("after R = ", "after R = 1")),
                      encoding="utf-8")
    assert prose.stale(tmp_path) == ["README.md: chunking-readme"]


def _copy(studies: tuple[str, ...], to: Path) -> None:
    """The summaries and corpus records of ``studies``, copied under ``to``."""
    for study in studies:
        for path in [*(STUDIES / study / SUMMARIES).glob("*/*.json"),
                     *(STUDIES / study / "results" / "corpora").glob("*/corpus.json")]:
            target = to / path.relative_to(STUDIES)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target)


def _edit(path: Path, change) -> None:
    record = json.loads(path.read_text())
    change(record["summary"])
    path.write_text(json.dumps(record))


def test_a_block_follows_the_data(prose, tmp_path, monkeypatch):
    """A number changed in a copied summary or in RESULTS.md changes README's block; an outcome
    changed changes its words; an outcome its words cannot say stops the generator."""
    _copy(("ner-full", "size-ner", "size-chunking"), tmp_path)
    monkeypatch.setattr(prose, "STUDIES", tmp_path)
    committed = prose.block((ROOT / "README.md").read_text(encoding="utf-8"), "results-readme")
    assert prose.readme_results().strip() == committed  # the copy is all it reads

    (ner,) = (path for path in (tmp_path / "ner-full" / SUMMARIES).glob("*/*.json")
              if not path.name.endswith(".claims.json"))
    _edit(ner, lambda s: s["estimators"]["Avg"].update(mean=0.0050))
    assert "by 0.50 (Avg) to" in " ".join(prose.readme_results().split())

    small = min(prose.by_size("size-ner"))
    (first, *_) = (path for path in sorted((tmp_path / "size-ner" / SUMMARIES).glob("*/*.json"))
                   if not path.name.endswith(".claims.json")
                   and read_json(path)["summary"]["sentences"] == small)
    _edit(first, lambda s: s["verdicts"]["Avg"].update(decision="A>B"))
    assert 'none decided' not in prose.readme_results()
    assert 'one of three "A > B reproduces"' in " ".join(prose.readme_results().split())

    results = tmp_path / "RESULTS.md"
    text = prose.RESULTS.read_text(encoding="utf-8")
    row = next(line for line in prose.block(text, "replay-orders").splitlines()
               if line.startswith("| chunking |"))
    cells = row.split(" | ")
    cells[5] = str(int(cells[5]) + 7)
    results.write_text(text.replace(row, " | ".join(cells)), encoding="utf-8")
    monkeypatch.setattr(prose, "RESULTS", results)
    assert f"median R of {cells[5]} for chunking" in " ".join(prose.readme_results().split())

    _edit(ner, lambda s: s["verdicts"]["ST"].update(decision="undecided"))
    with pytest.raises(prose.ProseError):
        prose.readme_results()


# the replay of the committed order: the fixed words of docs/results.md's replay block

@pytest.fixture(scope="module")
def replayed():
    """Each long fixed-R study replayed in its committed order through the stopping rule, as
    benchmarks/bench_replay.py does: (stop of all five, decisions, fixed-R decisions, values)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        bench = _module(ROOT / "benchmarks" / "bench_replay.py")
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    from reprocompare.estimators.verdict import verdict

    out = {}
    for name in ("chunking", "ner"):
        (record,) = records(name)
        values, s = record["values"], record["summary"]
        stop, decisions = bench.replay_order(values, s["conclusion"], range(len(values["ST"])))
        fixed = {e: verdict(values[e], s["conclusion"], time_uniform=False,
                            snr0=s["null_offsets"][e]["snr_normal"]).decision for e in decisions}
        out[name] = (stop, decisions, fixed, values)
    return out


@pytest.mark.slow
def test_the_committed_order_is_what_results_md_records(prose, replayed):
    """docs/results.md's replay block quotes the committed order's stop from RESULTS.md's
    replay-orders block and says each verdict is the full R's: both hold on the committed
    values."""
    rows = prose.replay_orders()
    for name, (stop, decisions, fixed, values) in replayed.items():
        assert stop is not None and decisions == fixed  # "each the verdict of the full R"
        assert (rows[name][1], rows[name][2]) == (str(len(values["ST"])), str(stop))


def test_index_says_st_has_the_smallest_snr_where_a_direction_was_decided():
    # docs/index.md's advice against ST, checked on every committed summary: where some verdict
    # decided A > B or B > A, no estimator's SNR is smaller in size than ST's, except RS's on
    # whole NER (the sentence names it)
    text = page("docs/index.md")
    assert "in every committed study where an estimator decided a direction, ST's SNR is the " \
           "smallest in size (on whole NER about as small as RS's with k = 3" in text
    decided = 0
    for study in sorted(path.name for path in STUDIES.iterdir() if (path / SUMMARIES).is_dir()):
        for record in records(study):
            s = record["summary"]
            if not any(v["decision"] in ("A>B", "B>A") for v in s["verdicts"].values()):
                continue
            decided += 1
            sizes = {name: abs(e["snr"]) for name, e in s["estimators"].items()
                     if isinstance(e, dict) and isinstance(e.get("snr"), (int, float))}
            if "ST" not in sizes:  # a study without the standard split (the two BCVs')
                continue
            others = {name: size for name, size in sizes.items() if name != "ST"}
            if study == "ner-full":
                others.pop("RS")
                assert abs(sizes["RS"] - sizes["ST"]) < 0.5, (study, sizes)
            assert sizes["ST"] <= min(others.values()), (study, record["corpus"], sizes)
    assert decided >= 10


# docs/sequential.md, "A planned design": its sentences against its generated tables

def _block(text: str, marker: str) -> list[list[str]]:
    begin, end = f"<!-- {marker}:begin -->", f"<!-- {marker}:end -->"
    return table_rows(text[text.index(begin) + len(begin):text.index(end)].strip())


def test_planned_design_quotes_its_coverage():
    raw = (ROOT / "docs" / "sequential.md").read_text(encoding="utf-8")
    rows = _block(raw, "planned-coverage")
    normal = [float(r[5]) for r in rows if r[0] == "normal"]
    textbook = [float(r[8]) for r in rows if r[0] == "normal"]
    skewed_snr = [float(r[5]) for r in rows if r[0] == "skewed"]
    skewed_share = [float(r[9]) for r in rows if r[0] == "skewed"]
    text = page("docs/sequential.md")
    quoted(text, f"cover at every planned look in {min(normal):.1f}-{max(normal):.1f}% of studies")
    quoted(text, f"The textbook levels fall to {min(textbook):.1f}% with a look after every "
                 "repetition.")
    quoted(text, f"({math.floor(min(skewed_snr)):.0f}-{math.floor(max(skewed_snr)):.0f}%, the "
                 "same as any normal-theory interval on them)")
    quoted(text, f"whose Clopper-Pearson intervals cover in {min(skewed_share):.1f}-"
                 f"{max(skewed_share):.0f}%")


def test_planned_design_quotes_the_spending_comparison():
    raw = (ROOT / "docs" / "sequential.md").read_text(encoding="utf-8")
    cell = {(r[0], r[1], r[2]): r for r in _block(raw, "planned-spending")}
    decided = lambda m, s, d: cell[(m, s, d)][5]  # noqa: E731
    mean = lambda m, s, d: cell[(m, s, d)][3]  # noqa: E731
    cs, pocock, obf = "confidence sequence", "Pocock type", "O'Brien-Fleming type"
    text = page("docs/sequential.md")
    quoted(text, f"SNR 2 is decided in {decided('10', '2', pocock)} of studies against "
                 f"{decided('10', '2', cs)}, and equal models (\"neither\") in "
                 f"{decided('10', '0', pocock)} against {decided('10', '0', cs)}")
    quoted(text, f"at a maximum of 20, {decided('20', '2', pocock)} against "
                 f"{decided('20', '2', cs)} and {decided('20', '0', pocock)} against "
                 f"{decided('20', '0', cs)}")
    quoted(text, f"(SNR 4: a mean R of {mean('10', '4', pocock)} against {mean('10', '4', cs)} "
                 f"at a maximum of 10; at a maximum of 200 {mean('200', '4', pocock)} against "
                 f"the O'Brien-Fleming type's {mean('200', '4', obf)})")
    quoted(text, f"decides a little more often by the maximum ({decided('10', '2', obf)} at SNR "
                 "2 and a maximum of 10)")
    quoted(text, f"sits on the threshold: {cell[('200', '0.84', pocock)][6]})")


def test_planned_design_quotes_the_rule_as_it_runs():
    raw = (ROOT / "docs" / "sequential.md").read_text(encoding="utf-8")

    def cells(marker):  # (law, SNR, level) -> row
        return {(r[0], r[1], r[3]): r for r in _block(raw, marker)}

    anytime, planned = cells("futility"), cells("futility-planned")
    levels, planned_levels = cells("futility-levels"), cells("futility-levels-planned")
    mean = lambda t, snr, level="0.2": t[("normal", snr, level)][4]  # noqa: E731
    decided = lambda t, snr, level="0.2": t[("normal", snr, level)][7]  # noqa: E731
    futile = lambda t, snr, level: t[("normal", snr, level)][8]  # noqa: E731
    wrong = lambda t, snr, level="0.2": t[("normal", snr, level)][9]  # noqa: E731
    near = ("0.6", "0.84", "1")

    def span(t, level="0.2", column=4):
        values = [float(t[("normal", snr, level)][column].rstrip("%")) for snr in near]
        return f"{min(values):.1f}-{max(values):.1f}"

    text = page("docs/sequential.md")
    quoted(text, f"(a mean R of {mean(planned, '0')} against {mean(anytime, '0')} at SNR 0, "
                 f"{mean(planned, '0.3')} against {mean(anytime, '0.3')} at 0.3, "
                 f"{mean(planned, '1.5')} against {mean(anytime, '1.5')} at 1.5)")
    quoted(text, f"({decided(planned, '0.6')} against {decided(anytime, '0.6')} at SNR 0.6, "
                 f"{decided(planned, '1')} against {decided(anytime, '1')} at SNR 1)")
    quoted(text, f"their mean R is higher ({span(planned)} against {span(anytime)})")
    quoted(text, f"At SNR 2, 4 and 12 it is no faster ({mean(planned, '2')}, "
                 f"{mean(planned, '4')} and {mean(planned, '12')})")
    quoted(text, f"Wrong verdicts stay at most {wrong(planned, '0.84')} (SNR 0.84; "
                 f"{wrong(planned, '0.84', 'off')} without futility")
    quoted(text, f"mean R near the threshold is {span(planned_levels, '0.4')} while it still "
                 f"decides {span(planned_levels, '0.4', 7)}% of those studies")
    quoted(text, f"it gives up {futile(planned_levels, '0.3', '0.4')} of the verdicts at SNR 0.3 "
                 f"and {futile(planned_levels, '1.5', '0.4')} at 1.5, against "
                 f"{futile(levels, '0.3', '0.4')} and {futile(levels, '1.5', '0.4')} for the "
                 "confidence sequences")
    quoted(text, f"| mean R at most 10 at SNR 4 | {mean(anytime, '4')} | {mean(planned, '4')} |")
    quoted(text, f"At level 0.5 it meets the target of a mean R of at most 70 near the threshold "
                 f"({span(planned_levels, '0.5')})")
    quoted(text, f"({', '.join(decided(planned_levels, s, '0.5') for s in near[:2])} and "
                 f"{decided(planned_levels, '1', '0.5')} at SNR 0.6, 0.84 and 1, against "
                 f"{', '.join(decided(anytime, s) for s in near[:2])} and {decided(anytime, '1')})")
    quoted(text, f"at the price of {futile(planned_levels, '0.3', '0.5')} and "
                 f"{futile(planned_levels, '1.5', '0.5')} of the verdicts at SNR 0.3 and 1.5")
    quoted(text, f"| {span(anytime)} | {span(planned)} | {span(planned_levels, '0.5')}: met |")
    quoted(text, f"and at SNR 0 {futile(levels, '0', '0.4')} (level 0.3: "
                 f"{futile(levels, '0', '0.3')}). At SNR 2 and 4 nothing changes.")
    for snr in ("2", "4"):
        assert mean(levels, snr, "0.4") == mean(anytime, snr)
    quoted(text, f"(and {futile(planned_levels, '0', '0.5')} at SNR 0); at SNR 2 and 4 it "
                 "changes nothing.")
    for snr in ("2", "4"):  # "changes nothing": the same mean R as at the default level
        assert mean(planned_levels, snr, "0.5") == mean(planned, snr)
    quoted(text, f"| mean R at most 10 at SNR 4 | {mean(anytime, '4')} | {mean(planned, '4')} | "
                 f"{mean(planned_levels, '4', '0.5')} |")
    quoted(text, f"| {mean(planned, '0')} (0.55): met | {mean(planned_levels, '0', '0.5')} (0.55): "
                 "met |")


def test_planned_design_quotes_what_a_small_budget_buys():
    raw = (ROOT / "docs" / "sequential.md").read_text(encoding="utf-8")
    cell = {(r[0], r[1], r[2]): r for r in _block(raw, "planned-budget")}
    decided = lambda m, snr, d: cell[(m, snr, d)][5]  # noqa: E731
    mean = lambda m, snr, d: cell[(m, snr, d)][3]  # noqa: E731
    text = page("docs/sequential.md")
    quoted(text, f"With a maximum of 10 the planned design decides {decided('10', '2', 'planned')} "
                 f"of the studies at SNR 2, against {decided('10', '2', 'anytime')}, and "
                 f"{decided('10', '3', 'planned')} at SNR 3, against "
                 f"{decided('10', '3', 'anytime')}; SNR 4 stops at a mean R of "
                 f"{mean('10', '4', 'planned')}, against {mean('10', '4', 'anytime')}.")
    quoted(text, f"equal models are found to be \"neither\" in {decided('20', '0', 'planned')} of "
                 f"studies, against {decided('20', '0', 'anytime')}.")
    worst = max(float(r[7].rstrip("%")) for r in cell.values())
    quoted(text, f"wrong verdicts stay at most {worst:.1f}%.")


def test_readme_says_what_the_designs_table_measured():
    """README's sentence on the designs is made from docs/sequential.md's table by the
    benchmark that wrote both (bench_designs.sentence), not retyped."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_designs
    raw = (ROOT / "docs" / "sequential.md").read_text(encoding="utf-8")
    begin, end = "<!-- designs:begin -->", "<!-- designs:end -->"
    block = raw[raw.index(begin) + len(begin):raw.index(end)]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    begin, end = "<!-- designs-readme:begin -->", "<!-- designs-readme:end -->"
    assert readme[readme.index(begin) + len(begin):readme.index(end)].strip() == \
        bench_designs.sentence(block)
    assert "<!-- designs-readme:begin -->\n<!-- designs-readme:end -->" not in readme
