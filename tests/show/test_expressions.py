"""Target expressions are data: the grammar evaluates what the configs use, exactly as pandas
did, and refuses everything else in one line without running it."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from mtc_cli.core.errors import MtcError
from mtc_cli.show import expressions

ROOT = Path(__file__).resolve().parents[2]
TABLE = pd.DataFrame({"k": [1, 2, 3, 4], "score": [4.0, 1.0, 0.5, 2.0],
                      "name": ["a", "b", "c", "b"], "ok": [True, False, True, True]})


@pytest.mark.parametrize("text, expected", [
    ("k >= 2 and k <= 3", [False, True, True, False]),
    ("name in ['b', 'c']", [False, True, True, True]),
    ("name not in ['b']", [True, False, True, False]),
    ("score == score.min()", [False, False, True, False]),
    ("abs(score - 2) <= 1", [False, True, False, True]),
    ("not ok or k == 2", [False, True, False, False]),
    ("-score < -1.5", [True, False, False, True]),
    ("1 < k < 4", [False, True, True, False]),
    ("k * 2 / 4 + 1 == k / 2 + 1", [True, True, True, True]),
    ("ok", [True, False, True, True]),
])
def test_the_grammar_on_a_table(text, expected):
    assert expressions.evaluate(text, TABLE).tolist() == expected


def test_aggregates_are_numbers():
    assert expressions.evaluate("score.mean()", TABLE) == pytest.approx(1.875)
    assert expressions.evaluate("k.max() - k.min()", TABLE) == 3
    assert bool(expressions.evaluate("ok.any()", TABLE)) is True
    assert expressions.evaluate("name.nunique()", TABLE) == 3  # a, b, c
    assert expressions.evaluate("(k >= 2).sum()", TABLE) == 3


@pytest.mark.parametrize("text", [
    "@os.system('id') == 0",
    "__import__('os').system('id')",
    "k.__class__",
    "score.apply(print)",
    "open('x').read()",
    "(lambda: 1)()",
    "[x for x in k]",
    "k[0]",
    "pd.eval('1')",
    "k.mean(1)",
    "score ** 2",
    "k if ok else 0",
    "abs(k, k)",
    "{'a': 1}",
    "x = 1",
    "k." + "mean()." * 2000,
])
def test_anything_else_is_refused_in_one_line(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(MtcError) as err:
        expressions.evaluate(text, TABLE)
    assert "\n" not in str(err.value) and not list(tmp_path.iterdir())


def test_an_unknown_column_is_named_with_the_nearest():
    with pytest.raises(MtcError, match="unknown column 'scor' \\(did you mean 'score'\\?\\)"):
        expressions.evaluate("scor > 1", TABLE)


def _targets():
    for path in sorted((ROOT / "configs").glob("*.yaml")):
        for t in yaml.safe_load(path.read_text()).get("targets") or []:
            yield path.stem, t


@pytest.mark.parametrize("config, target", list(_targets()),
                         ids=[f"{c}-{i}" for i, (c, _) in enumerate(_targets())])
def test_every_shipped_target_parses(config, target):
    expressions.parse(target["expect"])
    if target.get("where"):
        expressions.parse(target["where"])


def test_every_committed_target_evaluates_as_pandas_did():
    """On every committed full-profile table, our grammar selects the same rows as
    pandas ``query`` and finds the same verdict as pandas ``eval`` did."""
    checked = 0
    for config, target in _targets():
        run = ROOT / "results" / config
        table_path = run / f"{target.get('table', 'summary')}.csv"
        if not table_path.is_file():
            continue
        table = pd.read_csv(table_path)
        where = target.get("where") or ""
        ours = table[np.asarray(expressions.evaluate(where, table), dtype=bool)] if where \
            else table
        theirs = table.query(where) if where else table
        pd.testing.assert_frame_equal(ours, theirs)
        if ours.empty:
            continue
        mine = pd.Series(expressions.evaluate(target["expect"], ours), index=ours.index)
        pandas = pd.Series(theirs.eval(target["expect"]), index=theirs.index)
        assert mine.astype(bool).tolist() == pandas.astype(bool).tolist(), target["claim"]
        checked += 1
    assert checked >= 60
