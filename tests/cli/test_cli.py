"""End to end through the ``mtc`` command: run --quick, render, list, keys, report."""

import dataclasses
import subprocess
import sys

import pandas as pd
import pytest

from mtc_cli.show.docs import END, START

HEAVY = ("numpy", "pandas", "sklearn", "matplotlib", "scipy", "joblib")

CONTRACT_ROWS = ["sigma_over_d", "rep", "criterion", "k", "score"]
CONTRACT_SUMMARY = ["criterion", "selected_k", "selected_k_q25", "selected_k_q75", "true_k"]


def test_quick_run_writes_every_output_and_render_redraws(cli, root, tmp_path):
    out = tmp_path / "gmm"
    result = cli("run", root / "configs" / "gmm_overlap.yaml", "--quick", "--out", out,
                 "--set", "reps=2", "-j", "1")
    assert result.exit_code == 0, result.output
    assert "Summary" in result.output and "Targets — 8 paper claims" in result.output
    assert str(out) in result.output
    for name in ("rows.csv", "summary.csv", "targets.csv", "thresholds.csv", "run.json",
                 "gmm_overlap.png"):
        assert (out / name).stat().st_size > 0, name
    record = (out / "run.json").read_bytes()
    rows = pd.read_csv(out / "rows.csv")
    assert list(rows.columns[:5]) == CONTRACT_ROWS
    assert set(rows["criterion"]) >= {"mtc", "bic", "aic"}
    summary = pd.read_csv(out / "summary.csv")
    assert set(CONTRACT_SUMMARY) <= set(summary.columns)
    assert len(summary) == 3 * 3  # three σ values × three criteria
    targets = pd.read_csv(out / "targets.csv")
    assert list(targets.columns[:5]) == ["claim", "kind", "status", "holds", "observed"]
    assert len(targets) == 12 and set(targets["kind"]) == {"paper", "derived"}

    (out / "gmm_overlap.png").unlink()
    rendered = cli("render", out)
    assert rendered.exit_code == 0 and (out / "gmm_overlap.png").stat().st_size > 0

    again = cli("run", root / "configs" / "gmm_overlap.yaml", "--quick", "--out", out,
                "--set", "reps=2")
    assert "0 tasks computed, 6 from cache" in again.output
    # every output as it was: the record of the run that produced them is kept, so that
    # rerunning a committed result dirties nothing
    assert "run.json kept" in again.output and (out / "run.json").read_bytes() == record
    other = cli("run", root / "configs" / "gmm_overlap.yaml", "--quick", "--out", out,
                "--set", "reps=2", "--set", "n_init=2")
    assert "kept" not in other.output and (out / "run.json").read_bytes() != record


def test_render_of_a_non_run_directory_is_one_line(cli, tmp_path):
    result = cli("render", tmp_path)
    assert result.exit_code == 2 and "missing run.json" in result.stderr


def test_list_names_configs_experiments_and_criteria(cli):
    """One line each, within 100 columns: the descriptions as the imported modules state
    them (read from their sources, shortened at a word boundary), and every criterion by the
    name ``--criteria`` takes, with what it chooses, its reference and its models."""
    from mtc_cli.cli import criterion_line
    from mtc_cli.run.registry import experiment_names, get_experiment
    from mtc_cli.selection.catalog import CRITERIA

    result = cli("list")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert all(len(line) <= 100 for line in lines)
    for word in ("configs/gmm_overlap.yaml", "gmm_overlap", "bic", "calinski_harabasz",
                 "Caliński & Harabasz 1974"):
        assert word in result.output
    described = {line.split()[0]: " ".join(line.split()[1:]) for line in lines
                 if line.startswith("  ")}
    docs = {name: get_experiment(name).description for name in experiment_names()}
    docs.update({name: criterion_line(c) for name, c in CRITERIA.items()})
    for name, doc in docs.items():
        text = described[name]
        first = " ".join(doc.strip().split("\n\n")[0].split())
        assert text == first or text.endswith(" …") and first.startswith(text[:-2] + " "), name



def _in_full(output: str) -> dict[str, str]:
    """``mtc list --long``'s entries: name → its text on one line."""
    entries, name = {}, None
    for line in output.splitlines():
        if line.startswith("      "):
            entries[name] = f"{entries[name]} {line.strip()}".strip()
        elif line.startswith("  "):
            name = line.strip()
            entries[name] = ""
    return entries


