"""``mtc report --readme FILE ...`` writes each generated table between its markers in
whichever of the given files hold them (README.md, docs/*.md), and ``--check`` writes
nothing and exits 1 when a block would change."""

import pandas as pd

from mtc_cli.show.docs import MARKERS

TARGETS = MARKERS["targets"]
LEAGUE = MARKERS["league"]


def doc_files(root):
    """The files `make docs-check` renders: README.md, docs/*.md, experiments/*/NOTES.md."""
    return [root / "README.md", *sorted(root.glob("docs/*.md")),
            *sorted(root.glob("experiments/*/NOTES.md"))]


def _results(tmp_path):
    """A results directory with one run's targets and a criteria league."""
    results = tmp_path / "results"
    (results / "toy").mkdir(parents=True)
    pd.DataFrame({"claim": ["k = 3"], "kind": ["paper"], "status": ["holds"],
                  "holds": [True], "observed": ["k=3"], "paper": ["3"],
                  "why": [""]}).to_csv(results / "toy" / "targets.csv", index=False)
    (results / "criteria_league").mkdir()
    pd.DataFrame({"model": ["kmeans"], "rank": [1], "criterion": ["vote"],
                  "recovered": [0.8], "mean_abs_error": [0.25], "n_datasets": [10]}).to_csv(
        results / "criteria_league" / "league.csv", index=False)
    return results


def _block(markers, body):
    return f"{markers[0]}\n{body}\n{markers[1]}"


def _snapshot(*paths):
    return [(p.read_bytes(), p.stat().st_mtime_ns) for p in paths]


def test_each_file_updates_the_blocks_it_marks(cli, tmp_path):
    results = _results(tmp_path)
    readme, league, plain = (tmp_path / n for n in ("README.md", "league.md", "plain.md"))
    readme.write_text(f"intro\n{_block(TARGETS, 'STALE')}\noutro\n")
    league.write_text(f"# League\n\n{_block(LEAGUE, 'STALE')}\n\nWhat it says.\n")
    plain.write_text("no block here\n")
    result = cli("report", results, "--readme", readme, "--doc", league, "--readme", plain)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"updated: {readme}", f"updated: {league}",
                                          f"unchanged: {plain}"]
    text = readme.read_text()
    assert "STALE" not in text and "| toy |" in text and "1 paper claims: 1 hold" in text
    assert text.startswith("intro\n") and text.endswith(f"{TARGETS[1]}\noutro\n")
    assert "vote" not in text  # the league's table went to the file that marks it
    text = league.read_text()
    assert "STALE" not in text and "**vote** | 80 %" in text and "| toy |" not in text
    assert text.startswith("# League\n\n") and text.endswith(f"{LEAGUE[1]}\n\nWhat it says.\n")
    assert plain.read_text() == "no block here\n"


def test_check_names_drifted_blocks_exits_1_and_writes_nothing(cli, tmp_path):
    results = _results(tmp_path)
    readme, league = tmp_path / "README.md", tmp_path / "league.md"
    readme.write_text(f"{_block(TARGETS, 'STALE')}\n")
    league.write_text(f"{_block(LEAGUE, 'STALE')}\n")
    before = _snapshot(readme, league)
    drifted = cli("report", results, "--readme", readme, "--readme", league, "--check")
    assert drifted.exit_code == 1
    assert drifted.output.splitlines() == [f"out of date: {readme} (targets)",
                                           f"out of date: {league} (league)"]
    assert _snapshot(readme, league) == before
    assert cli("report", results, "--readme", readme, "--readme", league).exit_code == 0
    after = _snapshot(readme, league)
    current = cli("report", results, "--readme", readme, "--readme", league, "--check")
    assert current.exit_code == 0, current.output
    assert current.output.splitlines() == [f"up to date: {readme}", f"up to date: {league}"]
    assert _snapshot(readme, league) == after
    # one block drifts again: only its file and block are named
    league.write_text(league.read_text().replace("80 %", "79 %"))
    one = cli("report", results, "--readme", readme, "--readme", league, "--check")
    assert one.exit_code == 1 and f"out of date: {league} (league)" in one.output
    assert f"up to date: {readme}" in one.output


def test_a_block_marked_in_no_file_is_one_line_and_nothing_is_written(cli, tmp_path):
    results = _results(tmp_path)
    readme = tmp_path / "README.md"
    readme.write_text(f"{_block(TARGETS, 'STALE')}\n")  # the league's markers are nowhere
    before = _snapshot(readme)
    for check in ((), ("--check",)):
        result = cli("report", results, "--readme", readme, *check)
        assert result.exit_code == 2 and result.stderr.count("\n") == 1
        assert "<!-- league:start -->" in result.stderr and "not found" in result.stderr
        assert _snapshot(readme) == before
    readme.write_text(f"{TARGETS[0]}\nno end\n{LEAGUE[0]}\n{LEAGUE[1]}\n")
    broken = cli("report", results, "--readme", readme)
    assert broken.exit_code == 2 and "targets" in broken.stderr
    missing = cli("report", results, "--readme", tmp_path / "nope.md")
    assert missing.exit_code == 2 and "nope.md: file not found" in missing.stderr
    assert cli("report", results, "--check").exit_code == 2  # nothing to check


def test_a_marker_quoted_in_prose_is_not_a_block(cli, tmp_path):
    results = _results(tmp_path)
    readme = tmp_path / "README.md"
    prose = f"The table sits between `{TARGETS[0]}` and `{TARGETS[1]}`.\n"
    readme.write_text(f"{prose}{_block(TARGETS, 'STALE')}\n{_block(LEAGUE, 'STALE')}\n")
    assert cli("report", results, "--readme", readme).exit_code == 0
    assert readme.read_text().startswith(prose) and "STALE" not in readme.read_text()


def test_the_committed_docs_hold_the_tables_of_the_committed_results(cli, root):
    """Every number, table and notes copy of the docs is that of the committed results."""
    args = [a for f in doc_files(root) for a in ("--readme", f)]
    result = cli("report", root / "results", *args, "--check")
    assert result.exit_code == 0, result.output
