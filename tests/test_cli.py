"""End to end through the ``mtc`` command: run --quick, render, list, report."""

import pandas as pd

from mtc_cli.report import END, START

CONTRACT_ROWS = ["sigma_over_d", "rep", "criterion", "k", "score"]
CONTRACT_SUMMARY = ["criterion", "selected_k", "selected_k_q25", "selected_k_q75", "true_k"]


def test_quick_run_writes_every_output_and_render_redraws(cli, root, tmp_path):
    out = tmp_path / "gmm"
    result = cli("run", root / "configs" / "gmm_overlap.yaml", "--quick", "--out", out,
                 "--set", "reps=2", "-j", "1")
    assert result.exit_code == 0, result.output
    assert "Summary" in result.output and "Targets — 7 paper claims" in result.output
    assert str(out) in result.output
    for name in ("rows.csv", "summary.csv", "targets.csv", "thresholds.csv", "run.json",
                 "gmm_overlap.png"):
        assert (out / name).stat().st_size > 0, name
    rows = pd.read_csv(out / "rows.csv")
    assert list(rows.columns[:5]) == CONTRACT_ROWS
    assert set(rows["criterion"]) >= {"mtc", "bic", "aic"}
    summary = pd.read_csv(out / "summary.csv")
    assert set(CONTRACT_SUMMARY) <= set(summary.columns)
    assert len(summary) == 3 * 3  # three σ values × three criteria
    targets = pd.read_csv(out / "targets.csv")
    assert list(targets.columns[:5]) == ["claim", "kind", "status", "holds", "observed"]
    assert len(targets) == 10 and set(targets["kind"]) == {"paper", "derived"}

    (out / "gmm_overlap.png").unlink()
    rendered = cli("render", out)
    assert rendered.exit_code == 0 and (out / "gmm_overlap.png").stat().st_size > 0

    again = cli("run", root / "configs" / "gmm_overlap.yaml", "--quick", "--out", out,
                "--set", "reps=2")
    assert "0 tasks computed, 6 from cache" in again.output


def test_render_of_a_non_run_directory_is_one_line(cli, tmp_path):
    result = cli("render", tmp_path)
    assert result.exit_code == 2 and "missing run.json" in result.stderr


def test_list_names_configs_experiments_and_criteria(cli):
    result = cli("list")
    assert result.exit_code == 0
    for word in ("configs/gmm_overlap.yaml", "gmm_overlap", "information", "transfer_cost"):
        assert word in result.output


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
    again = cli("report", tmp_path / "results", "--readme", readme)
    assert again.output.startswith("unchanged") and readme.read_text() == text


def test_version(cli):
    assert cli("--version").output.startswith("mtc, version")
