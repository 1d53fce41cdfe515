"""The cluster path against a real scheduler: a single-node SLURM (Debian's slurmctld, slurmd,
slurm-client and munge) started by a fixture, as root, with a munge key made on the spot.

- a job array of shards (``configs/cluster/slurm_array.sh``) then ``mtc merge``: rows
  identical to a local run;
- a shard that fails, resubmitted alone, then merged;
- ``--backend dask --cluster`` with dask-jobqueue workers as SLURM jobs, one of which is
  cancelled (``scancel``) mid-run: dask reruns its tasks elsewhere, rows identical.

Skipped, with the reason, where SLURM cannot start (not root, packages missing). Marked
``slurm``: its own CI step (``make test-slurm``), which installs the packages first.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
import yaml

pytestmark = pytest.mark.slurm

ROOT = Path(__file__).resolve().parents[2]
TESTS = Path(__file__).resolve().parent
DAEMONS = ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "sinfo")
#: a gmm_overlap sweep small enough for seconds of work, large enough for many tasks
SMALL = {"experiment": "gmm_overlap", "seed": 7, "sigma_over_d": [0.2, 0.5, 0.9], "n": 150,
         "k_max": 4, "n_init": 1, "reps": 4}


def _which(name: str) -> str | None:
    return shutil.which(name) or next((str(p) for p in (Path("/usr/sbin") / name,)
                                       if p.exists()), None)


@pytest.fixture(scope="module")
def slurm(tmp_path_factory):
    """A running single-node SLURM cluster; yields the environment its clients need."""
    missing = [d for d in DAEMONS if _which(d) is None]
    if missing:
        pytest.skip(f"SLURM is not installed here (missing {', '.join(missing)}; "
                    "apt-get install slurmctld slurmd slurm-client munge)")
    if os.geteuid() != 0:
        pytest.skip("starting slurmctld/slurmd and munged needs root")
    base = tmp_path_factory.mktemp("slurm")
    for sub in ("spool", "state", "log", "munge"):
        (base / sub).mkdir()
    key = base / "munge" / "munge.key"
    key.write_bytes(os.urandom(1024))
    key.chmod(0o400)
    socket_path = base / "munge" / "munge.socket"
    host = socket.gethostname()
    conf = base / "slurm.conf"
    conf.write_text(f"""ClusterName=mtctest
