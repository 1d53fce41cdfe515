"""mtc_cli's layers import one way, and the code version follows them.

The layers, lowest first: ``core`` (the math: criteria, models, mappings, data sets),
``show`` (tables, targets, figures), ``run`` (configs, runner, cache, backends),
``selection`` (the product, ``mtc select``), then the package's front (``mtc_cli``,
``mtc_cli.cli``). A module may import its own layer and those below it. Imports are read
statically, function-level ones included, as the code version reads them.
"""

import ast
from pathlib import Path

import pytest
import yaml

from mtc_cli.run import codeversion

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("mtc_cli.core", "mtc_cli.show", "mtc_cli.run", "mtc_cli.selection")


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / "mtc_cli").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()


def rank(name: str) -> int:
    """The layer of module ``name`` (0 = core … 4 = the package's front)."""
    for i, layer in enumerate(LAYERS):
        if name == layer or name.startswith(layer + "."):
            return i
    return len(LAYERS)


def imports(name: str) -> set[str]:
    """The modules of mtc_cli (and of ``experiments``) that module ``name`` imports."""
    path = MODULES[name]
    named = codeversion._imports(name, path.read_text(), path.name == "__init__.py")
    return {m for m in named if m in MODULES or m.split(".")[0] == "experiments"}


def test_the_layers_exist_and_hold_every_module():
    assert {rank(m) for m in MODULES} == set(range(len(LAYERS) + 1))
    assert {m for m in MODULES if rank(m) == len(LAYERS)} == {"mtc_cli", "mtc_cli.cli"}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_go_one_way(name):
    """No module imports a layer above its own; only the registry reaches the
    experiments, by name (it lists the ``experiments`` package)."""
    above = sorted(m for m in imports(name) if m in MODULES and rank(m) > rank(name))
    assert not above, f"{name} (layer {rank(name)}) imports {above}"
    shipped = sorted(m for m in imports(name) if m.split(".")[0] == "experiments")
    assert shipped in ([], ["experiments"]) and (not shipped or name == "mtc_cli.run.registry")


def test_core_imports_nothing_of_mtc_outside_core():
    for name in MODULES:
        if rank(name) == 0:
            assert all(rank(m) == 0 for m in imports(name) if m in MODULES), name


def test_no_import_cycle():
    """Depth-first search over the static import graph of mtc_cli (a package's
    ``__init__`` counted as the module it is)."""
    graph = {m: sorted(i for i in imports(m) if i in MODULES and i != m) for m in MODULES}
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(m, path):
        state[m] = 1
        for n in graph[m]:
            assert state.get(n) != 1, "import cycle: " + " → ".join([*path, m, n])
            if n not in state:
                visit(n, [*path, m])
        state[m] = 2

    for m in graph:
        if m not in state:
            visit(m, [])


def test_a_detected_cycle_and_a_layer_breach_would_fail(monkeypatch):
    """The checks above can fail: a function-level import of the run layer in a criterion
    breaks the layering, and one of ``selection.voting`` in ``selection.criteria`` closes
    a cycle (``voting`` imports ``criteria``)."""
    edit = {"mtc_cli.core.criteria.stability": "\ndef _f():\n    from mtc_cli.run import runner\n",
            "mtc_cli.selection.catalog": "\ndef _f():\n    from mtc_cli.selection import voting\n"}
    read = Path.read_text

    def patched(self, *a, **k):
        text = read(self, *a, **k)
        for name, extra in edit.items():
            if self == MODULES[name]:
                return text + extra
        return text

    monkeypatch.setattr(Path, "read_text", patched)
    with pytest.raises(AssertionError, match="imports"):
        test_imports_go_one_way("mtc_cli.core.criteria.stability")
    with pytest.raises(AssertionError, match="import cycle"):
        test_no_import_cycle()


def _experiments() -> list[str]:
    configs = sorted((ROOT / "configs").glob("*.yaml"))
    return sorted({f"experiments.{yaml.safe_load(c.read_text())['experiment']}"
                   for c in configs})


def test_no_comment_docstring_or_run_show_edit_moves_a_code_version(monkeypatch):
    """A comment or a docstring edited in any module of mtc_cli or of the experiments, and
    any statement added to a module of the run and show layers outside the seeding, leave
    every experiment's code version unchanged; an edit of the seeding changes them all."""
    names = _experiments()
    before = {n: codeversion.code_version(n) for n in names}
    source = codeversion._source

    def versions(target, edit):
        def read(name):
            path, text = source(name)
            return (path, edit(text)) if name == target else (path, text)
        monkeypatch.setattr(codeversion, "_source", read)
        return {n: codeversion.code_version(n) for n in names}

    def docstring(text):
        # a module without a docstring gains one; one with a docstring has it edited
        return text.replace('"""', '"""Edited. ', 1) if ast.get_docstring(ast.parse(text)) \
            else '"""A new docstring."""\n' + text

    targets = [*MODULES, *(f"experiments.{p.stem}" for p in (ROOT / "experiments").glob("*.py"))]
    for name in targets:
        assert versions(name, lambda t: "# a comment\n" + t + "\n# another\n") == before, name
        assert versions(name, docstring) == before, name
    for name in MODULES:
        if rank(name) in (1, 2) and not codeversion.computing(name):
            assert versions(name, lambda t: t + "\nSOMETHING = 1\n") == before, name
    moved = versions("mtc_cli.run.tasking",
                     lambda t: t.replace("spawn_key=words)", "spawn_key=words[::-1])"))
    assert all(moved[n] != before[n] for n in names)
