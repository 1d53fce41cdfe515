"""Time the papers' full reproduction as issue 30 measures it: every paper config and
``select_blobs`` in one ``mtc run … -j 2`` (one process, one worker pool), fresh run
directories, OpenBLAS's Haswell kernels (as the paper configs are committed), with the
protocols as they were when that issue was filed — fire1 up to k = 60 in ``role_mining_bmf``,
``boolean_denoising`` without the University matrix, no ``svd_lenna_noise_range`` or
``hansen_pca_literal`` (the reproductions' third pass, whose own times the committed
``run.json`` files give).

Not a ``bench_*`` script (``make bench`` leaves it out): it takes about an hour on 2 cores
and wants the machine to itself. It clones the repository's HEAD into a scratch directory,
restricts the two configs there, runs, and writes ``results/benchmarks/full_reproduction.csv``
(one row per config from its ``run.json``: tasks, task time, the wall time from the pool's
start to the config's finish; then a row ``all`` with the process's wall and CPU time).

    python tests/benchmarks/time_full_reproduction.py [--scratch DIR] [--collect DIR]

``--collect DIR`` only reads a finished run's clone (``DIR/results``, ``DIR/time.txt``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from mtc_cli.core.files import write_csv

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "full_reproduction.csv"
CONFIGS = ("boolean_denoising", "correlation_clustering", "gmm_overlap", "hansen_kmeans",
           "hansen_pca", "kmeans_mappings", "pac_mdl_text", "role_mining_bmf", "select_blobs",
           "stability_leukemia", "stability_toy", "svd_lenna", "wasc_boolean_mac",
           "wasc_gmm_annealing", "wasc_phase_transitions")
#: (config, text as committed, text as when issue 30 was filed)
AS_FILED = (("role_mining_bmf", "40, 50, 60, 70, 80, 90, 100, 120]}", "40, 50, 60]}"),
            ("boolean_denoising",
             "real: [data/access_control_university/university_large.rbac.gz,\n       ",
             "real: ["))


def run(scratch: Path) -> None:
    """Clone HEAD into ``scratch``, restrict the configs, run them all, time the process."""
    shutil.rmtree(scratch, ignore_errors=True)
    subprocess.run(["git", "clone", "-q", str(ROOT), str(scratch)], check=True)
    for name, committed, filed in AS_FILED:
        path = scratch / "configs" / f"{name}.yaml"
        text = path.read_text()
        if committed not in text:
            sys.exit(f"{path}: the committed text to restrict is gone; update AS_FILED")
        path.write_text(text.replace(committed, filed))
    for name in CONFIGS:
        shutil.rmtree(scratch / "results" / name, ignore_errors=True)
    env = {**os.environ, "PYTHONPATH": str(scratch), "OPENBLAS_CORETYPE": "Haswell"}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mtc_cli.cli", "run",
                    *[f"configs/{c}.yaml" for c in CONFIGS], "-j", "2"],
                   cwd=scratch, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = use.ru_utime + use.ru_stime
    (scratch / "time.txt").write_text(f"wall_s {wall:.1f}\ncpu_s {cpu:.1f}\n")


def collect(scratch: Path) -> pd.DataFrame:
    """One row per config from its ``run.json``, then the process's totals."""
    rows = []
    for name in CONFIGS:
        meta = json.loads((scratch / "results" / name / "run.json").read_text())
        rows.append({"config": name, "n_tasks": meta["n_tasks"],
                     "task_time_s": meta["task_time_s"], "finished_s": meta["wall_time_s"],
                     "cpu": " ".join(meta["machine"]["blas"][:1]) + ", "
                            + meta["machine"]["cpu"], "commit": meta["git_commit"][:7]})
    times = dict(re.findall(r"(\w+) ([\d.]+)", (scratch / "time.txt").read_text()))
    rows.append({"config": "all", "n_tasks": sum(r["n_tasks"] for r in rows),
                 "task_time_s": round(sum(r["task_time_s"] for r in rows), 3),
                 "finished_s": float(times["wall_s"]), "cpu": rows[0]["cpu"],
                 "commit": rows[0]["commit"], "process_cpu_s": float(times["cpu_s"])})
    return pd.DataFrame(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scratch", type=Path, default=Path("/tmp/mtc-full-reproduction"))
    ap.add_argument("--collect", type=Path, help="read a finished run's clone only")
    args = ap.parse_args()
    scratch = args.collect or args.scratch
    if args.collect is None:
        run(scratch)
    table = collect(scratch)
    write_csv(table, OUT)
    print(table.to_string(index=False))


if __name__ == "__main__":
    main()
