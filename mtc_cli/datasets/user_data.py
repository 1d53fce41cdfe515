"""A user's own data file as the matrix X whose model order is selected: numeric tables
(CSV, TSV, NPY, NPZ), sparse document–term matrices (Matrix Market), images (as rows of
non-overlapping p×p patches) and user–permission lists (Boolean users × permissions).

:func:`load` reads the file, separates optional label columns, checks the values and returns
a :class:`UserData`. Every problem with the input is an :class:`MtcError` with a one-line
message that names the file and the column, key or value at fault.
"""

from __future__ import annotations

import difflib
import re
import warnings
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.io
import scipy.sparse as sp
from PIL import Image

from mtc_cli.datasets import access_control, images
from mtc_cli.datasets.formats import FORMATS
from mtc_cli.errors import MtcError

__all__ = ["FORMATS", "UserData", "load"]

#: file-name endings (lower case) → format; longer endings are matched first
SUFFIXES = {
    ".csv": "csv", ".csv.gz": "csv", ".tsv": "tsv", ".tsv.gz": "tsv",
    ".npy": "npy", ".npz": "npz", ".mtx": "mtx", ".mtx.gz": "mtx",
    ".png": "image", ".jpg": "image", ".jpeg": "image", ".tif": "image", ".tiff": "image",
    ".bmp": "image", ".gif": "image", ".webp": "image",
    ".txt": "permissions", ".txt.gz": "permissions", ".rbac": "permissions",
}

#: cells pandas reads as missing by default (a first row made of these says nothing)
_NA_TOKENS = frozenset({
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND",
    "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
})
_SNIFF_ROWS = 20
_SHOWN = 8  # columns or keys listed in a message
_OPTIONS = {"label_column": "--label-column", "train_labels": "--train-labels",
            "columns": "--columns", "drop": "--drop"}
_ARRAY_ERRORS = (ValueError, OSError, EOFError, KeyError, zipfile.BadZipFile, zlib.error)


@dataclass(frozen=True)
class UserData:
    """The loaded matrix X (rows = items to group, columns = features) and what came with it.

    ``labels`` (``--label-column``) are known classes, one str per row, used only to report
    agreement; ``train_labels`` (``--train-labels``) hold a str per labelled row and None
    per unlabelled one. ``notes`` are one-line statements of what the loader did.
    """

    X: np.ndarray | sp.csr_matrix
    kind: str
    feature_names: list[str]
    labels: np.ndarray | None
    train_labels: np.ndarray | None
    notes: tuple[str, ...]
    source: str
    image: dict | None = None

    @property
    def n_items(self) -> int:
        return self.X.shape[0]

    @property
    def n_features(self) -> int:
        return self.X.shape[1]


@dataclass
class _Parts:
    """What a format reader produces, before the checks common to all formats."""

    X: np.ndarray | sp.csr_matrix
    kind: str
    names: list[str]
    labels: np.ndarray | None = None      # object array, None where missing
    train: np.ndarray | None = None       # object array, None where missing
    label_name: str = ""                  # for messages about missing labels
    notes: list[str] = field(default_factory=list)
    image: dict | None = None


# --- entry point ---------------------------------------------------------------------------

def load(path, *, format: str | None = None, label_column: str | None = None,
         train_labels: str | None = None, columns: list[str] | None = None,
         drop: list[str] | tuple = (), header: bool | None = None, dropna: bool = False,
         standardize: bool = False, patch: int = 8,
         max_pixels: int = images.MAX_PIXELS) -> UserData:
    """Read a data file into a :class:`UserData`; bad input raises :class:`MtcError`.

    The format comes from the file name's ending unless ``format`` (one of
    :data:`FORMATS`) is given. ``label_column``, ``train_labels``, ``columns`` and ``drop``
    name columns of tables (header names, or 0-based indices when there is no header);
    ``header=None`` detects a header row. ``dropna`` drops rows with missing values instead
    of refusing them; ``standardize`` z-scores every feature. ``patch`` and ``max_pixels``
    apply to images.
    """
    path = Path(path).expanduser()
    if not path.exists():
        raise _err(path, "data file not found")
    if path.is_dir():
        raise _err(path, "is a directory, not a data file")
    fmt = _format_of(path, format)
    if path.stat().st_size == 0:
        raise _err(path, "the file is empty (0 bytes)")
    options = {"label_column": label_column, "train_labels": train_labels,
               "columns": list(columns or ()), "drop": list(drop or ())}
    if fmt in ("csv", "tsv"):
        parts = _load_text(path, "\t" if fmt == "tsv" else ",", header, **options)
    elif fmt in ("npy", "npz"):
        parts = _load_array(path, **options)
    else:
        _refuse_options(path, fmt, options, standardize)
        if fmt == "mtx":
            parts = _load_mtx(path)
        elif fmt == "image":
            parts = _load_image(path, patch, max_pixels)
        else:
            parts = _load_permissions(path)
    return _finish(path, parts, dropna=dropna, standardize=standardize)


