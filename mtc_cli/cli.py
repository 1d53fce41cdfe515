"""The ``mtc`` command: select, run, render, merge, list, report."""

from __future__ import annotations

import dataclasses
import functools
import re
import signal
import sys
from pathlib import Path

import click

from mtc_cli.core.errors import MtcError

RESUME = "finished tasks are cached, run the same command again to resume"


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C: workers stopped, one line, exit status 143."""


def _fail(message: str, code: int = 2):
    _repeated_warnings()
    click.echo(f"mtc: error: {message}", err=True)
    sys.exit(code)


def _one_line_errors(command):
    """Every failure → one line on stderr, never a traceback: bad input (MtcError, exit 2),
    an interruption (Ctrl-C 130, SIGTERM 143), a dead worker, a full disk or any other
    OSError, memory exhaustion (exit 1)."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except MtcError as exc:
            _fail(str(exc))
        except Terminated:
            _fail(f"terminated (SIGTERM); {RESUME}", 143)
        except KeyboardInterrupt:
            _fail(f"interrupted; {RESUME}", 130)
        except MemoryError:
            _fail(f"out of memory; {RESUME}", 1)
        except BrokenPipeError:  # the reader of the output left (… | head): click exits 1
            raise
        except OSError as exc:
            where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
            _fail(f"{exc.strerror or exc}{where}; {RESUME}", 1)
        except Exception as exc:
            if type(exc).__name__ != "TerminatedWorkerError":  # loky's, not imported here
                raise
            codes = re.search(r"exit codes of the workers are \{(.*?)\}", str(exc))
            how = f" ({codes.group(1)})" if codes else ""
            _fail(f"a worker process died{how}: it was killed, crashed or ran out of memory; "
                  f"{RESUME}", 1)

    return wrapper


def _terminate(signum, frame):
    raise Terminated()


def _plugins(modules) -> None:
    from mtc_cli.run.registry import enable

    for module in modules:
        enable(module)


PLUGIN = click.option("--plugin", "plugins", multiple=True, metavar="MODULE",
                      help="Allow the experiment module MODULE of yours (it exposes "
                      "`experiment`); repeatable.")


#: how often each warning (text, category) was given; printed the first time only
_WARNED: dict[tuple[str, str], int] = {}


def _one_line_warning(message, category, filename, lineno, file=None, line=None):
    """A warning as one line, each text once: repeats are counted, see _repeated_warnings."""
    key = (" ".join(str(message).split()), category.__name__)
    _WARNED[key] = _WARNED.get(key, 0) + 1
    if _WARNED[key] == 1:
        print(f"mtc: warning: {key[0]} ({key[1]})", file=file or sys.stderr, flush=True)


def _repeated_warnings() -> None:
    """At the end of a command, one line for each warning given more than once: its text and
    how often."""
    for (text, category), count in _WARNED.items():
        if count > 1:
            print(f"mtc: warning: {text} ({category}; {count} times in all)", file=sys.stderr,
                  flush=True)
    _WARNED.clear()


def entry(argv=None) -> None:
    """The ``mtc`` executable: SIGTERM handled as Ctrl-C, warnings as one line each, and
    click's own usage errors (a bad option value, a missing argument) also as one line
    with exit status 2."""
    import warnings

    warnings.showwarning = _one_line_warning
    signal.signal(signal.SIGTERM, _terminate)
    try:
        main.main(args=argv, prog_name="mtc", standalone_mode=False)
        _repeated_warnings()
    except click.exceptions.Abort:
        _fail("interrupted", 130)
    except click.ClickException as exc:
        _fail(exc.format_message().replace("\n", " "), exc.exit_code)
    except Terminated:
        _fail("terminated (SIGTERM)", 143)
    except KeyboardInterrupt:
        _fail("interrupted", 130)


def _version(ctx, param, value) -> None:
    if value and not ctx.resilient_parsing:
        from mtc_cli import __version__  # importlib.metadata: only when asked

        click.echo(f"mtc, version {__version__}")
        ctx.exit()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="Show the version and exit.")
