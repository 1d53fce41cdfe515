"""wASC Fig. 3: choosing among four Boolean clustering models by approximation capacity
(Buhmann, Chehreghani, Frank, Streich 2011, Sect. 5).

Two Boolean sources in D dimensions at a fixed Hamming distance; n objects from each
source and n from their OR; a fraction ε of the bits replaced by random bits with
P(1) = r. X¹ and X² are aligned by generation (same assignment sets, independent noise).
Four models, each fitted on X¹ by deterministic annealing at the true order: MAC (K = 2
sources, sets {1}, {2}, {1, 2}) and SAC (L = 3 independent clusters), each without
(ε = 0) and with the noise model of eq. 16 ("-mix"). Recorded per ε: the parameter
mismatch (fraction of wrong bits of the three estimated set profiles after the best
matching to the true ones) and the capacity max_β I_β of eq. 13 with the costs of eq. 16
on X¹ and X².
"""

from __future__ import annotations

from experiments.wasc_boolean_mac import figures
from experiments.wasc_boolean_mac import tables as derived
from experiments.wasc_boolean_mac.protocol import (
    Params,
    WascBooleanMacProtocol,
    capacity_in_use,
    fit,
    profile_mismatch,
)

__all__ = ["Params", "capacity_in_use", "experiment", "fit", "profile_mismatch"]

class WascBooleanMac(WascBooleanMacProtocol):
    summarize = derived.summarize
    tables = derived.tables
    plot = figures.plot


experiment = WascBooleanMac()
