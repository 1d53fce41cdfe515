"""The runner: stable keys, per-task RNG, -j independence, resume after interruption."""

import json
from pathlib import Path

import numpy as np
import pytest

from mtc_cli.run import pipeline
from mtc_cli.run.config import load_config
from mtc_cli.run.registry import get_experiment
from mtc_cli.run.tasking import task_key, task_rng

QUICK = ["sigma_over_d=[0.2, 1.0]", "reps=2", "k_max=3", "n=60", "n_init=1"]


def quick_config(root, extra=()):
    return load_config(root / "configs" / "gmm_overlap.yaml", quick=True,
                       overrides=[*QUICK, *extra])


def test_task_key_is_stable_and_sensitive():
    t = {"sigma_over_d": 0.5, "rep": 1, "n": 10}
    assert task_key("e", 1, t) == task_key("e", 1, dict(reversed(t.items())))
    assert task_key("e", 1, t) != task_key("e", 2, t)
    assert task_key("e", 1, t) != task_key("e", 1, {**t, "rep": 2})
    a = task_rng(1, task_key("e", 1, t)).random(3)
    np.testing.assert_array_equal(a, task_rng(1, task_key("e", 1, t)).random(3))


def test_rows_do_not_depend_on_jobs_or_other_sweep_points(root, tmp_path):
    cfg = quick_config(root)
    one = pipeline.run(cfg, out=tmp_path / "j1", jobs=1)
    two = pipeline.run(cfg, out=tmp_path / "j2", jobs=2)
    assert (one.run_dir / "rows.csv").read_bytes() == (two.run_dir / "rows.csv").read_bytes()
    assert (one.run_dir / "summary.csv").read_bytes() == (two.run_dir / "summary.csv").read_bytes()
    # dropping a sweep point leaves the other point's rows unchanged
    alone = pipeline.run(quick_config(root, ["sigma_over_d=[1.0]"]), out=tmp_path / "alone")
    full = (one.run_dir / "rows.csv").read_text().splitlines()
    assert set((alone.run_dir / "rows.csv").read_text().splitlines()) <= set(full)


def test_interrupted_run_resumes_without_recomputing(root, tmp_path, monkeypatch):
    cfg = quick_config(root)
    reference = pipeline.run(cfg, out=tmp_path / "ref")
    exp = get_experiment(cfg.experiment)
    original = type(exp).run_task
    calls = []

    def flaky(self, task, rng):
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append(task["rep"])
        return original(self, task, rng)

    monkeypatch.setattr(type(exp), "run_task", flaky)
    with pytest.raises(KeyboardInterrupt):
        pipeline.run(cfg, out=tmp_path / "run")
    cached = list((tmp_path / "run" / "tasks").glob("*.json"))
    assert len(cached) == 2 and not list((tmp_path / "run" / "tasks").glob(".*tmp"))
    monkeypatch.setattr(type(exp), "run_task", original)
    resumed = pipeline.run(cfg, out=tmp_path / "run")
    assert resumed.stats["n_computed"] == 2 and resumed.stats["n_cached"] == 2
    assert (tmp_path / "run" / "rows.csv").read_bytes() == \
        (reference.run_dir / "rows.csv").read_bytes()
    forced = pipeline.run(cfg, out=tmp_path / "run", force=True)
    assert forced.stats["n_computed"] == 4


def test_run_json_records_provenance(root, tmp_path):
    out = pipeline.run(quick_config(root), out=tmp_path / "r")
    meta = json.loads((out.run_dir / "run.json").read_text())
    assert meta["seed"] == 2011 and meta["config"]["quick"] is True
    assert meta["config"]["sigma_over_d"] == [0.2, 1.0]
    assert {"numpy", "scikit-learn", "mtc"} <= set(meta["versions"])
    machine = meta["machine"]
    assert machine["cores"] >= 1 and isinstance(machine["cpu"], str)
    assert machine["blas"] and all(isinstance(b, str) for b in machine["blas"])  # numpy's BLAS
    assert meta["n_tasks"] == 4 and meta["wall_time_s"] > 0


