"""Paper targets checked on a run's tables (``targets.csv``): does a claim hold on every
row it selects?"""

from __future__ import annotations

import contextlib
import re

import numpy as np
import pandas as pd

from mtc_cli.core.errors import MtcError
from mtc_cli.show import expressions
from mtc_cli.show.tables import format_value

_COMPARISON = re.compile(r"<=|>=|==|!=|<|>")


def check_targets(targets, tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Evaluate each target on its table: does ``expect`` hold on every row that ``where``
    selects? ``status`` is ``holds``, ``fails``, ``not testable`` (the target says the
    design cannot decide it; its values are still shown) or ``error`` (an expression that
    cannot be evaluated on the table, e.g. an unknown column: reported, not raised).
    Expressions are :mod:`mtc_cli.show.expressions` (data, not code)."""
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
            parts.append(f"{c}={format_value(sel[c].iloc[0])}")
        elif len(counts) <= 4:
            parts.append(f"{c}: " + ", ".join(f"{format_value(v)} ×{n}" for v, n in counts.items()))
        else:
            parts.append(f"{c} {format_value(sel[c].min())}–{format_value(sel[c].max())}")
    text = "; ".join(parts) + (f" ({len(sel)} rows)" if len(sel) > 1 else "")
    lhs = _COMPARISON.split(t.expect, maxsplit=1)[0].strip()
    if "(" in lhs:  # an aggregate such as gap.mean(): show its value too
        with contextlib.suppress(MtcError, TypeError, ValueError):
            value = expressions.evaluate(lhs, sel)
            if np.ndim(value) == 0:
                text = f"{lhs} = {format_value(value)}; " + text
    if not ok.all():
        varying = [c for c in sel.columns if c not in in_expect and sel[c].nunique() > 1]
        named = (set(expressions.names(t.where)) if t.where else set()) | {"criterion"}
        keys = [c for c in varying if c in named] or varying[:2]
        bad = sel[~ok].head(3)
        where = ", ".join(" ".join(f"{c}={format_value(r[c])}" for c in keys) or "row"
                          for _, r in bad.iterrows())
        text += f"; fails at {where}" + (" …" if (~ok).sum() > 3 else "")
    return text
