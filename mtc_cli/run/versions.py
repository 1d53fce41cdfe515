"""The version of mtc a run records (``run.json``) and ``mtc --version`` prints."""

from __future__ import annotations


def mtc_version() -> str:
    """The installed distribution's version; ``0+unknown`` from a source tree that is not
    installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mtc")
    except PackageNotFoundError:
        return "0+unknown"