def test_timing_columns_stay_out_of_the_csvs(root, tmp_path, monkeypatch):
    cfg = quick_config(root)
    exp = get_experiment(cfg.experiment)
    original = exp.run_task
    clock = iter(range(1, 1000))

    def timed(task, rng):  # a "measured" time that differs on every call, as a clock would
        return [{**row, "fit_seconds": float(next(clock))} for row in original(task, rng)]

    monkeypatch.setattr(exp, "run_task", timed)
    monkeypatch.setattr(exp, "timing_columns", ("fit_seconds",))
    monkeypatch.setattr(exp, "timing", lambda rows: rows.groupby("sigma_over_d")[
        "fit_seconds"].sum().reset_index())
    first = pipeline.run(cfg, out=tmp_path / "a")
    second = pipeline.run(cfg, out=tmp_path / "b")
    for name in ("rows.csv", "summary.csv", "targets.csv"):
        assert (first.run_dir / name).read_bytes() == (second.run_dir / name).read_bytes()
    assert "fit_seconds" not in (first.run_dir / "rows.csv").read_text().splitlines()[0]
    t1 = json.loads((first.run_dir / "run.json").read_text())["timing"]
    t2 = json.loads((second.run_dir / "run.json").read_text())["timing"]
    assert [r["sigma_over_d"] for r in t1] == [0.2, 1.0]
    assert sum(r["fit_seconds"] for r in t1) != sum(r["fit_seconds"] for r in t2)


def test_every_experiments_code_version_holds_the_seeding_and_only_what_computes(monkeypatch):
    """An edit of the seeding (``task_rng`` in ``mtc_cli/run/tasking.py``) changes the code
    version of every shipped experiment — its cached tasks are then recomputed — and so does
    an edit of a formula in its imports; an edit of a module outside its imports, of the run
    and show layers (outside the seeding), of an experiment's tables or figures, or of any
    docstring or comment leaves every version alone."""
    import yaml

    from mtc_cli.run import codeversion
    from mtc_cli.run.runner import protocol_module

    configs = sorted((Path(__file__).resolve().parents[2] / "configs").glob("*.yaml"))
    # the module the runner takes an experiment's code version of: its protocol
    names = sorted({protocol_module(get_experiment(yaml.safe_load(c.read_text())["experiment"]))
                    for c in configs})
    before = {n: codeversion.code_version(n) for n in names}
    source = codeversion._source

    def edited(target, old, new):
        def read(name):
            path, text = source(name)
            if name == target:
                assert old in text, (name, old)
                text = text.replace(old, new, 1)
            return path, text
        return read

    def versions(target, old, new):
        monkeypatch.setattr(codeversion, "_source", edited(target, old, new))
        return {n: codeversion.code_version(n) for n in names}

    assert all(v != before[n] for n, v in versions(
        "mtc_cli.run.tasking", "spawn_key=words)", "spawn_key=words[::-1])").items())
    # a formula: the gap statistic's log W_k (Tibshirani et al. 2001, eq. 2)
    moved = versions("mtc_cli.core.criteria.gap_statistic", "/ counts).sum())",
                     "/ (counts + 1)).sum())")
    toy, svd = "experiments.stability_toy.protocol", "experiments.svd_denoising.protocol"
    assert moved[toy] != before[toy]
    assert moved[svd] == before[svd]
    for target, old, new in [
            ("mtc_cli.core.models.text", "\n", "\n# an edit\n"),  # outside svd_denoising's imports
            ("mtc_cli.run.runner", "def run_tasks(",
             "def _unused():\n    pass\n\n\ndef run_tasks("),
            ("mtc_cli.run.dask_backend", "\n", "\nSOMETHING = 1\n"),
            ("mtc_cli.run.config", "\n", "\nSOMETHING = 1\n"),
            ("mtc_cli.show.plotting", "\n", "\nSOMETHING = 1\n"),
            ("mtc_cli.core.criteria.stability", '"""', '"""An edited docstring. '),
            ("mtc_cli.run.tasking", "def task_rng", "# a comment\ndef task_rng"),
            ("experiments.select.protocol", "def run_task", "# a comment\n    def run_task"),
            ("experiments.select.tables", "def tables", "def _unused():\n    pass\n\n\ndef tables"),
            ("experiments.gmm_overlap.figures", "\n", "\nSOMETHING = 1\n")]:
        assert versions(target, old, new) == before, target


