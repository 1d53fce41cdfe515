import numpy as np
import pytest
from scipy.special import logsumexp as scipy_logsumexp

from mtc_cli.logsumexp import logsumexp


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
