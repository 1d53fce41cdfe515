"""Tidy rows, the selection summary, paper targets, atomic CSV/JSON I/O and provenance.

Contract of every run directory:

- ``rows.csv``: one row per condition × ``rep`` × ``criterion`` × ``k`` with ``score``;
- ``summary.csv``: one row per condition × criterion with ``selected_k`` (median of the
  per-repetition selections), ``selected_k_q25``, ``selected_k_q75``, ``n_reps`` and,
  where the experiment knows it, ``true_k`` / ``oracle_k``;
- ``targets.csv``: each paper claim of the config, whether it holds, what was observed;
- ``run.json``: resolved config, seed, versions, git commit, wall time, jobs.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
from pathlib import Path

import numpy as np
import pandas as pd

from mtc_cli import expressions
from mtc_cli.errors import MtcError


def new_temp_file(path: Path, suffix: str = ".tmp") -> tuple[int, Path]:
    """A new empty file beside ``path`` (open descriptor, path), created with mode 0666 less
    the umask — as any file the user makes, so that colleagues on a shared filesystem can
    read results and caches when the umask lets them (``tempfile.mkstemp`` makes 0600)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(100):
        tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}{suffix}"
        try:
            return os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the new, never half."""
    path = Path(path)
    fd, tmp = new_temp_file(path)
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_csv(df: pd.DataFrame, path: Path) -> None:
    """Write a table atomically; floats in shortest round-trip form (deterministic)."""
    atomic_write_text(path, df.to_csv(index=False, lineterminator="\n"))


def write_json(obj, path: Path) -> None:
    atomic_write_text(path, json.dumps(obj, indent=2, sort_keys=True, default=str) + "\n")


def select_per_rep(rows: pd.DataFrame, condition: list[str], select: dict) -> pd.DataFrame:
    """Each repetition's choice: the k with the lowest (rule ``min``) or highest
    (``max``) score per condition × rep × criterion; ties go to the smallest k."""
    parts = []
    for criterion, rule in select.items():
        sub = rows[(rows["criterion"] == criterion) & rows["score"].notna()]
        if sub.empty:
            continue
        sub = sub.sort_values([*condition, "rep", "k"], kind="stable")
        key = sub["score"] if rule == "min" else -sub["score"]
        idx = key.groupby([sub[c] for c in [*condition, "rep"]], sort=False).idxmin()
        chosen = sub.loc[idx.values, [*condition, "rep", "k"]].rename(columns={"k": "selected_k"})
        chosen.insert(len(condition), "criterion", criterion)
        parts.append(chosen)
    if not parts:
        return pd.DataFrame(columns=[*condition, "criterion", "rep", "selected_k"])
    return pd.concat(parts, ignore_index=True)


def summarize_selection(rows: pd.DataFrame, condition: list[str], select: dict) -> pd.DataFrame:
    """Median and quartiles over repetitions of each criterion's selected k."""
    chosen = select_per_rep(rows, condition, select)
    order = {c: i for i, c in enumerate(select)}
    grouped = chosen.groupby([*condition, "criterion"], sort=False)["selected_k"]
    out = grouped.agg(
        selected_k="median",
        selected_k_q25=lambda s: float(np.quantile(s, 0.25)),
        selected_k_q75=lambda s: float(np.quantile(s, 0.75)),
        n_reps="size",
    ).reset_index()
    out["_order"] = out["criterion"].map(order)
    out = out.sort_values([*condition, "_order"], kind="stable").drop(columns="_order")
    return out.reset_index(drop=True)


_COMPARISON = re.compile(r"<=|>=|==|!=|<|>")