def _format_of(path: Path, format: str | None) -> str:
    if format is not None:
        fmt = str(format).lower()
        if fmt not in FORMATS:
            raise _err(path, f"unknown --format {format!r}; choose from {', '.join(FORMATS)}")
        return fmt
    name = path.name.lower()
    for suffix in sorted(SUFFIXES, key=len, reverse=True):
        if name.endswith(suffix):
            return SUFFIXES[suffix]
    raise _err(path, f"cannot tell the format from the file name; supported endings: "
                     f"{' '.join(SUFFIXES)} (or give --format)")


def _refuse_options(path: Path, fmt: str, options: dict, standardize: bool) -> None:
    """Column options make sense only for tables; standardizing would densify a sparse X."""
    why = {"mtx": "a Matrix Market file holds only the matrix, with no named columns",
           "image": "an image has no columns to name (its rows are patches)",
           "permissions": "a user-permission list has no label columns"}[fmt]
    for key, value in options.items():
        if value:
            raise _err(path, f"{_OPTIONS[key]} does not apply here: {why}")
    if standardize and fmt == "mtx":
        raise _err(path, "--standardize does not apply to a sparse Matrix Market matrix: "
                         "centring would make it dense")


# --- CSV / TSV -----------------------------------------------------------------------------

def _load_text(path: Path, sep: str, header: bool | None, **options) -> _Parts:
    head = _read_csv(path, sep, header=None, dtype=str, keep_default_na=False,
                     nrows=_SNIFF_ROWS)
    _check_separator(path, sep, head)
    has_header = _looks_like_header(head) if header is None else bool(header)
    notes = []
    if has_header:
        if len(head) < 2:
            raise _err(path, "has a header row but no data rows")
        names = [str(c) for c in _read_csv(path, sep, nrows=0).columns]
        if header is None:
            notes.append("first row read as column names (header)")
    else:
        names = [str(j) for j in range(head.shape[1])]
        if header is None:
            notes.append(f"no header row: columns are named by 0-based index 0..{len(names) - 1}")
    spec = _resolve(path, names, not has_header, **options)
    used = sorted({*spec.features, *(j for j in (spec.label, spec.train) if j is not None)})
    as_text = {(names[j] if has_header else j): str
               for j in (spec.label, spec.train) if j is not None}
    df = _read_csv(path, sep, header=0 if has_header else None, usecols=used,
                   dtype=as_text or None, low_memory=False)
    if not has_header:
        df.columns = [names[j] for j in df.columns]
    if df.empty:
        raise _err(path, "has a header row but no data rows")
    return _frame_parts(path, df, names, spec, notes=notes + spec.notes)


def _read_csv(path: Path, sep: str, **kwargs) -> pd.DataFrame:
    kind = "TSV" if sep == "\t" else "CSV"
    try:
        return pd.read_csv(path, sep=sep, **kwargs)
    except pd.errors.EmptyDataError:
        raise _err(path, "the file is empty (no rows)") from None
    except UnicodeDecodeError as exc:
        raise _err(path, f"cannot read as {kind} text: {_first_line(exc)} (save it as UTF-8)"
                   ) from None
    except (ValueError, OSError, EOFError) as exc:  # ParserError is a ValueError
        raise _err(path, f"cannot read as {kind}: {_first_line(exc)}") from None


def _check_separator(path: Path, sep: str, head: pd.DataFrame) -> None:
    """One column whose cells hold another separator: the wrong reader, not bad data."""
    if head.shape[1] != 1:
        return
    first = str(head.iloc[0, 0])
    for other, what in (("\t", "tabs (use --format tsv)"), (";", "semicolons"),
                        (",", "commas (use --format csv)")):
        if other != sep and other in first:
            raise _err(path, f"read as a single column, but the first row is separated by "
                             f"{what}; expected {'tab' if sep == chr(9) else 'comma'}-"
                             f"separated values")