def main():
    """Model-order selection: which k for your data (select), and the papers' experiments —
    run a config, redraw its figures, list what exists.

    \b
    Examples:
      mtc select data/examples/blobs.csv --label-column label -j 2
      mtc run configs/gmm_overlap.yaml --quick
      mtc run configs/svd_lenna.yaml --quick -j 2 --set 'sigma=[10,50]'
      mtc run configs/*.yaml --quick -j 2
      mtc list gmm_overlap
      mtc keys gmm_overlap
      mtc render results/gmm_overlap
    """


@main.command()
@click.argument("configs", metavar="CONFIG...", nargs=-1, required=True,
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("--quick", is_flag=True,
              help="Apply the config's quick: block (seconds, for tests/CI).")
@click.option("-j", "--jobs", default=1, show_default=True, type=click.IntRange(min=-1),
              help="Worker processes (-1: all cores).")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Override a key of the config (dotted for nested keys; the value parsed "
              "as YAML); `mtc keys EXPERIMENT` lists the keys of each experiment. "
              "Repeatable.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Run directory [default: results/<config stem>; "
              "results/quick/<stem> with --quick].")
@click.option("--force", is_flag=True, help="Recompute every task, ignoring the task cache.")
@click.option("--backend", type=click.Choice(["loky", "dask"]), default="loky", show_default=True,
              help="Where the tasks run: loky, worker processes on this machine; dask, the "
              "workers of a dask.distributed cluster (install mtc[cluster]).")
@click.option("--scheduler", metavar="ADDRESS",
              help="With --backend dask: the address of a running dask scheduler to send the "
              "tasks to, e.g. tcp://host:8786 [default: a local cluster of --jobs workers, "
              "or the config's cluster: block].")
@click.option("--cluster", "cluster_file", type=click.Path(dir_okay=False, path_type=Path),
              help="With --backend dask: a YAML file describing the workers the run starts "
              "(local processes, or batch jobs through dask-jobqueue: SLURM, PBS); "
              "overrides the config's cluster: block.")
@click.option("--shard", metavar="I/N",
              help="Compute only every N-th task, starting at task I (0 ≤ I < N), into the "
              "run directory's task cache, e.g. one shard per job of a job array; when all N "
              "have run, `mtc merge DIR` writes the results.")
@PLUGIN
@_one_line_errors
def run(configs, quick, jobs, overrides, out, force, backend, scheduler, cluster_file, shard,
        plugins):
    """Run the experiment of each CONFIG and write rows, summary, targets, figures, run.json.

    Finished tasks are cached in the run directory: an interrupted run resumes where it
    stopped when run again. Several configs run in this process, every config loaded and
    checked first; with -j above 1 (loky, no --shard) their tasks share one worker pool,
    the longest first, and each config is finished as soon as its last task is done.
    """
    from mtc_cli.run.config import load_config

    _plugins(plugins)
    cfgs = [load_config(c, quick=quick, overrides=overrides) for c in configs]
    if len(cfgs) > 1:
        _check_all(cfgs, out)
        if backend == "loky" and shard is None and _jobs(jobs) > 1:
            from mtc_cli.run import pipeline

            pipeline.run_many(cfgs, jobs=_jobs(jobs), force=force, on_outcome=_print_outcome)
            return
    for cfg in cfgs:
        outcome = _run(cfg, out, jobs, force, backend, scheduler, cluster_file, shard)
        if outcome is not None:
            _print_outcome(outcome)


def _jobs(jobs: int) -> int:
    """The number of workers ``--jobs`` asks for (-1: one per core); the run starts at most
    as many as :func:`mtc_cli.run.workers.count` allows, and says so."""
    from mtc_cli.run.workers import cores

    if jobs == 0:
        raise MtcError("--jobs: expected a positive number of workers or -1, got 0")
    return cores() if jobs == -1 else jobs


def _check_all(cfgs, out) -> None:
    """Before the first of several configs runs: one run directory each, and every
    experiment's own check passed."""
    from mtc_cli.run.pipeline import default_run_dir
    from mtc_cli.run.registry import get_experiment

    if out is not None:
        raise MtcError("--out names the run directory of one config; give one CONFIG with it")
    seen = {}
    for cfg in cfgs:
        run_dir = default_run_dir(cfg).resolve()
        if run_dir in seen:
            raise MtcError(f"{seen[run_dir]} and {cfg.path} would both run into "
                           f"{default_run_dir(cfg)}; run them one at a time with --out")
        seen[run_dir] = cfg.path
        check = getattr(get_experiment(cfg.experiment), "check", None)
        if check is not None:
            try:
                check(cfg.params)
            except MtcError as exc:
                raise MtcError(f"{cfg.path}: {exc}") from None


def _parse_shard(text: str) -> tuple[int, int]:
    i, sep, n = text.partition("/")
    if not (sep and i.isdigit() and n.isdigit() and int(i) < int(n)):
        raise MtcError(f"--shard {text}: expected I/N with 0 ≤ I < N, e.g. 0/4")
    return int(i), int(n)


class _Named(click.ParamType):
    """A value among choices read when the command runs (the catalog's algorithms and
    criteria, a plugin's among them), shown in --help and checked with the config's keys."""

    name = "choice"

    def __init__(self, choices):
        self.choices = choices

    def get_metavar(self, param, ctx) -> str:
        return "[" + "|".join(self.choices()) + "]"

    def convert(self, value, param, ctx):
        return value


def _select_options(command):
    """``mtc select``'s options, one per option of a selection and of how its data file is
    read, made from their declarations (:mod:`mtc_cli.selection.options`): the config keys
    of the same names, checked by the same checks (``mtc keys select``)."""
    from mtc_cli.selection.options import Options, Reading, flag, option_fields

    decorators = []
    for f in option_fields(Options, Reading):
        if f.name == "data":
            continue
        meta, kind = f.metadata, str(f.type).replace(" | None", "")
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        shown = ("" if default in (None, [], False) or kind == "bool" or "default" in meta["help"]
                 else f" [default: {default}]")
        help_text = meta["help"][0].upper() + meta["help"][1:] + "." + shown
        if kind == "bool":
            decorators.append(
                click.option(flag(f.name), f.name, is_flag=True, default=False, help=help_text)
                if default is False else
                click.option(f"{flag(f.name)}/--no-{flag(f.name)[2:]}", f.name, default=None,
                             help=help_text + ("" if "default" in meta["help"]
                                               else f" [default: {'on' if default else 'off'}]")))
            continue
        choices = meta.get("choices")
        ptype = (_Named(choices if callable(choices) else lambda c=choices: c) if choices
                 and kind == "str" else {"int": click.INT, "float": click.FLOAT}.get(kind,
                                                                                 click.STRING))
        metavar = meta.get("metavar") or (None if choices and kind == "str" else kind.upper()
                                          if kind in ("int", "float") else "TEXT")
        if kind == "list[str]":
            help_text = help_text.replace(".", ", comma-separated.", 1) if choices is None else \
                help_text + " Comma-separated, or 'all'; `mtc list` names them."
        decorators.append(click.option(flag(f.name), f.name, type=ptype, metavar=metavar,
                                       help=help_text))
    for decorator in reversed(decorators):
        command = decorator(command)
    return command


@main.command()
@click.argument("data", type=click.Path(dir_okay=False, path_type=Path))
@_select_options
@click.option("--seed", type=click.INT,
              help="The seed every task's random generator is spawned from (with the task and "
              "the data): the same seed, data and options give the same answer. "
              "[default: 0]")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Any key of the select experiment by its config name, value parsed as "
              "YAML (`mtc keys select` lists them); repeatable.")