def check_targets(targets, tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Evaluate each target on its table: does ``expect`` hold on every row that ``where``
    selects? ``status`` is ``holds``, ``fails``, ``not testable`` (the target says the
    design cannot decide it; its values are still shown) or ``error`` (an expression that
    cannot be evaluated on the table, e.g. an unknown column: reported, not raised).
    Expressions are :mod:`mtc_cli.expressions` (data, not code)."""
    out = []
    for t in targets:
        row = {"claim": t.claim, "kind": t.kind, "status": "error", "holds": False,
               "table": t.table, "where": t.where, "expect": t.expect, "paper": t.paper,
               "why": t.why, "observed": ""}
        df = tables.get(t.table)
        try:
            if df is None:
                raise MtcError(f"no table '{t.table}' (have: {', '.join(sorted(tables))})")
            sel = _select(df, t.where)
            if sel.empty:
                row["observed"] = "no rows selected"
                row["status"] = "fails"
            else:
                ok = _per_row(expressions.evaluate(t.expect, sel), sel.index)
                row["holds"] = bool(ok.all())
                row["status"] = "holds" if row["holds"] else "fails"
                row["observed"] = _observed(sel, ok, t)
        except (MtcError, TypeError, ValueError, ZeroDivisionError) as exc:
            row["observed"] = f"error: {exc}"
        if not t.testable:
            row["status"], row["holds"] = "not testable", False
        out.append(row)
    cols = ["claim", "kind", "status", "holds", "observed", "paper", "why", "table", "where",
            "expect"]
    return pd.DataFrame(out, columns=cols)


def _per_row(value, index) -> pd.Series:
    """A target's value as one truth value per row (a scalar holds for every row)."""
    if isinstance(value, pd.Series):
        return value.reindex(index).fillna(False).astype(bool)
    return pd.Series(bool(value), index=index)


def _select(df: pd.DataFrame, where: str) -> pd.DataFrame:
    if not where:
        return df
    return df[_per_row(expressions.evaluate(where, df), df.index)]


def _observed(sel: pd.DataFrame, ok: pd.Series, t) -> str:
    """The values the expectation looked at, compactly, and the first rows that fail."""
    in_expect = [c for c in sel.columns if c in set(expressions.names(t.expect))]
    parts = []
    for c in in_expect:
        counts = sel[c].value_counts(sort=False)
        if len(counts) == 1:
            parts.append(f"{c}={_fmt(sel[c].iloc[0])}")
        elif len(counts) <= 4:
            parts.append(f"{c}: " + ", ".join(f"{_fmt(v)} ×{n}" for v, n in counts.items()))
        else:
            parts.append(f"{c} {_fmt(sel[c].min())}–{_fmt(sel[c].max())}")
    text = "; ".join(parts) + (f" ({len(sel)} rows)" if len(sel) > 1 else "")
    lhs = _COMPARISON.split(t.expect, maxsplit=1)[0].strip()
    if "(" in lhs:  # an aggregate such as gap.mean(): show its value too
        with contextlib.suppress(MtcError, TypeError, ValueError):
            value = expressions.evaluate(lhs, sel)
            if np.ndim(value) == 0:
                text = f"{lhs} = {_fmt(value)}; " + text
    if not ok.all():
        varying = [c for c in sel.columns if c not in in_expect and sel[c].nunique() > 1]
        named = (set(expressions.names(t.where)) if t.where else set()) | {"criterion"}
        keys = [c for c in varying if c in named] or varying[:2]
        bad = sel[~ok].head(3)
        where = ", ".join(" ".join(f"{c}={_fmt(r[c])}" for c in keys) or "row"
                          for _, r in bad.iterrows())
        text += f"; fails at {where}" + (" …" if (~ok).sum() > 3 else "")
    return text


def _fmt(v) -> str:
    if isinstance(v, float | np.floating):
        return f"{v:.4g}"
    return str(v)


def summary_wide(summary: pd.DataFrame) -> pd.DataFrame:
    """Summary for the terminal: one row per condition, one column of median selected k
    per criterion (quartiles in brackets when they differ), then ``true_k``/``oracle_k``."""
    cond = list(summary.columns[:list(summary.columns).index("criterion")])
    def cell(r):
        lo, hi = r["selected_k_q25"], r["selected_k_q75"]
        return f"{r['selected_k']:g}" + ("" if lo == hi else f" [{lo:g}–{hi:g}]")

    s = summary.assign(_cell=summary.apply(cell, axis=1))
    index = cond or None
    if index is None:
        s = s.assign(_all="all")
        index = ["_all"]
    wide = s.pivot_table(index=index, columns="criterion", values="_cell", aggfunc="first",
                         sort=False)
    wide = wide[list(dict.fromkeys(s["criterion"]))]
    for col in ("true_k", "oracle_k"):
        if col in s.columns:
            wide[col] = s.groupby(index, sort=False)[col].first()
    wide.columns.name = None
    return wide.reset_index().drop(columns="_all", errors="ignore")


def format_table(df: pd.DataFrame, max_rows: int = 60) -> str:
    """A plain-text table for the terminal."""
    if df.empty:
        return "(empty)"
    with pd.option_context("display.max_rows", max_rows, "display.width", 160,
                           "display.max_colwidth", 70, "display.float_format", "{:.4g}".format):
        return df.to_string(index=False)


def markdown_table(df: pd.DataFrame) -> str:
    """A GitHub-flavoured markdown table (no extra dependency)."""
    def cell(v):
        return _fmt(v).replace("|", "\\|").replace("\n", " ")

    head = "| " + " | ".join(map(str, df.columns)) + " |"
    rule = "|" + "---|" * len(df.columns)
    body = ["| " + " | ".join(cell(v) for v in r) + " |" for r in df.itertuples(index=False)]
    return "\n".join([head, rule, *body])
