"""The numbers, small tables and experiment notes of the README and docs/, rendered from the
committed CSVs under ``results/`` — never typed.

- A number in prose is a span ``<!--n:NAME-->0.49<!--/n-->``; ``NAME`` is ``SCOPE.KEY``,
  defined in ``docs/numbers/SCOPE.yaml`` or ``experiments/SCOPE/numbers.yaml``::

      max_loss_db:
        file: svd_lenna/summary.csv       # under the results directory (or a TSV of tests/data
                                          # as ../tests/data/NAME.tsv); a run.json is
                                          # one row (nested keys joined by _), or with
                                          # records: timing the rows of that list
        where: "sigma >= 20"              # optional: which rows (the targets' grammar)
        value: "psnr_lost_db.max()"       # one value: a column equal on every row
                                          # selected ("4 each"), or an aggregate
        format: ".2f"                     # optional Python format spec ("," groups by spaces)

- A table is a block between the lines ``<!-- table:NAME:start -->`` and
  ``<!-- table:NAME:end -->``, defined as a number but with ``columns`` (heading → expression,
  or heading → {value, format}) in place of ``value``, the rows in the file's order, and
  ``transpose: true`` to lay the first column out as the heading row.
- An experiment's notes are written once, in ``experiments/NAME/NOTES.md`` (links relative to
  it); a block between ``<!-- notes:NAME:start -->`` and ``<!-- notes:NAME:end -->`` in a doc
  holds a copy, its links rewritten relative to the doc.

Expressions are those of the paper targets (:mod:`mtc_cli.show.expressions`): column names,
arithmetic, comparisons and aggregates, nothing else.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from mtc_cli.core.errors import MtcError
from mtc_cli.show.expressions import absent_literals, evaluate
from mtc_cli.show.tables import markdown_table

SPAN = re.compile(r"<!--n:([\w.-]+)-->(.*?)<!--/n-->")
BLOCK = re.compile(r"^<!-- (table|notes):([\w.-]+):start -->[ \t]*$", re.M)
#: a relative link target in markdown: ``[text](target)`` or ``![alt](target)``
LINK = re.compile(r"(\]\()([^)\s]+)(\))")
MINUS = "\u2212"


def registry(root: Path) -> dict[str, dict]:
    """Every number and table defined under ``root`` (``docs/numbers/*.yaml``,
    ``experiments/*/numbers.yaml``), by ``SCOPE.KEY``."""
    files = [(f.stem, f) for f in sorted(Path(root).glob("docs/numbers/*.yaml"))]
    files += [(f.parent.name, f) for f in sorted(Path(root).glob("experiments/*/numbers.yaml"))]
    out: dict[str, dict] = {}
    for scope, f in files:
        try:
            defs = yaml.safe_load(f.read_text()) or {}
        except yaml.YAMLError as exc:
            raise MtcError(f"{f}: not valid YAML ({exc.__class__.__name__})") from None
        if not isinstance(defs, dict):
            raise MtcError(f"{f}: expected a mapping of names to definitions")
        for key, spec in defs.items():
            name = f"{scope}.{key}"
            if name in out:
                raise MtcError(f"{f}: {name} is defined twice")
            if not isinstance(spec, dict) or "file" not in spec or \
                    ("value" in spec) == ("columns" in spec):
                raise MtcError(f"{f}: {key} needs 'file' and one of 'value' or 'columns'")
            out[name] = {**spec, "defined_in": str(f)}
    return out


def format_number(v, spec: str | None = None) -> str:
    """``v`` as the docs write it: ``spec`` a Python format spec (default: the shortest of
    ``g``, integers without a decimal point), ``,`` grouping by spaces (2 072), a negative
    sign as − (U+2212); text and booleans as they are."""
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, bool) or not isinstance(v, int | float):
        return str(v)
    text = format(v, spec or "g").replace(",", " ")
    return MINUS + text[1:] if text.startswith("-") else text


class Renderer:
    """The values of one registry on the CSVs under ``results`` (each file read once)."""

    def __init__(self, root: Path, results: Path):
        self.root = Path(root)
        self.defs = registry(root)
        self.results = Path(results)
        self._tables: dict[tuple, pd.DataFrame] = {}

    def _rows(self, name: str) -> tuple[dict, pd.DataFrame]:
        if name not in self.defs:
            raise MtcError(f"{name}: not defined (docs/numbers/SCOPE.yaml or "
                           "experiments/SCOPE/numbers.yaml)")
        spec = self.defs[name]
        path = self.results / spec["file"]
        key = (path, spec.get("records"))
        if key not in self._tables:
            if not path.is_file():
                raise MtcError(f"{name} ({spec['defined_in']}): {path} not found")
            self._tables[key] = self._read(path, spec.get("records"), name)
        rows = self._tables[key]
        if "where" in spec:
            absent = absent_literals(str(spec["where"]), rows)
            if absent:
                column, text = absent[0]
                raise MtcError(f"{name} ({spec['defined_in']}): where: {text!r} is no "
                               f"{column} of {spec['file']}")
            try:
                mask = evaluate(str(spec["where"]), rows)
            except MtcError as exc:
                raise MtcError(f"{name} ({spec['defined_in']}): where: {exc}") from None
            rows = rows[mask] if isinstance(mask, pd.Series) else rows[[bool(mask)] * len(rows)]
        return spec, rows

    @staticmethod
    def _read(path: Path, records: str | None, name: str) -> pd.DataFrame:
        """A CSV (a TSV: tab-separated), or a JSON file as one row (nested keys joined by
        ``_``) or, with ``records``, as the rows of its list under that key."""
        if path.suffix != ".json":
            return pd.read_csv(path, sep="\t" if path.suffix == ".tsv" else ",")
        data = json.loads(path.read_text())
        if records is None:
            return pd.json_normalize(data, sep="_")
        if not isinstance(data.get(records), list):
            raise MtcError(f"{name}: {path} has no list '{records}'")
        return pd.json_normalize(data[records], sep="_")

    def number(self, name: str) -> str:
        """The formatted value of number ``name``: one value, else an error naming it."""
        spec, rows = self._rows(name)
        if "value" not in spec:
            raise MtcError(f"{name} ({spec['defined_in']}) is a table, not a number")
        try:
            v = evaluate(str(spec["value"]), rows)
        except MtcError as exc:
            raise MtcError(f"{name} ({spec['defined_in']}): {exc}") from None
        if isinstance(v, pd.Series):
            if v.nunique(dropna=False) != 1:
                raise MtcError(f"{name} ({spec['defined_in']}): {spec['value']!r} gives "
                               f"{v.nunique(dropna=False)} different values on "
                               f"{spec['file']}; one is needed (narrow 'where' or "
                               "aggregate)")
            v = v.iloc[0]
        if isinstance(v, float) and np.isnan(v):
            raise MtcError(f"{name} ({spec['defined_in']}): {spec['value']!r} is undefined "
                           f"on {spec['file']} (no row where {spec.get('where')!r}?)")
        return format_number(v, spec.get("format"))

    def table(self, name: str) -> str:
        """Table ``name`` in markdown."""
        spec, rows = self._rows(name)
        if "columns" not in spec:
            raise MtcError(f"{name} ({spec['defined_in']}) is a number, not a table")
        cols = {}
        for heading, col in spec["columns"].items():
            expr, fmt = (col.get("value"), col.get("format")) if isinstance(col, dict) \
                else (col, None)
            try:
                v = evaluate(str(expr), rows)
            except MtcError as exc:
                raise MtcError(f"{name} ({spec['defined_in']}): {heading}: {exc}") from None
            values = v if isinstance(v, pd.Series) else pd.Series([v] * len(rows))
            cols[str(heading)] = [format_number(x, fmt) for x in values]
        df = pd.DataFrame(cols)
        if spec.get("transpose"):
            first, *rest = df.columns
            df = pd.DataFrame([[h, *df[h]] for h in rest], columns=[first, *df[first]])
        return markdown_table(df)


def render_spans(text: str, renderer: Renderer) -> tuple[str, list[str]]:
    """``text`` with every number span holding its value, and the names that changed."""
    changed = []

    def put(m: re.Match) -> str:
        value = renderer.number(m.group(1))
        if value != m.group(2):
            changed.append(m.group(1))
        return f"<!--n:{m.group(1)}-->{value}<!--/n-->"

    return SPAN.sub(put, text), changed


def relink(text: str, source: Path, target: Path) -> str:
    """``text`` (written in directory ``source``) with its relative link targets rewritten
    relative to directory ``target``; absolute URLs and anchors stay."""
    def move(m: re.Match) -> str:
        link = m.group(2)
        if re.match(r"^([a-z]+:|#|/)", link):
            return m.group(0)
        path, hash_, anchor = link.partition("#")
        moved = os.path.relpath(os.path.normpath(source / path), target)
        return f"{m.group(1)}{Path(moved).as_posix()}{hash_}{anchor}{m.group(3)}"

    return LINK.sub(move, text)


def blocks(text: str, where: str) -> list[tuple[str, str, int, int]]:
    """The outermost table and notes blocks of ``text``: (kind, name, start of the content,
    end of the content); a start line without its end line after it is an error naming
    ``where``."""
    out, pos = [], 0
    while (m := BLOCK.search(text, pos)) is not None:
        kind, name = m.group(1), m.group(2)
        end = re.compile(rf"^<!-- {kind}:{re.escape(name)}:end -->[ \t]*$", re.M)
        e = end.search(text, m.end())
        if e is None:
            raise MtcError(f"{where}: the block {kind}:{name} has no line "
                           f"<!-- {kind}:{name}:end --> after it")
        out.append((kind, name, min(m.end() + 1, e.start()), e.start()))
        pos = e.end()  # a block inside a notes copy is the notes' own
    return out


def render_blocks(text: str, renderer: Renderer, notes, where: Path) -> tuple[str, list[str]]:
    """``text`` with every table block rebuilt and every notes block a copy of
    ``notes(name)`` (the rendered ``experiments/NAME/NOTES.md``) relinked from its folder
    to ``where``'s; and the blocks that changed."""
    changed = []
    for kind, name, start, end in reversed(blocks(text, str(where))):
        if kind == "table":
            body = renderer.table(name)
        else:
            source, notes_text = notes(name)
            body = relink(notes_text.rstrip("\n"), source.parent, where.parent)
        body += "\n"
        if text[start:end] != body:
            changed.append(f"{kind}:{name}")
            text = text[:start] + body + text[end:]
    return text, changed[::-1]
