"""Every ``mtc select``, ``mtc list``, ``mtc keys``, ``mtc render`` and ``mtc run … --quick``
line of README.md's and docs/select.md's ```bash blocks and of the ``--help`` texts runs as
written, as a real ``mtc`` process, in a temporary copy of the repository root holding what
the line names: exit status 0, nothing written outside ``results/``, the repository left as
it was. The lines that take longer than about 20 s are marked slow; with cheap settings,
their ``mtc select`` lines also run in the fast suite and read as many features as the file
holds besides its label column."""

import glob
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from mtc_cli.cli import main, select

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "docs" / "select.md"]
#: the commands whose lines run (``mtc run`` only with --quick)
COMMANDS = {"select", "list", "keys", "render", "run"}
#: the lines that take longer than about 20 s as written (2 cores, shared)
SLOW = {
    "mtc select data/examples/blobs.csv --label-column label -j 2",
    "mtc select data/examples/rings.csv --label-column label -j 2",
    "mtc select data/examples/blobs.csv --label-column label --model gmm -j 2",
    "mtc select data/examples/square.csv",
    "mtc select data/access_control_hp/domino.txt.gz",
    "mtc select data/access_control_hp/domino.txt.gz --criteria mtc,bicross",
    "mtc select data/examples/blobs.csv --label-column label --save-config "
    "results/select/mine.yaml",
    "mtc run 'configs/*.yaml' --quick -j 2",
}
#: the label column of the example tables (data/examples/SOURCE.md)
LABEL = "label"
#: a few splits and references: every criterion still runs, in seconds
CHEAP = ["--splits", "2", "--set", "references=2", "--set", "clest_references=1",
         "--set", "clest_splits=2"]


def _runs(args: list[str]) -> bool:
    return len(args) > 1 and args[0] == "mtc" and args[1] in COMMANDS and (
        args[1] != "run" or "--quick" in args)


def _examples() -> dict[str, list[str]]:
    """Each distinct line that runs (as the shell splits it, joined again) → where it
    stands (page:line, or the command whose --help shows it)."""
    found = {}
    for page in PAGES:
        text = page.read_text()
        for block in re.finditer(r"^```bash\n(.*?)^```", text, flags=re.S | re.M):
            first = text.count("\n", 0, block.start(1)) + 1
            for i, line in enumerate(block.group(1).splitlines()):
                args = shlex.split(line, comments=True)
                if _runs(args):
                    found.setdefault(shlex.join(args), []).append(f"{page.name}:{first + i}")
    for name, command in [("mtc", main), *main.commands.items()]:
        for line in (command.help or "").splitlines():
            args = shlex.split(line) if line.strip().startswith("mtc ") else []
            if _runs(args):
                where = "mtc --help" if name == "mtc" else f"mtc {name} --help"
                found.setdefault(shlex.join(args), []).append(where)
    return found


EXAMPLES = _examples()


def _params(args: list[str]) -> dict:
    """The arguments of an ``mtc select`` line as it reads them (not validated)."""
    return select.make_context("select", list(args), resilient_parsing=True).params


def _ids(lines) -> list[str]:
    return [",".join(EXAMPLES[line]) for line in lines]


def test_the_pages_and_the_help_hold_the_examples():
    assert SLOW <= set(EXAMPLES)
    lines = [shlex.split(line) for line in EXAMPLES]
    assert {args[1] for args in lines} == COMMANDS
    data = {Path(_params(args[2:])["data"]).name for args in lines if args[1] == "select"}
    assert {"blobs.csv", "rings.csv", "lena512_gray.png", "classic3_300.mtx",
            "domino.txt.gz"} <= data
    for where in ("mtc --help", "mtc select --help"):
        assert any(where in places for places in EXAMPLES.values()), where


def _tree(folder: Path) -> dict:
    """Every file under ``folder`` outside its ``results/`` → the digest of its bytes."""
    return {p.relative_to(folder): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in folder.rglob("*")
            if p.is_file() and p.relative_to(folder).parts[0] != "results"}


def _git_status() -> str:
    return subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout


def _copy_named(args: list[str], into: Path) -> None:
    """Copy into ``into`` every file or folder of the repository an argument names (globs
    as the shell expands them), at the same relative path."""
    for arg in args:
        for path in glob.glob(arg, root_dir=ROOT):
            source, target = ROOT / path, into / path
            if Path(path).is_absolute() or ".." in Path(path).parts:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.is_dir():
                shutil.copytree(source, target, ignore=shutil.ignore_patterns("tasks"))
            else:
                shutil.copy2(source, target)


