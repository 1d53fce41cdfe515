"""Shared fixtures: the project root and a CLI runner that separates stderr."""

from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def cli():
    """Invoke ``mtc`` in-process; returns click's Result (stdout, stderr, exit_code)."""
    from mtc_cli.cli import main

    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)

    return invoke
