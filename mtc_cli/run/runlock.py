"""One run directory, one run: a lock file holding the PID, host and start of the run that
owns the directory. A run (or ``mtc merge``) takes ``<run>/.mtc-lock``; each shard of a job
array takes its own ``<run>/.mtc-lock.shard-I-of-N``, so that shards run side by side but a
shard is never run twice at once, and a plain run waits for no shard. A lock left by a
process that no longer runs on this host is taken over; one from another host is reported
with the way to clear it."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from pathlib import Path

from mtc_cli.core.errors import MtcError

NAME = ".mtc-lock"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def _owner(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


#: seconds an unreadable lock file counts as held: another run may have created it and not
#: yet written its record (between ``O_EXCL`` and the write)
UNREAD_GRACE_S = 10.0


def _stale(owner: dict | None, path: Path) -> bool:
    """A lock whose process is gone from this host, or an unreadable lock older than
    :data:`UNREAD_GRACE_S` (a younger one may be another run's, being written)."""
    if owner is None:
        try:
            return time.time() - path.stat().st_mtime > UNREAD_GRACE_S
        except OSError:
            return True
    return owner.get("host") == socket.gethostname() and not _alive(int(owner.get("pid", 0)))


def _describe(owner: dict | None) -> str:
    if owner is None:
        return "another mtc run"
    started = time.strftime("%Y-%m-%d %H:%M", time.localtime(owner.get("started", 0)))
    return f"mtc (pid {owner.get('pid')} on {owner.get('host')}, since {started})"


def lock_path(run_dir: Path, shard: tuple[int, int] | None = None) -> Path:
    suffix = "" if shard is None else f".shard-{shard[0]}-of-{shard[1]}"
    return Path(run_dir) / f"{NAME}{suffix}"


@contextlib.contextmanager
def hold(run_dir: Path, shard: tuple[int, int] | None = None):
    """Hold the lock of ``run_dir`` (or of one shard of it) for the body of the block."""
    path = lock_path(run_dir, shard)
    record = json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                         "started": time.time()})
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666)
        except FileExistsError:
            owner = _owner(path)
            if not _stale(owner, path):
                what = "this shard of " if shard is not None else ""
                raise MtcError(f"{run_dir}: {what}this run directory is in use by "
                               f"{_describe(owner)}; wait for it, or choose another --out (if "
                               f"that run is gone, delete {path})") from None
            path.unlink(missing_ok=True)
            continue
        with os.fdopen(fd, "w") as fh:
            fh.write(record)
        break
    else:
        raise MtcError(f"{run_dir}: could not take the lock {path}")
    if shard is None:
        busy = [p for p in Path(run_dir).glob(f"{NAME}.shard-*") if not _stale(_owner(p), p)]
        if busy:
            path.unlink(missing_ok=True)
            raise MtcError(f"{run_dir}: shard {busy[0].name.split('shard-')[1]} is running "
                           f"into this run directory ({_describe(_owner(busy[0]))}); merge "
                           "when every shard has finished")
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)
