"""The ``mtc`` command: run, render, list, report."""

from __future__ import annotations

import functools
import importlib
import pkgutil
import sys
from pathlib import Path

import click
from joblib.externals.loky.process_executor import TerminatedWorkerError

from mtc_cli import __version__
from mtc_cli.errors import MtcError


def _fail(message: str, code: int = 2):
    click.echo(f"mtc: error: {message}", err=True)
    sys.exit(code)


def _one_line_errors(command):
    """Bad input (MtcError) → one line on stderr and exit status 2, never a traceback."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except MtcError as exc:
            _fail(str(exc))

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mtc")
def main():
    """Model-order selection experiments: run a config, redraw its figures, list what exists.

    \b
    Examples:
      mtc run configs/gmm_overlap.yaml --quick
      mtc run configs/svd_lenna.yaml -j 2 --set sigma=[10,50]
      mtc render results/gmm_overlap
    """


@main.command()
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--quick", is_flag=True,
              help="Apply the config's quick: block (seconds, for tests/CI).")
@click.option("-j", "--jobs", default=1, show_default=True, type=click.IntRange(min=-1),
              help="Worker processes (-1: all cores).")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Override a config key (dotted for nested keys; value parsed as YAML). "
              "Repeatable.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Run directory [default: results/<config stem>; "
              "results/quick/<stem> with --quick].")
@click.option("--force", is_flag=True, help="Recompute every task, ignoring the task cache.")
@click.option("--backend", type=click.Choice(["loky", "dask"]), default="loky", show_default=True,
              help="loky: local processes. dask: a dask.distributed cluster (mtc[cluster]).")
@click.option("--scheduler", metavar="ADDRESS",
              help="With --backend dask: an existing scheduler, e.g. tcp://host:8786 "
              "[default: a LocalCluster of --jobs workers, or the config's cluster: block].")
@click.option("--cluster", "cluster_file", type=click.Path(dir_okay=False, path_type=Path),
              help="With --backend dask: a YAML file describing dask-jobqueue workers "
              "(SLURM/PBS); overrides the config's cluster: block.")
@click.option("--shard", metavar="I/N",
              help="Compute only every N-th task starting at I (0 ≤ I < N) into the run "
              "directory's cache, e.g. from a job array; then `mtc merge DIR`.")
@_one_line_errors
def run(config, quick, jobs, overrides, out, force, backend, scheduler, cluster_file, shard):
    """Run the experiment of CONFIG and write rows, summary, targets, figures, run.json.

    Finished tasks are cached in the run directory: an interrupted run resumes where it
    stopped when run again.
    """
    from mtc_cli import pipeline
    from mtc_cli.config import load_config

    if jobs == 0:
        raise MtcError("--jobs: expected a positive number of workers or -1, got 0")
    if jobs == -1:
        import os

        jobs = os.cpu_count() or 1
    if (scheduler or cluster_file) and backend != "dask":
        raise MtcError("--scheduler and --cluster need --backend dask")
    shard_spec = _parse_shard(shard) if shard else None
    cfg = load_config(config, quick=quick, overrides=overrides)
    spec = None
    if cluster_file is not None:
        from mtc_cli.cluster import load_cluster_spec

        spec = load_cluster_spec(cluster_file)
    try:
        outcome = pipeline.run(cfg, out=out, jobs=jobs, force=force, backend=backend,
                               scheduler=scheduler, cluster=spec, shard=shard_spec)
    except KeyboardInterrupt:
        _fail("interrupted; finished tasks are cached, run the same command again to resume", 130)
    except TerminatedWorkerError as exc:
        _fail(f"a worker process died ({str(exc).splitlines()[0][:120]}); finished tasks "
              "are cached, run the same command again to resume", 1)
    if shard_spec is not None:
        s = outcome.stats
        click.echo(f"shard {shard}: {s['n_computed']} tasks computed, {s['n_cached']} from "
                   f"cache; {s['missing']} of {s['n_tasks']} tasks still missing in "
                   f"{outcome.run_dir}/. When every shard has finished: "
                   f"mtc merge {outcome.run_dir}")
        return
    _print_outcome(outcome)


def _parse_shard(text: str) -> tuple[int, int]:
    i, sep, n = text.partition("/")
    if not (sep and i.isdigit() and n.isdigit() and int(i) < int(n)):
        raise MtcError(f"--shard {text}: expected I/N with 0 ≤ I < N, e.g. 0/4")
    return int(i), int(n)


@main.command()
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
@_one_line_errors
def merge(run_dir):
    """Assemble rows, summary, targets and figures of RUN_DIR once all shards finished."""
    from mtc_cli import pipeline

    _print_outcome(pipeline.merge(run_dir))


def _print_outcome(outcome) -> None:
    from mtc_cli.results import format_table, summary_wide

    click.echo("\nSummary: selected k per condition and criterion (median [quartiles]):")
    click.echo(format_table(summary_wide(outcome.summary)))
    if not outcome.targets.empty:
        t = outcome.targets[["claim", "holds", "observed"]].copy()
        t["holds"] = t["holds"].map({True: "yes", False: "NO"})
        t["observed"] = [o if len(o) <= 90 else o[:89] + "…" for o in t["observed"]]
        held = int(outcome.targets["holds"].sum())
        click.echo(f"\nPaper targets ({held}/{len(t)} hold):")
        click.echo(format_table(t))
    s = outcome.stats
    click.echo(f"\n{s['n_computed']} tasks computed, {s['n_cached']} from cache. "
               f"Results: {outcome.run_dir}/")


@main.command()
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
@_one_line_errors
def render(run_dir):
    """Redraw the figures of RUN_DIR from its CSVs and run.json alone."""
    from mtc_cli import pipeline

    for f in pipeline.render(run_dir):
        click.echo(str(f))


@main.command("list")
def list_():
    """List the shipped configs, the experiments and the criteria, one line each."""
    import yaml

    from mtc_cli import criteria
    from mtc_cli.config import PROJECT_ROOT
    from mtc_cli.registry import experiment_names, get_experiment

    click.echo("Configs:")
    for path in sorted((PROJECT_ROOT / "configs").glob("*.yaml")):
        try:
            desc = (yaml.safe_load(path.read_text()) or {}).get("description", "")
        except yaml.YAMLError:
            desc = "(malformed YAML)"
        click.echo(f"  configs/{path.name:<32} {_first_line(desc)}")
    click.echo("Experiments:")
    for name in experiment_names():
        click.echo(f"  {name:<32} {_first_line(get_experiment(name).description)}")
    click.echo("Criteria:")
    for mod in sorted(m.name for m in pkgutil.iter_modules(criteria.__path__)):
        doc = importlib.import_module(f"mtc_cli.criteria.{mod}").__doc__ or ""
        click.echo(f"  {mod:<32} {_first_line(doc)}")


def _first_line(text) -> str:
    lines = str(text or "").strip().splitlines()
    return lines[0] if lines else ""


@main.command()
@click.argument("results_dir", default="results", type=click.Path(file_okay=False, path_type=Path))
@click.option("--readme", type=click.Path(dir_okay=False, path_type=Path),
              help="Rewrite the block between <!-- targets:start --> and "
              "<!-- targets:end --> in this file.")
@_one_line_errors
def report(results_dir, readme):
    """Collect every run's targets.csv under RESULTS_DIR into the reproduction table."""
    from mtc_cli.report import reproduction_table, update_readme

    table = reproduction_table(results_dir)
    if readme is not None:
        update_readme(readme, table)
        click.echo(f"updated {readme}")
    else:
        click.echo(table)


if __name__ == "__main__":
    main()
