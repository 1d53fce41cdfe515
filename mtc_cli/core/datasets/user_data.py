"""A user's own data file as the matrix X whose model order is selected: numeric tables
(CSV, TSV, Excel .xlsx, Parquet, NPY, NPZ), sparse document–term matrices (Matrix Market),
images (as rows of non-overlapping p×p patches) and user–permission lists (Boolean users ×
permissions, also as a two-column ``user,permission`` table).

:func:`load` reads the file, separates optional label columns, checks the values and returns
a :class:`UserData`. Every problem with the input is an :class:`MtcError` with a one-line
message that names the file and the column, key or value at fault.
"""

from __future__ import annotations

import difflib
import functools
import gzip
import importlib
import re
import shlex
import tokenize
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

from mtc_cli.core.datasets import access_control, images
from mtc_cli.core.datasets.checks import check_not_constant
from mtc_cli.core.datasets.formats import FORMATS
from mtc_cli.core.errors import MtcError, not_found

__all__ = ["FORMATS", "UserData", "label_like", "load"]

#: file-name endings (lower case) → format; longer endings are matched first
SUFFIXES = {
    ".csv": "csv", ".csv.gz": "csv", ".tsv": "tsv", ".tsv.gz": "tsv",
    ".xlsx": "xlsx", ".parquet": "parquet",
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
#: what a reader raises on a damaged file (gzip.BadGzipFile is an OSError; zlib.error comes
#: from a corrupt deflate stream, OverflowError from an integer too large for its type)
_READ_ERRORS = (ValueError, OSError, EOFError, OverflowError, zlib.error)
#: ... and on a damaged .npy header (SyntaxError, tokenize.TokenError; TypeError for a key
#: that is not text) or zip archive (.npz, .xlsx: BadZipFile, KeyError; RuntimeError for an
#: encrypted member, NotImplementedError for an unsupported compression)
_ARRAY_ERRORS = (*_READ_ERRORS, KeyError, zipfile.BadZipFile, RuntimeError, SyntaxError,
                 tokenize.TokenError, TypeError)
#: ... and on a damaged workbook or Parquet file (its XML, its pandas metadata)
_FRAME_ERRORS = (*_ARRAY_ERRORS, IndexError)
_MTX_ERRORS = (*_READ_ERRORS, IndexError, TypeError)
#: the separator's name in messages, and how to ask for it
_SEPARATORS = {"\t": ("tab", "--format tsv"), ";": ("semicolon", "--sep ';'"),
               ",": ("comma", "--format csv")}
#: names of row-number or ID columns (pandas names a headerless index column 'Unnamed: 0')
_ID_NAME = re.compile(r"id|idx|index|row|row[ _]?(id|no|number)|unnamed: ?0", re.IGNORECASE)
#: names of a column of known classes (see :func:`label_like`)
_LABEL_NAME = re.compile(r"labels?|class|target|cluster|species|category", re.IGNORECASE)
_MAX_CLASSES = 20  # the most distinct values a column of known classes holds
_MIN_ID_RUN = 3  # rows from which a column running 0..n−1 or 1..n is taken for a row number
_DEFLATE_RATIO = 1032  # deflate's largest compression ratio: bounds a .gz file's content


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
         drop: list[str] | tuple = (), header: bool | None = None, sep: str | None = None,
         dropna: bool = False, standardize: bool = False, patch: int = 8,
         max_pixels: int = images.MAX_PIXELS) -> UserData:
    """Read a data file into a :class:`UserData`; bad input raises :class:`MtcError`.

    The format comes from the file name's ending unless ``format`` (one of
    :data:`FORMATS`) is given. ``label_column``, ``train_labels``, ``columns`` and ``drop``
    name columns of tables (header names, or 0-based indices when there is no header);
    ``header=None`` detects a header row. ``sep`` is the field separator of CSV/TSV text
    (one character, or ``\\t``; default: comma for CSV, tab for TSV). ``dropna`` drops rows
    with missing values instead of refusing them; ``standardize`` z-scores every feature.
    ``patch`` and ``max_pixels`` apply to images.
    """
    path = Path(path).expanduser()
    if not path.exists():
        raise _err(path, not_found(path, "data file"))
    if path.is_dir():
        raise _err(path, "is a directory, not a data file")
    fmt = _format_of(path, format)
    if path.stat().st_size == 0:
        raise _err(path, "the file is empty (0 bytes)")
    options = {"label_column": label_column, "train_labels": train_labels,
               "columns": list(columns or ()), "drop": list(drop or ())}
    if sep is not None and fmt not in ("csv", "tsv"):
        raise _err(path, f"--sep applies to CSV and TSV text only, not to format {fmt}")
    if fmt in ("csv", "tsv"):
        default = "\t" if fmt == "tsv" else ","
        parts = _load_text(path, default if sep is None else _separator(path, sep), header,
                           explicit=sep is not None, **options)
    elif fmt == "xlsx":
        parts = _load_sheet(path, header, **options)
    elif fmt == "parquet":
        parts = _load_parquet(path, header, **options)
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


