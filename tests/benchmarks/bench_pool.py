"""Benchmark: several configs in one worker pool (``pipeline.run_many``: the longest tasks
first, each config finished while the workers go on) against one after another
(``pipeline.run`` per config, as ``mtc run CONFIG`` does; the same loky workers reused), in
one process, ``-j 2``, every task recomputed (``force``), the two alternating (``REPEATS``
rounds, the best of each kept), each into its own fresh directory.

Sets: every config's quick profile (what ``make figures`` runs), and three full profiles
whose few long tasks leave a core idle at their ends when run one after another
(``correlation_clustering``, ``wasc_gmm_annealing``, ``stability_toy``; ``--full``, about
25 minutes). The outputs of the two ways are compared file by file (tables byte-identical).
Writes ``results/benchmarks/pool.csv``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import pandas as pd

from mtc_cli.run import pipeline
from mtc_cli.run.config import load_config

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "pool.csv"
JOBS = 2
FULL = ("correlation_clustering", "wasc_gmm_annealing", "stability_toy")


def one_after_another(cfgs) -> float:
    start = time.perf_counter()
    for cfg in cfgs:
        pipeline.run(cfg, jobs=JOBS, force=True)
    return time.perf_counter() - start


def pooled(cfgs) -> float:
    start = time.perf_counter()
    pipeline.run_many(cfgs, jobs=JOBS, force=True)
    return time.perf_counter() - start


def tables(where: Path) -> dict[str, bytes]:
    return {str(p.relative_to(where)): p.read_bytes() for p in sorted(where.rglob("*.csv"))
            if "tasks" not in p.parts}


def measure(name: str, cfgs, repeats: int) -> dict:
    best = {"one after another": float("inf"), "one pool": float("inf")}
    outputs = {}
    home = Path.cwd()
    for _ in range(repeats):
        for way, fn in (("one after another", one_after_another), ("one pool", pooled)):
            with tempfile.TemporaryDirectory() as tmp:
                os.chdir(tmp)
                try:
                    best[way] = min(best[way], fn(cfgs))
                    outputs[way] = tables(Path(tmp) / "results")
                finally:
                    os.chdir(home)
    same = outputs["one after another"] == outputs["one pool"]
    print(f"{name}: one after another {best['one after another']:.1f} s, one pool "
          f"{best['one pool']:.1f} s ({best['one after another'] / best['one pool']:.2f}×); "
          f"tables identical: {same}", flush=True)
    return {"set": name, "configs": len(cfgs), "jobs": JOBS, "repeats": repeats,
            "one_after_another_s": round(best["one after another"], 2),
            "one_pool_s": round(best["one pool"], 2),
            "ratio": round(best["one after another"] / best["one pool"], 3),
            "tables_identical": same}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="also the three full profiles")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    configs = sorted((ROOT / "configs").glob("*.yaml"))
    rows = [measure("every quick profile", [load_config(c, quick=True) for c in configs],
                    args.repeats)]
    if args.full:
        rows.append(measure("three full profiles", [load_config(ROOT / "configs" / f"{n}.yaml")
                                                    for n in FULL], 1))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(OUT, index=False)
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
