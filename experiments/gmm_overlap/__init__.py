"""MTC Fig. 1: the number of Gaussians chosen by MTC, BIC and AIC as the overlap grows.

Frank, Chehreghani, Buhmann 2011, Sect. 3. X¹ and X² are drawn independently from the
same mixture; a GMM with k components is fitted on X¹ by EM; MTC costs X² under it
(eq. 6 through eq. 3), BIC and AIC score the fit on X¹.
"""

from __future__ import annotations

from experiments.gmm_overlap import figures
from experiments.gmm_overlap import tables as derived
from experiments.gmm_overlap.figures import LABELS
from experiments.gmm_overlap.protocol import CRITERIA, GmmOverlapProtocol, Params

__all__ = ["CRITERIA", "LABELS", "Params", "experiment"]

class GmmOverlap(GmmOverlapProtocol):
    summarize = derived.summarize
    tables = derived.tables
    plot = figures.plot


experiment = GmmOverlap()