# --- CSV / TSV, spreadsheets, Parquet ------------------------------------------------------

def _separator(path: Path, sep: str) -> str:
    """The ``sep`` option as one character (``\\t`` stands for a tab)."""
    sep = "\t" if sep == "\\t" else str(sep)
    if len(sep) != 1 or sep in '\r\n"':
        raise _err(path, f"--sep {sep!r}: expected one character, such as ';' or '\\t'")
    return sep


def _load_text(path: Path, sep: str, header: bool | None, explicit: bool,
               **options) -> _Parts:
    head = _read_csv(path, sep, header=None, dtype=str, keep_default_na=False,
                     nrows=_SNIFF_ROWS)
    _check_separator(path, sep, head, explicit)
    return _load_table(path, head, functools.partial(_read_csv, path, sep), header, options)


def _load_sheet(path: Path, header: bool | None, **options) -> _Parts:
    """The first sheet of an Excel workbook, read as a CSV file is."""
    _require(path, "openpyxl", ".xlsx")
    try:
        book = pd.ExcelFile(path, engine="openpyxl")
    except _FRAME_ERRORS as exc:
        raise _err(path, f"cannot read as an Excel workbook: {_first_line(exc)}") from None
    with book:
        read = functools.partial(_read_sheet, path, book)
        head = read(header=None, dtype=str, keep_default_na=False, nrows=_SNIFF_ROWS)
        if head.empty:
            raise _err(path, f"the first sheet, {book.sheet_names[0]!r}, is empty")
        parts = _load_table(path, head, read, header, options)
    if len(book.sheet_names) > 1:
        parts.notes.insert(0, f"read the first of {len(book.sheet_names)} sheets, "
                              f"{book.sheet_names[0]!r}")
    return parts


def _load_parquet(path: Path, header: bool | None, **options) -> _Parts:
    if header is False:
        raise _err(path, "--no-header does not apply: a Parquet file names its columns")
    pyarrow = _require(path, "pyarrow", ".parquet")
    try:
        df = pd.read_parquet(path, engine="pyarrow")
    except (*_FRAME_ERRORS, pyarrow.ArrowException) as exc:
        raise _err(path, f"cannot read as Parquet: {_first_line(exc)}") from None
    names = [str(c) for c in df.columns]  # distinct: pyarrow refuses repeated names
    if df.empty:
        raise _err(path, "has no data rows" if names else "has no columns")
    df.columns = names
    if _is_pair_list(names, options, [pd.api.types.is_string_dtype(df[c]) for c in names]):
        return _permission_pairs(path, df, [])
    spec = _resolve(path, names, False, **options)
    return _frame_parts(path, df, names, spec, notes=spec.notes)


def _require(path: Path, module: str, suffix: str):
    """The optional ``module`` that reads ``suffix`` files, or a one-line error."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise _err(path, f"reading {suffix} needs {module}: pip install 'mtc[io]'") from None


def _load_table(path: Path, head: pd.DataFrame, read, header: bool | None,
                options: dict) -> _Parts:
    """A table of text or a sheet: ``head`` holds its first rows as str, a header row
    included; ``read(**kwargs)`` reads it with pandas' ``read_csv`` keywords."""
    has_header = _looks_like_header(head) if header is None else bool(header)
    notes = []
    if has_header:
        if len(head) < 2:
            raise _err(path, "has a header row but no data rows")
        names = [str(c) for c in read(header=0, nrows=0).columns]
        if header is None:
            notes.append("first row read as column names (header)")
    else:
        names = [str(j) for j in range(head.shape[1])]
        if header is None:
            notes.append(f"no header row: columns are named by 0-based index 0..{len(names) - 1}")
    body = head.iloc[1:].to_numpy()
    text = [any(_is_number(c) is False for c in body[:, j]) for j in range(head.shape[1])]
    if has_header and _is_pair_list(names, options, text):
        return _permission_pairs(path, read(header=0, dtype=str, keep_default_na=False), notes)
    spec = _resolve(path, names, not has_header, **options)
    used = sorted({*spec.features, *(j for j in (spec.label, spec.train) if j is not None)})
    as_text = {(names[j] if has_header else j): str
               for j in (spec.label, spec.train) if j is not None}
    df = read(header=0 if has_header else None, usecols=used, dtype=as_text or None)
    df.columns = [names[j] for j in used]  # a sheet's header cells may be numbers
    if df.empty:
        raise _err(path, "has a header row but no data rows")
    return _frame_parts(path, df, names, spec, notes=notes + spec.notes)