def mtc(args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mtc_cli.cli", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=1800,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("line", [pytest.param(line, marks=pytest.mark.slow if line in SLOW
                                               else ()) for line in EXAMPLES], ids=_ids(EXAMPLES))
def test_example_runs_as_written(line, tmp_path):
    args = shlex.split(line)[1:]
    _copy_named(args, tmp_path)
    (tmp_path / "results").mkdir(exist_ok=True)  # as at the repository root
    status, inputs = _git_status(), _tree(tmp_path)
    expanded = [p for a in args for p in (sorted(glob.glob(a, root_dir=tmp_path)) or [a])]
    proc = mtc(expanded, tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _tree(tmp_path) == inputs  # nothing written outside results/
    assert _git_status() == status  # the repository as it was
    if args[0] == "select":
        params = _params(args[1:])
        if params["as_json"]:
            folder = json.loads(proc.stdout)["results"]
        else:
            last = proc.stdout.strip().splitlines()[-1]
            folder = re.fullmatch(r"\d+ tasks computed, \d+ from cache\. Results: (\S+)/.*",
                                  last).group(1)
        assert folder.startswith("results/select/") and (tmp_path / folder / "run.json").is_file()
        if params["save_config"] is not None:
            assert (tmp_path / params["save_config"]).is_file()


SLOW_SELECT = [line for line in EXAMPLES if line in SLOW and shlex.split(line)[1] == "select"]


@pytest.mark.parametrize("line", SLOW_SELECT, ids=_ids(SLOW_SELECT))
def test_slow_select_example_runs_cheaply_on_the_files_features(line, tmp_path):
    args = shlex.split(line)[2:]
    params = _params(args)
    data = ROOT / params["data"]
    extra = [*CHEAP, "--out", tmp_path / "run"]
    if params["k"] is None:
        extra += ["--k", "1..4"]
    if params["save_config"] is not None:  # the last --save-config counts
        extra += ["--save-config", tmp_path / params["save_config"].name]
    proc = mtc(["select", *args, *extra], ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    if params["save_config"] is not None:
        assert (tmp_path / params["save_config"].name).is_file()
        assert not (ROOT / params["save_config"]).exists()
    if data.suffix != ".csv":
        return
    columns = pd.read_csv(data, nrows=0).columns
    features = len(columns) - (LABEL in columns)
    if params["as_json"]:
        shape = json.loads(proc.stdout)["data"]
        printed = f"{shape['n_objects']} objects × {shape['n_features']} features"
    else:
        printed = re.search(r"\d+ objects × \d+ features", proc.stdout).group(0)
    assert printed == f"{len(pd.read_csv(data))} objects × {features} features", line


# --- what the pages quote of the commands' output ------------------------------------------

#: every page that may quote a command's output
QUOTING = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: how a page names the committed run a ```text block quotes, in the paragraph before it
SOURCE = re.compile(r"`(results/[\w/]+?)/?`, made by `mtc run (configs/[\w.]+\.yaml)[^`]*`")


def _quoted_blocks() -> list[tuple[str, str, str, list[str]]]:
    """(where, the run directory, the config, the block's lines) of every ```text block of
    the pages: the output of the committed run the paragraph before it names."""
    found = []
    for page in QUOTING:
        text = page.read_text()
        for block in re.finditer(r"^```text\n(.*?)^```", text, flags=re.S | re.M):
            before = text[:block.start()].rstrip().rsplit("\n\n", 1)[-1]
            named = SOURCE.findall(before)
            where = f"{page.name}:{text.count(chr(10), 0, block.start()) + 1}"
            assert len(named) == 1, f"{where}: a quoted output names the run it quotes " \
                "(`results/NAME/`, made by `mtc run configs/NAME.yaml`)"
            found.append((where, *named[0], block.group(1).splitlines()))
    return found


QUOTED = _quoted_blocks()


def _printed(run_dir: str, config: str) -> list[str]:
    """The lines the run of ``config`` prints of its committed ``run_dir`` (the report
    ``mtc run`` and ``mtc select`` print, from the run's tables)."""
    from mtc_cli.run.config import load_config
    from mtc_cli.run.registry import get_experiment

    cfg = load_config(ROOT / config)
    exp = get_experiment(cfg.experiment)
    report = exp.report(pd.read_csv(ROOT / run_dir / "summary.csv"), cfg.params, ROOT / run_dir)
    assert report is not None, f"{config}: its experiment prints no report to quote"
    return report.splitlines()


def test_the_pages_quote_output():
    assert len(QUOTED) >= 2 and {q[0].split(":")[0] for q in QUOTED} >= {"README.md",
                                                                          "select.md"}


@pytest.mark.parametrize("quoted", QUOTED, ids=[q[0] for q in QUOTED])
def test_a_quoted_output_is_what_its_run_prints(quoted, monkeypatch):
    """Each stretch of the block between lines "…" is a stretch of the printed lines, in
    order; and where the page's example is an ``mtc select`` line, the config is the same
    question (the same digest of data and options)."""
    where, run_dir, config, lines = quoted
    monkeypatch.chdir(ROOT)
    printed = _printed(run_dir, config)
    at = 0
    stretches = [[]]
    for line in lines:
        if line.strip() == "…":
            stretches.append([])
        else:
            stretches[-1].append(line)
    for stretch in filter(None, stretches):
        starts = [i for i in range(at, len(printed) - len(stretch) + 1)
                  if printed[i:i + len(stretch)] == stretch]
        assert starts, f"{where}: not printed by {config} on {run_dir}:\n" + "\n".join(stretch)
        at = starts[0] + len(stretch)


def _questions() -> dict[str, str]:
    """The run folder of each ``mtc select`` example of the pages → the digest of the
    question it asks (the data and options that decide the answer)."""
    import inspect

    from mtc_cli.cli import _select_config, select_raw
    from mtc_cli.run.registry import get_experiment

    named = inspect.signature(select.callback).parameters
    found = {}
    for line in EXAMPLES:
        args = shlex.split(line)
        if args[1] != "select":
            continue
        params = dict(select.make_context("select", args[2:]).params)
        raw = select_raw(params["data"], params["seed"],
                         {k: v for k, v in params.items() if k not in named})
        _, folder, digest = _select_config(get_experiment("select"), raw, params["data"],
                                           params["overrides"], None)
        found[str(folder)] = digest
    return found


def test_the_quoted_select_run_is_the_question_of_a_page_s_example(monkeypatch):
    """The committed select run a page quotes asks what one of its ``mtc select`` examples
    asks: the pages' output is that of the command they show."""
    from mtc_cli.run.config import load_config
    from mtc_cli.run.registry import get_experiment

    monkeypatch.chdir(ROOT)
    asked = set(_questions().values())
    for where, _, config, _ in QUOTED:
        cfg = load_config(ROOT / config)
        if cfg.experiment == "select":
            digest = get_experiment("select").run_folder(cfg.params, cfg.seed)[1]
            assert digest in asked, f"{where}: {config} is no example's question"


def test_the_run_folder_a_page_names_is_its_example_s(monkeypatch):
    """A run folder quoted as ``Results: results/select/NAME-DIGEST/`` is the folder of an
    example of the pages."""
    monkeypatch.chdir(ROOT)
    quoted = {m for page in QUOTING
              for m in re.findall(r"Results: (results/select/[\w.-]+?)/", page.read_text())}
    folders = set(_questions())
    assert quoted and quoted <= folders, quoted - folders


def test_the_reproduction_messages_the_readme_quotes_are_the_run_s(root):
    """The README's first command, `mtc run configs/svd_lenna.yaml`, over the committed
    results: the line it prints when its tables agree within the tolerance but not byte for
    byte (as quoted, with the largest change measured on the machine the README names), and
    the end of its last line when every output is as it was (mtc_cli/run/agreement.py and
    cli._done)."""
    from types import SimpleNamespace

    from mtc_cli.cli import _done
    from mtc_cli.run.agreement import RTOL, Verdict

    text = " ".join((root / "README.md").read_text().split())
    (kept,) = re.findall(r'"(reproduced the tables [^"]*)"', text)
    change = re.fullmatch(r"reproduced the tables in the run directory within rtol \S+ "
                          r"\(largest change (\S+) of the column's scale, (\S+) (\S+)\): "
                          r"kept them", kept)
    assert change, kept
    number, file, column = change.groups()
    assert Verdict(True, False, largest=(file, column, float(number))).line() == kept
    assert f"rtol {RTOL:g}" in kept
    assert Verdict(True, True).line() == ""  # byte for byte: nothing said
    (same,) = re.findall(r'"\((every output as it was: [^"]*)\)"', text)
    outcome = SimpleNamespace(run_dir="results/svd_lenna", stats={
        "record_kept": True, "agreement": Verdict(True, True), "n_computed": 400,
        "n_cached": 0})
    assert _done(outcome).endswith(f"Results: results/svd_lenna/ ({same})")
    running = " ".join((root / "docs" / "running.md").read_text().split())
    assert f"within {number} of a column's scale ({file} {column}" in running
