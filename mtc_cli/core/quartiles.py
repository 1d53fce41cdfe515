"""The spread of a model-order choice over repetitions (random splits, noise draws, runs):
the median of the selected k and its quartiles, as every summary table reports it."""

from __future__ import annotations

import numpy as np
import pandas as pd


def quartiles(values) -> tuple[float, float]:
    """The lower and upper quartile of ``values`` (``np.quantile``, linear interpolation),
    or NaN, NaN when there are none."""
    if not len(values):
        return np.nan, np.nan
    return float(np.quantile(values, 0.25)), float(np.quantile(values, 0.75))


def median_and_quartiles(selected, **more) -> pd.DataFrame:
    """Per group of ``selected`` (a grouped series of each repetition's selected k): the
    median ``selected_k``, its :func:`quartiles` ``selected_k_q25`` and ``selected_k_q75``
    and the number of repetitions ``n_reps``, then the named aggregations ``more``."""
    return selected.agg(selected_k="median", selected_k_q25=lambda s: quartiles(s)[0],
                        selected_k_q75=lambda s: quartiles(s)[1], n_reps="size", **more)
