"""``mtc report --readme FILE ...`` writes each generated table between its markers in
whichever of the given files hold them (README.md, docs/*.md), and ``--check`` writes
nothing and exits 1 when a block would change."""

import pandas as pd

from mtc_cli.show.docs import MARKERS

TARGETS = MARKERS["targets"]


def doc_files(root):
    """The files `make docs-check` renders: README.md, docs/*.md, experiments/*/NOTES.md."""
    return [root / "README.md", *sorted(root.glob("docs/*.md")),
            *sorted(root.glob("experiments/*/NOTES.md"))]


def _results(tmp_path):
    """A results directory with one run's targets."""
    results = tmp_path / "results"
    (results / "toy").mkdir(parents=True)
    pd.DataFrame({"claim": ["k = 3"], "kind": ["paper"], "status": ["holds"],
                  "holds": [True], "observed": ["k=3"], "paper": ["3"],
                  "why": [""]}).to_csv(results / "toy" / "targets.csv", index=False)
    return results


def _block(markers, body):
    return f"{markers[0]}\n{body}\n{markers[1]}"


def _snapshot(*paths):
    return [(p.read_bytes(), p.stat().st_mtime_ns) for p in paths]


def test_each_file_updates_the_blocks_it_marks(cli, tmp_path):
    results = _results(tmp_path)
    readme, plain = tmp_path / "README.md", tmp_path / "plain.md"
    readme.write_text(f"intro\n{_block(TARGETS, 'STALE')}\noutro\n")
    plain.write_text("no block here\n")
    result = cli("report", results, "--readme", readme, "--readme", plain)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"updated: {readme}", f"unchanged: {plain}"]
    text = readme.read_text()
    assert "STALE" not in text and "| toy |" in text and "1 paper claims: 1 hold" in text
    assert text.startswith("intro\n") and text.endswith(f"{TARGETS[1]}\noutro\n")
    assert plain.read_text() == "no block here\n"


def test_check_names_drifted_blocks_exits_1_and_writes_nothing(cli, tmp_path):
    results = _results(tmp_path)
    readme, plain = tmp_path / "README.md", tmp_path / "plain.md"
    readme.write_text(f"{_block(TARGETS, 'STALE')}\n")
    plain.write_text("no block here\n")
    before = _snapshot(readme, plain)
    drifted = cli("report", results, "--readme", readme, "--readme", plain, "--check")
    assert drifted.exit_code == 1
    assert drifted.output.splitlines() == [f"out of date: {readme} (targets)",
                                           f"up to date: {plain}"]
    assert _snapshot(readme, plain) == before
    assert cli("report", results, "--readme", readme).exit_code == 0
    after = _snapshot(readme)
    current = cli("report", results, "--readme", readme, "--check")
    assert current.exit_code == 0, current.output
    assert current.output.splitlines() == [f"up to date: {readme}"]
    assert _snapshot(readme) == after


def test_a_block_marked_in_no_file_is_one_line_and_nothing_is_written(cli, tmp_path):
    results = _results(tmp_path)
    readme = tmp_path / "README.md"
    readme.write_text("no block here\n")  # the targets' markers are nowhere
    before = _snapshot(readme)
    for check in ((), ("--check",)):
        result = cli("report", results, "--readme", readme, *check)
        assert result.exit_code == 2 and result.stderr.count("\n") == 1
        assert f"{TARGETS[0]}" in result.stderr and "not found" in result.stderr
        assert _snapshot(readme) == before
    readme.write_text(f"{TARGETS[0]}\nno end\n")
    broken = cli("report", results, "--readme", readme)
    assert broken.exit_code == 2 and "targets" in broken.stderr
    missing = cli("report", results, "--readme", tmp_path / "nope.md")
    assert missing.exit_code == 2 and "nope.md: file not found" in missing.stderr
    assert cli("report", results, "--check").exit_code == 2  # nothing to check


def test_a_marker_quoted_in_prose_is_not_a_block(cli, tmp_path):
    results = _results(tmp_path)
    readme = tmp_path / "README.md"
    prose = f"The table sits between `{TARGETS[0]}` and `{TARGETS[1]}`.\n"
    readme.write_text(f"{prose}{_block(TARGETS, 'STALE')}\n")
    assert cli("report", results, "--readme", readme).exit_code == 0
    assert readme.read_text().startswith(prose) and "STALE" not in readme.read_text()


def test_the_committed_docs_hold_the_tables_of_the_committed_results(cli, root):
    """Every number, table and notes copy of the docs is that of the committed results."""
    args = [a for f in doc_files(root) for a in ("--readme", f)]
    result = cli("report", root / "results", *args, "--check")
    assert result.exit_code == 0, result.output
