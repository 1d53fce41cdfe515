import numpy as np
import pytest
from scipy.special import logsumexp as scipy_logsumexp

from mtc_cli.core.logsumexp import logsumexp


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", [(50, 7), (9, 1), (30, 210), (2000, 10)])
def test_logsumexp_is_scipys_bit_for_bit_in_either_memory_layout(shape, order):
    rng = np.random.default_rng(17)
    a = -rng.exponential(50.0, size=shape)
    a[0] = a[0, 0]                                # a row of ties
    a[1, : shape[1] // 2] = -1e4                  # terms that underflow
    a = np.asarray(a, order=order)
    for axis in (0, 1):
        got, want = logsumexp(a, axis=axis), scipy_logsumexp(a, axis=axis)
        assert got.shape == want.shape and got.tobytes() == want.tobytes()


def test_logsumexp_of_a_3d_block_and_of_non_finite_entries():
    rng = np.random.default_rng(18)
    a = rng.normal(size=(4, 30, 6)) * 40
    assert logsumexp(a, axis=2).tobytes() == scipy_logsumexp(a, axis=2).tobytes()
    edge = np.array([[-np.inf, -np.inf], [np.inf, 1.0], [np.nan, 1.0], [1e308, 1e308],
                     [0.0, -np.inf], [-800.0, -700.0]])
    np.testing.assert_array_equal(logsumexp(edge, axis=1), scipy_logsumexp(edge, axis=1))


def test_logsumexp_known_values():
    # ln(e^0 + e^0) = ln 2; ln(e^1000 + e^1000) = 1000 + ln 2 (no overflow)
    np.testing.assert_allclose(logsumexp(np.array([[0.0, 0.0], [1000.0, 1000.0]]), axis=1),
                               [np.log(2), 1000 + np.log(2)], rtol=1e-15)


@pytest.mark.parametrize("width", [1, 2, 3, 7, 8, 9, 12, 16, 17, 64, 128, 129, 300, 1000])
def test_logsumexp_compiled_rows_are_scipys_on_every_row_length(width):
    """The compiled path (last axis, C order) around the pairwise-summation thresholds,
    rows of ties, of −∞ only, with NaN or +∞, in 1, 2 and 3 dimensions."""
    rng = np.random.default_rng(width)
    for trial in range(40):
        shape = ((int(rng.integers(1, 30)), width) if trial % 3 else
                 (3, int(rng.integers(1, 12)), width))
        a = rng.normal(size=shape) * 10.0 ** rng.uniform(-3, 3)
        flat = a.reshape(-1, width)
        if trial % 4 == 1:
            a = np.round(a)                       # ties
            flat = a.reshape(-1, width)
        if trial % 5 == 2:
            flat[0] = -np.inf
        if trial % 7 == 3:
            flat[-1, -1] = (np.nan, np.inf)[trial % 2]
        with np.errstate(invalid="ignore"):
            got, want = logsumexp(a, axis=-1), scipy_logsumexp(a, axis=-1)
        assert got.shape == want.shape and got.tobytes() == want.tobytes()
    vector = rng.normal(size=width)
    assert logsumexp(vector, axis=0).tobytes() == scipy_logsumexp(vector).tobytes()
