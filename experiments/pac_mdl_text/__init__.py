"""Banerjee & Langford 2004, Figs. 1–6: PAC-MDL bounds on the test error of text clusterings
used as transductive classifiers.

One task = one (dataset, algorithm, k): it runs the algorithm from ``inits`` random seed
sets on all documents, once, and scores every clustering on every train/test split
(``train_fractions`` × ``splits``, the same splits for all tasks of a dataset). Rows:

- ``Simple``: the bound of every single run (eq. 1), at the ``focus_fraction`` split only
  (Fig. 1 and Fig. 6's average); these rows also carry the run's ``fit_seconds``
  (summarised per algorithm in run.json, left out of the CSVs);
- ``Init``, ``Cluster``, ``Algo``: the bound of the best of the r runs (the run with the
  fewest train errors: for a fixed description length the bound grows with them) under the
  languages of eqs. 2–4, at every split. The best over k (Cluster) and over algorithms and
  k (Algo) are taken in :meth:`PacMdlText.tables`.
"""

from __future__ import annotations

from experiments.pac_mdl_text import figures
from experiments.pac_mdl_text import tables as derived
from experiments.pac_mdl_text.protocol import PacMdlTextProtocol, Params

__all__ = ["Params", "experiment"]

class PacMdlText(PacMdlTextProtocol):
    summarize = derived.summarize
    tables = derived.tables
    timing = derived.timing
    plot = figures.plot


experiment = PacMdlText()