@click.option("-j", "--jobs", default=1, show_default=True, type=click.INT,
              help="Worker processes (-1: all cores; at most the cores, the tasks and what "
              "memory holds).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Run directory [default: results/select/<data stem>-<model>-<digest>, "
              "the digest of the data and of every option that changes the answer].")
@click.option("--force", is_flag=True, help="Recompute every task, ignoring the task cache.")
@click.option("--backend", type=click.Choice(["loky", "dask"]), default="loky",
              show_default=True, help="Where the tasks run: loky, worker processes on this "
              "machine; dask, the workers of a dask.distributed cluster (install "
              "mtc[cluster]).")
@click.option("--scheduler", metavar="ADDRESS",
              help="With --backend dask: the address of a running dask scheduler to send the "
              "tasks to, e.g. tcp://host:8786 [default: a local cluster of --jobs workers].")
@click.option("--cluster", "cluster_file", type=click.Path(dir_okay=False, path_type=Path),
              help="With --backend dask: a YAML file describing the workers the run starts "
              "(local processes, or batch jobs through dask-jobqueue: SLURM, PBS).")
@click.option("--shard", metavar="I/N",
              help="Compute only every N-th task, starting at task I (0 ≤ I < N), into the "
              "run folder's task cache, e.g. one shard per job of a job array; when all N "
              "have run, `mtc merge DIR` writes the results.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the summary as JSON on stdout (progress stays on stderr).")
