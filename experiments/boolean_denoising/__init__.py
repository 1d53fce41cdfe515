"""MTC Fig. 3: the rank of the SVD-threshold denoiser for access-control matrices.

Frank, Chehreghani, Buhmann 2011, Sect. 4.2. An error-free user × permission matrix X*
(real HP Labs matrices of Ene et al. 2008, treated as error-free as Molloy et al. did with
real data, and three role-based generators after Molloy et al. 2010) receives additive and
subtractive noise → X. The denoiser X̃_k = g(U_k S_k V_kᵀ) thresholds the rank-k SVD of X
at 0.5; the oracle rank minimises Hamming(X̃_k, X*). Rank selectors compared:

- ``mtc``: random halves of the users X¹, X²; each x²_i' is mapped to its Hamming nearest
  neighbour in X¹ and costed by the bits in which it differs from that neighbour's row of
  g(U_k S_k V_kᵀ) of X¹; per split the argmin, per noise draw the median over splits;
- ``op_cv_<h>``: Owen–Perry bi-cross-validation, held-out block of a fraction h of the
  rows and of the columns, rank with the lowest median error over random permutations;
- ``coverage``: Molloy's 80 % rule — the smallest k whose X̃_k covers 80 % of the ones of X;
- ``increment``: Molloy's increment rule — the smallest k with
  ‖X̃_k − X̃_{k+1}‖₁ / ‖X‖₁ < 0.001.

A method is judged by the Hamming error to X* at its rank divided by the oracle's (the
error ratio), not only by its distance in rank. One task is one noise draw of one dataset
with all its splits and permutations.
"""

from __future__ import annotations

from experiments._access_control import HP
from experiments.boolean_denoising import figures
from experiments.boolean_denoising import tables as derived
from experiments.boolean_denoising.figures import data_note
from experiments.boolean_denoising.protocol import BooleanDenoisingProtocol, Params

__all__ = ["HP", "Params", "data_note", "experiment"]

class BooleanDenoising(BooleanDenoisingProtocol):
    summarize = derived.summarize
    tables = derived.tables
    plot = figures.plot


experiment = BooleanDenoising()
