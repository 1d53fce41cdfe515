"""Benchmark: the compiled kernels of issue 17 against the code they replaced, on real-size
inputs, one BLAS thread, measured in one run as CPU seconds of the process (less disturbed
than wall time by other load on the machine); old and new alternate on each input, and
every pair of results is checked to be identical, bit for bit.

The old code is each module as of ``BASELINE`` (the last commit before the kernels),
loaded with ``git show`` into a temporary module:

- ``fskmeans`` (``mtc_cli.core.models.text``): the sequential frequency-sensitive pass compiled
  with numba; cmu-newsgroup-clean-1000 as the pac_mdl_text config builds it, k = 10,
  ``FSK_FITS`` seed sets;
- ``anneal`` (``mtc_cli.core.models.correlation``), through ``fit``: the Gibbs sweep compiled
  per chain; one split of MTC Fig. 5 (two halves of 450 nodes of a p = 0.80 graph),
  k = 1..10, 10 initialisations (180 chains, one batch), ``CC_SWEEPS`` annealing sweeps
  (the config's 300 would take minutes with the old sweep) then greedy sweeps;
- ``fit_mac`` (``mtc_cli.core.models.boolean``): scipy's ``logsumexp`` replaced by the same
  arithmetic without its array-API overhead; the role_mining_bmf synthetic training fold
  (2400 × 500) at k = 10 and 20 and one wasc_boolean_mac matrix (300 × 150, MAC-mix).

The numba overhead is measured in fresh processes with an empty ``NUMBA_CACHE_DIR``
(``cold``: compiling) and again with the cache it left (``cached``, as in every worker
process after the first run): the import of numba and each kernel's first call minus its
second, called directly on tiny arrays. Writes ``results/benchmarks/kernels.csv``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from mtc_cli.run.config import load_config
from mtc_cli.run.registry import get_experiment
from mtc_cli.run.runner import protocol_module

ROOT = Path(__file__).resolve().parents[2]
BASELINE = "f22e1fbecea8690e54968e3d369bcb616df49819"
FSK_FITS = 2
CC_SWEEPS = 40


def baseline(module: str, commit: str = BASELINE, package: str = "mtc_cli/models"):
    """The module ``<package>/<module>.py`` (by default ``mtc_cli.models.<module>``) as of
    ``commit``, its imports of mtc's math pointed at where they are today (issue 28 moved
    them into ``mtc_cli.core``)."""
    path = f"{package}/{module}.py"
    source = subprocess.run(["git", "show", f"{commit}:{path}"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    source = re.sub(r"\bmtc_cli\.(?!core\b)(?=(?:criteria|models|datasets|mappings|logsumexp"
                    r"|short_rows|errors)\b)", "mtc_cli.core.", source)
    source = re.sub(r"\bfrom mtc_cli import (?=(?:criteria|models|datasets|mappings|logsumexp"
                    r"|short_rows|errors)\b)", "from mtc_cli.core import ", source)
    # the GMM's batched EM steps moved from models/gmm.py to models/gmm_steps.py
    source = source.replace("from mtc_cli.core.models.gmm import full_log_densities, full_m_step",
                            "from mtc_cli.core.models.gmm_steps import full_log_densities, "
                            "full_m_step")
    # a real file, so that numba can cache the old module's kernels next to it
    file = Path(tempfile.mkdtemp(prefix=f"baseline_{commit[:8]}_")) / f"{module}.py"
    file.write_text(source)
    spec = importlib.util.spec_from_file_location(f"baseline_{module}", file)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[mod.__name__] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def timed(fn):
    """(result, CPU seconds of this process): robust to other load on the machine."""
    start = time.process_time()
    out = fn()
    return out, time.process_time() - start


def identical(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def compare(kernel, size, calls, check) -> dict:
    """Run each (old call, new call) pair, new first; ``check(old, new)`` → identical."""
    t_old = t_new = 0.0
    same = True
    for old_call, new_call in calls:
        new, dt = timed(new_call)
        t_new += dt
        old, dt = timed(old_call)
        t_old += dt
        same &= check(old, new)
    return {"kernel": kernel, "input": size, "calls": len(calls), "old_cpu_s": t_old,
            "new_cpu_s": t_new, "speedup": t_old / t_new, "identical": bool(same)}


def experiment_task(name: str, **match):
    """(module, task) of config ``configs/<name>.yaml``: the experiment's protocol module (its
    data loaders) and its first task whose keys have the values ``match``."""
    exp = get_experiment(name)
    cfg = load_config(ROOT / f"configs/{name}.yaml", resolve_experiment=get_experiment)
    task = next(t for t in exp.tasks(cfg.params) if all(t[k] == v for k, v in match.items()))
    return sys.modules[protocol_module(exp)], task


def training_users(emod, task) -> np.ndarray:
    """The users of role_mining_bmf's ``task`` outside its fold 0, as float64."""
    X, _ = emod.matrices(task["source"])
    held_out = emod.fold_users(len(X), task["folds"], 0, task["fold_seed"])
    return np.delete(np.asarray(X, dtype=np.float64), held_out, axis=0)


def write_table(rows: list[dict], name: str, ok: str = "identical",
                failure: str = "a result differs from the baseline's") -> None:
    """Write ``rows`` to ``results/benchmarks/<name>.csv``, print them, and exit non-zero
    unless column ``ok`` holds for every row that has it."""
    df = pd.DataFrame(rows)
    out = ROOT / "results" / "benchmarks" / f"{name}.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(out, index=False, float_format="%.4g")
    with pd.option_context("display.width", 200, "display.float_format", "{:.3g}".format):
        print(df.to_string(index=False))
    print(f"wrote {out.relative_to(ROOT)}")
    if not df[ok].dropna().all():
        sys.exit(failure)