@click.option("--save-config", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write this selection as a config for `mtc run`.")
@_one_line_errors
def select(data, seed, overrides, jobs, out, force, backend, scheduler, cluster_file, shard,
           as_json, save_config, **options):
    """Which k? Every criterion that applies to the model, on DATA, with a vote.

    \b
    DATA: CSV/TSV (header detected), .npy/.npz, Matrix Market .mtx (documents × terms),
    an image (rank of its 8×8 patch matrix), or a user–permission list / 0/1 matrix.
    \b
    Runs into results/select/<data stem>-<model>-<digest of the data and options>/: the
    same command resumes there, other options get their own folder.
    \b
    Examples:
      mtc select data/examples/blobs.csv --label-column label -j 2
      mtc select data/lena/lena512_gray.png
      mtc select data/examples/classic3_300.mtx --model spkmeans --k 2..20
      mtc select data/access_control_hp/domino.txt.gz --criteria mtc,bicross
    """
    import json

    from mtc_cli.run.registry import get_experiment

    raw = select_raw(data, seed, options)
    exp = get_experiment("select")
    cfg, run_dir, digest = _select_config(exp, raw, data, overrides, out)
    if save_config is not None:
        _check_writable(save_config, "--save-config", run_dir)
    if jobs != 1 and backend == "loky" and shard is None:
        if not exp.small(cfg.params):  # else threads of this process
            from mtc_cli.run.pipeline import start_workers
            from mtc_cli.run.workers import cores

            start_workers(min(_jobs(jobs), cores()), exp.worker_modules)
    outcome = _run(cfg, run_dir, jobs, force, backend, scheduler, cluster_file, shard, digest)
    if save_config is not None:  # only for a run that was accepted and ran
        _save_select_config(save_config, raw, cfg, overrides)
    if outcome is None:
        return
    if as_json:
        click.echo(json.dumps(outcome.experiment.summary_json(outcome), indent=2))
    else:
        _print_outcome(outcome)


def select_raw(data: Path, seed: int | None, options: dict) -> dict:
    """The select config of a command line: DATA, ``--seed`` and the selection's
    ``options`` (those not given: None; lists comma-separated, ``--criteria all`` as
    none)."""
    raw = {"experiment": "select", "seed": 0 if seed is None else seed, "data": str(data)}
    for key, value in options.items():
        if isinstance(value, str) and key in ("criteria", "columns", "drop"):
            if key != "criteria" or value.strip() != "all":
                raw[key] = [v.strip() for v in value.split(",") if v.strip()]
        elif value is not None:
            raw[key] = value
    return raw


def _check_writable(path: Path, option: str, run_dir: Path) -> None:
    """Refuse, before any task runs, an output file that cannot be written: no directory to
    hold it, a directory in its place, or a directory that takes no new file. A directory
    the run makes (``results/select/`` before the first run) is taken: the file is written
    after the run."""
    import os

    from mtc_cli.core.files import new_temp_file

    if path.is_dir():
        raise MtcError(f"{option} {path}: is a directory; name a file")
    if not path.parent.is_dir():
        if path.parent.resolve() in (run_dir.resolve(), *run_dir.resolve().parents):
            return
        raise MtcError(f"{option} {path}: no directory {path.parent}/ to write it in")
    try:
        fd, tmp = new_temp_file(path)
        os.close(fd)
        tmp.unlink()
    except OSError as exc:
        raise MtcError(f"{option} {path}: cannot be written ({exc.strerror or exc})") from None


def _save_select_config(path: Path, raw: dict, cfg, overrides) -> None:
    """The selection as a config for ``mtc run``: the options given and every ``--set``
    (its value as the run read it)."""
    import yaml

    from mtc_cli.core.files import atomic_write_text
    from mtc_cli.run.params import to_plain

    saved = dict(raw)
    for item in overrides:
        key = item.partition("=")[0].split(".")[0]
        saved[key] = cfg.seed if key == "seed" else to_plain(getattr(cfg.params, key))
    atomic_write_text(path, yaml.safe_dump(saved, sort_keys=False, allow_unicode=True))


def _select_config(exp, raw: dict, data: Path, overrides, out):
    """The select config of the command line (errors name the options: ``key 'k'`` is
    ``--k``), its run folder (:func:`experiments.select.protocol.run_folder`, unless
    ``out``) and the digest of its options."""
    from mtc_cli.run.config import config_from_mapping
    from mtc_cli.selection.options import flag

    try:
        cfg = config_from_mapping(raw, data, overrides=overrides)
        exp.check(cfg.params)
        folder, digest = exp.run_folder(cfg.params, cfg.seed)
    except MtcError as exc:
        names = "|".join(("seed", *(f.name for f in dataclasses.fields(exp.Params))))
        message = re.sub(rf"key '({names})((\[\d+\])?)'",
                         lambda m: flag(m.group(1)) + m.group(2), str(exc))
        raise MtcError(message) from None
    return cfg, out if out is not None else folder, digest


def _run(cfg, run_dir, jobs, force, backend, scheduler, cluster_file, shard, options=None):
    """Run ``cfg`` into ``run_dir`` as ``mtc run`` does (with ``options``, a run directory
    of other options is refused); None for a shard (it only fills the task cache)."""
    from mtc_cli.run import pipeline

    jobs = _jobs(jobs)
    if (scheduler or cluster_file) and backend != "dask":
        raise MtcError("--scheduler and --cluster need --backend dask")
    shard_spec = _parse_shard(shard) if shard else None
    spec = None
    if cluster_file is not None:
        from mtc_cli.run.dask_backend import load_cluster_spec

        spec = load_cluster_spec(cluster_file)
    outcome = pipeline.run(cfg, out=run_dir, jobs=jobs, force=force, backend=backend,
                           scheduler=scheduler, cluster=spec, shard=shard_spec,
                           options=options)
    if shard_spec is not None:
        s = outcome.stats
        click.echo(f"shard {shard}: {s['n_computed']} tasks computed, {s['n_cached']} from "
                   f"cache; {s['missing']} of {s['n_tasks']} tasks still missing in "
                   f"{outcome.run_dir}/. When every shard has finished: "
                   f"mtc merge {outcome.run_dir}")
        return None
    return outcome


@main.command()
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
@PLUGIN
@_one_line_errors
def merge(run_dir, plugins):
    """Assemble rows, summary, targets and figures of RUN_DIR once all shards finished."""
    from mtc_cli.run import pipeline

    _plugins(plugins)
    _print_outcome(pipeline.merge(run_dir))


def _print_outcome(outcome) -> None:
    from mtc_cli.show.tables import format_table, summary_wide

    text = None
    if outcome.experiment is not None:
        text = outcome.experiment.report(outcome.summary, outcome.config.params,
                                         outcome.run_dir)
    if text is not None:
        click.echo(text)
        click.echo(_done(outcome))
        return
    click.echo("\nSummary: selected k per condition and criterion (median [quartiles]):")
    click.echo(format_table(summary_wide(outcome.summary)))
    if outcome.targets is not None and not outcome.targets.empty:
        from mtc_cli.show.docs import claims_text

        click.echo("\n" + claims_text(outcome.targets, WIDTH))
    click.echo(_done(outcome))


def _done(outcome) -> str:
    """The run's last lines: how its outputs compare with those it found (if worth saying),
    then the tasks computed and the run directory, always the last line."""
    s = outcome.stats
    kept = " (every output as it was: run.json kept)" if s.get("record_kept") else ""
    verdict = s.get("agreement")
    said = f"\n{verdict.line()}" if verdict is not None and verdict.line() else ""
    return (f"{said}\n{s['n_computed']} tasks computed, {s['n_cached']} from cache. "
            f"Results: {outcome.run_dir}/{kept}")


@main.command()
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--config", "config", type=click.Path(dir_okay=False, path_type=Path),
              help="Also re-derive summary, tables and targets from rows.csv with this "
              "config (one that changes targets, tables or figures, not the tasks).")
