"""The ``mtc select`` lines of README.md's and docs/select.md's ```bash blocks run as a real
``mtc`` process on the repository's files (with cheap settings and their outputs in a
temporary directory) and read as many features as the file holds besides its label column."""

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from mtc_cli.cli import select

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "docs" / "select.md"]
#: files the examples name that the repository does not hold (yet): their lines are skipped
KNOWN_MISSING = {"photo.png", "grants.txt", "docs.mtx"}
#: the label column of the example tables (data/examples/SOURCE.md)
LABEL = "label"
#: a few splits and references: every criterion still runs, in seconds
CHEAP = ["--splits", "2", "--set", "references=2", "--set", "clest_references=1",
         "--set", "clest_splits=2"]


def _examples() -> dict[str, list[str]]:
    """Each distinct ``mtc select`` line (its arguments, as the shell splits them) → where
    it stands (page:line)."""
    found = {}
    for page in PAGES:
        text = page.read_text()
        for block in re.finditer(r"^```bash\n(.*?)^```", text, flags=re.S | re.M):
            first = text.count("\n", 0, block.start(1)) + 1
            for i, line in enumerate(block.group(1).splitlines()):
                args = shlex.split(line, comments=True)
                if args[:2] == ["mtc", "select"]:
                    found.setdefault(shlex.join(args[2:]), []).append(
                        f"{page.name}:{first + i}")
    return found


EXAMPLES = _examples()


def _params(args: list[str]) -> dict:
    """The line's arguments as ``mtc select`` reads them (not validated)."""
    return select.make_context("select", list(args), resilient_parsing=True).params


def test_the_pages_hold_the_examples():
    data = {Path(_params(shlex.split(line))["data"]).name for line in EXAMPLES}
    assert {"blobs.csv", "rings.csv"} <= data and KNOWN_MISSING <= data


@pytest.mark.parametrize("line", EXAMPLES, ids=[",".join(w) for w in EXAMPLES.values()])
def test_select_example_runs_on_the_files_features(line, tmp_path):
    args = shlex.split(line)
    params = _params(args)
    data = ROOT / params["data"]
    if not data.exists():
        assert data.name in KNOWN_MISSING, f"{line}: {data} does not exist"
        pytest.skip(f"{data.name} is not in the repository")
    extra = [*CHEAP, "--out", tmp_path / "run"]
    if params["k_range"] is None:
        extra += ["--k", "1..4"]
    if params["save_config"] is not None:  # the last --save-config counts
        extra += ["--save-config", tmp_path / params["save_config"].name]
    proc = subprocess.run([sys.executable, "-m", "mtc_cli.cli", "select", *args,
                           *map(str, extra)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    columns = pd.read_csv(data, nrows=0).columns
    features = len(columns) - (LABEL in columns)
    if params["as_json"]:
        shape = json.loads(proc.stdout)["data"]
        printed = f"{shape['n_objects']} objects × {shape['n_features']} features"
    else:
        printed = re.search(r"\d+ objects × \d+ features", proc.stdout).group(0)
    assert printed == f"{len(pd.read_csv(data))} objects × {features} features", line
    if params["save_config"] is not None:
        assert (tmp_path / params["save_config"].name).is_file()
        assert not (ROOT / params["save_config"]).exists()