SlurmctldHost={host}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={socket_path}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
SlurmctldPidFile={base}/slurmctld.pid
SlurmdPidFile={base}/slurmd.pid
SlurmdSpoolDir={base}/spool
StateSaveLocation={base}/state
SlurmctldLogFile={base}/log/slurmctld.log
SlurmdLogFile={base}/log/slurmd.log
ReturnToService=2
NodeName={host} CPUs={os.cpu_count()} RealMemory=4000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
""")
    env = {**os.environ, "SLURM_CONF": str(conf)}
    started = []
    munged = subprocess.run([_which("munged"), "--force", f"--key-file={key}",
                             f"--socket={socket_path}", f"--pid-file={base}/munge/munged.pid",
                             f"--log-file={base}/log/munged.log",
                             f"--seed-file={base}/munge/seed"], capture_output=True, text=True)
    if munged.returncode != 0:
        pytest.skip(f"munged did not start: {munged.stderr.strip()[:200]}")
    started.append(base / "munge" / "munged.pid")
    for daemon in ("slurmctld", "slurmd"):
        proc = subprocess.run([_which(daemon), "-f", str(conf)], capture_output=True,
                              text=True, env=env)
        if proc.returncode != 0:
            _stop(started)
            pytest.skip(f"{daemon} did not start: {proc.stderr.strip()[:200]}")
        started.append(base / f"{daemon}.pid")
    deadline = time.time() + 60
    while time.time() < deadline:
        state = subprocess.run(["sinfo", "-h", "-o", "%t"], capture_output=True, text=True,
                               env=env).stdout.strip()
        if state in ("idle", "mix", "alloc"):
            break
        time.sleep(0.5)
    else:
        _stop(started)
        pytest.skip(f"the SLURM node did not become idle (state {state!r})")
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"  # mtc inside the jobs
    yield env
    subprocess.run(["scancel", "--user", "root"], env=env, capture_output=True)
    _stop(started[::-1])


def _stop(pid_files) -> None:
    for path in pid_files:
        try:
            os.kill(int(Path(path).read_text().split()[0]), 15)
        except (OSError, ValueError):
            pass
    time.sleep(1)


def _config(tmp: Path, data: dict, name: str = "small.yaml") -> Path:
    path = tmp / name
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def _local_rows(cfg: Path, tmp: Path, *extra) -> pd.DataFrame:
    out = tmp / "local"
    proc = subprocess.run([sys.executable, "-m", "mtc_cli.cli", "run", str(cfg), "--out",
                           str(out), *extra], cwd=tmp, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return pd.read_csv(out / "rows.csv")


def _sbatch(env, tmp: Path, array: str, cfg: Path, *extra) -> int:
    return subprocess.run(["sbatch", "--wait", f"--array={array}", "--chdir", str(tmp),
                           f"--output={tmp}/shard-%A_%a.out",
                           str(ROOT / "configs" / "cluster" / "slurm_array.sh"), str(cfg),
                           *extra], env=env, capture_output=True, text=True,
                          timeout=600).returncode


def test_job_array_then_merge_gives_the_local_rows(slurm, tmp_path):
    cfg = _config(tmp_path, SMALL)
    assert _sbatch(slurm, tmp_path, "0-2", cfg) == 0, list(tmp_path.glob("shard-*.out"))
    merged = subprocess.run([sys.executable, "-m", "mtc_cli.cli", "merge",
                             str(tmp_path / "results" / "small")], cwd=tmp_path,
                            capture_output=True, text=True)
    assert merged.returncode == 0, merged.stderr
    rows = pd.read_csv(tmp_path / "results" / "small" / "rows.csv")
    pd.testing.assert_frame_equal(rows, _local_rows(cfg, tmp_path))


def test_a_failed_shard_is_resubmitted_alone(slurm, tmp_path):
    marks = tmp_path / "marks"
    marks.mkdir()
    cfg = _config(tmp_path, {"experiment": "fault_experiment", "marker_dir": str(marks),
                             "n": 6})
    env = {**slurm, "PYTHONPATH": str(TESTS)}
    plugin = ("--plugin", "fault_experiment")
    assert _sbatch(env, tmp_path, "0-2", cfg, *plugin) != 0  # shard 1 dies on task 1
    assert (marks / "task1-died").exists()
    run_dir = tmp_path / "results" / "small"
    merge = [sys.executable, "-m", "mtc_cli.cli", "merge", str(run_dir), *plugin]
    early = subprocess.run(merge, cwd=tmp_path, capture_output=True, text=True, env=env)
    assert early.returncode == 2 and "not cached yet" in early.stderr
    assert _sbatch(env, tmp_path, "1", cfg, "--shards", "3", *plugin) == 0
    done = subprocess.run(merge, cwd=tmp_path, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert len(pd.read_csv(run_dir / "rows.csv")) == 12


def test_dask_jobqueue_survives_a_cancelled_worker_job(slurm, tmp_path):
    cfg = _config(tmp_path, {**SMALL, "reps": 8, "n": 300})
    spec = _config(tmp_path, {"type": "slurm", "jobs": 2, "cores": 1, "processes": 1,
                              "memory": "1GiB", "walltime": "00:30:00", "queue": "debug",
                              "local_directory": str(tmp_path / "dask")}, "cluster.yaml")
    out = tmp_path / "dask-run"
    run = subprocess.Popen([sys.executable, "-m", "mtc_cli.cli", "run", str(cfg), "--out",
                            str(out), "--backend", "dask", "--cluster", str(spec)],
                           cwd=tmp_path, env=slurm, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while len(list((out / "tasks").glob("*.json"))) < 4 and time.time() < deadline:
        time.sleep(0.5)
    jobs = subprocess.run(["squeue", "-h", "-o", "%i", "-t", "R"], env=slurm,
                          capture_output=True, text=True).stdout.split()
    assert jobs, "no dask worker job is running"
    subprocess.run(["scancel", jobs[0]], env=slurm, check=True)
    _, err = run.communicate(timeout=600)
    assert run.returncode == 0, err[-2000:]
    rows = pd.read_csv(out / "rows.csv")
    pd.testing.assert_frame_equal(rows, _local_rows(cfg, tmp_path))
