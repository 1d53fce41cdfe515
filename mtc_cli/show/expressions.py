"""The expressions of paper targets (``where`` and ``expect``): data, not code.

A small grammar of our own, read with Python's parser (``ast.parse`` only parses) and
evaluated by walking a whitelist of node kinds — nothing is handed to ``eval``, pandas'
``query``/``eval`` or any other interpreter:

- operands: column names of the table (each a column), numbers, strings, ``True``/``False``,
  lists of constants ``[a, b]``;
- arithmetic ``+ - * /``, unary ``-``; comparisons ``== != < <= > >=`` (chainable), ``in`` and
  ``not in`` a list; ``and``, ``or``, ``not``; parentheses;
- the aggregates ``.mean() .median() .min() .max() .sum() .std() .all() .any() .nunique()`` of a
  column or expression (a number, compared with every row), and the function ``abs()``.

No other name, attribute, call, subscript or construct is accepted: ``@name``, ``__class__``,
``os.system(…)`` or ``lambda`` are syntax errors of the target, reported in one line.
"""

from __future__ import annotations

import ast
import difflib

import numpy as np
import pandas as pd

from mtc_cli.core.errors import MtcError

AGGREGATES = ("mean", "median", "min", "max", "sum", "std", "all", "any", "nunique")
FUNCTIONS = ("abs",)
#: longest expression and deepest nesting accepted
MAX_LENGTH = 2000
MAX_DEPTH = 40

_COMPARE = {
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
}
_ARITHMETIC = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b,
}


def parse(text: str) -> ast.Expression:
    """The syntax tree of ``text``, checked against the grammar (MtcError otherwise)."""
    if not isinstance(text, str):
        raise MtcError(f"expected an expression string, got {text!r}")
    if len(text) > MAX_LENGTH:
        raise MtcError(f"expression longer than {MAX_LENGTH} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise MtcError(f"invalid expression {text!r}: {exc.msg}") from None
    except (ValueError, RecursionError, MemoryError):
        raise MtcError(f"invalid expression {text!r}") from None
    _check(tree.body, text, 0)
    return tree


def _check(node, text: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise MtcError(f"expression {text!r} is nested too deeply")

    def bad(what: str):
        raise MtcError(f"expression {text!r}: {what} is not allowed in a target (allowed: "
                       "columns, numbers, strings, lists, + - * /, comparisons, in, and/or/"
                       f"not, abs(), .{'(), .'.join(AGGREGATES)}())")

    kids = []
    if isinstance(node, ast.Name):
        if node.id.startswith("__"):
            bad(f"the name {node.id!r}")
    elif isinstance(node, ast.Constant):
        if not isinstance(node.value, bool | int | float | str):
            bad(f"the constant {node.value!r}")
    elif isinstance(node, ast.List | ast.Tuple):
        if not all(isinstance(e, ast.Constant) or _is_negative_number(e) for e in node.elts):
            bad("a list of anything but constants")
        kids = node.elts
    elif isinstance(node, ast.BinOp):
        if type(node.op) not in _ARITHMETIC:
            bad(f"the operator {type(node.op).__name__}")
        kids = [node.left, node.right]
    elif isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, ast.USub | ast.Not | ast.UAdd):
            bad(f"the operator {type(node.op).__name__}")
        kids = [node.operand]
    elif isinstance(node, ast.BoolOp):
        kids = node.values
    elif isinstance(node, ast.Compare):
        for op in node.ops:
            if type(op) not in _COMPARE and not isinstance(op, ast.In | ast.NotIn):
                bad(f"the comparison {type(op).__name__}")
        kids = [node.left, *node.comparators]
    elif isinstance(node, ast.Call):
        if node.keywords or (isinstance(node.func, ast.Attribute) and node.args):
            bad("a call with arguments")
        if isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS:
            if len(node.args) != 1:
                bad(f"{node.func.id}() with {len(node.args)} arguments")
            kids = node.args
        elif isinstance(node.func, ast.Attribute) and node.func.attr in AGGREGATES:
            kids = [node.func.value]
        else:
            bad(f"the call {ast.unparse(node.func)}()")
    else:
        bad(type(node).__name__)
    for kid in kids:
        _check(kid, text, depth + 1)


def _is_negative_number(node) -> bool:
    return (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant)
            and isinstance(node.operand.value, int | float))


