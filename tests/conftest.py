"""Shared fixtures: the project root and a CLI runner that separates stderr; the -j 1 /
-j 2 comparison of the longest quick profiles marked slow."""

from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent

#: configs whose quick profile takes longest: their two runs in tests/run/test_determinism.py
#: (10–21 s on a quiet 2-core machine, the others ≤ 5 s) are left to ``pytest -m slow``
SLOW_DETERMINISM = {"league", "pac_mdl_text", "stability_toy", "wasc_gmm_annealing",
                    "wasc_phase_transitions"}


@pytest.hookimpl(tryfirst=True)  # before -m deselects
def pytest_collection_modifyitems(items):
    for item in items:
        if (item.originalname == "test_quick_profile_csvs_do_not_depend_on_jobs"
                and item.callspec.id in SLOW_DETERMINISM):
            item.add_marker(pytest.mark.slow)


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
