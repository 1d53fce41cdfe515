"""A user's own data table: objects × features from a CSV or NPY file, with an optional
column of known labels (used only to report agreement, never for clustering)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mtc_cli.errors import MtcError


def load_table(path, label_column: str | None = None) -> tuple[np.ndarray, np.ndarray | None,
                                                                list[str]]:
    """Load a numeric table; return (X, labels or None, feature names).

    ``.csv`` (header row): ``label_column`` names the label column; every other column
    must be numeric. ``.npy`` (a 2-D array): ``label_column`` is a column index such as
    ``"0"`` or ``"-1"``. Rows with missing values are an error, not silently dropped.
    """
    path = Path(path)
    if not path.is_file():
        raise MtcError(f"{path}: data file not found")
    suffix = "".join(path.suffixes[-2:]) if path.suffix == ".gz" else path.suffix
    if suffix in (".csv", ".csv.gz"):
        X, labels, names = _from_csv(path, label_column)
    elif suffix == ".npy":
        X, labels, names = _from_npy(path, label_column)
    else:
        raise MtcError(f"{path}: unsupported table format {suffix!r} (expected .csv, .csv.gz "
                       "or .npy)")
    if X.ndim != 2 or X.shape[0] < 2 or X.shape[1] < 1:
        raise MtcError(f"{path}: expected at least 2 rows and 1 feature column, got shape "
                       f"{X.shape}")
    bad = ~np.isfinite(X)
    if bad.any():
        row, col = np.argwhere(bad)[0]
        raise MtcError(f"{path}: missing or non-finite value in row {row + 1}, column "
                       f"{names[col]!r}")
    return X, labels, names


def _from_csv(path: Path, label_column):
    try:
        df = pd.read_csv(path)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise MtcError(f"{path}: cannot read as CSV: {str(exc).splitlines()[0]}") from None
    labels = None
    if label_column is not None:
        if label_column not in df.columns:
            raise MtcError(f"{path}: no column {label_column!r} (label_column); columns: "
                           f"{', '.join(map(str, df.columns[:8]))}"
                           f"{' …' if len(df.columns) > 8 else ''}")
        labels = df.pop(label_column).astype(str).to_numpy()
    text = [c for c in df.columns if not pd.api.types.is_numeric_dtype(df[c])]
    if text:
        raise MtcError(f"{path}: non-numeric column {text[0]!r} (name it as label_column or "
                       "drop it)")
    return df.to_numpy(np.float64), labels, [str(c) for c in df.columns]


def _from_npy(path: Path, label_column):
    try:
        A = np.load(path, allow_pickle=False)
    except ValueError as exc:
        raise MtcError(f"{path}: cannot read as NPY: {exc}") from None
    if A.ndim != 2:
        raise MtcError(f"{path}: expected a 2-D array, got shape {A.shape}")
    names = [str(i) for i in range(A.shape[1])]
    labels = None
    if label_column is not None:
        try:
            j = int(label_column)
            j = range(A.shape[1])[j]
        except (ValueError, IndexError):
            raise MtcError(f"{path}: label_column {label_column!r} is not a column index of "
                           f"an array with {A.shape[1]} columns") from None
        labels = A[:, j].astype(str)
        A = np.delete(A, j, axis=1)
        del names[j]
    if not np.issubdtype(A.dtype, np.number):
        raise MtcError(f"{path}: the array is not numeric (dtype {A.dtype})")
    return A.astype(np.float64), labels, names
