"""What a module declares, read from its source without importing it: a docstring, an
experiment's ``description`` and a stand-in of its ``Params``, so that ``mtc list`` and the
errors of a bad config key or value come before (and without) numpy, pandas,
scikit-learn and matplotlib, which the experiment's module imports. A shipped experiment
is a package whose ``__init__`` assembles its protocol (``protocol.py``, which states
``description`` and ``Params``) with its tables and figures: the class of ``experiment``
is followed to its bases in the modules of ours they are imported from.

The stand-in has the real fields (a dataclass's bases' first, as Python orders them); its
types, ranges and choices are those written as literals, or as constants bound to literals
in the module or in a module of mtc that it imports; its nested dataclasses and bases are
the module's own or imported from a module of ours (``experiments._access_control.Noise``,
``mtc_cli.selection.options.Options``); anything else is left unchecked there, for the
real ``Params`` to check after the import: the stand-in checks less, never more
(``tests/run/test_config.py`` holds every shipped experiment to it).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import io
import tokenize
import typing
from pathlib import Path

from mtc_cli.run.codeversion import module_file

TYPES = {"int": int, "float": float, "str": str, "bool": bool, "list": list, "Path": Path,
         "Any": typing.Any}
#: packages whose modules' constants are read (finding a module imports its parents)
OWN = ("mtc_cli", "experiments")
#: the arguments of :func:`mtc_cli.run.params.param` that the stand-in checks, each with the
#: value that checks nothing when the source does not state it as a literal
CHECKS = {"min": None, "max": None, "choices": None, "allow_nan": True}


class _Unknown(Exception):
    """Not written as a literal: left to the real module."""


def source(module: str) -> str | None:
    """The source text of ``module``, or None. Only its top-level package is imported to
    find it (:func:`mtc_cli.run.codeversion.module_file`: importing ``experiments.<name>``,
    whose ``__init__`` imports numpy and the rest, to find ``experiments.<name>.protocol``
    would defeat the purpose); a module outside a package (a plugin) through its spec."""
    origin = module_file(module)
    if origin is None:
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            return None
        origin = None if spec is None else spec.origin
    if not str(origin or "").endswith(".py"):
        return None
    try:
        return Path(origin).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _own(module: str, depth: int) -> ast.Module | None:
    """The syntax tree of ``module`` if it is a module of ours and ``depth`` (modules
    followed so far) is below 3, else None."""
    return parse(module) if module.split(".")[0] in OWN and depth < 3 else None


def parse(module: str) -> ast.Module | None:
    """The syntax tree of ``module``'s source, or None."""
    text = source(module)
    try:
        return None if text is None else ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def docstring(module: str) -> str | None:
    """The docstring of ``module`` (as its ``__doc__``), or None; read from its first tokens
    (parsing the whole module takes ten times longer)."""
    text = source(module)
    if text is None:
        return None
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE):
                continue
            if token.type != tokenize.STRING:
                return None
            value = ast.literal_eval(token.string)
            return value if isinstance(value, str) else None
    except (tokenize.TokenError, SyntaxError, ValueError):
        return None
    return None


def _last(body, name: str) -> ast.expr | None:
    """The value last assigned to ``name`` in ``body`` (a module's or a class's)."""
    value = None
    for node in body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name
                                                for t in node.targets):
            value = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and node.target.id == name:
            value = node.value
    return value


def experiment_attribute(tree: ast.Module, name: str) -> tuple[ast.expr, ast.Module] | None:
    """The value of the class attribute ``name`` of the class of ``experiment = Class()``,
    with the syntax tree of the module whose class states it: the class's own, else that
    of its bases, in order, each a class of the module or imported from a module of ours
    (``from experiments.<name>.protocol import <Name>Protocol``: an experiment assembled
    in its package's ``__init__`` from its protocol), at most three classes deep."""
    made = _last(tree.body, "experiment")
    if not (isinstance(made, ast.Call) and isinstance(made.func, ast.Name)):
        return None
    return _class_attribute(tree, made.func.id, name, 0)


def _class_attribute(tree: ast.Module, cls: str, name: str,
                     depth: int) -> tuple[ast.expr, ast.Module] | None:
    """The value of the attribute ``name`` of the class ``cls`` of ``tree`` or of one of its
    bases (see :func:`experiment_attribute`), with the tree of the module that states it."""
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls]
    if not classes:
        return None
    value = _last(classes[-1].body, name)
    if value is not None:
        return value, tree
    if depth >= 3:
        return None
    imported = _Module(tree).imported
    for base in classes[-1].bases:
        if not isinstance(base, ast.Name):
            continue
        if base.id in imported:  # a class of another module of ours
            module, attribute = imported[base.id]
            other = _own(module, depth)
            found = None if other is None else _class_attribute(other, attribute, name,
                                                                depth + 1)
        else:
            found = _class_attribute(tree, base.id, name, depth + 1)
        if found is not None:
            return found
    return None


