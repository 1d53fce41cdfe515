"""The one exception the CLI turns into a one-line message and exit status 2."""

import errno
import os


class MtcError(Exception):
    """Bad input from the user: a config, a key, a value or a file. One line, no traceback."""


def not_found(path, what: str = "file") -> str:
    """Why the named ``path`` does not exist: ``"symbolic link loop"``, ``"broken symbolic
    link to …"``, or ``"<what> not found"``."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symbolic link loop"
    if os.path.islink(path):
        return f"broken symbolic link to {os.readlink(path)}"
    return f"{what} not found"


def not_regular(path, what: str = "data file") -> str | None:
    """Why the existing ``path`` cannot serve as a ``what`` that is read more than once
    (by each worker, and again on resuming): a directory, a named pipe, a device or a
    socket; None for a regular file."""
    import stat

    mode = os.stat(path).st_mode
    if stat.S_ISREG(mode):
        return None
    kind = ("a directory" if stat.S_ISDIR(mode) else "a named pipe" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
    return (f"is {kind}, not a {what}: the data are read more than once (by every worker, "
            "and again on resuming), so save them to a file first")
