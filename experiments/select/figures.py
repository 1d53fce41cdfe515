"""The figures of ``select``, drawn from its rows and tables (outside its code version)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from experiments.select.protocol import Params, _data_key, _read, selections, settings
from mtc_cli.selection.catalog import MODELS


def plot(exp, rows, summary, p: Params, outdir) -> list:
    from mtc_cli.selection import figure

    outdir = Path(outdir)
    data = _read(*_data_key(p))
    extra = {name: pd.read_csv(outdir / f"{name}.csv")
             for name in ("projection", "spectrum", "auto", "stability")
             if (outdir / f"{name}.csv").is_file()}
    size = f"{data.n_items} objects × {data.n_features} features"
    if p.model == "auto":
        s = next(iter(selections(p).values()))
        title = (f"{data.source}: the clustering algorithm and its k (auto), "
                 f"k = {s.k_lo}..{s.k_hi}, {size}")
        return [figure.save_auto_figure(extra["stability"], extra["auto"],
                                        extra.get("projection"), title,
                                        outdir / "select.png")]
    s = settings(p)
    title = f"{data.source}: {MODELS[s.model]}, k = {s.k_lo}..{s.k_hi}, {size}"
    return [figure.save_figure(pd.read_csv(outdir / "curves.csv"), summary,
                               pd.read_csv(outdir / "vote.csv"), extra, title,
                               outdir / "select.png")]