def _read_csv(path: Path, sep: str, **kwargs) -> pd.DataFrame:
    kind = "TSV" if sep == "\t" else "CSV"
    try:
        return pd.read_csv(path, sep=sep, low_memory=False, **kwargs)
    except pd.errors.EmptyDataError:
        raise _err(path, "the file is empty (no rows)") from None
    except UnicodeDecodeError as exc:
        raise _err(path, f"cannot read as {kind} text: {_first_line(exc)} (save it as UTF-8)"
                   ) from None
    except _READ_ERRORS as exc:  # ParserError is a ValueError
        raise _err(path, f"cannot read as {kind}: {_first_line(exc)}") from None


def _read_sheet(path: Path, book: pd.ExcelFile, **kwargs) -> pd.DataFrame:
    try:
        return pd.read_excel(book, sheet_name=0, **kwargs)
    except _FRAME_ERRORS as exc:
        raise _err(path, f"cannot read the first sheet: {_first_line(exc)}") from None


def _check_separator(path: Path, sep: str, head: pd.DataFrame, explicit: bool) -> None:
    """One column whose cells hold another separator: the wrong reader, not bad data."""
    if head.shape[1] != 1:
        return
    first = str(head.iloc[0, 0])
    expected = _SEPARATORS[sep][0] if sep in _SEPARATORS else repr(sep)
    for other, (what, option) in _SEPARATORS.items():
        if other != sep and other in first:
            hint = f"--sep {other!r}" if explicit else option
            raise _err(path, f"read as a single column, but the first row is separated by "
                             f"{what}s (use {hint}); expected {expected}-separated values")


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


def _is_pair_list(names: list[str], options: dict, text: list[bool]) -> bool:
    """Two columns, both holding text, and no column option: ``user,permission`` pairs."""
    return len(names) == 2 and len(text) == 2 and all(text) and not any(options.values())


def _permission_pairs(path: Path, df: pd.DataFrame, notes: list[str]) -> _Parts:
    """(user, permission) rows as the Boolean matrix :func:`_load_permissions` gives for the
    same grants in a user-permission list."""
    users, perms = (df.iloc[:, j].fillna("").astype(str).str.strip().to_numpy(dtype=object)
                    for j in (0, 1))
    blank = (users == "") | (perms == "")
    if blank.any():
        row = int(np.argmax(blank))
        what = df.columns[0] if users[row] == "" else df.columns[1]
        raise _err(path, f"read as (user, permission) pairs: {what!r} is empty in data row "
                         f"{row + 1}")
    user_ids, perm_ids = (access_control._natural(set(v)) for v in (users, perms))
    X = np.zeros((len(user_ids), len(perm_ids)))
    X[pd.Categorical(users, categories=user_ids).codes,
      pd.Categorical(perms, categories=perm_ids).codes] = 1.0
    note = (f"two text columns {df.columns[0]!r}, {df.columns[1]!r} read as (user, "
            f"permission) pairs")
    return _Parts(X, "boolean", perm_ids, notes=[*notes, note, _grants_note(X)])


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
    if A.dtype.kind == "U" and not _valid_unicode(A):
        raise _err(path, f"{what} holds text that is not valid Unicode (a code point above "
                         "U+10FFFF or a surrogate); expected real numbers")
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
    if arr.dtype.kind == "U" and not _valid_unicode(arr):
        raise _err(path, f"{_OPTIONS[option]} {key!r}: the labels are not valid Unicode text")
    values = pd.Series(arr)
    missing = values.isna() | (values == "") if arr.dtype.kind in "US" else values.isna()
    return _strings(values, missing)