def _is_number(cell: str) -> bool | None:
    """True for a number, False for text, None for an empty or missing-value cell."""
    cell = cell.strip()
    if cell in _NA_TOKENS:
        return None
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _looks_like_header(head: pd.DataFrame) -> bool:
    """The first row is a header when one of its cells is text, unless every text cell sits
    in a column that holds no number further down (a text label column of a file without
    a header)."""
    first = [_is_number(c) for c in head.iloc[0]]
    text = [j for j, kind in enumerate(first) if kind is False]
    if not text:
        return False
    if len(head) == 1 or True not in first:
        return True
    rest = head.iloc[1:]
    return any(any(_is_number(c) for c in rest.iloc[:, j]) for j in text)


# --- NPY / NPZ -----------------------------------------------------------------------------

def _load_array(path: Path, **options) -> _Parts:
    extra = {}
    with open(path, "rb") as fh:  # our own handle: np.load leaks its own on a bad zip
        magic = fh.read(6)
        if not (magic == b"\x93NUMPY" or magic.startswith(b"PK")):
            raise _err(path, "not a NumPy .npy or .npz file (no NumPy or zip signature)")
        fh.seek(0)
        try:
            loaded = np.load(fh, allow_pickle=False)
            if isinstance(loaded, np.ndarray):
                A, what = loaded, "the array"
            else:
                with loaded:
                    key, extra = _pick_npz(path, loaded, options)
                    A, what = loaded[key], f"array {key!r}"
        except _ARRAY_ERRORS as exc:
            raise _err(path, f"cannot read as NumPy data: {_first_line(exc)}") from None
    if A.ndim != 2:
        raise _err(path, f"{what} has shape {A.shape}; expected a 2-D array (rows × features)")
    if A.dtype.kind not in "biufUS":
        raise _err(path, f"{what} has dtype {A.dtype}; expected real numbers")
    if A.shape[0] == 0 or A.shape[1] == 0:
        raise _err(path, f"{what} has shape {A.shape}: no data")
    names = [str(j) for j in range(A.shape[1])]
    ext = {k: (key, _label_array(path, key, arr, A.shape[0], k))
           for k, (key, arr) in extra.items()}
    spec = _resolve(path, names, True, **{**options, **dict.fromkeys(ext)})
    parts = _frame_parts(path, pd.DataFrame(A, columns=names, copy=False), names, spec,
                         notes=spec.notes)
    for k, (key, values) in ext.items():
        if k == "label_column":
            parts.labels, parts.label_name = values, f"array {key!r}"
        else:
            parts.train = values
        parts.notes.append(_label_note(k, f"array {key!r}", values))
    return parts


def _pick_npz(path: Path, npz, options: dict) -> tuple[str, dict]:
    """The key of X in the archive, and the label arrays named by the options."""
    keys = list(npz.files)
    extra = {k: (options[k], npz[options[k]]) for k in ("label_column", "train_labels")
             if options[k] is not None and options[k] in keys}
    if len(extra) == 2 and options["label_column"] == options["train_labels"]:
        raise _err(path, f"--label-column and --train-labels both name {options['label_column']!r}")
    taken = {key for key, _ in extra.values()}
    candidates = [k for k in keys if k not in taken]
    if len(candidates) == 1:
        return candidates[0], extra
    if "X" in candidates:
        return "X", extra
    if not candidates:
        raise _err(path, "the archive holds no data array")
    raise _err(path, f"the archive holds several arrays ({_listing(candidates)}) and none "
                     "named 'X'; save the data as 'X'")


def _label_array(path: Path, key: str, arr: np.ndarray, n: int, option: str) -> np.ndarray:
    if arr.shape != (n,):
        raise _err(path, f"{_OPTIONS[option]} {key!r}: the array has shape {arr.shape}; "
                         f"expected 1-D with one entry per row ({n})")
    if arr.dtype.kind not in "biufUS":
        raise _err(path, f"{_OPTIONS[option]} {key!r}: unsupported dtype {arr.dtype}")
    values = pd.Series(arr)
    missing = values.isna() | (values == "") if arr.dtype.kind in "US" else values.isna()
    return _strings(values, missing)


