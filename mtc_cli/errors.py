"""The one exception the CLI turns into a one-line message and exit status 2."""


class MtcError(Exception):
    """Bad input from the user: a config, a key, a value or a file. One line, no traceback."""