# --- tables in common ----------------------------------------------------------------------

@dataclass
class _Spec:
    """Column positions: the label column, the train-label column and the features (named
    by ``--columns`` when ``chosen``)."""

    label: int | None
    train: int | None
    features: list[int]
    notes: list[str]
    chosen: bool


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
    return _Spec(label, train, features, notes, bool(keep))


def _frame_parts(path: Path, df: pd.DataFrame, names: list[str], spec: _Spec,
                 notes: list[str]) -> _Parts:
    """Features, labels and train labels out of a frame whose columns are ``names``."""
    feats = [names[j] for j in spec.features]
    index = {c: i for i, c in enumerate(df.columns)}
    where = [index[c] for c in feats]  # the features' positions in df
    _check_numeric(path, df, where)
    # whole-frame calls, not one per column: 100 000 columns in a second, not in ten
    empty = [feats[i] for i in np.flatnonzero(df.iloc[:, where].isna().all())]
    if empty:
        raise _err(path, f"column(s) {_quoted(empty)} have no values at all; leave them out "
                         "with --drop")
    X = df[feats].to_numpy(dtype=np.float64, na_value=np.nan)
    if not spec.chosen:
        _check_ids(path, X, feats)
        _check_labels(path, X, feats)
    parts = _Parts(X, "table", feats, notes=list(notes))
    if not spec.chosen and spec.label is None:
        parts.notes += _label_like_notes(X, feats)
    if spec.label is not None:
        col = df[names[spec.label]]
        parts.labels, parts.label_name = _strings(col, col.isna()), f"column {col.name!r}"
        parts.notes.append(_label_note("label_column", f"column {col.name!r}", parts.labels))
    if spec.train is not None:
        col = df[names[spec.train]]
        parts.train = _strings(col, col.isna())
        parts.notes.append(_label_note("train_labels", f"column {col.name!r}", parts.train))
    return parts


def _check_numeric(path: Path, df: pd.DataFrame, positions: list[int]) -> None:
    dtypes = df.dtypes
    text = [df.columns[j] for j in positions if not _numeric(dtypes.iloc[j])]
    if not text:
        return
    col = df[text[0]]
    bad = np.flatnonzero(pd.to_numeric(col, errors="coerce").isna() & col.notna())
    example = f" ({col.iloc[bad[0]]!r} in data row {bad[0] + 1} of {text[0]!r})" if len(bad) else ""
    labels = [str(c) for c in text if label_like(c, df[c])]
    hint = (f" (column {labels[0]!r} looks like one: --label-column {shlex.quote(labels[0])})"
            if labels else "")
    raise _err(path, f"non-numeric feature column(s) {_quoted(text)}{example}; name a label column "
                     f"with --label-column or --train-labels{hint}, or leave columns out with "
                     "--drop")


def _check_ids(path: Path, X: np.ndarray, feats: list[str]) -> None:
    """Refuse a row-number or ID column: named like one, or running 0..n−1 or 1..n."""
    n = X.shape[0]
    runs = set()
    if n >= _MIN_ID_RUN:
        start = X[0]
        candidates = np.flatnonzero(((start == 0) | (start == 1)) & (X[1] == start + 1))
        runs = {j for j in candidates if np.array_equal(X[:, j], start[j] + np.arange(n))}
    for j, name in enumerate(feats):
        if _ID_NAME.fullmatch(name.strip()):
            why = "its name"
        elif j in runs:
            why = f"its values run {X[0, j]:g}..{X[0, j] + n - 1:g} in row order"
        else:
            continue
        raise _err(path, f"column {name!r} looks like a row number or ID ({why}), not a "
                         f"feature; leave it out with --drop {shlex.quote(name)} (or name the "
                         "features with --columns)")


def label_like(name, values) -> bool:
    """Whether column ``name`` holding ``values`` is known classes rather than a feature:
    named label(s), class, target, cluster, species or category (any case, spaces around
    ignored) and holding at most 20 distinct values (missing ones aside), all integers or
    all text."""
    if not _LABEL_NAME.fullmatch(str(name).strip()):
        return False
    values = pd.Series(values).dropna()
    distinct = values.unique()
    if len(distinct) > _MAX_CLASSES:
        return False
    return not _numeric(values.dtype) or bool(np.all(distinct.astype(np.float64) % 1 == 0))


