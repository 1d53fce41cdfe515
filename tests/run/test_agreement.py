"""Compare, then write: tables that agree within the stated tolerance are kept, others are
rewritten with the columns that moved named; end to end through ``mtc run``."""

import numpy as np
import pandas as pd
import pytest

from mtc_cli.core.files import write_csv
from mtc_cli.run.agreement import RTOL, compare, settle


def table(score, k=(1, 2, 3), name=("a", "b", "c")):
    return pd.DataFrame({"k": list(k), "criterion": list(name), "score": list(score)})


def test_floats_agree_relative_to_the_scale_of_their_column():
    old = table([1000.0, 2.5, 1e-3])
    # 1e-3 moves by 50 % of itself but by 5e-10 of the column's scale (1000): agrees
    moves, column, change = compare(table([1000.0, 2.5, 1e-3 + 5e-7]), old, "t")
    assert moves == [] and column == "score" and change == pytest.approx(5e-10)
    moves, _, _ = compare(table([1000.0 * (1 + 3 * RTOL), 2.5, 1e-3]), old, "t")
    assert [(m.file, m.column) for m in moves] == [("t", "score")]
    assert "moved by up to 3e-09 of its scale (1 values)" == moves[0].detail


def test_choices_counts_and_text_must_be_equal():
    old = table([1.0, 2.0, 3.0])  # whole numbers: a choice, compared exactly
    moves, _, _ = compare(table([1.0, 2.0, 3.0 + 1e-12]), old, "summary.csv")
    assert [m.column for m in moves] == ["score"] and moves[0].detail == "1 of 3 values differ"
    moves, _, _ = compare(table([1.0, 2.0, 3.0], k=(1, 2, 4), name=("a", "x", "c")), old, "s")
    assert [m.column for m in moves] == ["k", "criterion"]


def test_empty_text_cells_agree_as_read_back(tmp_path):
    """A text column with empty cells, written and read back (pandas' string dtype keeps
    them missing), agrees with itself, and an empty cell that gets a text does not."""
    old = pd.DataFrame({"claim": ["a", "b", "c"], "why": ["x", None, None]})
    write_csv(old, tmp_path / "t.csv")
    back = pd.read_csv(tmp_path / "t.csv")
    assert compare(back, pd.read_csv(tmp_path / "t.csv"), "t")[0] == []
    moved = back.copy()
    moved.loc[1, "why"] = "y"
    assert [(m.column, m.detail) for m in compare(moved, back, "t")[0]] == \
        [("why", "1 of 3 values differ")]


def test_nan_inf_columns_and_rows_must_match():
    old = table([np.nan, np.inf, 0.5])
    assert compare(table([np.nan, np.inf, 0.5 * (1 + 1e-12)]), old, "t")[0] == []
    assert "NaN" in compare(table([0.1, np.inf, 0.5]), old, "t")[0][0].detail
    assert "inf" in compare(table([np.nan, -np.inf, 0.5]), old, "t")[0][0].detail
    assert "rows" in compare(old.iloc[:2], old, "t")[0][0].detail
    assert "columns" in compare(old.rename(columns={"k": "j"}), old, "t")[0][0].detail


def test_settle_keeps_agreeing_tables_and_rewrites_all_when_one_moves(tmp_path):
    run, stage = tmp_path / "run", tmp_path / "stage"
    write_csv(table([0.1, 0.2, 0.3]), run / "rows.csv")
    write_csv(table([2.0, 2.0, 3.0]), run / "summary.csv")
    committed = {p.name: p.read_bytes() for p in run.iterdir()}
    write_csv(table([0.1, 0.2, 0.3 * (1 + 1e-14)]), stage / "rows.csv")
    write_csv(table([2.0, 2.0, 3.0]), stage / "summary.csv")
    verdict = settle(stage, run)
    assert verdict.kept and not verdict.identical and verdict.largest[:2] == ("rows.csv", "score")
    assert {p.name: p.read_bytes() for p in run.iterdir()} == committed
    assert "within rtol 1e-09" in verdict.line() and "kept them" in verdict.line()

    write_csv(table([2.0, 3.0, 3.0]), stage / "summary.csv")  # a choice moved
    verdict = settle(stage, run)
    assert not verdict.kept and [str(m) for m in verdict.moves] == \
        ["summary.csv score: 1 of 3 values differ"]
    assert (run / "rows.csv").read_bytes() != committed["rows.csv"]  # every table rewritten
    assert pd.read_csv(run / "summary.csv")["score"].tolist() == [2.0, 3.0, 3.0]


def test_a_rerun_keeps_tables_another_machine_computed_within_the_tolerance(cli, root,
                                                                          tmp_path):
    out = tmp_path / "gmm"
    args = ("run", root / "configs" / "gmm_overlap.yaml", "--quick", "--out", out,
            "--set", "reps=2")
    assert cli(*args).exit_code == 0
    rows = pd.read_csv(out / "rows.csv")
    fresh = (out / "rows.csv").read_bytes()
    floats = [c for c in rows.columns if rows[c].dtype.kind == "f"
              and not np.array_equal(rows[c], np.round(rows[c]))]
    assert "score" in floats
    # the last digits of another BLAS kernel: kept, and the run says so
    write_csv(rows.assign(score=rows["score"] * (1 + 1e-13)), out / "rows.csv")
    other = (out / "rows.csv").read_bytes()
    again = cli(*args)
    assert again.exit_code == 0 and (out / "rows.csv").read_bytes() == other
    assert "within rtol 1e-09" in again.output and "rows.csv score" in again.output
    # beyond the tolerance: every table rewritten from this run, the moved column named
    write_csv(rows.assign(score=rows["score"] * (1 + 1e-6)), out / "rows.csv")
    moved = cli(*args)
    assert moved.exit_code == 0 and (out / "rows.csv").read_bytes() == fresh
    assert "rows.csv score: moved by up to" in moved.output

