"""The Golub et al. (1999) leukemia gene-expression data and its preprocessing.

72 samples (Affymetrix Hu6800 arrays, 7129 probes): 38 training and 34 independent
samples, 47 acute lymphoblastic (38 B-cell, 9 T-cell) and 25 acute myeloid leukemias.
Preprocessing as Dudoit, Fridlyand & Speed (2002, JASA 97:77–87, Sect. 3.2), which Lange
et al. (2002, Sect. 4) adopt: floor 100, ceiling 16 000, keep genes with max/min > 5 and
max − min > 500, log₁₀ — 3571 genes; then (Lange et al. 2004, the journal version) each
sample standardised across genes, and the 100 genes of highest variance across samples.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from mtc_cli.core.errors import MtcError

FILES = ("data_set_ALL_AML_train.csv.gz", "data_set_ALL_AML_independent.csv.gz")
LABELS = "golub_subtype_labels.csv"


@dataclass(frozen=True)
class Golub:
    """Expression matrix ``X`` (samples × probes), sample ids 1..72, probe accession
    numbers and the sub-type label of each sample (``ALL_B``, ``ALL_T``, ``AML``)."""

    X: np.ndarray
    samples: np.ndarray
    genes: np.ndarray
    subtype: np.ndarray

    @property
    def all_aml(self) -> np.ndarray:
        """The two-class label ALL / AML (B- and T-cell ALL merged)."""
        return np.where(self.subtype == "AML", "AML", "ALL")


def load(folder) -> Golub:
    """Merge the training (ids 1–38) and independent (39–72) files into one matrix in
    sample-id order, selecting the sample columns by name (they are not in numeric
    order in the files; the P/A/M ``call`` columns are dropped)."""
    folder = Path(folder)
    parts = []
    for name in FILES:
        path = folder / name
        if not path.is_file():
            raise MtcError(f"{path}: Golub data file not found")
        df = pd.read_csv(path)
        if "Gene Accession Number" not in df.columns:
            raise MtcError(f"{path}: no 'Gene Accession Number' column (not a Golub file?)")
        parts.append(df.set_index("Gene Accession Number")
                     [[c for c in df.columns if str(c).strip().isdigit()]])
    if not parts[0].index.equals(parts[1].index):
        raise MtcError(f"{folder}: the two Golub files list different probes")
    expr = pd.concat(parts, axis=1)
    expr.columns = expr.columns.astype(int)
    expr = expr[sorted(expr.columns)]
    path = folder / LABELS
    if not path.is_file():
        raise MtcError(f"{path}: Golub sub-type label file not found")
    labels = pd.read_csv(path).set_index("sample")["label"]
    missing = sorted(set(expr.columns) - set(labels.index))
    if missing:
        raise MtcError(f"{path}: no label for samples {missing[:5]}")
    return Golub(expr.to_numpy(np.float64).T, expr.columns.to_numpy(),
                 expr.index.to_numpy(), labels.loc[expr.columns].to_numpy().astype(str))


def dudoit_filter(X: np.ndarray, *, floor: float = 100.0, ceiling: float = 16000.0,
                  min_fold: float = 5.0, min_range: float = 500.0) -> tuple[np.ndarray,
                                                                             np.ndarray]:
    """Thresholding, filtering and log transform of Dudoit et al. (2002, Sect. 3.2):
    clip the intensities to [floor, ceiling], keep the genes (columns) with
    max/min > ``min_fold`` and max − min > ``min_range`` over the samples, take log₁₀.
    Returns the transformed matrix and the boolean mask of the kept genes."""
    C = np.clip(np.asarray(X, dtype=np.float64), floor, ceiling)
    hi, lo = C.max(axis=0), C.min(axis=0)
    keep = (hi / lo > min_fold) & (hi - lo > min_range)
    return np.log10(C[:, keep]), keep


def standardise_samples(X: np.ndarray) -> np.ndarray:
    """Each sample (row) to mean 0 and variance 1 across genes (Dudoit et al. 2002;
    Lange et al. 2004)."""
    X = np.asarray(X, dtype=np.float64)
    mu = X.mean(axis=1, keepdims=True)
    sd = X.std(axis=1, keepdims=True)
    if np.any(sd == 0):
        raise ValueError("a sample is constant across genes: cannot standardise it")
    return (X - mu) / sd


def top_variance(X: np.ndarray, m: int) -> np.ndarray:
    """Indices of the ``m`` columns of highest variance across rows (ties to the lower
    index), in column order — Dudoit & Fridlyand's gene selection, as in Lange et al."""
    X = np.asarray(X, dtype=np.float64)
    if not 1 <= m <= X.shape[1]:
        raise ValueError(f"cannot keep {m} of {X.shape[1]} columns")
    order = np.argsort(-X.var(axis=0), kind="stable")
    return np.sort(order[:m])