def test_no_task_runs_code_its_code_version_leaves_out(root):
    """The run and show layers are left out of the code version (``computing``) because
    no task's rows pass through them: a task of every shipped config (its quick profile's
    shortest) calls no function of theirs but the memory check that refuses a GMM too big
    for this machine before any fit and ``serialise_parse``'s lock."""
    import sys

    from mtc_cli.run import codeversion

    files = {}
    for path in (root / "mtc_cli").rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if not codeversion.computing(name):
            files[str(path)] = name
    assert "mtc_cli.run.pipeline" in files.values() and "mtc_cli.show.plotting" in \
        files.values() and "mtc_cli.run.tasking" not in files.values()
    # the lock around ast.parse, once a run in this process has started a thread
    allowed = {"mtc_cli.run.experiment.physical_memory", "mtc_cli.run.pipeline.serial"}
    for config in sorted((root / "configs").glob("*.yaml")):
        cfg = load_config(config, quick=True)
        exp = get_experiment(cfg.experiment)
        task = min(exp.tasks(cfg.params), key=lambda t: len(str(t)))
        called = set()

        def profile(frame, event, arg, called=called):
            if event == "call" and frame.f_code.co_filename in files:
                called.add(f"{files[frame.f_code.co_filename]}.{frame.f_code.co_name}")

        sys.setprofile(profile)
        try:
            exp.run_task(task, task_rng(cfg.seed, task_key(exp.name, cfg.seed, task)))
        finally:
            sys.setprofile(None)
        assert called <= allowed, (config.name, called - allowed)


def test_pooled_runs_go_longest_first_and_finish_each_run_when_its_tasks_are_done(
        tmp_path, monkeypatch):
    """``run_pooled``: tasks without an earlier cache entry first (in the runs' order), then
    by the compute time their earlier entries record, longest first; ``on_done(i)`` once per
    run, as soon as its last task is cached (at once for a run with nothing to compute)."""
    from mtc_cli.run import runner

    class Sleeper:
        name, timing_columns = "sleeper", ()

        def run_task(self, task, rng):
            return [{"rep": 0, "criterion": "c", "k": task["i"], "score": 0.0}]

    exp = Sleeper()
    tasks = [[{"i": i} for i in range(3)], [{"i": i} for i in range(2)], [{"i": 0}]]
    first = [runner.plan_tasks(exp, t, 0, tmp_path / f"r{n}") for n, t in enumerate(tasks)]
    for plan in first:  # earlier entries, with the compute times a previous run recorded
        for i in plan.todo:
            runner._store({"key": plan.keys[i], "task": plan.tasks[i], "elapsed_s": 0.0,
                           "rows": exp.run_task(plan.tasks[i], None)}, plan.cache, plan.stamp)
    seconds = {(0, 0): 5.0, (0, 2): 1.0, (1, 0): 9.0, (1, 1): 3.0}
    for (n, i), s in seconds.items():
        path = first[n].cache / f"{first[n].keys[i]}.json"
        entry = json.loads(path.read_text())
        path.write_text(json.dumps({**entry, "elapsed_s": s, "code_version": "old"}))
    (first[0].cache / f"{first[0].keys[1]}.json").unlink()  # task (0, 1): no entry
    plans = [runner.plan_tasks(exp, t, 0, tmp_path / f"r{n}") for n, t in enumerate(tasks)]
    assert [p.todo for p in plans] == [[0, 1, 2], [0, 1], []]

    order, events = [], []

    def sequential(calls, n_jobs, backend):
        for fn, args, kwargs in calls:
            order.append((args[0], args[2]["i"]))
            events.append(("task", args[0]))
            yield fn(*args, **kwargs)

    monkeypatch.setattr(runner, "_parallel", sequential)
    runner.run_pooled(plans, 2, "test", lambda i: events.append(("done", i)))
    assert order == [(0, 1), (1, 0), (0, 0), (1, 1), (0, 2)]
    assert events == [("done", 2), ("task", 0), ("task", 1), ("task", 0), ("task", 1),
                      ("done", 1), ("task", 0), ("done", 0)]
    assert all(runner.plan_tasks(exp, t, 0, tmp_path / f"r{n}").todo == []
               for n, t in enumerate(tasks))


