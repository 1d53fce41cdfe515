"""Benchmark: the EM steps of MAC and the text models against the code before them, with
glibc's default allocator and with the one mtc's runner sets (``mtc_cli.run.allocator``), one
BLAS thread, CPU seconds of the process (page faults included), measured in one run.

- ``fit_mac`` (``mtc_cli.core.models.boolean``): the set parameters v_L computed once per sweep
  (shared by the costs and the next EM step) and the element-wise part of the EM step in
  one compiled pass; firewall 1's training users of fold 0 (292 × 709), k = 40, the
  role_mining_bmf settings;
- ``soft_movmf``, ``hard_movmf``, ``fskmeans`` (``mtc_cli.core.models.text``): the weighted sums
  X.T @ W as a row-wise product over X.T in CSR, made once per fit; cmu-newsgroup-clean-1000
  as pac_mdl_text builds it, k = 20, one seed set.

The old code is each module as of ``BASELINE`` (loaded with ``git show``). Each allocator
runs in its own process for each group, because the setting holds for the life of a
process and glibc's default thresholds rise after the first large block is freed (loading
the text corpus does that, so the text fits see little difference; the small access-control
matrix does not); old and new alternate within a process, and every pair of results is
checked to be identical, bit for bit.
Writes ``results/benchmarks/em_steps.csv``.

    python tests/benchmarks/bench_em_steps.py
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
BASELINE = "255122196fdcdf63a0ae0614cc3e1815567397be"


def measure(group: str) -> list[dict]:
    """Old and new code of ``group`` (``mac`` or ``text``), in this process as it is."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_kernels import baseline, compare, experiment_task, identical, training_users
    from threadpoolctl import threadpool_limits

    if group == "mac":
        from mtc_cli.core.models import boolean
        old = baseline("boolean", BASELINE)
        emod, task = experiment_task("role_mining_bmf", dataset="fire1")
        X1 = training_users(emod, task)
        for module in (old, boolean):                # compile outside the timing
            module.fit_mac(X1[:20, :20], 2, np.random.default_rng(0), **task["fit"])

        def same(a, b):
            return (all(identical(getattr(a, f), getattr(b, f))
                        for f in ("v", "gamma", "assignment", "R"))
                    and (a.epsilon, a.r, a.temperatures) == (b.epsilon, b.r, b.temperatures))

        calls = {"fit_mac": [(lambda m=m: m.fit_mac(X1, 40, np.random.default_rng(7),
                                                    **task["fit"])) for m in (old, boolean)]}
        size = f"{X1.shape[0]}x{X1.shape[1]} firewall 1, k=40"
    else:
        from mtc_cli.core.models import text
        old = baseline("text", BASELINE)
        emod, task = experiment_task("pac_mdl_text", dataset="cmu-newsgroup-clean-1000")
        D = emod.corpus(task).representation("l2_tfidf")
        seeds = np.random.default_rng(0).choice(D.shape[0], size=20, replace=False)
        for module in (old, text):
            module.fskmeans(D[:200], np.arange(3))

        def same(a, b):
            return identical(a.labels, b.labels) and identical(a.costs, b.costs)

        calls = {f: [(lambda m=m, f=f: getattr(m, f)(D, seeds)) for m in (old, text)]
                 for f in ("soft_movmf", "hard_movmf", "fskmeans")}
        size = f"{D.shape[0]}x{D.shape[1]} tf-idf, k=20"
    with threadpool_limits(limits=1):
        return [compare(kernel, size, [pair], same) for kernel, pair in calls.items()]


def main() -> None:
    if len(sys.argv) > 1:                      # a child: one allocator, one group
        allocator, group = sys.argv[1:3]
        if allocator == "tuned":
            from mtc_cli.run.allocator import keep_freed_memory
            assert keep_freed_memory(), "mallopt refused"
        print(json.dumps(measure(group)))
        return
    rows = []
    for group in ("mac", "text"):
        for allocator in ("default", "tuned"):
            out = subprocess.run([sys.executable, __file__, allocator, group], cwd=ROOT,
                                 check=True, capture_output=True, text=True).stdout
            rows += [{**row, "allocator": allocator} for row in json.loads(out)]
            print(group, allocator, "done", flush=True)
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_kernels import write_table
    write_table(rows, "em_steps")


if __name__ == "__main__":
    main()