@PLUGIN
@_one_line_errors
def render(run_dir, config, plugins):
    """Redraw the figures of RUN_DIR from its CSVs and run.json alone."""
    from mtc_cli.run import pipeline

    _plugins(plugins)
    if config is None:
        for f in pipeline.render(run_dir):
            click.echo(str(f))
        return
    from mtc_cli.run.config import load_config

    cfg = load_config(config)
    _print_outcome(pipeline.rederive(run_dir, cfg))


@main.command("list")
@click.argument("names", metavar="[NAME]...", nargs=-1)
@click.option("--long", "full", is_flag=True,
              help="Every description in full [default: one line each, cut with …].")
@_one_line_errors
def list_(names, full):
    """List the shipped configs, the experiments and the criteria (by the names
    ``--criteria`` takes), one line each; in full with --long, or for each NAME given (a
    config, by its file or stem, an experiment or a criterion)."""
    from mtc_cli.run.params import PROJECT_ROOT, read_yaml
    from mtc_cli.run.registry import description, experiment_names
    from mtc_cli.selection.catalog import CRITERIA

    full = full or bool(names)
    configs = []
    for path in sorted((PROJECT_ROOT / "configs").glob("*.yaml")):
        try:
            desc = read_yaml(path).get("description", "")
        except MtcError:
            desc = "(malformed YAML)"
        configs.append((f"configs/{path.name}", desc))
    sections = {
        "Configs": configs,
        "Experiments": [(name, description(name)) for name in experiment_names()],
        "Criteria": [(c.name, criterion_line(c, full)) for c in CRITERIA.values()],
    }
    if names:
        sections = _named(sections, names)
    for title, entries in sections.items():
        if not entries:
            continue
        click.echo(f"{title}:")
        width = max(len(name) for name, _ in entries)
        for name, text in entries:
            if full:
                click.echo(f"  {name}")
                click.echo(_in_full(text, WIDTH, indent=6))
            else:
                click.echo(f"  {name:<{width}}  {_one_line(text, WIDTH - width - 4)}".rstrip())