# --- tables in common ----------------------------------------------------------------------

@dataclass
class _Spec:
    """Column positions: the label column, the train-label column and the features."""

    label: int | None
    train: int | None
    features: list[int]
    notes: list[str]


def _resolve(path: Path, names: list[str], by_index: bool, label_column=None,
             train_labels=None, columns=(), drop=()) -> _Spec:
    """Turn the column options into positions, refusing unknown or contradictory ones."""
    index = {name: j for j, name in enumerate(names)}

    def find(value, key: str) -> int:
        value = str(value)
        if value in index:
            return index[value]
        if by_index:
            try:
                return range(len(names))[int(value)]
            except (ValueError, IndexError):
                pass
        close = difflib.get_close_matches(value, names, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        what = f"0-based indices 0..{len(names) - 1}" if by_index else _listing(names)
        raise _err(path, f"{_OPTIONS[key]} {value!r}: no such column{hint}; columns: {what}")

    label = None if label_column is None else find(label_column, "label_column")
    train = None if train_labels is None else find(train_labels, "train_labels")
    if label is not None and label == train:
        raise _err(path, f"--label-column and --train-labels both name column "
                         f"{names[label]!r}")
    keep = [find(c, "columns") for c in columns]
    dropped = [find(c, "drop") for c in drop]
    for j in keep + dropped:
        for other, key in ((label, "label_column"), (train, "train_labels")):
            if j == other:
                opt = "--columns" if j in keep else "--drop"
                raise _err(path, f"{opt} lists column {names[j]!r}, which is the "
                                 f"{_OPTIONS[key]}")
    repeated = sorted({names[j] for j in keep if keep.count(j) > 1})
    if repeated:
        raise _err(path, f"--columns lists {_quoted(repeated)} more than once")
    features = [j for j in (keep or range(len(names)))
                if j not in (label, train) and j not in dropped]
    if not features:
        raise _err(path, "no feature column left after taking out the label, train-label "
                         f"and dropped columns; columns: {_listing(names)}")
    notes = []
    if dropped:
        notes.append(f"left out column(s) {_listing([names[j] for j in dropped])} (--drop)")
    if keep:
        notes.append(f"kept only the {len(features)} column(s) named by --columns")
    return _Spec(label, train, features, notes)


def _frame_parts(path: Path, df: pd.DataFrame, names: list[str], spec: _Spec,
                 notes: list[str]) -> _Parts:
    """Features, labels and train labels out of a frame whose columns are ``names``."""
    feats = [names[j] for j in spec.features]
    _check_numeric(path, df, feats)
    empty = [c for c in feats if df[c].isna().all()]
    if empty:
        raise _err(path, f"column(s) {_quoted(empty)} have no values at all; leave them out "
                         "with --drop")
    X = df[feats].to_numpy(dtype=np.float64, na_value=np.nan)
    parts = _Parts(X, "table", feats, notes=list(notes))
    if spec.label is not None:
        col = df[names[spec.label]]
        parts.labels, parts.label_name = _strings(col, col.isna()), f"column {col.name!r}"
        parts.notes.append(_label_note("label_column", f"column {col.name!r}", parts.labels))
    if spec.train is not None:
        col = df[names[spec.train]]
        parts.train = _strings(col, col.isna())
        parts.notes.append(_label_note("train_labels", f"column {col.name!r}", parts.train))
    return parts


def _check_numeric(path: Path, df: pd.DataFrame, feats: list[str]) -> None:
    text = [c for c in feats if not _numeric(df[c])]
    if not text:
        return
    col = df[text[0]]
    bad = np.flatnonzero(pd.to_numeric(col, errors="coerce").isna() & col.notna())
    example = f" ({col.iloc[bad[0]]!r} in data row {bad[0] + 1} of {text[0]!r})" if len(bad) else ""
    raise _err(path, f"non-numeric feature column(s) {_quoted(text)}{example}; name a label column "
                     "with --label-column or --train-labels, or leave columns out with --drop")


def _numeric(col: pd.Series) -> bool:
    return (pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_complex_dtype(col)) \
        or pd.api.types.is_bool_dtype(col)


def _strings(values: pd.Series, missing) -> np.ndarray:
    """An object array: each value as str, None where ``missing``."""
    out = values.astype(str).to_numpy(dtype=object)
    out[np.asarray(missing, dtype=bool)] = None
    return out


def _label_note(key: str, where: str, values: np.ndarray) -> str:
    present = [v for v in values if v is not None]
    if key == "label_column":
        return (f"labels from {where} ({len(set(present))} distinct), used only to report "
                "agreement, not as a feature")
    return (f"train labels from {where}: {len(present)} of {len(values)} rows labelled "
            f"({len(set(present))} distinct), the rest unlabelled")


# --- Matrix Market, images, user-permission lists ------------------------------------------

def _load_mtx(path: Path) -> _Parts:
    try:
        M = scipy.io.mmread(path)
    except (ValueError, OSError, EOFError, IndexError, TypeError) as exc:
        raise _err(path, f"cannot read as Matrix Market: {_first_line(exc)}") from None
    if np.iscomplexobj(M):
        raise _err(path, "the Matrix Market file holds complex values; expected real numbers")
    X = sp.csr_matrix(M, dtype=np.float64)
    if X.ndim != 2 or 0 in X.shape:
        raise _err(path, f"the matrix has shape {X.shape}: no data")
    note = (f"Matrix Market {X.shape[0]} × {X.shape[1]} sparse matrix (rows = documents, "
            f"columns = terms), {X.nnz} stored entries")
    return _Parts(X, "sparse", [str(j) for j in range(X.shape[1])], notes=[note])


_GREY_MODES = ("1", "L", "LA", "I;16", "I;16B", "I;16L", "I;16N")


def _load_image(path: Path, patch: int, max_pixels: int) -> _Parts:
    if isinstance(patch, bool) or not isinstance(patch, (int, np.integer)) or patch < 1:
        raise _err(path, f"patch size {patch!r} is not a positive integer")
    patch = int(patch)
    with warnings.catch_warnings():
        # our own max_pixels guards the size; Pillow's warning would only print
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            with Image.open(path) as im:  # lazy: reads the header, not the pixels
                (w0, h0), mode = im.size, im.mode
            if w0 * h0 > max_pixels:
                raise _err(path, f"image {w0}×{h0} has {w0 * h0:,} pixels, more than the limit "
                                 f"of {max_pixels:,} (max_pixels)")
            img = images.load_luminance(path)
        except MtcError as exc:
            raise MtcError(_one_line(str(exc))) from None
        except Image.DecompressionBombError as exc:
            raise _err(path, f"refused by Pillow as a possible decompression bomb: "
                             f"{_first_line(exc)}") from None
        except (OSError, ValueError, SyntaxError, EOFError) as exc:
            raise _err(path, f"cannot read the image: {_first_line(exc)}") from None
    cropped = images.crop_to_patches(img, patch)
    h, w = cropped.shape
    n = (h // patch) * (w // patch)
    if n < 2:
        raise _err(path, f"image {w0}×{h0} gives {n} patch(es) of {patch}×{patch}; need at "
                         "least 2 (use a smaller patch size)")
    grey = "grey" if mode in _GREY_MODES else f"{mode} → grey (BT.601 luminance)"
    note = (f"image {w0}×{h0} {grey} → {n} patches of {patch}×{patch} (rows), "
            f"{h0 * w0 - h * w} pixels cropped")
    return _Parts(images.to_patches(cropped, patch), "image",
                  [f"p{j}" for j in range(patch * patch)], notes=[note],
                  image={"shape": (h, w), "patch": patch})


def _load_permissions(path: Path) -> _Parts:
    try:
        B, users, perms = access_control.load_user_permissions(path)
    except (ValueError, OSError, EOFError) as exc:  # UnicodeDecodeError is a ValueError
        message = _first_line(exc)
        message = message.removeprefix(f"{path}: ")
        raise _err(path, f"cannot read as a user-permission list: {message}") from None
    note = (f"user-permission list: {len(users)} users × {len(perms)} permissions, "
            f"{int(B.sum())} grants")
    return _Parts(B.astype(np.float64), "boolean", list(perms), notes=[note])


# --- checks common to all formats ----------------------------------------------------------

def _finish(path: Path, parts: _Parts, *, dropna: bool, standardize: bool) -> UserData:
    X, notes = parts.X, parts.notes
    n = X.shape[0]
    keep = np.ones(n, dtype=bool)
    if parts.labels is not None:
        missing = pd.isna(parts.labels)
        if missing.any() and not dropna:
            first = int(np.argmax(missing)) + 1
            raise _err(path, f"the labels ({parts.label_name}) are missing in {missing.sum()} "
                             f"row(s), the first in data row {first}; --dropna drops such rows")
        keep &= ~missing
    bad, first = _nonfinite_rows(X)
    if bad.any() and not dropna:
        row, col = first
        raise _err(path, f"{bad.sum()} row(s) have missing or infinite values, the first in "
                         f"data row {row + 1}, column {parts.names[col]!r}; --dropna drops "
                         "such rows")
    keep &= ~bad
    if not keep.all():
        X = X[keep]
        parts.labels = None if parts.labels is None else parts.labels[keep]
        parts.train = None if parts.train is None else parts.train[keep]
        notes.append(f"dropped {n - keep.sum()} of {n} rows with missing or infinite values "
                     "(--dropna)")
    if X.shape[0] < 2:
        after = " after --dropna" if not keep.all() else ""
        raise _err(path, f"{X.shape[0]} data row(s){after}; need at least 2")
    _check_not_constant(path, X)
    if standardize:
        X = _standardize(path, X, parts.names, parts.kind)
        notes.append(f"standardized each of the {X.shape[1]} feature columns to mean 0 and "
                     "standard deviation 1 (z-scores)")
    kind = parts.kind
    if kind == "table" and np.all((X == 0) | (X == 1)):
        kind = "boolean"
        notes.append("every entry is 0 or 1: read as a Boolean matrix")
    if not sp.issparse(X):
        X = np.ascontiguousarray(X, dtype=np.float64)
    return UserData(X=X, kind=kind, feature_names=list(parts.names), labels=parts.labels,
                    train_labels=parts.train, notes=tuple(notes), source=path.name,
                    image=parts.image)


def _nonfinite_rows(X) -> tuple[np.ndarray, tuple[int, int] | None]:
    """Rows holding NaN or ±inf, and the (row, column) of the first such entry."""
    rows = np.zeros(X.shape[0], dtype=bool)
    if sp.issparse(X):
        bad = ~np.isfinite(X.data)
        if not bad.any():
            return rows, None
        r = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))[bad]
        c = X.indices[bad]
        rows[r] = True
        order = np.lexsort((c, r))[0]
        return rows, (int(r[order]), int(c[order]))
    bad = ~np.isfinite(X)
    rows = bad.any(axis=1)
    if not rows.any():
        return rows, None
    r = int(np.argmax(rows))
    return rows, (r, int(np.argmax(bad[r])))


