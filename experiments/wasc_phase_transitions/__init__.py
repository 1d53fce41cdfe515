"""wASC Figs. 4–5: phase transitions of learnability and the approximation capacity
(Buhmann, Chehreghani, Frank, Streich 2011, Sect. 6; Barkai & Sompolinsky 1994).

Two Gaussian sources with orthogonal centroids of equal norm, Σ = σ₀·I, equal priors;
n objects in D dimensions, α = n/D, and the normalised separation u = ‖μ₁ − μ₂‖/√(2σ₀)
either the same for every D (``fixed``, our calibration:
docs/calibration.md#wasc_phase_transitions) or decreased by √(1/D) as the paper's text
says (``adapted``); the critical α_c = 4u⁻⁴. X¹ and X² are aligned by generation. Centroids
are estimated on X¹ by deterministic annealing (``annealing``) or by annealed Gibbs sampling
of the assignments (``gibbs``, the paper's optimizer), one fixed geometric schedule for all
runs, so they share their temperatures. At every stopping
temperature T: the order parameters s = ‖Δμ̂‖²/‖Δμ‖² and r = |Δμ̂·Δμ|/‖Δμ‖² with
Δμ = (μ₁ − μ₂)/2 (both 1 for a perfect estimate; with 2 centroids Δμ̂ = (μ̂₁ − μ̂₂)/2),
K̂(T), the number of centroids distinct at the resolution of T (‖μ_a − μ_b‖² > 2T,
:func:`mtc_cli.core.models.resolution.distinct_at`), I_β of eq. 13 at β = 1/T, the capacity
max_β I_β of the K̂ merged centroids and the expected transfer cost of eq. 15; and the
former reading, K̂_σ and the capacity of the centroids merged when closer than
``merge_tol``·√σ₀ (kept beside the resolution count for the derived targets). Fig. 5: the
same with 4 centroids at one D.
"""

from __future__ import annotations

from experiments.wasc_phase_transitions import figures
from experiments.wasc_phase_transitions import tables as derived
from experiments.wasc_phase_transitions.protocol import (
    Params,
    WascPhaseTransitionsProtocol,
    order_parameters,
    separation,
    sources,
)

__all__ = ["Params", "experiment", "order_parameters", "separation", "sources"]

class WascPhaseTransitions(WascPhaseTransitionsProtocol):
    tables = derived.tables
    plot = figures.plot


experiment = WascPhaseTransitions()
