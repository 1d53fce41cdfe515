"""The code version of an experiment: a digest of the code that computes its tasks' rows —
its module and every module of mtc (and of its own package) that it imports, directly or
through others, plus :mod:`mtc_cli.run.tasking`, which keys, seeds and runs every task.

Read statically from the ``import`` statements (function-level imports included), so that
a change to ``models/text.py`` marks the cached tasks of the PAC-MDL experiment as stale
and leaves those of the GMM experiments alone. Two things stay out, so that an edit that
cannot move a row keeps every cached task:

- the run and show layers (``mtc_cli.run``, ``mtc_cli.show``: reading configs,
  scheduling, caching, deriving the tables, drawing; :func:`computing`), which the rows
  never pass through — tables and figures are derived anew from the cached rows on every
  run — but for the seeding and execution of a task (``mtc_cli.run.tasking``);
- docstrings and comments: each module is hashed as its syntax tree without them.

A task cache entry records the version it was computed with; an entry of another version
is recomputed.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
from functools import cache
from pathlib import Path

from mtc_cli.core.files import atomic_write_text, file_sha256

#: packages whose modules are followed (besides the experiment's own top-level package)
FOLLOWED = ("mtc_cli",)

#: the run and show layers (reading configs, scheduling, caching, deriving the tables,
#: drawing): no task's rows are computed by their modules, which are not followed ...
NOT_COMPUTING_LAYERS = ("mtc_cli.run", "mtc_cli.show")
#: ... but for the task's key, generator and execution (:data:`TASKING`) and the malloc
#: thresholds it sets in every worker
RUN_COMPUTING = frozenset({"mtc_cli.run.tasking", "mtc_cli.run.allocator"})
#: the package's front and the product's presentation modules, not followed either
NOT_COMPUTING = frozenset({"mtc_cli", "mtc_cli.cli", "mtc_cli.selection.figure",
                           "mtc_cli.selection.output"})

#: keys, seeds and runs every task: its closure is part of every experiment's code version
TASKING = "mtc_cli.run.tasking"


@cache
def _root(package: str) -> Path | None:
    """The directory holding the top-level package ``package`` (found without importing
    any of its submodules)."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))).parent


def module_file(name: str) -> Path | None:
    """The file of module ``name`` of a package (``a/b.py`` or ``a/b/__init__.py`` under
    its package's root), found importing its top-level package alone, or None."""
    return next((p for p in _candidates(name) if p.is_file()), None)


@cache
def _source(name: str) -> tuple[str, str] | None:
    """(file path, source text) of module ``name`` (:func:`module_file`), or None if there
    is no such file."""
    path = module_file(name)
    return None if path is None else (str(path), path.read_text(encoding="utf-8"))


def _imports(name: str, source: str, is_package: bool) -> set[str]:
    """Modules named by the import statements of module ``name`` (relative ones resolved);
    ``from a import b`` names ``a`` and, if it is a module, ``a.b``."""
    package = name if is_package else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


def computing(name: str) -> bool:
    """Whether module ``name`` can compute a task's rows: not of the run and show layers
    (but for :data:`RUN_COMPUTING`) nor of :data:`NOT_COMPUTING`."""
    if name in RUN_COMPUTING:
        return True
    return name not in NOT_COMPUTING and not any(
        name == layer or name.startswith(layer + ".") for layer in NOT_COMPUTING_LAYERS)


@cache
def modules_of(name: str) -> tuple[str, ...]:
    """``name`` and every followed module it imports, transitively, sorted (the modules
    that are not :func:`computing` neither counted nor followed)."""
    return _closure(name)[0]


@cache
def _closure(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(:func:`modules_of` ``name``, the names it imports that are no module file of a
    followed package — ``from a import b`` with ``b`` not a module — sorted)."""
    roots = {name.split(".")[0], *FOLLOWED}
    seen, missing, todo = set(), set(), [name]
    while todo:
        mod = todo.pop()
        if mod in seen or mod.split(".")[0] not in roots or not computing(mod):
            continue
        found = _source(mod)
        if found is None:
            missing.add(mod)
            continue
        seen.add(mod)
        path, text = found
        todo.extend(_imports(mod, text, path.endswith("__init__.py")) - seen)
    return tuple(sorted(seen)), tuple(sorted(missing))


@cache
def normalised(source: str) -> str:
    """``source`` as its syntax tree without docstrings (the first statement of a module,
    class or function when it is a string) and comments, written back as code
    (``ast.unparse``): equal for two sources that differ only there."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant) \
                and isinstance(node.body[0].value.value, str):
            node.body = node.body[1:] or [ast.Pass()]
    return ast.unparse(tree)


def code_version(name: str) -> str:
    """sha256 (first 16 hex digits) of the :func:`normalised` sources of :func:`modules_of`
    ``name`` and of :data:`TASKING`: a change to a formula, to the seeding or to how a task
    runs recomputes the tasks it can move, and nothing else does."""
    h = hashlib.sha256()
    for mod in sorted({*modules_of(name), *modules_of(TASKING)}):
        h.update(mod.encode() + b"\0" + normalised(_source(mod)[1]).encode() + b"\0")
    return h.hexdigest()[:16]


def cached_code_version(name: str) -> str:
    """:func:`code_version` of ``name``, remembered in the user's cache directory
    (``$XDG_CACHE_HOME/mtc``, else ``~/.cache/mtc``) under the name, the Python version and
    the directories its packages are found in, with the sha256 of every source file it
    hashed and the module files it found absent: while every file's bytes are as they were
    and every absent one is still absent, the version is read back instead of parsing the
    closure (milliseconds instead of a few tenths of a second at every run).
    Anything unreadable is recomputed; an unwritable cache is only not written."""
    import json
    import sys

    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    store = home / "mtc" / "code_versions.json"
    key = " ".join([name, sys.version, *(str(_root(p)) for p in (name.split(".")[0],
                                                                  *FOLLOWED))])
    try:
        known = json.loads(store.read_text())
    except (OSError, ValueError):
        known = {}
    known = known if isinstance(known, dict) else {}
    try:
        entry = known[key]
        if all(file_sha256(p) == d for p, d in entry["files"].items()) \
                and not any(os.path.exists(p) for p in entry["absent"]):
            return entry["version"]
    except (OSError, KeyError, TypeError, AttributeError):
        pass
    names = sorted({*_closure(name)[0], *_closure(TASKING)[0]})
    absent = sorted({*_closure(name)[1], *_closure(TASKING)[1]})
    try:
        files = {p: file_sha256(p) for p in (_source(m)[0] for m in names)}
    except OSError:
        return code_version(name)
    version = code_version(name)
    known[key] = {"files": files, "absent": [str(p) for m in absent for p in _candidates(m)],
                  "version": version}
    try:
        store.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(store, json.dumps(known, sort_keys=True))
    except OSError:
        pass
    return version


def _candidates(name: str) -> list[Path]:
    """The files that would make ``name`` a module (see :func:`module_file`)."""
    root = _root(name.split(".")[0])
    if root is None:
        return []
    base = root.joinpath(*name.split("."))
    return [base.with_suffix(".py"), base / "__init__.py"]