def test_list_long_and_list_name_give_the_descriptions_in_full(cli, root):
    from mtc_cli.run.params import read_yaml
    from mtc_cli.run.registry import description, experiment_names
    from mtc_cli.selection.catalog import CRITERIA

    result = cli("list", "--long")
    lines = result.output.splitlines()
    assert result.exit_code == 0 and not any(line.endswith(" …") for line in lines)  # no cut
    assert all(len(line) <= 100 for line in lines)
    entries = _in_full(result.output)
    league = " ".join(read_yaml(root / "configs" / "league.yaml")["description"].split())
    assert entries["configs/league.yaml"] == league and len(league) > 100
    assert entries["league"] == description("league")
    assert set(entries) == ({f"configs/{p.name}" for p in (root / "configs").glob("*.yaml")}
                            | set(experiment_names()) | set(CRITERIA))
    assert entries["mtc"].endswith("boolean: min Hamming transfer cost of the MAC roles (Sect. 5)")
    # by name: a config by its stem or file, an experiment, a criterion — and nothing else
    named = cli("list", "league", "svd_lenna.yaml", "bic")
    assert named.exit_code == 0
    assert _in_full(named.output) == {k: entries[k] for k in ("configs/league.yaml",
                                                              "configs/svd_lenna.yaml",
                                                              "league", "bic")}
    assert [line for line in named.output.splitlines() if not line.startswith(" ")] == [
        "Configs:", "Experiments:", "Criteria:"]
    unknown = cli("list", "leage")
    assert unknown.exit_code == 2 and unknown.stdout == ""
    assert unknown.stderr == ("mtc: error: leage: no config, experiment or criterion of that "
                              "name (did you mean 'league'?); `mtc list` names them all\n")

def _imported(*args) -> tuple[str, list[str]]:
    """Run ``mtc ARGS`` in a fresh interpreter: its stderr and the heavy modules imported."""
    code = ("import sys\nfrom mtc_cli.cli import entry\ntry:\n    entry(sys.argv[1:])\n"
            "except SystemExit:\n    pass\n"
            f"print(*sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True,
                          text=True)
    *lines, modules = proc.stderr.split("\n")[:-1] or [""]
    return "\n".join(lines), modules.split()


@pytest.mark.parametrize("args", [
    ["--help"], ["list"], ["run", "nothing-here.yaml"],
    ["run", "configs/gmm_overlap.yaml", "--set", "nn=2"],
    ["run", "configs/gmm_overlap.yaml", "--set", "covariance_type=ful"],
    ["run", "configs/svd_lenna.yaml", "--set", "image=missing.png"],
])
def test_help_list_and_bad_input_import_nothing_heavy(root, args):
    if args[0] == "run" and args[1].startswith("configs/"):
        args = [args[0], root / args[1], *args[2:]]
    stderr, heavy = _imported(*args)
    assert heavy == [], (args, stderr)
    assert args[0] != "run" or stderr.startswith("mtc: error:") and stderr.count("\n") == 0


def test_keys_lists_every_key_of_an_experiment(cli, root):
    from mtc_cli.run.registry import get_experiment

    result = cli("keys", "gmm_overlap")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert all(len(line) <= 100 for line in lines)
    for f in dataclasses.fields(get_experiment("gmm_overlap").Params):
        assert any(line.startswith(f"  {f.name}: ") for line in lines), f.name
    assert "  n: int, ≥ 2; default 500" in lines
    assert "  k_max: int, ≥ 1, ≤ 50; default 8" in lines
    assert '  covariance_type: str; default "full"' in lines
    assert "      one of full, tied, diag, spherical" in lines
    assert "      items in each of X¹ and X²" in lines
    assert "  weights: list[float] | null, each ≥ 0.0; default null" in lines
    # from a config file; nested keys as --set takes them, with the parent's defaults
    nested = cli("keys", root / "configs" / "boolean_denoising.yaml").output
    assert "  flat.n_users: int, ≥ 2; default 500" in nested
    assert "  settings[i].sigmas: list[float], each ≥ 0.0; default [1.0, 1.0, 1.0]" in \
        cli("keys", "kmeans_mappings").output
    unknown = cli("keys", "gmm_overlp")
    assert unknown.exit_code == 2 and "did you mean 'gmm_overlap'" in unknown.stderr


