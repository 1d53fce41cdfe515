"""What the two access-control experiments (``boolean_denoising``, ``role_mining_bmf``)
share: the folder of the shipped HP Labs matrices, the parameters of the flip noise that
turns an error-free X* into X, and a user–permission file as a dataset source (its name,
path and digest: what a task needs to load it) with its loader."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mtc_cli.core.datasets import access_control as ac
from mtc_cli.core.files import file_sha256
from mtc_cli.run.params import PROJECT_ROOT, param, to_plain

HP = PROJECT_ROOT / "data" / "access_control_hp"


@dataclass(frozen=True)
class Noise:
    relative_to: str = param("ones", help="'ones': rates are fractions of the number of ones "
                                          "of X*; 'entries': per-entry flip probabilities",
                             choices=["ones", "entries"])
    additive: float = param(0.10, help="rate of spurious grants (0 → 1)", min=0.0)
    subtractive: float = param(0.10, help="rate of removed grants (1 → 0)", min=0.0, max=1.0)


def file_source(path) -> dict:
    """A user–permission file as a dataset source: its name (the file name up to the first
    dot), its path (relative to the project inside it) and the sha256 of its bytes, so
    that an edited file is recomputed."""
    return {"dataset": Path(path).name.split(".")[0], "file": to_plain(Path(path)),
            "sha256": file_sha256(path)}


def load_file(source: dict) -> np.ndarray:
    """X of a file source (:func:`file_source`), its path relative to the project root
    unless absolute."""
    path = Path(source["file"])
    return ac.load_user_permissions(path if path.is_absolute() else PROJECT_ROOT / path)[0]
