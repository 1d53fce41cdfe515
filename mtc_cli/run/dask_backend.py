"""The dask backend: a distributed client on a scheduler address, a LocalCluster, or
batch-job workers started through dask-jobqueue (SLURM, PBS). Optional extra ``mtc[cluster]``."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass

from mtc_cli.core.errors import MtcError
from mtc_cli.run.params import build, param, read_yaml

#: dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536, which made heavy sparse
#: tasks about 20-24 % slower (tests/benchmarks/bench_dask_environment.py); None unsets it
TRIM = "MALLOC_TRIM_THRESHOLD_"
LOCAL_WORKER_CONFIG = {f"distributed.nanny.pre-spawn-environ.{TRIM}": None}


@dataclass(frozen=True)
class ClusterSpec:
    """Where dask workers come from (the ``cluster:`` block or ``--cluster FILE``)."""

    type: str = param("local", help="local processes, or batch jobs through dask-jobqueue",
                      choices=["local", "slurm", "pbs"])
    jobs: int = param(2, help="batch jobs to submit (local: worker processes)", min=1)
    cores: int = param(1, help="cores per batch job", min=1)
    processes: int = param(1, help="worker processes per batch job", min=1)
    memory: str = param("4GiB", help="memory per batch job")
    walltime: str = param("01:00:00", help="wall-time limit per batch job")
    queue: str | None = param(None, help="partition (SLURM) or queue (PBS)")
    account: str | None = param(None, help="account or project to charge")
    job_extra_directives: list[str] = param([], help="extra #SBATCH/#PBS lines")
    local_directory: str | None = param(None, help="worker scratch directory")


def load_cluster_spec(path) -> ClusterSpec:
    """Read a ``--cluster FILE``: a YAML mapping of :class:`ClusterSpec` keys."""
    return build(ClusterSpec, read_yaml(path), str(path), "")


@contextlib.contextmanager
def dask_client(*, scheduler: str | None = None, spec: ClusterSpec | None = None, jobs: int = 2):
    """Open a ``distributed.Client``: on ``scheduler`` if given, else on the cluster that
    ``spec`` describes, else on a LocalCluster of ``jobs`` single-threaded workers."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise MtcError("the dask backend needs the optional extra: "
                       "pip install 'mtc[cluster]'") from None
    if scheduler:
        try:
            client = Client(scheduler, timeout="20s")
        except OSError as exc:
            raise MtcError(f"--scheduler {scheduler}: cannot connect ({exc})") from None
        with client:
            yield client
        return
    if spec is None or spec.type == "local":
        import dask

        n = spec.jobs if spec is not None else jobs
        # dask's nanny also leaves the variable in this process's environment, which
        # workers of a later cluster would inherit: unset it here too while ours run
        saved = os.environ.pop(TRIM, None)
        try:
            with dask.config.set(LOCAL_WORKER_CONFIG), \
                    LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                 dashboard_address=None) as cluster, Client(cluster) as client:
                yield client
        finally:
            os.environ.pop(TRIM, None)
            if saved is not None:
                os.environ[TRIM] = saved
        return
    with jobqueue_cluster(spec) as cluster:
        cluster.scale(jobs=spec.jobs)
        with Client(cluster) as client:
            yield client


def jobqueue_cluster(spec: ClusterSpec):
    """The dask-jobqueue cluster (SLURMCluster or PBSCluster) that ``spec`` describes;
    no job is submitted until it is scaled."""
    try:
        import dask_jobqueue
    except ImportError:
        raise MtcError(f"cluster type '{spec.type}' needs dask-jobqueue: "
                       "pip install 'mtc[cluster]'") from None
    cls = {"slurm": dask_jobqueue.SLURMCluster, "pbs": dask_jobqueue.PBSCluster}[spec.type]
    kwargs = {"cores": spec.cores, "processes": spec.processes, "memory": spec.memory,
              "walltime": spec.walltime, "job_extra_directives": spec.job_extra_directives}
    kwargs.update({k: v for k, v in (("queue", spec.queue), ("account", spec.account),
                                     ("local_directory", spec.local_directory)) if v})
    return cls(**kwargs)