def test_several_configs_run_in_one_process_as_they_would_alone(cli, root, tmp_path,
                                                                   monkeypatch):
    configs = [root / "configs" / f"{name}.yaml" for name in ("gmm_overlap", "hansen_pca")]
    alone = {}
    for config in configs:
        out = tmp_path / "alone" / config.stem
        assert cli("run", config, "--quick", "--set", "reps=1", "--out", out).exit_code == 0
        alone[config.stem] = out
    monkeypatch.chdir(tmp_path)
    both = cli("run", *configs, "--quick", "--set", "reps=1", "-j", "2")
    assert both.exit_code == 0, both.output
    for stem, out in alone.items():
        together = tmp_path / "results" / "quick" / stem
        assert f"Results: {together.relative_to(tmp_path)}/" in both.output
        names = sorted(p.name for p in out.iterdir() if p.is_file() and p.name != "run.json")
        assert names == sorted(p.name for p in together.iterdir()
                               if p.is_file() and p.name != "run.json")
        for name in names:
            assert (out / name).read_bytes() == (together / name).read_bytes(), name
    # checked before anything runs: --out with several, two runs into one directory, a bad
    # config among them
    assert "give one CONFIG" in cli("run", *configs, "--out", tmp_path / "x").stderr
    assert "would both run into" in cli("run", configs[0], configs[0]).stderr
    (tmp_path / "bad.yaml").write_text("experiment: gmm_overlap\nk_max: 0\n")
    bad = cli("run", *configs, tmp_path / "bad.yaml", "--force")
    assert bad.exit_code == 2 and "bad.yaml: key 'k_max'" in bad.stderr


def test_report_builds_the_readme_table(cli, root, tmp_path):
    cli("run", root / "configs" / "gmm_overlap.yaml", "--quick", "--out",
        tmp_path / "results" / "gmm_overlap", "--set", "reps=1")
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{START}\nSTALE-TABLE\n{END}\noutro\n")
    result = cli("report", tmp_path / "results", "--readme", readme)
    assert result.exit_code == 0, result.output
    text = readme.read_text()
    assert "STALE-TABLE" not in text and "| gmm_overlap |" in text and text.endswith("outro\n")
    assert result.output.startswith("updated")
    written = readme.stat()
    again = cli("report", tmp_path / "results", "--readme", readme)
    assert again.output.startswith("unchanged") and readme.read_text() == text
    assert (readme.stat().st_ino, readme.stat().st_mtime_ns) == (written.st_ino,
                                                                 written.st_mtime_ns)


def test_version(cli):
    assert cli("--version").output.startswith("mtc, version")


def test_the_main_job_s_claims_are_whole_and_a_failure_is_explained(root):
    """The targets on the first screen of `mtc run configs/svd_lenna.yaml` (the README's
    first command), from its committed run: every claim, observation and reason whole within
    100 columns, and what a failing claim means, with the page of every claim."""
    import re

    from mtc_cli.cli import WIDTH
    from mtc_cli.show.docs import CLAIMS_DOC, claims_text

    targets = pd.read_csv(root / "results" / "svd_lenna" / "targets.csv", keep_default_na=False)
    assert (targets["status"] == "fails").sum() == 2  # the screen the issue saw
    text = claims_text(targets, WIDTH)
    lines = text.splitlines()
    assert lines[0].startswith("Targets — 8 paper claims: 6 hold, 2 fail")
    assert all(len(line) <= WIDTH for line in lines)
    flat = " ".join(text.split())
    for column in ("claim", "observed"):
        for value in targets[column]:
            assert " ".join(value.split()) in flat, value
    for why in targets.loc[targets["status"] == "fails", "why"]:
        assert f"why: {' '.join(why.split())}" in flat
    assert "A claim fails where this run does not show the paper's result: faithful" in flat
    assert lines[-1].endswith(CLAIMS_DOC)
    page, anchor = CLAIMS_DOC.split("#")
    headings = re.findall(r"^#+ (.*)$", (root / page).read_text(), flags=re.M)
    assert anchor in {h.strip().lower().replace(" ", "-") for h in headings}
    held = claims_text(targets[targets["status"] == "holds"], WIDTH)
    assert "A claim fails" not in held and "why:" not in held