def _check_not_constant(path: Path, X) -> None:
    if sp.issparse(X):
        same = (X.max(axis=0) != X.min(axis=0)).nnz == 0
    else:
        same = bool(np.all(X == X[0]))
    if same:
        raise _err(path, f"all {X.shape[0]} rows are identical: there is nothing to select")


def _standardize(path: Path, X: np.ndarray, names: list[str], kind: str) -> np.ndarray:
    const = np.flatnonzero(np.ptp(X, axis=0) == 0)
    if const.size:
        shown = _quoted([names[j] for j in const])
        hint = "; leave them out with --drop" if kind == "table" else ""
        raise _err(path, f"--standardize: column(s) {shown} are constant (standard deviation "
                         f"0){hint}")
    with np.errstate(all="ignore"):
        Z = (X - X.mean(axis=0)) / X.std(axis=0)
    if not np.isfinite(Z).all():
        raise _err(path, "--standardize: the values are too large to standardize in float64")
    return Z


# --- messages ------------------------------------------------------------------------------

def _one_line(text: str) -> str:
    return re.sub(r"\s*[\r\n]+\s*", " ", text).strip()


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


def _err(path: Path, message: str) -> MtcError:
    return MtcError(_one_line(f"{path}: {message}"))


def _quoted(names: list[str], limit: int = 5) -> str:
    """Names in quotes, the first ``limit`` of them, then "…"."""
    return ", ".join(repr(str(n)) for n in names[:limit]) + (", …" if len(names) > limit else "")


def _listing(names: list[str]) -> str:
    shown = ", ".join(map(str, names[:_SHOWN]))
    return shown + (f", … ({len(names)} in all)" if len(names) > _SHOWN else "")
