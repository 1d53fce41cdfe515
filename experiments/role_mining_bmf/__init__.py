"""MTC Fig. 4: the number of roles of a Boolean matrix factorization, by minimum transfer cost.

Frank, Chehreghani, Buhmann 2011, Sect. 5. A user × permission matrix is factorized as
X ≈ Z ∨· U (users × roles, roles × permissions) by multi-assignment clustering (MAC,
Streich et al. 2009) fitted with deterministic annealing, for k = 1..k_max roles. Five-fold
cross-validation over the users: the factorization learned on the training users is
transferred to each held-out user x²_i' through its Hamming nearest training user ψ(i'),
and the transfer cost counts the bits of x²_i' that differ from z_ψ(i') ∨· U.

Datasets: ``synthetic``, a matrix of the paper's size from a known number of flat random
roles plus flip noise (MAC recovers it exactly for every k at or above the true number, so
it has no overfitting regime); ``skewed``, a small matrix whose roles have skewed
popularity, with user-specific exceptions and flip noise, so that extra roles can fit
patterns that do not generalize; and real HP Labs matrices (used as they are). One task is
one fit: dataset × fold × k. The folds are fixed by ``fold_seed`` so that every k of a fold
sees the same split.
"""

from __future__ import annotations

from experiments._access_control import HP
from experiments.role_mining_bmf import figures
from experiments.role_mining_bmf import tables as derived
from experiments.role_mining_bmf.protocol import Params, RoleMiningBmfProtocol
from experiments.role_mining_bmf.tables import shape_table

__all__ = ["HP", "Params", "experiment", "shape_table"]

class RoleMiningBmf(RoleMiningBmfProtocol):
    summarize = derived.summarize
    tables = derived.tables
    timing = derived.timing
    plot = figures.plot


experiment = RoleMiningBmf()
