"""Analytic generalization error of unsupervised models (Hansen & Larsen 1996).

E is the training error, the mean cost ε(x|θ̂) over the N training vectors (eq. 1); G the
expected cost of a new vector (eq. 2). For a smoothly parametrized model trained without
regularization, ⟨G⟩ ≈ ⟨E⟩ + Tr(Q J⁻¹)/N (eq. 9); with ε = −log p(x|θ) and maximum
likelihood, Q = J and the correction is dim(θ)/N (eq. 10), the estimate used here.
"""

from __future__ import annotations

import numpy as np


def ml_generalization_error(train_error, n_params, n: int):
    """Eq. 10 of Hansen & Larsen 1996: ⟨G⟩ ≈ ⟨E⟩ + dim(θ)/N for negative log-likelihood
    costs and maximum-likelihood training (Q = J by Fisher's argument). Vectorised over
    model orders: ``train_error`` and ``n_params`` may be arrays."""
    return np.asarray(train_error, dtype=np.float64) + np.asarray(n_params) / n
