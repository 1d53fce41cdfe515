"""mtc_cli's layers import one way, and the code version follows them.

The layers, lowest first: ``core`` (the math: criteria, models, mappings, data sets),
``show`` (tables, targets, figures), ``run`` (configs, runner, cache, backends),
``selection`` (the product, ``mtc select``), then the package's front (``mtc_cli``,
``mtc_cli.cli``). A module may import its own layer and those below it. Imports are read
statically, function-level ones included, as the code version reads them.

An experiment is a folder, ``experiments/<name>/``: its protocol (``protocol.py``, whose
module the code version is taken of) imports neither the show layer nor its tables
(``tables.py``) or figures (``figures.py``), which its ``__init__`` assembles onto it.
"""

import ast
from pathlib import Path

import pytest
import yaml

from mtc_cli.run import codeversion
from mtc_cli.run.registry import experiment_names, get_experiment
from mtc_cli.run.runner import protocol_module

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("mtc_cli.core", "mtc_cli.show", "mtc_cli.run", "mtc_cli.selection")


def _modules(package: str = "mtc_cli") -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()
#: every module of the ``experiments`` package (each experiment's folder included)
EXPERIMENT_MODULES = _modules("experiments")
#: the modules of ``experiments`` that compute rows: each experiment's protocol and the
#: protocols several share
PROTOCOLS = sorted(m for m in EXPERIMENT_MODULES if m.endswith(".protocol")
                   or m in ("experiments._lange2002", "experiments._access_control"))


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
    """The module whose code version is that of an experiment a shipped config names (its
    protocol: :func:`mtc_cli.run.runner.protocol_module`)."""
    configs = sorted((ROOT / "configs").glob("*.yaml"))
    return sorted({protocol_module(get_experiment(yaml.safe_load(c.read_text())["experiment"]))
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

    targets = [*MODULES, *EXPERIMENT_MODULES]
    for name in targets:
        assert versions(name, lambda t: "# a comment\n" + t + "\n# another\n") == before, name
        assert versions(name, docstring) == before, name
    for name in MODULES:
        if rank(name) in (1, 2) and not codeversion.computing(name):
            assert versions(name, lambda t: t + "\nSOMETHING = 1\n") == before, name
    moved = versions("mtc_cli.run.tasking",
                     lambda t: t.replace("spawn_key=words)", "spawn_key=words[::-1])"))
    assert all(moved[n] != before[n] for n in names)


def test_every_shipped_experiment_is_a_folder_whose_protocol_holds_its_code_version():
    """``experiments/<name>/``: protocol, tables and figures, assembled in ``__init__``; the
    runner takes the code version of the protocol's module."""
    assert experiment_names() and set(PROTOCOLS) >= {"experiments._lange2002",
                                                     "experiments._access_control"}
    for name in experiment_names():
        assert {f"experiments.{name}{part}" for part in ("", ".protocol", ".tables",
                                                         ".figures")} <= set(EXPERIMENT_MODULES)
        assert protocol_module(get_experiment(name)) == f"experiments.{name}.protocol", name


def _shows(module: str) -> bool:
    """Whether ``module`` draws or derives tables: the show layer, matplotlib, the product's
    presentation modules, an experiment's tables or figures (``tables``, ``figures``,
    ``_lange2002_tables``, ...)."""
    last = module.rpartition(".")[2]
    return module.split(".")[0] == "matplotlib" \
        or any(module == m or module.startswith(m + ".") for m in
               ("mtc_cli.show", "mtc_cli.selection.figure", "mtc_cli.selection.output")) \
        or (module.startswith("experiments.") and last.endswith(("tables", "figures")))


@pytest.mark.parametrize("name", PROTOCOLS)
def test_a_protocol_imports_no_show_layer_table_or_figure(name):
    """Statically, function-level imports included (as the code version reads them): what
    computes the rows never imports what derives tables or draws from them, so that the
    code version can leave those out."""
    path = EXPERIMENT_MODULES[name]
    named = codeversion._imports(name, path.read_text(), path.name == "__init__.py")
    assert not sorted(m for m in named if _shows(m)), name
    assert not [m for m in codeversion.modules_of(name) if _shows(m)], name


def test_a_protocol_importing_a_figure_would_fail(monkeypatch):
    """The check above can fail: a function-level import of the show layer, or of the
    experiment's tables, in a protocol."""
    name = "experiments.gmm_overlap.protocol"
    read = Path.read_text
    for extra in ("\ndef _f():\n    from mtc_cli.show import plotting\n",
                  "\ndef _f():\n    import matplotlib.pyplot\n",
                  "\nfrom experiments.gmm_overlap import tables\n",
                  "\nfrom experiments._lange2002_figures import plot_curves\n"):
        monkeypatch.setattr(Path, "read_text", lambda self, *a, _x=extra, **k: read(
            self, *a, **k) + (_x if self == EXPERIMENT_MODULES[name] else ""))
        with pytest.raises(AssertionError):
            test_a_protocol_imports_no_show_layer_table_or_figure(name)


def test_only_a_protocol_edit_moves_its_experiments_code_version(monkeypatch):
    """For every shipped experiment a statement appended to its tables.py, its figures.py or
    its ``__init__`` (or to the shared protocol's tables or figure) leaves its code version
    unchanged — they are derived anew from the cached rows on every run — and one
    appended to its protocol.py (or to a shared protocol it imports) changes it."""
    names = {n: protocol_module(get_experiment(n)) for n in experiment_names()}
    before = {n: codeversion.code_version(m) for n, m in names.items()}
    source = codeversion._source

    def version(name, target):
        def read(module):
            path, text = source(module)
            return (path, text + "\nSOMETHING = 1\n") if module == target else (path, text)
        monkeypatch.setattr(codeversion, "_source", read)
        return codeversion.code_version(names[name])

    for name in names:
        for part in ("tables", "figures", "__init__"):
            target = f"experiments.{name}" + ("" if part == "__init__" else f".{part}")
            assert version(name, target) == before[name], (name, part)
        assert version(name, f"experiments.{name}.protocol") != before[name], name
    shared = {"experiments._lange2002": ["stability_leukemia", "stability_toy"],
              "experiments._access_control": ["boolean_denoising", "role_mining_bmf"]}
    for module, users in shared.items():
        assert [n for n in names if version(n, module) != before[n]] == users, module
    for module in ("experiments._lange2002_tables", "experiments._lange2002_figures"):
        assert all(version(n, module) == before[n] for n in names), module