def _check_labels(path: Path, X: np.ndarray, feats: list[str]) -> None:
    """Refuse a column of known classes (:func:`label_like`) as a feature."""
    for j, name in enumerate(feats):
        if label_like(name, X[:, j]):
            q = shlex.quote(name)
            raise _err(path, f"column {name!r} looks like class labels (its name, "
                             f"{pd.Series(X[:, j]).nunique()} distinct integer values), not a "
                             f"feature; report it as the known classes with --label-column {q} "
                             f"or leave it out with --drop {q} (or name the features with "
                             "--columns)")


def _label_like_notes(X: np.ndarray, feats: list[str]) -> list[str]:
    """One line naming the feature columns that look like class labels without being refused
    (:func:`label_like`): named so but holding more than 20 distinct values or non-integers;
    or, where the columns have no names, the first or last one holding at most 20 distinct
    integers beside columns that do not."""
    found = []
    for j, name in enumerate(feats):
        if _LABEL_NAME.fullmatch(str(name).strip()):
            distinct = np.unique(X[:, j][np.isfinite(X[:, j])])
            kind = "integers" if np.all(distinct % 1 == 0) else "values, not all integers"
            found.append((name, f"is named as class labels are but holds {len(distinct)} "
                                f"distinct {kind}"))
    integer = [bool(np.all(np.nan_to_num(X[:, j]) % 1 == 0)) for j in range(X.shape[1])]
    if feats == [str(j) for j in range(len(feats))] and len(feats) > 1 and not all(integer):
        for j in dict.fromkeys((len(feats) - 1, 0)):
            distinct = np.unique(X[:, j][np.isfinite(X[:, j])])
            if integer[j] and 2 <= len(distinct) <= _MAX_CLASSES:
                found.append((feats[j], f"({'the last' if j else 'the first'}) holds "
                                        f"{len(distinct)} distinct integers, as class labels do"))
    if not found:
        return []
    q = shlex.quote(found[0][0])
    return ["; ".join(f"column {name!r} {why}" for name, why in found)
            + f": used as a feature — --label-column {q} would report it as known classes, "
              f"--drop {q} leave it out"]


def _valid_unicode(A: np.ndarray) -> bool:
    """Whether every code point of the text array ``A`` is a Unicode scalar value."""
    points = np.ascontiguousarray(A).view(np.uint32)
    return not ((points > 0x10FFFF) | ((points >= 0xD800) & (points <= 0xDFFF))).any()


def _numeric(dtype) -> bool:
    return (pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_complex_dtype(dtype)) \
        or pd.api.types.is_bool_dtype(dtype)


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
    rows, cols, entries, layout, field, symmetry = _matrix_market(path, scipy.io.mminfo)
    if field == "complex":
        raise _err(path, "the Matrix Market file holds complex values; expected real numbers")
    if rows == 0 or cols == 0:
        raise _err(path, f"the matrix has shape {(rows, cols)}: no data")
    _check_mtx_size(path, rows, cols, entries, layout)
    if layout == "array":
        read = functools.partial(_read_mm_array, shape=(rows, cols), field=field,
                                 symmetry=symmetry)
    else:
        read = scipy.io.mmread
    X = sp.csr_matrix(_matrix_market(path, read), dtype=np.float64)
    note = (f"Matrix Market {X.shape[0]} × {X.shape[1]} sparse matrix (rows = documents, "
            f"columns = terms), {X.nnz} stored entries")
    return _Parts(X, "sparse", [str(j) for j in range(X.shape[1])], notes=[note])


def _matrix_market(path: Path, reader):
    try:
        return reader(path)
    except _MTX_ERRORS as exc:
        raise _err(path, f"cannot read as Matrix Market: {_first_line(exc)}") from None


