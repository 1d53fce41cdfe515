"""Numbers, tables and notes of the docs rendered from committed CSVs (mtc_cli.show.numbers)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mtc_cli.core.errors import MtcError
from mtc_cli.show.docs import update_files
from mtc_cli.show.numbers import Renderer, format_number, relink


def _root(tmp_path: Path, defs: str) -> Path:
    (tmp_path / "results" / "run").mkdir(parents=True)
    (tmp_path / "results" / "run" / "summary.csv").write_text(
        "sigma,rank,lost\n5,14,2.149\n20,7,0.031\n60,3.5,0.484\n")
    (tmp_path / "docs" / "numbers").mkdir(parents=True)
    (tmp_path / "docs" / "numbers" / "guide.yaml").write_text(defs)
    return tmp_path


DEFS = """
worst:
  file: run/summary.csv
  where: "sigma >= 20"
  value: "lost.max()"
  format: ".2f"
rank_at_5:
  file: run/summary.csv
  where: "sigma == 5"
  value: rank
grid:
  file: run/summary.csv
  columns:
    σ: sigma
    rank: rank
    lost (dB): {value: lost, format: ".1f"}
  transpose: true
"""


def test_format_number_writes_as_the_docs_do():
    assert format_number(14.0) == "14"
    assert format_number(3.5) == "3.5"
    assert format_number(2072.0, ",.0f") == "2 072"
    assert format_number(-23.54, ".1f") == "\u221223.5"
    assert format_number("vote") == "vote"


def test_spans_and_a_transposed_table_are_rendered_from_the_csv(tmp_path):
    root = _root(tmp_path, DEFS)
    doc = root / "docs" / "guide.md"
    doc.write_text("Loses at most <!--n:guide.worst-->9<!--/n--> dB; rank "
                   "<!--n:guide.rank_at_5-->14<!--/n--> at σ = 5.\n\n"
                   "<!-- table:guide.grid:start -->\nold\n<!-- table:guide.grid:end -->\n")
    renderer = Renderer(root, root / "results")
    changed = update_files([doc], {}, check=True, renderer=renderer)
    assert changed[doc] == ["table:guide.grid", "guide.worst"]
    assert "9<!--/n-->" in doc.read_text()  # check writes nothing
    update_files([doc], {}, renderer=Renderer(root, root / "results"))
    text = doc.read_text()
    assert "<!--n:guide.worst-->0.48<!--/n-->" in text  # 0.484 > 0.031, rows σ ≥ 20 only
    assert "| σ | 5 | 20 | 60 |\n|---|---|---|---|\n| rank | 14 | 7 | 3.5 |\n" \
           "| lost (dB) | 2.1 | 0.0 | 0.5 |\n<!-- table:guide.grid:end -->" in text
    assert update_files([doc], {}, check=True,
                        renderer=Renderer(root, root / "results"))[doc] == []


def test_notes_are_copied_with_their_links_moved(tmp_path):
    root = _root(tmp_path, DEFS)
    notes = root / "experiments" / "svd" / "NOTES.md"
    notes.parent.mkdir(parents=True)
    notes.write_text("## SVD\n\n![fig](../../results/run/fig.png) see [cfg](../../configs/a."
                     "yaml#top), [web](https://x.org/a) and [here](#svd); worst "
                     "<!--n:guide.worst-->?<!--/n--> dB.\n")
    doc = root / "docs" / "repro.md"
    doc.write_text("# R\n\n<!-- notes:svd:start -->\n<!-- notes:svd:end -->\n")
    changed = update_files([doc, notes], {}, renderer=Renderer(root, root / "results"))
    assert changed == {doc: ["notes:svd"], notes: ["guide.worst"]}
    assert doc.read_text() == (
        "# R\n\n<!-- notes:svd:start -->\n## SVD\n\n![fig](../results/run/fig.png) see "
        "[cfg](../configs/a.yaml#top), [web](https://x.org/a) and [here](#svd); worst "
        "<!--n:guide.worst-->0.48<!--/n--> dB.\n<!-- notes:svd:end -->\n")
    assert relink("[a](b.md)", Path("x/y"), Path("x")) == "[a](y/b.md)"


@pytest.mark.parametrize("defs, span, message", [
    (DEFS, "guide.nothing", "guide.nothing: not defined"),
    (DEFS + "all:\n  file: run/summary.csv\n  value: rank\n", "guide.all",
     "gives 3 different values on run/summary.csv; one is needed"),
    (DEFS + "none:\n  file: run/summary.csv\n  where: sigma > 99\n  value: rank.max()\n",
     "guide.none", "'rank.max()' is undefined on run/summary.csv (no row where 'sigma > 99'?)"),
    (DEFS + "gone:\n  file: run/none.csv\n  value: rank\n", "guide.gone", "none.csv not found"),
    (DEFS + "typo:\n  file: run/summary.csv\n  value: rnak.max()\n", "guide.typo",
     "unknown column 'rnak' (did you mean 'rank'?)"),
    (DEFS + "bad:\n  file: run/summary.csv\n", "guide.bad", "needs 'file' and one of"),
    (DEFS, "guide.grid", "is a table, not a number"),
])
def test_a_bad_number_is_an_error_naming_it(tmp_path, defs, span, message):
    root = _root(tmp_path, defs)
    doc = root / "docs" / "guide.md"
    doc.write_text(f"x <!--n:{span}-->1<!--/n-->\n")
    with pytest.raises(MtcError, match=re.escape(message)):
        update_files([doc], {}, check=True, renderer=Renderer(root, root / "results"))


def test_a_block_without_its_end_is_an_error(tmp_path):
    root = _root(tmp_path, DEFS)
    doc = root / "docs" / "guide.md"
    doc.write_text("<!-- table:guide.grid:start -->\n| a |\n")
    with pytest.raises(MtcError, match="table:guide.grid has no line"):
        update_files([doc], {}, renderer=Renderer(root, root / "results"))


def test_a_run_json_is_one_row_or_the_rows_of_a_list(tmp_path):
    root = _root(tmp_path, DEFS + """
