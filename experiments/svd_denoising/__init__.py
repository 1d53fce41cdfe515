"""MTC Fig. 2: the rank of a truncated SVD for image denoising, chosen by minimum transfer cost.

Frank, Chehreghani, Buhmann 2011, Sect. 4.1. The image (grey, or colour → luminance) plus
Gaussian noise of std σ is cut into non-overlapping p×p patches, the rows of X. MTC splits
the rows at random into halves X¹, X², maps each x²_i' to its nearest row of X¹ and costs
it against that row's rank-k reconstruction (eq. 7). The oracle denoises with the rank-k
SVD of all of X, reassembles the image and measures its PSNR against the clean image; its
best rank per σ is the crest of the PSNR surface.

As in the paper, X is not centred (plain SVD of the patch matrix) and nothing is clipped:
neither the noisy pixels nor the denoised ones are limited to 0..255.
"""

from __future__ import annotations

from experiments.svd_denoising import figures
from experiments.svd_denoising import tables as derived
from experiments.svd_denoising.protocol import Params, SvdDenoisingProtocol

__all__ = ["Params", "experiment"]

class SvdDenoising(SvdDenoisingProtocol):
    summarize = derived.summarize
    tables = derived.tables
    plot = figures.plot


experiment = SvdDenoising()
