"""Execution modes: loky, dask LocalCluster and 3 shards give byte-identical rows; a
killed worker is retried (dask) or the rerun resumes (loky); bad shard specs are one line."""

import shutil
import sys
from pathlib import Path

import pandas as pd
import pytest

from mtc_cli.core.errors import MtcError
from mtc_cli.run import pipeline
from mtc_cli.run.config import load_config
from mtc_cli.run.registry import enable

pytest.importorskip("distributed")

QUICK = ["sigma_over_d=[0.2, 0.8]", "reps=3", "k_max=3", "n=60", "n_init=1"]
TESTS = Path(__file__).resolve().parent


def gmm_config(root):
    return load_config(root / "configs" / "gmm_overlap.yaml", quick=True, overrides=QUICK)


def test_loky_dask_and_shards_give_identical_rows(root, tmp_path):
    cfg = gmm_config(root)
    loky = pipeline.run(cfg, out=tmp_path / "loky", jobs=2)
    dask = pipeline.run(cfg, out=tmp_path / "dask", jobs=2, backend="dask")
    for i in range(3):
        part = pipeline.run(cfg, out=tmp_path / "shards", shard=(i, 3))
        assert part.summary is None and part.stats["n_shard"] == 2
    merged = pipeline.merge(tmp_path / "shards")
    reference = (loky.run_dir / "rows.csv").read_bytes()
    assert (dask.run_dir / "rows.csv").read_bytes() == reference
    assert (merged.run_dir / "rows.csv").read_bytes() == reference
    assert (merged.run_dir / "summary.csv").read_bytes() == \
        (loky.run_dir / "summary.csv").read_bytes()


def test_a_shard_starts_beside_another_shards_set_up(root, tmp_path):
    """Shards of a job array set up one folder at once: what another shard has made so far
    (the cache, its lock, config.json's temporary file, then config.json) is not the
    user's own files."""
    cfg = gmm_config(root)
    out = tmp_path / "shards"
    (out / "tasks").mkdir(parents=True)
    (out / ".config.json.0123456789ab.tmp").write_text("{")
    assert pipeline.run(cfg, out=out, shard=(0, 3)).stats["n_shard"] == 2
    (out / "config.json").unlink()
    (out / ".config.json.0123456789ab.tmp").write_text("{")
    assert pipeline.run(cfg, out=out, shard=(1, 3)).stats["n_shard"] == 2
    (out / ".rows.csv.0123456789ab.tmp").write_text("")
    (out / "config.json").unlink()
    with pytest.raises(MtcError, match="not a run directory of mtc"):
        pipeline.run(cfg, out=out, shard=(2, 3))


def test_merge_before_all_shards_finished_is_one_line(root, tmp_path, cli):
    cfg = root / "configs" / "gmm_overlap.yaml"
    out = tmp_path / "part"
    result = cli("run", cfg, "--quick", "--out", out, "--shard", "1/3", *sum(
        [["--set", o] for o in QUICK], []))
    assert result.exit_code == 0 and "mtc merge" in result.output
    merged = cli("merge", out)
    assert merged.exit_code == 2 and "4 of 6 tasks are not cached yet" in merged.stderr
    bad = cli("run", cfg, "--quick", "--shard", "3/3")
    assert bad.exit_code == 2 and "expected I/N with 0 ≤ I < N" in bad.stderr


@pytest.fixture
def fault_config(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(TESTS))
    monkeypatch.setenv("PYTHONPATH", str(TESTS))  # worker processes import it too
    sys.modules.pop("fault_experiment", None)
    path = tmp_path / "fault.yaml"
    marks = tmp_path / "marks"
    marks.mkdir()
    path.write_text(f"experiment: fault_experiment\nmarker_dir: {marks}\nn: 4\n")
    enable("fault_experiment")  # a module of the user's: enabled explicitly (--plugin)
    return load_config(path), marks


def test_a_task_runs_its_own_parallel_calls_sequentially_on_every_backend(
        root, tmp_path, monkeypatch):
    """joblib's dask backend offers its workers to nested calls (loky's workers do not):
    a silhouette's pairwise distances then split into blocks of other BLAS shapes."""
    monkeypatch.syspath_prepend(str(TESTS))
    monkeypatch.setenv("PYTHONPATH", str(TESTS))
    enable("nested_experiment")
    path = tmp_path / "nested.yaml"
    path.write_text("experiment: nested_experiment\nn: 2\n")
    cfg = load_config(path)
    loky = pipeline.run(cfg, out=tmp_path / "loky", jobs=2)
    dask = pipeline.run(cfg, out=tmp_path / "dask", jobs=2, backend="dask")
    rows = pd.read_csv(dask.run_dir / "rows.csv")
    assert rows.loc[rows["criterion"] == "jobs", "score"].tolist() == [1.0, 1.0]
    assert (dask.run_dir / "rows.csv").read_bytes() == (loky.run_dir / "rows.csv").read_bytes()


def test_dask_retries_a_killed_worker(fault_config, tmp_path):
    cfg, marks = fault_config
    out = pipeline.run(cfg, out=tmp_path / "dask", jobs=2, backend="dask")
    assert (marks / "task1-died").exists()  # the worker did die once
    assert out.stats["n_computed"] == 4 and len(out.summary) == 4


def test_loky_killed_worker_then_rerun_resumes(fault_config, tmp_path, cli):
    cfg, marks = fault_config
    result = cli("run", cfg.path, "-j", "2", "--out", tmp_path / "loky", "--plugin",
                 "fault_experiment")
    assert result.exit_code == 1 and "worker process died" in result.stderr
    assert (marks / "task1-died").exists()
    again = cli("run", cfg.path, "-j", "2", "--out", tmp_path / "loky", "--plugin",
                "fault_experiment")
    assert again.exit_code == 0, again.output
    cached = len(list((tmp_path / "loky" / "tasks").glob("*.json")))
    assert cached == 4
    shutil.rmtree(marks)


def test_shipped_cluster_file_is_valid(root):
    from mtc_cli.run.dask_backend import load_cluster_spec

    spec = load_cluster_spec(root / "configs" / "cluster" / "slurm.yaml")
    assert spec.type == "slurm" and spec.jobs == 8 and spec.account is None


def test_jobqueue_script_carries_the_spec(root):
    pytest.importorskip("dask_jobqueue")
    from mtc_cli.run.dask_backend import ClusterSpec, jobqueue_cluster

    spec = ClusterSpec(type="slurm", cores=4, processes=4, memory="8GiB", queue="short",
                       walltime="00:30:00", job_extra_directives=["--exclusive"])
    with jobqueue_cluster(spec) as cluster:  # starts a local scheduler, submits nothing
        script = cluster.job_script()
    for line in ("#SBATCH -p short", "#SBATCH -t 00:30:00", "#SBATCH --exclusive",
                 "--nworkers 4"):
        assert line in script, line


def test_local_cluster_workers_do_not_trim_malloc():
    # dask's default MALLOC_TRIM_THRESHOLD_=65536 made heavy sparse tasks ~20-24 % slower
    import os

    from mtc_cli.run.dask_backend import dask_client

    with dask_client(jobs=1) as client:
        env = client.run(lambda: os.environ.get("MALLOC_TRIM_THRESHOLD_"))
    assert list(env.values()) == [None]
