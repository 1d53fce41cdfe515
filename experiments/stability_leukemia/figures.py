"""The figures of ``stability_leukemia``, drawn from its rows and tables (outside its code
version)."""

from __future__ import annotations

from pathlib import Path

from experiments import _lange2002_figures as lange2002_figures
from experiments import _lange2002_tables as lange2002_tables
from experiments.stability_leukemia.protocol import Params


def plot(exp, rows, summary, p: Params, outdir) -> list:
    curve = lange2002_tables.curves(rows, list(exp.condition))
    title = figure_title(p, rows["rep"].nunique())
    return [lange2002_figures.plot_curves(curve, summary, list(exp.condition), title,
                                    Path(outdir) / "stability_leukemia.png",
                                    p.criteria.ps_threshold)]


def figure_title(p: Params, runs: int) -> str:
    """The paper's figure on the Golub data; on a user's table, its file name instead."""
    about = ("Lange et al. 2002 Fig. 2: Golub leukemia data" if p.dataset is None else
             f"Stability, Gap, Clest and Prediction Strength on {Path(p.dataset.path).name}")
    return f"{about}, {runs} runs of r = {p.criteria.n_resamples} splits"
