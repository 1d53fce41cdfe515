"""wASC Fig. 2: approximation capacity of an annealed Gaussian mixture vs the stopping
temperature (Buhmann, Chehreghani, Frank, Streich 2011, Sect. 4).

Five isotropic Gaussians (Σ = 0.5·I); X¹ and X² of n objects each, aligned by generation
(object i of both sets comes from the same component). Ten centroids (twice the true
number) are annealed on X¹ by deterministic annealing, ε_ik = ‖x_i − μ_k‖². At every
stopping temperature T: the number K̂(T) of centroids distinct at the resolution of T
(‖μ_a − μ_b‖² > 2T, :func:`mtc_cli.core.models.resolution.distinct_at`); I_β of eq. 13 at β = 1/T
and the expected transfer cost of eq. 15 at β = 1/T, both of the ten annealed centroids
(coinciding centroids weigh as in the annealing); the capacity max_β I_β of the K̂ merged
distinct centroids; K̂_σ, the centroids more than ``merge_tol``·σ apart (the annealing's
split detector and the former reading of K̂); and the 1-D MDS projection of the centroids
(Fig. 2a). BIC of spherical GMMs fitted by EM for k = 1..10 (Fig. 2c).
"""

from __future__ import annotations

from experiments.wasc_gmm_annealing import figures
from experiments.wasc_gmm_annealing import tables as derived
from experiments.wasc_gmm_annealing.protocol import (
    Params,
    WascGmmAnnealingProtocol,
    mds_axis,
    sample_aligned,
)

__all__ = ["Params", "experiment", "mds_axis", "sample_aligned"]

class WascGmmAnnealing(WascGmmAnnealingProtocol):
    summarize = derived.summarize
    tables = derived.tables
    plot = figures.plot


experiment = WascGmmAnnealing()
