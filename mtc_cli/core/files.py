"""Files: written atomically (readers see the old file or the new, never half of one) and
digested (sha256)."""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd


def new_temp_file(path: Path, suffix: str = ".tmp") -> tuple[int, Path]:
    """A new empty file beside ``path`` (open descriptor, path), created with mode 0666 less
    the umask — as any file the user makes, so that colleagues on a shared filesystem can
    read results and caches when the umask lets them (``tempfile.mkstemp`` makes 0600)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(100):
        tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}{suffix}"
        try:
            return os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the new, never half."""
    path = Path(path)
    fd, tmp = new_temp_file(path)
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_csv(df: pd.DataFrame, path: Path) -> None:
    """Write a table atomically; floats in shortest round-trip form (deterministic)."""
    atomic_write_text(path, df.to_csv(index=False, lineterminator="\n"))


def read_csv(path: Path) -> pd.DataFrame:
    """A table a run wrote, read back for its figures; a missing file or one cut short (every
    table is written whole, ending in a newline) is an :class:`~mtc_cli.core.errors.MtcError`
    naming it."""
    import pandas as pd

    from mtc_cli.core.errors import MtcError

    path = Path(path)
    if not path.is_file():
        raise MtcError(f"{path}: missing from the run directory; run the run's command again "
                       "(its finished tasks are cached) to write it")
    with open(path, "rb") as fh:
        fh.seek(max(path.stat().st_size - 1, 0))
        if fh.read(1) != b"\n":
            raise MtcError(f"{path}: cut short (it does not end with a whole line); run the "
                           "run's command again (its finished tasks are cached) to rewrite it")
    return pd.read_csv(path)


def write_json(obj, path: Path) -> None:
    atomic_write_text(path, json.dumps(obj, indent=2, sort_keys=True, default=str) + "\n")


def file_sha256(path) -> str:
    """The sha256 of a file's bytes (hex), read in blocks of 1 MiB."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