wall:
  file: run/run.json
  value: timing_wall_s
  format: ",.0f"
fire1:
  file: run/run.json
  records: tasks
  where: "dataset == 'fire1'"
  value: seconds
""")
    (root / "results" / "run" / "run.json").write_text(
        '{"timing": {"wall_s": 2172.4}, "tasks": [{"dataset": "hc", "seconds": 8.1}, '
        '{"dataset": "fire1", "seconds": 3151.2}]}')
    renderer = Renderer(root, root / "results")
    assert (renderer.number("guide.wall"), renderer.number("guide.fire1")) == ("2 172", "3151.2")


def test_a_column_equal_on_every_row_selected_is_one_value(tmp_path):
    root = _root(tmp_path, DEFS + "each:\n  file: run/summary.csv\n  where: sigma >= 20\n"
                 "  value: rank * 0 + 4\n")
    assert Renderer(root, root / "results").number("guide.each") == "4"


def test_a_where_naming_a_value_no_row_has_is_an_error(tmp_path):
    """A misspelt name selects no row, and a sum over no rows is 0: the renderer says so
    rather than writing the 0; a where that merely selects no row by a number stays legal."""
    root = _root(tmp_path, DEFS + """
named:
  file: run/summary.csv
  where: "kind == 'wide' or kind in ['narrow', 'tall']"
  value: "rank.sum()"
none_above:
  file: run/summary.csv
  where: "sigma > 100"
  value: "rank.sum()"
""")
    (root / "results" / "run" / "summary.csv").write_text(
        "sigma,rank,lost,kind\n5,14,2.149,wide\n20,7,0.031,narrow\n60,3.5,0.484,wide\n")
    renderer = Renderer(root, root / "results")
    with pytest.raises(MtcError, match="'tall' is no kind of run/summary.csv"):
        renderer.number("guide.named")
    assert renderer.number("guide.none_above") == "0"
