"""codes(): np.unique's values and inverse of a label vector, by counting where it can."""

import numpy as np
import pytest

from mtc_cli.core.labels import codes


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int8, np.uint8, np.float64, np.str_])
@pytest.mark.parametrize("span", [1, 3, 12, 10_000, 1_000_000])
def test_codes_are_numpys_unique(dtype, span):
    rng = np.random.default_rng(span)
    for n in (1, 2, 7, 300):
        low = 0 if dtype in (np.uint8,) else -40
        a = rng.integers(low, low + span, size=n)
        if dtype in (np.int8, np.uint8):
            a = np.clip(a, np.iinfo(dtype).min, np.iinfo(dtype).max)
        a = a.astype(dtype)
        values, inverse = np.unique(a, return_inverse=True)
        got_values, got_inverse = codes(a)
        assert got_values.dtype == values.dtype and got_inverse.dtype == inverse.dtype
        assert np.array_equal(got_values, values) and np.array_equal(got_inverse, inverse)


def test_codes_by_hand():
    values, inverse = codes([7, 3, 7, -2])
    assert values.tolist() == [-2, 3, 7] and inverse.tolist() == [2, 1, 2, 0]
