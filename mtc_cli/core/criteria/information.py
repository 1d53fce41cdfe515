"""Information criteria AIC and BIC: goodness of fit traded against parameter count."""

from __future__ import annotations

import numpy as np


def bic(nll: float, n_params: int, n: int) -> float:
    """Bayesian information criterion (Schwarz 1978): 2·NLL + p·ln n (lower is better).

    ``nll`` is the total negative log-likelihood of the n training objects (eq. 6 of
    Frank et al. 2011 for a GMM), ``n_params`` the number of free parameters p.
    """
    return 2.0 * float(nll) + n_params * float(np.log(n))


def aic(nll: float, n_params: int) -> float:
    """Akaike information criterion (Akaike 1974): 2·NLL + 2p (lower is better)."""
    return 2.0 * float(nll) + 2.0 * n_params