def description(tree: ast.Module) -> str | None:
    """The experiment's ``description`` if its class (or a base, see
    :func:`experiment_attribute`) states it as a string, else None."""
    found = experiment_attribute(tree, "description")
    value = None if found is None else found[0]
    return value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) \
        else None


def params(tree: ast.Module) -> type | None:
    """A stand-in of the experiment's ``Params`` dataclass, or None if the source does not
    define it as a plain dataclass of the module that states ``Params`` (or imported there
    from a module of ours)."""
    found = experiment_attribute(tree, "Params")
    if found is None or not isinstance(found[0], ast.Name):
        return None
    try:
        return _Module(found[1]).dataclass(found[0].id)
    except _Unknown:
        return None


class _Module:
    def __init__(self, tree: ast.Module, depth: int = 0):
        self.classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
        self.constants = {}
        self.imported = {}  # name → (module, attribute): ``from module import attribute``
        for node in tree.body:
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if isinstance(target, ast.Name):
                        self.constants[target.id] = node.value
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    self.imported[alias.asname or alias.name] = (node.module, alias.name)
        self.made: dict[str, type | None] = {}
        self.depth = depth

    def dataclass(self, name: str) -> type:
        """The stand-in of the module's dataclass ``name``."""
        if name in self.made:
            if self.made[name] is None:  # a dataclass that contains itself
                raise _Unknown(name)
            return self.made[name]
        node = self.classes.get(name)
        if node is None and name in self.imported:
            module, attribute = self.imported[name]  # a dataclass of another module of ours
            tree = _own(module, self.depth)
            if tree is None:
                raise _Unknown(name)
            self.made[name] = _Module(tree, self.depth + 1).dataclass(attribute)
            return self.made[name]
        if node is None or node.keywords or not all(isinstance(b, ast.Name)
                                                     for b in node.bases) or not any(
                ast.unparse(d).split("(")[0] in ("dataclass", "dataclasses.dataclass")
                for d in node.decorator_list):
            raise _Unknown(name)
        self.made[name] = None
        fields = {}
        for base in reversed(node.bases):  # a dataclass's fields follow its bases' (MRO)
            for f in dataclasses.fields(self.dataclass(base.id)):
                fields[f.name] = (f.name, f.type, dataclasses.field(default=None,
                                                                     metadata=f.metadata))
        for stmt in node.body:
            if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)) \
                    or "ClassVar" in ast.unparse(stmt.annotation):
                continue
            try:
                tp, meta = self.type(stmt.annotation), self.checks(stmt.value)
            except (_Unknown, RecursionError):
                tp, meta = typing.Any, {}
            fields[stmt.target.id] = (stmt.target.id, tp,
                                      dataclasses.field(default=None, metadata=meta))
        self.made[name] = dataclasses.make_dataclass(name, list(fields.values()), frozen=True)
        return self.made[name]

    def type(self, node: ast.expr):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return self.type(ast.parse(node.value, mode="eval").body)
        if isinstance(node, ast.Constant) and node.value is None:
            return type(None)
        if isinstance(node, ast.Name):
            return TYPES[node.id] if node.id in TYPES else self.dataclass(node.id)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self.type(node.left) | self.type(node.right)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            if node.value.id == "list":
                return list[self.type(node.slice)]
            if node.value.id == "Optional":
                return self.type(node.slice) | None
        raise _Unknown(ast.unparse(node))

    def checks(self, node: ast.expr | None) -> dict:
        """The metadata of a field made with ``param(...)`` (only its literal checks)."""
        if not (isinstance(node, ast.Call) and ast.unparse(node.func) in ("param",
                                                                          "config.param")):
            return {}
        given = {k.arg: k.value for k in node.keywords}
        meta = {"allow_nan": False}
        for key, unchecked in CHECKS.items():
            if key in given:
                try:
                    meta[key] = self.value(given[key])
                except (_Unknown, RecursionError):
                    meta[key] = unchecked
        return meta

    def value(self, node: ast.expr):
        """A literal, a constant bound to one (``NAME``, an imported ``NAME`` or
        ``module.NAME``), or list()/tuple() of either."""
        if isinstance(node, ast.Name) and node.id in self.constants:
            return self.value(self.constants[node.id])
        if isinstance(node, ast.Name) and node.id in self.imported:
            return self.constant(*self.imported[node.id])
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in self.imported:
            return self.constant(".".join(self.imported[node.value.id]), node.attr)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("list", "tuple") and len(node.args) == 1 \
                and not node.keywords:
            return (list if node.func.id == "list" else tuple)(self.value(node.args[0]))
        try:
            return ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            raise _Unknown(ast.unparse(node)) from None

    def constant(self, module: str, name: str):
        """The literal value of the constant ``name`` of mtc's module ``module``."""
        tree = _own(module, self.depth)
        if tree is None:
            raise _Unknown(f"{module}.{name}")
        return _Module(tree, self.depth + 1).value(ast.Name(name))
