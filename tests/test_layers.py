"""The import rules of issues 10 and 21, checked on the source (ast), not by importing it.

Data flows one way, corpus -> splits -> predictions -> counts -> estimates -> tables, and the
imports point the same way. The project is built in floors, and a module imports only from its own
floor or the floors below it:

0. ``reprocompare.base`` (errors, seeds, records): the ground floor, importing nothing
   above it;
   ``errors`` and ``seeds`` import nothing from the project at all;
1. the stages: corpora, splitters, strategies (each one splitting strategy's own work), models
   (with the one training engine), estimators, reports, search;
2. ``reprocompare.study``: what a study is and computes (config, variation, compare, summary);
3. ``reprocompare.pipeline``: the Snakemake workflow's adapters (provenance, job functions);
4. ``reprocompare.commands``: the entry points (the CLI, resume, sequential).

Besides:

- every module of reprocompare/ lives on one floor (a new module says where it belongs);
- there is no import cycle between modules;
- no project import hides inside a function, except the few listed in :data:`LAZY`, each of
  which keeps a heavy library (scikit-learn, scipy, torch, matplotlib) out of a start-up that
  does not need it, and says so in a ``# lazy:`` comment (three in search/ no longer do since
  issue 35; :data:`LAZY` says so).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: folder -> the package it installs as (pyproject.toml, package-dir)
FOLDERS = {"reprocompare": "reprocompare", "corpora": "reprocompare.corpora",
           "splitters": "reprocompare.splitters", "strategies": "reprocompare.strategies",
           "models": "reprocompare.models",
           "estimators": "reprocompare.estimators", "reports": "reprocompare.reports",
           "search": "reprocompare.search"}
GROUND = {"reprocompare.base.errors", "reprocompare.base.seeds"}
STAGES = tuple(f"reprocompare.{stage}" for stage in
               ("corpora", "splitters", "strategies", "models", "estimators", "reports", "search"))
#: the floors, lowest first: a module imports only from its own floor and those below
FLOORS = (("reprocompare.base",), STAGES, ("reprocompare.study",), ("reprocompare.pipeline",),
          ("reprocompare.commands", "reprocompare.__main__"))

#: (importing module, imported module) of the function-local imports allowed, and why: each keeps
#: a heavy library out of a start-up that does not need it.
LAZY = {
    # the CLI starts in milliseconds (--help, --version, split of a small corpus)
    ("reprocompare.commands.cli", "reprocompare.study.summary"): "scipy",
    ("reprocompare.commands.cli", "reprocompare.estimators.expected_max"): "scipy",
    ("reprocompare.commands.cli", "reprocompare.estimators.expected_max_bias"): "scipy, pandas",
    ("reprocompare.commands.cli", "reprocompare.estimators.trial_scores"): "numpy",
    ("reprocompare.commands.plan", "reprocompare.estimators.planning"): "scipy",
    # every report job imports report_jobs; most of them summarize nothing and draw no figure
    ("reprocompare.pipeline.report_jobs", "reprocompare.study.summary"): "scipy",
    ("reprocompare.pipeline.report_jobs", "reprocompare.estimators.claims"): "scipy",
    ("reprocompare.pipeline.report_jobs", "reprocompare.reports.figures"): "matplotlib",
    ("reprocompare.reports.variance", "reprocompare.reports.figures"): "matplotlib",
    # every command imports the tables (the CLI's start-up too); Table 3's intervals need scipy
    ("reprocompare.reports.tables", "reprocompare.estimators.reproducibility"): "scipy",
    ("reprocompare.pipeline.search_jobs", "reprocompare.reports.budget"): "matplotlib",
    # every training job draws its split document (splitters.drawing, numpy only); the
    # scikit-learn cross-validator classes load only when a user asks for one (issue 35)
    ("reprocompare.splitters", "reprocompare.splitters.holdout"): "scikit-learn",
    ("reprocompare.splitters", "reprocompare.splitters.bcv"): "scikit-learn",
    # (each strategy imports its cross-validator class when asked for it)
    ("reprocompare.strategies.holdout", "reprocompare.splitters.holdout"): "scikit-learn",
    ("reprocompare.strategies.repeated_holdout", "reprocompare.splitters.holdout"):
        "scikit-learn",
    ("reprocompare.strategies.bcv", "reprocompare.splitters.bcv"): "scikit-learn",
    ("reprocompare.strategies.regularized_bcv", "reprocompare.splitters.bcv"): "scikit-learn",
    # every training job draws its split through its strategy; only the significance jobs
    # test a repetition, and only the posteriors ask for its rho (estimators.bayesian)
    **{(f"reprocompare.strategies.{name}", f"reprocompare.estimators.{module}"): "scipy"
       for name in ("holdout", "repeated_holdout", "bcv")
       for module in ("claims", "significance", "bayesian")},
    # the BiLSTM's declaration (specs, capabilities, GPU requests) never imports torch
    ("reprocompare.models.bilstm", "reprocompare.models.bilstm_torch"): "torch",
    # the transformer tagger's declaration (specs, configs, GPU requests) imports neither torch
    # nor transformers; its featurize, fit, predict and unpickling do
    ("reprocompare.models.transformer", "reprocompare.models.transformer_torch"):
        "torch, transformers",
}


def _modules() -> dict[str, Path]:
    found = {}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            name = ".".join((package, *parts))
            found[name.removesuffix(".__init__")] = path
    return found


MODULES = _modules()


def _resolve(module: str, node: ast.ImportFrom | ast.Import) -> list[str]:
    """The project modules an import statement loads (a name may be a submodule)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.rsplit(".", node.level)[0]
            base = f"{package}.{base}" if base else package
        # "from package import submodule" loads the submodule; "from module import name", the module
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                 for alias in node.names]
    out = []
    for name in names:
        if name.startswith("reprocompare"):
            while name not in MODULES and "." in name:
                name = name.rsplit(".", 1)[0]
            if name in MODULES and name not in out:
                out.append(name)
    return out


