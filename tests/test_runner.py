"""The runner: stable keys, per-task RNG, -j independence, resume after interruption."""

import json
from pathlib import Path

import numpy as np
import pytest

from mtc_cli import pipeline
from mtc_cli.config import load_config
from mtc_cli.registry import get_experiment
from mtc_cli.runner import task_key, task_rng

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


def test_every_experiments_code_version_holds_the_runners_seeding(monkeypatch):
    """Issue 27, item 4: an edit of the seeding in ``mtc_cli/runner.py`` (``task_rng``)
    changes the code version of every shipped experiment — its cached tasks are then
    recomputed — while an edit of a module outside an experiment's imports leaves its
    version alone."""
    import yaml

    from mtc_cli import codeversion

    configs = sorted((Path(__file__).resolve().parents[1] / "configs").glob("*.yaml"))
    names = sorted({f"experiments.{yaml.safe_load(c.read_text())['experiment']}"
                    for c in configs})
    before = {n: codeversion.code_version(n) for n in names}
    source = codeversion._source

    def edited(target, old, new):
        def read(name):
            path, text = source(name)
            if name == target:
                assert old in text
                text = text.replace(old, new)
            return path, text
        return read

    monkeypatch.setattr(codeversion, "_source",
                        edited("mtc_cli.runner", "spawn_key=words)", "spawn_key=words[::-1])"))
    assert all(codeversion.code_version(n) != before[n] for n in names)
    assert "experiments.svd_denoising" in names
    assert "mtc_cli.models.text" not in codeversion.modules_of("experiments.svd_denoising")
    monkeypatch.setattr(codeversion, "_source",
                        edited("mtc_cli.models.text", "\n", "\n# an edit\n"))
    assert codeversion.code_version("experiments.svd_denoising") == \
        before["experiments.svd_denoising"]
