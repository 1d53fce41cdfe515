"""Compare, then write: a run's new tables against those already in its run directory.

One machine gives byte-identical tables for a config and seed; another CPU or BLAS kernel
(OpenBLAS picks AVX-512 or Haswell kernels by CPU) rounds some products in other last bits.
A run whose every table agrees with the one in its run directory keeps those files, so
rerunning a committed result leaves it untouched; otherwise it writes all of its own and
says which columns moved, by how much.

Two tables agree when they have the same columns and rows and, column by column:

- text and integer columns, and float columns whose earlier values are all whole numbers
  (choices such as ``selected_k``, counts), are equal exactly (NaN where NaN);
- other float columns have NaN and ±inf at the same places and
  ``max |new − old| ≤ RTOL · max |old|`` over the finite values: relative to the column's
  scale, so that a difference of nearly equal numbers (a PSNR gap) is judged by the size of
  the numbers it came from.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

#: the relative tolerance of a float column (see the module docstring): kernel differences
#: seen between AVX-512 and Haswell kernels are below 1e-13 of a column's scale
RTOL = 1e-9


@dataclass
class Move:
    """A column (or a whole table) that does not agree."""

    file: str
    column: str
    detail: str

    def __str__(self) -> str:
        return f"{self.file} {self.column}: {self.detail}" if self.column else \
            f"{self.file}: {self.detail}"


@dataclass
class Verdict:
    """The outcome of :func:`settle`: ``kept`` when the run directory's tables were kept
    (every table agreed), ``identical`` when they were also equal byte for byte;
    ``largest`` the largest relative change of a float column (file, column, change)."""

    kept: bool
    identical: bool
    moves: list[Move] = field(default_factory=list)
    largest: tuple[str, str, float] | None = None

    def line(self) -> str:
        """One line for the run's output ('' when nothing is worth saying)."""
        if self.kept and self.identical:
            return ""
        if self.kept:
            f, c, change = self.largest
            where = f"largest change {change:.2g} of the column's scale, {f} {c}" if change \
                else "the same values written otherwise"
            return (f"reproduced the tables in the run directory within rtol {RTOL:g} "
                    f"({where}): kept them")
        if not self.moves:
            return ""
        shown = "; ".join(str(m) for m in self.moves[:4])
        more = f"; and {len(self.moves) - 4} more" if len(self.moves) > 4 else ""
        return f"outputs moved beyond rtol {RTOL:g} and were rewritten: {shown}{more}"


def compare(new: pd.DataFrame, old: pd.DataFrame, name: str) -> tuple[list[Move], str, float]:
    """(the columns of ``new`` that do not agree with ``old``, and the float column of the
    largest relative change among those that do, with that change); see the module
    docstring."""
    if list(new.columns) != list(old.columns):
        return [Move(name, "", f"columns {list(old.columns)} → {list(new.columns)}")], "", 0.0
    if len(new) != len(old):
        return [Move(name, "", f"{len(old)} rows → {len(new)}")], "", 0.0
    moves, widest, largest = [], "", 0.0
    for col in new.columns:
        move, change = _column(old[col], new[col])
        if move:
            moves.append(Move(name, col, move))
        elif change > largest:
            widest, largest = col, change
    return moves, widest, largest


def _texts(s: pd.Series) -> np.ndarray:
    """The cells as text, an empty cell as one marker (pandas' string columns keep a missing
    cell missing through ``astype(str)``, and NaN equals nothing)."""
    return np.where(s.isna().to_numpy(), "\0", s.astype(str).to_numpy(dtype=object))


def _column(old: pd.Series, new: pd.Series) -> tuple[str, float]:
    """('' or how the column moved, its relative change)."""
    numeric = all(s.dtype.kind in "biuf" for s in (old, new))
    if not numeric:
        differ = _texts(old) != _texts(new)
        return (f"{_count(differ)} of {len(old)} values differ" if differ.any() else ""), 0.0
    a, b = old.to_numpy(dtype=float), new.to_numpy(dtype=float)
    if not np.array_equal(np.isnan(a), np.isnan(b)):
        return f"{_count(np.isnan(a) != np.isnan(b))} NaN where there was none or back", 0.0
    finite = np.isfinite(a)
    if not np.array_equal(finite, np.isfinite(b)) or \
            not np.array_equal(a[np.isinf(a)], b[np.isinf(b)]):
        return "±inf at other places", 0.0
    a, b = a[finite], b[finite]
    if old.dtype.kind != "f" or np.array_equal(a, np.round(a)):
        differ = a != b
        return (f"{_count(differ)} of {len(a)} values differ" if differ.any() else ""), 0.0
    scale = np.abs(a).max(initial=0.0)
    diff = np.abs(b - a).max(initial=0.0)
    change = diff / scale if scale > 0 else (np.inf if diff > 0 else 0.0)
    if change > RTOL:
        return f"moved by up to {change:.3g} of its scale ({_count(a != b)} values)", change
    return "", change


def _count(mask) -> int:
    return int(np.count_nonzero(np.asarray(mask)))


def settle(staged: Path, run_dir: Path) -> Verdict:
    """Keep the tables of ``run_dir`` if every table in ``staged`` agrees with them (see the
    module docstring), else move every staged table into ``run_dir`` (each atomically)."""
    staged, run_dir = Path(staged), Path(run_dir)
    names = sorted(p.name for p in staged.glob("*.csv"))
    moves, identical, largest = [], True, None
    for name in names:
        old_path, new_path = run_dir / name, staged / name
        if not old_path.is_file():
            moves.append(Move(name, "", "new"))
            identical = False
            continue
        if old_path.read_bytes() == new_path.read_bytes():
            continue
        identical = False
        try:
            old = pd.read_csv(old_path)
        except (OSError, ValueError, pd.errors.ParserError):
            moves.append(Move(name, "", "the earlier table is unreadable"))
            continue
        found, column, change = compare(pd.read_csv(new_path), old, name)
        moves.extend(found)
        if largest is None or change > largest[2]:
            largest = (name, column, change)
    if not moves:
        return Verdict(kept=True, identical=identical, largest=largest)
    for name in names:
        os.replace(staged / name, run_dir / name)
    return Verdict(kept=False, identical=False, moves=[m for m in moves if m.detail != "new"])