def test_the_code_version_is_that_of_the_module_defining_run_task():
    """``experiment_version`` takes the code version of the module of the first class of the
    experiment's type (in method resolution order) whose own body defines ``run_task``: a
    shipped experiment's protocol, not the ``__init__`` that assembles its tables and
    figures onto it; a plugin of one module, that module."""
    from mtc_cli.run.experiment import Experiment
    from mtc_cli.run.runner import protocol_module

    class OneModule(Experiment):
        def run_task(self, task, rng):
            return []

    class Assembled(OneModule):
        def plot(self, rows, summary, params, outdir):
            return []

    Assembled.__module__ = "somewhere.figures"
    assert protocol_module(OneModule()) == protocol_module(Assembled()) == __name__
    assert protocol_module(Experiment()) == "mtc_cli.run.experiment"
    exp = get_experiment("gmm_overlap")
    assert type(exp).__module__ == "experiments.gmm_overlap"
    assert protocol_module(exp) == "experiments.gmm_overlap.protocol"


def test_a_remembered_code_version_holds_while_the_files_do(tmp_path, monkeypatch):
    """``cached_code_version`` reads the version back while every file it hashed has its
    bytes and every module it found absent is still absent; an edit, a new module where an
    import named none, or a damaged store recomputes it (equal to ``code_version``)."""
    from mtc_cli.run import codeversion

    pkg = tmp_path / "src" / "pkgv"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "helper.py").write_text("def f(x):\n    return x + 1\n")
    (pkg / "exp.py").write_text("from pkgv import helper\nfrom pkgv import later\n")
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    real = codeversion.code_version
    computed = []

    def counted(name):
        computed.append(name)
        return real(name)

    def fresh():
        for f in (codeversion._source, codeversion._closure, codeversion.modules_of):
            f.cache_clear()
        return real("pkgv.exp")

    monkeypatch.setattr(codeversion, "code_version", counted)
    first = codeversion.cached_code_version("pkgv.exp")
    assert first == fresh() and computed == ["pkgv.exp"]
    assert codeversion.cached_code_version("pkgv.exp") == first and len(computed) == 1
    (pkg / "helper.py").write_text("def f(x):\n    return x + 2\n")
    second = fresh()
    assert second != first
    assert codeversion.cached_code_version("pkgv.exp") == second and len(computed) == 2
    (pkg / "later.py").write_text("import pkgv.helper\n")
    third = fresh()
    assert third != second and "pkgv.later" in codeversion.modules_of("pkgv.exp")
    assert codeversion.cached_code_version("pkgv.exp") == third and len(computed) == 3
    (tmp_path / "cache" / "mtc" / "code_versions.json").write_text("{damaged")
    assert codeversion.cached_code_version("pkgv.exp") == third and len(computed) == 4
    assert codeversion.cached_code_version("pkgv.exp") == third and len(computed) == 4