def _read_mm_array(path: Path, shape: tuple[int, int], field: str,
                   symmetry: str) -> np.ndarray:
    """The dense ("array") layout: one value per line, column by column (only the lower
    triangle of a symmetric matrix). Read here, as scipy's reader crashes the process on
    some damaged files of this layout."""
    rows, cols = shape
    counts = {"general": rows * cols, "symmetric": rows * (rows + 1) // 2,
              "skew-symmetric": rows * (rows - 1) // 2}
    if field == "pattern" or symmetry not in counts:
        raise ValueError(f"the dense layout does not take {field} {symmetry} values")
    if symmetry != "general" and rows != cols:
        raise ValueError(f"a {symmetry} matrix must be square, not {rows} × {cols}")
    values = []
    with (gzip.open if path.name.lower().endswith(".gz") else open)(path, "rt") as fh:
        lines = ((number, line.split()) for number, line in enumerate(fh, start=1)
                 if line.strip() and not line.startswith("%"))
        next(lines, None)  # the size line
        for number, tokens in lines:
            if len(tokens) != 1:
                raise ValueError(f"line {number}: {len(tokens)} values; the dense layout "
                                 "takes one value per line")
            try:
                values.append(float(tokens[0]))
            except ValueError:
                raise ValueError(f"line {number}: {tokens[0]!r} is not a number") from None
    if len(values) != counts[symmetry]:
        raise ValueError(f"a {rows} × {cols} {symmetry} matrix takes {counts[symmetry]} "
                         f"values, the file holds {len(values)}")
    values = np.array(values)
    if symmetry == "general":
        return values.reshape(cols, rows).T
    A = np.zeros(shape)
    j, i = np.triu_indices(rows, k=0 if symmetry == "symmetric" else 1)
    A[i, j] = values
    A[j, i] = values if symmetry == "symmetric" else -values
    return A


def _check_mtx_size(path: Path, rows: int, cols: int, entries: int, layout: str) -> None:
    """Refuse, before reading, a header that claims more than the file can hold: a dense
    ("array") cell takes at least 1 byte (a symmetric one is stored once for two), a sparse
    entry at least 2, and each row and column of a sparse matrix ought to hold an entry."""
    size = path.stat().st_size
    gz = path.name.lower().endswith(".gz")
    capacity = size * (_DEFLATE_RATIO if gz else 1)
    need = rows * cols if layout == "array" else max(2 * entries, rows + cols)
    if need > capacity:
        raise _err(path, f"the Matrix Market header claims a {rows:,} × {cols:,} {layout} "
                         f"matrix with {entries:,} entries, more than a "
                         f"{'gzip ' if gz else ''}file of {size:,} bytes can hold; not read "
                         "(is the header wrong?)")


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
                frames = getattr(im, "n_frames", 1)
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
    if frames > 1:
        note += f"; the first of its {frames} frames (an animation or a multi-page file)"
    return _Parts(images.to_patches(cropped, patch), "image",
                  [f"p{j}" for j in range(patch * patch)], notes=[note],
                  image={"shape": (h, w), "patch": patch})


def _load_permissions(path: Path) -> _Parts:
    try:
        B, _, perms = access_control.load_user_permissions(path)
    except _READ_ERRORS as exc:  # UnicodeDecodeError is a ValueError
        message = _first_line(exc)
        message = message.removeprefix(f"{path}: ")
        raise _err(path, f"cannot read as a user-permission list: {message}") from None
    X = B.astype(np.float64)
    return _Parts(X, "boolean", list(perms), notes=[_grants_note(X)])


def _grants_note(X: np.ndarray) -> str:
    return (f"user-permission list: {X.shape[0]} users × {X.shape[1]} permissions, "
            f"{int(X.sum())} grants")


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
    if dropna:
        notes.append(f"dropped {n - keep.sum()} of {n} rows with missing or infinite values "
                     "(--dropna)")
    if X.shape[0] < 2:
        after = " after --dropna" if not keep.all() else ""
        raise _err(path, f"{X.shape[0]} data row(s){after}; need at least 2")
    check_not_constant(X, str(path))
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


def _standardize(path: Path, X: np.ndarray, names: list[str], kind: str) -> np.ndarray:
    const = np.flatnonzero(np.ptp(X, axis=0) == 0)
    if const.size:
        shown = _quoted([names[j] for j in const])
        hint = "; leave them out with --drop" if kind == "table" else ""
        raise _err(path, f"--standardize: column(s) {shown} are constant (standard deviation "
                         f"0){hint}")
    # each column first scaled by the power of two nearest its largest |value| (exact in
    # float64, so the z-scores of ordinary data keep their bits), so that values near the
    # ends of float64's range (1e308, 1e-300) neither overflow nor underflow
    _, exponent = np.frexp(np.abs(X).max(axis=0))
    X = X * np.ldexp(1.0, -exponent)
    with np.errstate(all="ignore"):
        Z = (X - X.mean(axis=0)) / X.std(axis=0)
    if not np.isfinite(Z).all():
        raise _err(path, "--standardize: the features cannot be standardized in float64")
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
