"""The code version of an experiment: a digest of the code that computes its tasks' rows —
its module and every module of mtc (and of its own package) that it imports, directly or
through others, plus :mod:`mtc_cli.tasking`, which keys, seeds and runs every task.

Read statically from the ``import`` statements (function-level imports included), so that
a change to ``models/text.py`` marks the cached tasks of the PAC-MDL experiment as stale
and leaves those of the GMM experiments alone. Two things stay out, so that an edit that
cannot move a row keeps every cached task:

- the run and show layers (:data:`NOT_COMPUTING`: reading configs, scheduling, caching,
  deriving the tables, drawing), which the rows never pass through — tables and figures
  are derived anew from the cached rows on every run;
- docstrings and comments: each module is hashed as its syntax tree without them.

A task cache entry records the version it was computed with; an entry of another version
is recomputed.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
from functools import cache
from pathlib import Path

#: packages whose modules are followed (besides the experiment's own top-level package)
FOLLOWED = ("mtc_cli",)

#: the run and show layers of mtc: modules no task's rows are computed by, not followed
NOT_COMPUTING = frozenset({
    "mtc_cli", "mtc_cli.agreement", "mtc_cli.allocator", "mtc_cli.cli", "mtc_cli.cluster",
    "mtc_cli.codeversion", "mtc_cli.config", "mtc_cli.curves", "mtc_cli.declared",
    "mtc_cli.errors", "mtc_cli.experiment", "mtc_cli.expressions", "mtc_cli.pipeline",
    "mtc_cli.plotting", "mtc_cli.registry", "mtc_cli.report", "mtc_cli.results",
    "mtc_cli.runlock", "mtc_cli.runner", "mtc_cli.selection.figure",
    "mtc_cli.selection.report", "mtc_cli.yamlio"})

#: keys, seeds and runs every task: its closure is part of every experiment's code version
TASKING = "mtc_cli.tasking"


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


@cache
def _source(name: str) -> tuple[str, str] | None:
    """(file path, source text) of module ``name`` (``a/b.py`` or ``a/b/__init__.py``
    under its package's root), or None if there is no such file."""
    root = _root(name.split(".")[0])
    if root is None:
        return None
    base = root.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return str(path), path.read_text(encoding="utf-8")
    return None


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


@cache
def modules_of(name: str) -> tuple[str, ...]:
    """``name`` and every followed module it imports, transitively, sorted (the modules
    of :data:`NOT_COMPUTING` neither counted nor followed)."""
    roots = {name.split(".")[0], *FOLLOWED}
    seen, todo = set(), [name]
    while todo:
        mod = todo.pop()
        if mod in seen or mod.split(".")[0] not in roots or mod in NOT_COMPUTING:
            continue
        found = _source(mod)
        if found is None:
            continue
        seen.add(mod)
        path, text = found
        todo.extend(_imports(mod, text, path.endswith("__init__.py")) - seen)
    return tuple(sorted(seen))


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