def evaluate(text: str, table: pd.DataFrame):
    """The value of ``text`` on ``table``: a Series (one value per row) or a scalar.
    An unknown column is an MtcError naming it and the nearest column."""
    return _eval(parse(text).body, table, text)


def absent_literals(text: str, table: pd.DataFrame) -> list[tuple[str, str]]:
    """The (column, text) of every ``column == 'text'`` or ``column in ['text', …]`` in
    ``text`` whose text is no value of that column on any row of ``table``: a misspelt name
    selects no row, and an aggregate of no rows is a number (a sum of 0) that says nothing."""
    out = []
    for node in ast.walk(parse(text)):
        if not (isinstance(node, ast.Compare) and isinstance(node.left, ast.Name)
                and node.left.id in table.columns):
            continue
        seen = set(table[node.left.id].astype(str))
        for op, right in zip(node.ops, node.comparators, strict=True):
            if not isinstance(op, ast.Eq | ast.In):
                continue
            items = right.elts if isinstance(right, ast.List | ast.Tuple) else [right]
            out += [(node.left.id, i.value) for i in items if isinstance(i, ast.Constant)
                    and isinstance(i.value, str) and i.value not in seen]
    return out


def names(text: str) -> list[str]:
    """The column names ``text`` refers to, in order of appearance."""
    return list(dict.fromkeys(n.id for n in ast.walk(parse(text)) if isinstance(n, ast.Name)
                              and n.id not in ("True", "False")))


def _eval(node, table: pd.DataFrame, text: str):
    if isinstance(node, ast.Name):
        if node.id == "True" or node.id == "False":
            return node.id == "True"
        if node.id not in table.columns:
            near = difflib.get_close_matches(node.id, list(map(str, table.columns)), n=1,
                                             cutoff=0.6)
            hint = f" (did you mean '{near[0]}'?)" if near else ""
            raise MtcError(f"unknown column '{node.id}'{hint}")
        return table[node.id]
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.List | ast.Tuple):
        return [_eval(e, table, text) for e in node.elts]
    if isinstance(node, ast.BinOp):
        return _ARITHMETIC[type(node.op)](_eval(node.left, table, text),
                                          _eval(node.right, table, text))
    if isinstance(node, ast.UnaryOp):
        value = _eval(node.operand, table, text)
        if isinstance(node.op, ast.Not):
            return ~value if isinstance(value, pd.Series) else not value
        return -value if isinstance(node.op, ast.USub) else +value
    if isinstance(node, ast.BoolOp):
        values = [_eval(v, table, text) for v in node.values]
        out = values[0]
        for v in values[1:]:
            out = _logical(out, v, isinstance(node.op, ast.And))
        return out
    if isinstance(node, ast.Compare):
        left, out = _eval(node.left, table, text), True
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _eval(right_node, table, text)
            if isinstance(op, ast.In | ast.NotIn):
                hit = (left.isin(right) if isinstance(left, pd.Series) else left in right)
                part = ~hit if isinstance(op, ast.NotIn) and isinstance(hit, pd.Series) \
                    else (not hit if isinstance(op, ast.NotIn) else hit)
            else:
                part = _COMPARE[type(op)](left, right)
            out = part if out is True else _logical(out, part, True)
            left = right
        return out
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name):
            return np.abs(_eval(node.args[0], table, text))
        value = _eval(node.func.value, table, text)
        series = value if isinstance(value, pd.Series) else pd.Series([value])
        return getattr(series, node.func.attr)()
    raise MtcError(f"expression {text!r}: cannot evaluate {type(node).__name__}")


def _logical(a, b, both: bool):
    if isinstance(a, pd.Series) or isinstance(b, pd.Series):
        a = a.astype(bool) if isinstance(a, pd.Series) else bool(a)
        b = b.astype(bool) if isinstance(b, pd.Series) else bool(b)
        return (a & b) if both else (a | b)
    return (bool(a) and bool(b)) if both else (bool(a) or bool(b))
