"""The median and quartiles of the selected k over repetitions, on values worked out by hand."""

import numpy as np
import pandas as pd

from mtc_cli.core.quartiles import median_and_quartiles, quartiles


def test_quartiles_interpolate_linearly_and_are_nan_without_values():
    assert quartiles([1, 2, 3, 4]) == (1.75, 3.25)
    assert quartiles([5.0]) == (5.0, 5.0)
    assert all(np.isnan(q) for q in quartiles([]))


def test_median_and_quartiles_per_group_then_the_further_aggregations():
    chosen = pd.DataFrame({"s": [1, 1, 1, 2], "selected_k": [2, 3, 5, 4]})
    out = median_and_quartiles(chosen.groupby("s")["selected_k"], largest="max")
    assert list(out.columns) == ["selected_k", "selected_k_q25", "selected_k_q75", "n_reps",
                                 "largest"]
    assert out.loc[1].tolist() == [3.0, 2.5, 4.0, 3, 5]
    assert out.loc[2].tolist() == [4.0, 4.0, 4.0, 1, 4]
