"""Shared fixtures: the project root and a CLI runner that separates stderr; the -j 1 /
-j 2 comparison of the longest quick profiles marked slow; the review tests' harness (a real
``mtc`` process, :func:`mtc`, and what a finished or refused run looks like), imported by
them as ``from conftest import ...``."""

import os
import resource
import subprocess
import sys
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


def mtc(*args, cwd, timeout: float = 240, env=None, stdin=None, memory_gib: float | None = None):
    """A real ``mtc`` process (``python -m mtc_cli.cli``), its output captured as text:
    ``env`` added to this process's environment, ``stdin`` its input, its address space
    capped at ``memory_gib`` GiB if given."""
    def cap():
        limit = int(memory_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return subprocess.run([sys.executable, "-m", "mtc_cli.cli", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, stdin=stdin,
                          env=None if env is None else {**os.environ, **env},
                          preexec_fn=None if memory_gib is None else cap)


def finished(proc):
    """A run that answered: exit status 0, no traceback."""
    assert proc.returncode == 0, proc.stderr[-1500:]
    assert "Traceback" not in proc.stderr
    return proc


def refused(proc, out: Path | None = None) -> str:
    """A refusal: exit status 2, one line on stderr (returned), nothing written to ``out``."""
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-800:])
    assert len(lines) == 1 and lines[0].startswith("mtc: error:"), proc.stderr[-800:]
    if out is not None:
        assert not out.exists()
    return lines[0]