def _named(sections: dict, names) -> dict:
    """The entries of ``sections`` that ``names`` name (a config by its path, file name or
    stem); an error for a name of none."""
    import difflib

    def aliases(name: str) -> set[str]:
        return {name, Path(name).name, Path(name).stem}

    for asked in names:
        if not any(asked in aliases(name) for entries in sections.values()
                   for name, _ in entries):
            known = sorted({a for entries in sections.values() for name, _ in entries
                            for a in aliases(name)})
            close = difflib.get_close_matches(asked, known, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise MtcError(f"{asked}: no config, experiment or criterion of that name{hint}; "
                           "`mtc list` names them all")
    return {title: [(name, text) for name, text in entries
                    if any(asked in aliases(name) for asked in names)]
            for title, entries in sections.items()}


def criterion_line(c, full: bool = False) -> str:
    """What criterion ``c`` chooses, its reference and the models it applies to; ``full``:
    also the smallest k where it is defined and, for ``mtc``, each model's transfer cost."""
    from mtc_cli.selection.catalog import ALGORITHMS, models_of

    chooses = c.optimises or "min transfer cost of each half's solution on the other half"
    models = models_of(c.name)
    line = f"{chooses} ({c.source}; {', '.join(models)})"
    if not full:
        return line
    costs = ("".join(f"; {m}: {c.describe(ALGORITHMS[m])}" for m in models)
             if c.name == "mtc" else "")
    return f"{line}; defined for k ≥ {c.k_min}{costs}"


def _in_full(text, width: int, indent: int) -> str:
    """Every paragraph of ``text``, wrapped to ``width`` columns and indented."""
    import textwrap

    return "\n".join(textwrap.fill(" ".join(paragraph.split()), width,
                                    initial_indent=" " * indent, subsequent_indent=" " * indent,
                                    break_long_words=False, break_on_hyphens=False)
                      for paragraph in str(text or "").strip().split("\n\n"))


#: the width of the lines of ``mtc list`` and ``mtc keys``
WIDTH = 100


def _one_line(text, width: int) -> str:
    """The first paragraph of ``text`` on one line, cut at a word boundary (with …) to fit
    ``width`` columns."""
    import textwrap

    paragraph = str(text or "").strip().split("\n\n")[0]
    return textwrap.shorten(paragraph, max(width, 10), placeholder=" …",
                            break_long_words=False, break_on_hyphens=False)


@main.command()
@click.argument("name", metavar="CONFIG|EXPERIMENT")
@PLUGIN
@_one_line_errors
def keys(name, plugins):
    """List the config keys of an experiment: type, range or choices, default, help.

    EXPERIMENT names it, or CONFIG is a config file of it. Nested keys are dotted, as
    --set takes them.
    """
    import textwrap

    from mtc_cli.run.config import COMMON_KEYS
    from mtc_cli.run.params import keys as param_keys
    from mtc_cli.run.params import read_yaml
    from mtc_cli.run.registry import get_experiment

    _plugins(plugins)
    if name.endswith((".yaml", ".yml")) or Path(name).is_file():
        experiment = read_yaml(Path(name)).get("experiment")
        if not isinstance(experiment, str):
            raise MtcError(f"{name}: missing key 'experiment'")
    else:
        experiment = name
    exp = get_experiment(experiment)
    click.echo(_one_line(f"Keys of {experiment}: {exp.description}", WIDTH))
    for row in param_keys(exp.Params):
        head = f"  {row['key']}: " + ", ".join(filter(None, (row["type"], row["range"])))
        if row["default"]:
            head += _one_line(f"; default {row['default']}", WIDTH - len(head))
        click.echo(head)
        for text in (row["choices"], row["help"]):
            if text:
                click.echo(textwrap.fill(" ".join(text.split()), WIDTH, initial_indent=" " * 6,
                                         subsequent_indent=" " * 6, break_long_words=False,
                                         break_on_hyphens=False))
    click.echo(f"Common to every config: {', '.join(COMMON_KEYS)}.")


@main.command()
@click.argument("results_dir", default="results", type=click.Path(file_okay=False, path_type=Path))
@click.option("--readme", "--doc", "files", multiple=True,
              type=click.Path(dir_okay=False, path_type=Path),
              help="A file whose blocks between <!-- targets:start --> and <!-- targets:end "
              "-->, numbers <!--n:NAME-->…<!--/n-->, <!-- table:NAME:start/end --> and "
              "<!-- notes:NAME:start/end --> blocks are rewritten from RESULTS_DIR; repeat it "
              "for every file (README.md, docs/*.md, experiments/*/NOTES.md). A targets block "
              "marked in none of them is an error.")
@click.option("--check", is_flag=True,
              help="Write nothing: name each file and block that is out of date and exit 1 "
              "(0 when every block is up to date).")
@_one_line_errors
def report(results_dir, files, check):
    """Collect every run's targets.csv under RESULTS_DIR into the reproduction table;
    print it, or write it into the files given with every number, table and notes block
    they hold (defined in docs/numbers/*.yaml and experiments/*/numbers.yaml beside
    RESULTS_DIR)."""
    from mtc_cli.show.docs import reproduction_table, update_files
    from mtc_cli.show.numbers import Renderer

    if check and not files:
        raise MtcError("--check compares the files given with --readme FILE; none given")
    tables = {"targets": reproduction_table(results_dir)}
    if not files:
        click.echo("\n\n".join(tables.values()))
        return
    root = Path(results_dir).resolve().parent
    changed = update_files(files, tables, check=check, renderer=Renderer(root, results_dir))
    for path, blocks in changed.items():
        if check:
            click.echo(f"out of date: {path} ({', '.join(blocks)})" if blocks
                       else f"up to date: {path}")
        else:
            click.echo(f"{'updated' if blocks else 'unchanged'}: {path}")
    if check and any(changed.values()):
        sys.exit(1)


if __name__ == "__main__":
    entry()
