"""Benchmark: start-up of the ``mtc`` command — ``mtc --help``, ``mtc list`` and a bad-input
error (an unknown key in a config file) — as ratios against ``python -c 'import numpy'``,
measured in one run.

Each command runs ``REPEATS`` times, the commands taking turns (so that a change of the
machine's load falls on all of them); the median wall time of each is reported with its
ratio to the median of ``import numpy``, beside ``python -c pass`` (the interpreter alone).
The console script ``mtc`` of this interpreter's environment is timed, as a user runs it.

Writes ``results/benchmarks/cli.csv``. ``python tests/benchmarks/bench_cli.py``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
REPEATS = 15
MTC = str(Path(sys.executable).with_name("mtc"))


def commands(bad: Path) -> dict[str, list[str]]:
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "python -c 'import numpy'": [sys.executable, "-c", "import numpy"],
        "mtc --help": [MTC, "--help"],
        "mtc list": [MTC, "list"],
        "mtc run bad.yaml (unknown key)": [MTC, "run", str(bad)],
    }


def wall(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        bad = Path(tmp) / "bad.yaml"
        bad.write_text("experiment: gmm_overlap\nrepz: 2\n")
        cmds = commands(bad)
        times = {name: [] for name in cmds}
        for argv in cmds.values():  # warm the file cache first
            wall(argv)
        for _ in range(REPEATS):
            for name, argv in cmds.items():
                times[name].append(wall(argv))
    numpy = statistics.median(times["python -c 'import numpy'"])
    rows = [{"command": name, "median_s": round(statistics.median(t), 4),
             "min_s": round(min(t), 4), "ratio_to_import_numpy":
             round(statistics.median(t) / numpy, 2), "repeats": len(t)}
            for name, t in times.items()]
    table = pd.DataFrame(rows)
    print(table.to_string(index=False))
    out = ROOT / "results" / "benchmarks" / "cli.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(out, index=False)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
