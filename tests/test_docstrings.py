"""The public API's docstrings are numpydoc: a ``Parameters`` section naming every parameter of a
public function or class that takes any (and none it does not take), and a ``Returns`` (or
``Yields``) section where it returns a value. Checked on the source (ast), as numpydoc's validator
checks PR01, PR02 and RT01, without importing the modules or installing numpydoc (which needs
Sphinx).

Public: a module whose name does not start with ``_``, and in it a function or class defined there
whose name does not start with ``_``; a class's parameters are its own ``__init__``'s (a
dataclass's or NamedTuple's fields are attributes, not checked here).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: the library's folders whose public API is checked
CHECKED = ("reprocompare", "corpora", "splitters", "models", "estimators", "reports", "search")


def _public_modules(folder: str) -> list[Path]:
    return [path for path in sorted((ROOT / folder).rglob("*.py"))
            if not any(part.startswith("_") and part != "__init__.py"
                       for part in path.relative_to(ROOT / folder).parts)
            and "__pycache__" not in path.parts]


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef, method: bool = False) -> list[str]:
    """The parameters a caller passes: a method's first (``self``) is not one."""
    args = node.args
    names = [a.arg for a in (*args.posonlyargs, *args.args)][1 if method else 0:]
    names += [a.arg for a in args.kwonlyargs]
    names += [f"*{args.vararg.arg}"] if args.vararg else []
    names += [f"**{args.kwarg.arg}"] if args.kwarg else []
    return names


def _returns_value(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """'Returns' or 'Yields' when the function gives back a value, else None."""
    def own(tree):  # the function's own statements, not those of functions nested in it
        for child in ast.iter_child_nodes(tree):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                      ast.ClassDef)):
                yield child
                yield from own(child)
    nodes = list(own(node))
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in nodes):
        return "Yields"
    if any(isinstance(n, ast.Return) and n.value is not None
           and not (isinstance(n.value, ast.Constant) and n.value.value is None) for n in nodes):
        return "Returns"
    return None


def _section(doc: str, name: str) -> str | None:
    """The body of a numpydoc section (its heading underlined with dashes), or None."""
    match = re.search(rf"^[ \t]*{name}\n[ \t]*-{{{len(name)}}}-*\n(.*?)(?=^[ \t]*\w[\w ]*\n[ \t]*-{{3,}}\n|\Z)",
                      doc, flags=re.M | re.S)
    return match.group(1) if match else None


def _documented(section: str) -> set[str]:
    """The names a Parameters section describes: 'a : type', 'a, b : type', or a bare 'a'."""
    lines = section.splitlines()
    indent = min((len(l) - len(l.lstrip()) for l in lines if l.strip()), default=0)
    names: set[str] = set()
    for line in lines:
        if line.strip() and len(line) - len(line.lstrip()) == indent:
            names |= {n.strip().lstrip("\\") for n in line.split(" : ")[0].split(",")}
    return names


def problems(path: Path, root: Path = ROOT) -> list[str]:
    """What the module's public definitions lack, one line each."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(root)
    found = []
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                or node.name.startswith("_"):
            continue
        doc = ast.get_docstring(node) or ""
        function = node
        if isinstance(node, ast.ClassDef):
            function = next((n for n in node.body if isinstance(n, ast.FunctionDef)
                             and n.name == "__init__"), None)
            doc = doc or (function and ast.get_docstring(function)) or ""
        name = f"{where}:{node.lineno} {node.name}"
        if not doc:
            found.append(f"{name}: no docstring")
            continue
        if function is None:
            continue
        parameters = _parameters(function, method=isinstance(node, ast.ClassDef))
        section = _section(doc, "Parameters")
        if section is None and isinstance(node, ast.ClassDef):
            section = _section(ast.get_docstring(function) or "", "Parameters")
        documented = {n.lstrip("*") for n in _documented(section or "")}
        if parameters and section is None:
            found.append(f"{name}: no Parameters section")
        elif parameters:
            missing = [p for p in parameters if p.lstrip("*") not in documented]
            if missing:
                found.append(f"{name}: Parameters lacks {', '.join(missing)}")
        stale = sorted(documented - {p.lstrip("*") for p in parameters})
        if stale:  # numpydoc's PR02: a parameter documented that the signature does not have
            found.append(f"{name}: Parameters names {', '.join(stale)}, not in the signature")
        if isinstance(node, ast.ClassDef):
            continue
        kind = _returns_value(node)
        if kind and _section(doc, kind) is None and _section(doc, "Returns") is None:
            found.append(f"{name}: no {kind} section")
    return found


@pytest.mark.parametrize("folder", CHECKED)
def test_the_public_api_has_numpydoc_parameters_and_returns(folder):
    found = [line for path in _public_modules(folder) for line in problems(path)]
    assert not found, f"{len(found)} public definitions lack numpydoc sections:\n" + \
        "\n".join(found)


def test_the_check_reads_numpydoc(tmp_path):
    source = '''
def good(a, b, *, c=1):
    """One line.

    Parameters
    ----------
    a, b : int
        Two.
    c : int, default 1
        Three.

    Returns
    -------
    int
    """
    return a


def bad(a, b):
    """One line.

    Parameters
    ----------
    a : int
    """
    return a


def silent(a):
    """No sections."""


def stale(a):
    """One line.

    Parameters
    ----------
    a, b : int
        Two, but the signature has one.
    """


class Thing:
    """A thing."""

    def __init__(self, x):
        self.x = x
'''
    path = tmp_path / "probe.py"
    path.write_text(source, encoding="utf-8")
    found = [line.split(" ", 1)[1] for line in problems(path, root=tmp_path)]
    assert found == ["bad: Parameters lacks b", "bad: no Returns section",
                     "silent: no Parameters section",
                     "stale: Parameters names b, not in the signature",
                     "Thing: no Parameters section"], found