def _imports(module: str) -> tuple[set[str], list[tuple[str, int, str]]]:
    """(modules imported at the top, [(module, line, source line) of function-local imports])."""
    path = MODULES[module]
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    lines = source.splitlines()
    top: set[str] = set()
    local: list[tuple[str, int, str]] = []

    def visit(node, inside_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for name in _resolve(module, child):
                    if inside_function:
                        context = " ".join(lines[max(0, child.lineno - 4):child.end_lineno])
                        local.append((name, child.lineno, context))
                    else:
                        top.add(name)
            is_function = isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            visit(child, inside_function or is_function)

    visit(tree, False)
    return top, local


GRAPH = {module: _imports(module) for module in MODULES}


def test_the_source_tree_is_what_the_test_expects():
    assert {"reprocompare.base.errors", "reprocompare.base.seeds", "reprocompare.models.registry",
            "reprocompare.splitters.document", "reprocompare.commands.cli"} <= set(MODULES)


@pytest.mark.parametrize("module", sorted(GROUND))
def test_the_ground_floor_imports_nothing_from_the_project(module):
    top, local = GRAPH[module]
    assert not top and not local, f"{module} imports {sorted(top | {m for m, *_ in local})}"


def _within(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def _floor(module: str) -> int | None:
    return next((i for i, floor in enumerate(FLOORS) if _within(module, floor)), None)


def test_every_module_lives_on_one_floor():
    # the package's own __init__ holds only the version and the map of the floors
    homeless = sorted(m for m in MODULES if m != "reprocompare" and _floor(m) is None)
    assert not homeless, f"modules on no floor (put each in base, study, pipeline or commands): " \
        f"{homeless}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m != "reprocompare"))
def test_each_floor_imports_only_from_itself_and_below(module):
    top, local = GRAPH[module]
    floor = _floor(module)
    above = sorted(name for name in top | {m for m, *_ in local}
                   if name != "reprocompare" and _floor(name) > floor)
    assert not above, f"{module} (floor {floor}) imports from a floor above it: {above}"


def test_the_package_root_imports_nothing():
    top, local = GRAPH["reprocompare"]
    assert not top and not local


def test_no_import_cycles():
    # Only imports at the top count: they run when the module is imported. A package's
    # __init__ importing its own submodules is how a package is built, not a cycle.
    edges = {m: {n for n in top if n != m and not m.startswith(n + ".")}
             for m, (top, _) in GRAPH.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                walk(nxt)
        stack.pop()
        state[node] = 2

    for module in sorted(edges):
        if module not in state:
            walk(module)


def test_function_local_imports_are_only_the_heavy_ones_and_say_so():
    unexpected, unexplained = [], []
    for module, (_, local) in sorted(GRAPH.items()):
        for name, line, context in local:
            where = f"{MODULES[module].relative_to(ROOT)}:{line} imports {name}"
            if (module, name) not in LAZY:
                unexpected.append(where)
            elif "# lazy:" not in context:
                unexplained.append(where)
    assert not unexpected, "function-local project imports (move them to the top):\n" + \
        "\n".join(unexpected)
    assert not unexplained, "lazy imports without a '# lazy: <why>' comment:\n" + \
        "\n".join(unexplained)


def test_the_lazy_list_has_no_stale_entries():
    used = {(module, name) for module, (_, local) in GRAPH.items() for name, *_ in local}
    stale = {(module, name) for module, name in LAZY if module in MODULES} - used
    assert not stale, f"LAZY lists imports that no longer exist: {stale}"