def bench_fskmeans() -> dict:
    from mtc_cli.core.models import text
    old = baseline("text")
    emod, task = experiment_task("pac_mdl_text", dataset="cmu-newsgroup-clean-1000")
    X = emod.corpus(task).representation("l2_tfidf")
    rng = np.random.default_rng(0)
    text.fskmeans(X[:200], np.arange(3))  # compile (or load) outside the timing
    seeds = [rng.choice(X.shape[0], size=10, replace=False) for _ in range(FSK_FITS)]
    return compare(
        "fskmeans", f"{X.shape[0]}x{X.shape[1]} tf-idf, k=10",
        [(lambda s=s: old.fskmeans(X, s), lambda s=s: text.fskmeans(X, s)) for s in seeds],
        lambda a, b: identical(a.labels, b.labels) and identical(a.costs, b.costs))


def bench_anneal() -> dict:
    from mtc_cli.core.criteria import stability
    from mtc_cli.core.datasets.correlation_graph import correlation_graph
    from mtc_cli.core.models import correlation
    old = baseline("correlation")
    rng = np.random.default_rng(2011)
    X, truth = correlation_graph(rng, (300, 300, 300), 0.3, 0.8)
    pair = np.stack([X[np.ix_(idx, idx)] for idx in stability.split_halves(len(truth), rng)])
    correlation.anneal(pair, [0], [2], np.random.default_rng(0), n_sweeps=1)  # compile
    kw = {"n_sweeps": CC_SWEEPS, "t_end": 0.5, "max_greedy_sweeps": 100}
    state = rng.bit_generator.state

    def run(module):
        r = np.random.default_rng()
        r.bit_generator.state = state
        return module.fit(pair, range(1, 11), 10, r, **kw), r.bit_generator.state

    return compare(
        "anneal", f"2 graphs x 450 nodes, k=1..10 x 10 inits, {CC_SWEEPS} sweeps + greedy",
        [(lambda: run(old), lambda: run(correlation))],
        lambda a, b: all(identical(x, y) for x, y in zip(a[0], b[0], strict=True))
        and a[1] == b[1])


def bench_fit_mac() -> list[dict]:
    from mtc_cli.core.datasets import boolean_sources
    from mtc_cli.core.models import boolean
    old = baseline("boolean")
    X1 = training_users(*experiment_task("role_mining_bmf", dataset="synthetic"))
    rng = np.random.default_rng(1)
    U = boolean_sources.two_sources(rng, 150, 40, 0.5)
    profiles = boolean_sources.set_profiles(U, boolean.assignment_sets(2, 2))
    W = boolean_sources.sample(rng, profiles, np.repeat(np.arange(3), 100), 0.5, 0.75)

    def check(a, b):
        return (all(identical(getattr(a, f), getattr(b, f))
                    for f in ("v", "gamma", "assignment", "R"))
                and (a.epsilon, a.r, a.temperatures) == (b.epsilon, b.r, b.temperatures))

    def pair(X, k, seed, **kw):
        return (lambda: old.fit_mac(X, k, np.random.default_rng(seed), **kw),
                lambda: boolean.fit_mac(X, k, np.random.default_rng(seed), **kw))

    fit = {"cooling": 0.8, "tol": 1e-4, "max_iter": 30}
    wasc = {"cooling": 0.9, "max_iter": 100}
    return [*(compare("fit_mac", f"{X1.shape[0]}x{X1.shape[1]} synthetic roles, k={k}",
                      [pair(X1, k, 0, **fit)], check) for k in (10, 20)),
            compare("fit_mac", f"{W.shape[0]}x{W.shape[1]} wASC sources, MAC-mix",
                    [pair(W.astype(np.float64), 2, s, epsilon0=e, **wasc)
                     for s, e in enumerate((0.05, 0.5, 0.9))], check)]


OVERHEAD = """
import json, time
t = time.process_time(); import numba; out = {"import numba": time.process_time() - t}
import numpy as np
from mtc_cli.core.models import correlation, text
def first_minus_second(name, kernel, *args):
    times = []
    for _ in range(2):
        t = time.process_time(); kernel(*args); times.append(time.process_time() - t)
    out[name] = times[0] - times[1]
first_minus_second("fskmeans pass", text._frequency_sensitive_pass, np.eye(3),
                   np.arange(3), np.arange(3), np.ones(3))
A, s = np.zeros((1, 2, 3), np.int16), np.zeros((1, 3), np.intp)
G, one = np.zeros((1, 3, 3), np.int8), np.zeros(1, np.intp)
first_minus_second("anneal sweep", correlation._sweep, A, s, G, one, one + 2,
                   np.zeros((1, 3), np.intp), np.zeros((3, 1)), np.ones(7))
first_minus_second("anneal costs", correlation._intra_weight, A, s)
print(json.dumps(out))
"""


def bench_overhead() -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "OPENBLAS_NUM_THREADS": "1"}
        for state in ("cold", "cached"):
            out = subprocess.run([sys.executable, "-c", OVERHEAD], cwd=ROOT, env=env,
                                 check=True, capture_output=True, text=True).stdout
            for what, seconds in json.loads(out).items():
                how = "import" if what == "import numba" else "first call - second"
                rows.append({"kernel": what, "input": f"{state} cache: {how}",
                             "new_cpu_s": seconds})
    return rows


def main() -> None:
    with threadpool_limits(limits=1):
        rows = [bench_fskmeans(), bench_anneal(), *bench_fit_mac()]
    rows += bench_overhead()
    write_table(rows, "kernels", failure="a kernel's result differs from the baseline's")


if __name__ == "__main__":
    main()
