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
