"""The user-data loader: every format on tiny files, and one-line errors for bad input."""

from __future__ import annotations

import csv
import gzip
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.io
import scipy.sparse as sp
from PIL import Image

from mtc_cli.core.datasets.user_data import FORMATS, UserData, _standardize, label_like, load
from mtc_cli.core.errors import MtcError


def write(path, text: str):
    path.write_text(text)
    return path


@pytest.fixture
def iris(tmp_path):
    """A headed CSV with a text label column and a partly empty train-label column."""
    return write(tmp_path / "iris.csv",
                 "a,b,c,species,known\n"
                 "1.0,2,0.5,setosa,s\n"
                 "2.0,1,0.25,virginica,\n"
                 "3.5,4,1.5,setosa,s\n"
                 "0.5,3,2.0,versicolor,v\n")


def corrupt_gz(text: str) -> bytes:
    """A gzip file whose deflate stream starts with an invalid block type (zlib.error)."""
    data = bytearray(gzip.compress(text.encode()))
    data[10] = 0b111  # after the 10-byte header: last block, block type 3 (reserved)
    return bytes(data)


def grey_png(path, h=24, w=40):
    Image.fromarray((np.arange(h * w).reshape(h, w) % 251).astype(np.uint8)).save(path)
    return path


# --- tables -------------------------------------------------------------------------------

def test_csv_with_header_labels_and_train_labels(iris):
    d = load(iris, label_column="species", train_labels="known")
    assert isinstance(d, UserData)
    assert (d.n_items, d.n_features) == (4, 3) and d.kind == "table"
    assert d.X.dtype == np.float64 and d.X.flags.c_contiguous
    assert d.feature_names == ["a", "b", "c"]
    assert list(d.labels) == ["setosa", "virginica", "setosa", "versicolor"]
    assert list(d.train_labels) == ["s", None, "s", "v"]
    assert d.train_labels.dtype == object
    assert d.source == "iris.csv" and d.image is None
    assert np.allclose(d.X[1], [2.0, 1.0, 0.25])
    assert any("header" in n for n in d.notes)
    assert any("species" in n for n in d.notes)
    assert any("3 of 4 rows labelled" in n for n in d.notes)


def test_csv_without_header_names_by_index(tmp_path):
    f = write(tmp_path / "raw.csv", "1,2,7\n3,4,8\n5,6.5,7\n")
    d = load(f, label_column="-1")
    assert d.feature_names == ["0", "1"]
    assert list(d.labels) == ["7", "8", "7"]  # as written in the file
    assert any("no header" in n for n in d.notes)
    assert load(f, train_labels="2").train_labels.tolist() == ["7", "8", "7"]


def test_headerless_text_label_column_is_not_a_header(tmp_path):
    f = write(tmp_path / "raw.csv", "1,2,a\n3,4,b\n5,6,a\n")
    d = load(f, label_column="2")
    assert d.n_items == 3 and list(d.labels) == ["a", "b", "a"]


def test_header_can_be_forced(tmp_path):
    f = write(tmp_path / "num.csv", "10,20\n1,2\n3,5\n")
    assert load(f).n_items == 3
    d = load(f, header=True)
    assert d.n_items == 2 and d.feature_names == ["10", "20"]
    g = write(tmp_path / "h.csv", "x,y\n1,2\n3,5\n")
    with pytest.raises(MtcError, match="non-numeric"):
        load(g, header=False)


def test_columns_keep_order_and_drop(iris):
    d = load(iris, columns=["c", "a"], label_column="species")
    assert d.feature_names == ["c", "a"] and np.allclose(d.X[0], [0.5, 1.0])
    d = load(iris, drop=["species", "known", "b"])
    assert d.feature_names == ["a", "c"] and d.labels is None
    assert any("--drop" in n for n in d.notes)


def test_tsv_and_gzip_and_case_insensitive_suffix(tmp_path):
    d = load(write(tmp_path / "t.TSV", "x\ty\n1\t2\n3\t5\n"))
    assert d.feature_names == ["x", "y"] and d.X.shape == (2, 2)
    with gzip.open(tmp_path / "t.csv.gz", "wt") as fh:
        fh.write("x,y,lab\n1,2,u\n3,5,v\n4,4,u\n")
    d = load(tmp_path / "t.csv.gz", label_column="lab")
    assert d.X.shape == (3, 2) and list(d.labels) == ["u", "v", "u"]


def test_format_overrides_suffix(tmp_path):
    f = write(tmp_path / "data.dat", "1,2\n3,4\n")
    assert load(f, format="csv").X.shape == (2, 2)
    assert load(write(tmp_path / "d.csv", "1\t2\n3\t4\n"), format="TSV").X.shape == (2, 2)


def test_zero_one_table_is_boolean(tmp_path):
    d = load(write(tmp_path / "b.csv", "p,q,r\n1,0,1\n0,1,1\n"))
    assert d.kind == "boolean"
    assert any("0 or 1" in n for n in d.notes)


def test_standardize(iris):
    d = load(iris, label_column="species", drop=["known"], standardize=True)
    assert np.allclose(d.X.mean(axis=0), 0) and np.allclose(d.X.std(axis=0), 1)
    assert any("standardized" in n for n in d.notes)


def test_dropna_drops_rows_and_their_labels(tmp_path):
    f = write(tmp_path / "m.csv", "x,y,lab\n1,2,a\n,3,b\n4,inf,c\n5,6,\n7,9,e\n")
    d = load(f, label_column="lab", dropna=True)
    assert d.X.shape == (2, 2) and list(d.labels) == ["a", "e"]
    assert "dropped 3 of 5 rows with missing or infinite values (--dropna)" in d.notes
    d = load(write(tmp_path / "full.csv", "x,y\n1,2\n3,5\n"), dropna=True)
    assert "dropped 0 of 2 rows with missing or infinite values (--dropna)" in d.notes
    assert not any("dropped" in n for n in load(tmp_path / "full.csv").notes)


def test_explicit_separator(tmp_path):
    f = write(tmp_path / "semi.csv", "a;b;c\n1;2,5;3\n4;5;7\n0;1;1\n")
    with pytest.raises(MtcError, match="semicolons \\(use --sep ';'\\)"):
        load(write(tmp_path / "plain.csv", "a;b\n1;2\n3;4\n"))
    d = load(tmp_path / "plain.csv", sep=";")
    assert d.feature_names == ["a", "b"] and np.array_equal(d.X, [[1, 2], [3, 4]])
    with pytest.raises(MtcError, match="non-numeric feature column.*'b'"):
        load(f, sep=";")  # a decimal comma is text
    tabs = write(tmp_path / "t.txt", "x\ty\n1\t2\n3\t5\n")
    assert load(tabs, format="csv", sep="\\t").feature_names == ["x", "y"]
    assert load(tabs, format="tsv", sep="\t").X.shape == (2, 2)
    with pytest.raises(MtcError, match=r"tabs \(use --sep '\\t'\); expected semicolon-"):
        load(tabs, format="csv", sep=";")
    for bad in (";;", "", "\n"):
        with pytest.raises(MtcError, match="--sep .*one character"):
            load(tmp_path / "plain.csv", sep=bad)
    np.save(tmp_path / "a.npy", np.eye(3))
    with pytest.raises(MtcError, match="--sep applies to CSV and TSV text only"):
        load(tmp_path / "a.npy", sep=";")


def test_two_text_columns_are_a_permission_list(tmp_path):
    pairs = write(tmp_path / "grants.csv", "user,permission\nalice,read\nbob,write\n"
                                           "alice, write\ncarol,read\nbob,write\n")
    listed = write(tmp_path / "grants.txt", "alice read write\nbob write\ncarol read\n")
    d, ref = load(pairs), load(listed)
    assert d.kind == ref.kind == "boolean" and np.array_equal(d.X, ref.X)
    assert d.feature_names == ref.feature_names == ["read", "write"]
    assert d.X.tolist() == [[1, 1], [0, 1], [1, 0]]
    assert "two text columns 'user', 'permission' read as (user, permission) pairs" in d.notes
    assert "user-permission list: 3 users × 2 permissions, 4 grants" in d.notes
    numbered = write(tmp_path / "ids.tsv", "u\tp\nu10\tp2\nu9\tp10\nu9\tp2\n")
    assert load(numbered).X.tolist() == [[0, 1], [1, 1]]  # users u10, u9; permissions p10, p2
    with pytest.raises(MtcError, match="'permission' is empty in data row 2"):
        load(write(tmp_path / "gap.csv", "user,permission\nalice,read\nbob,\n"))
    with pytest.raises(MtcError, match="non-numeric feature column"):  # an option: a table
        load(pairs, label_column="user")
    with pytest.raises(MtcError, match="non-numeric feature column.*'colour'"):
        load(write(tmp_path / "mixed.csv", "x,colour\n1,red\n2,blue\n4,red\n"))


def test_row_number_columns_are_refused_other_integers_kept(tmp_path):
    d = load(write(tmp_path / "ints.csv", "age,score\n30,1\n41,2\n29,4\n35,3\n"))
    assert d.feature_names == ["age", "score"]  # 1, 2, 4, 3 is not a row number
    ok = write(tmp_path / "t.csv", "t,x\n0,1.5\n1,2.5\n2,0.5\n")
    assert load(ok, columns=["t", "x"]).feature_names == ["t", "x"]  # named by --columns
    assert load(ok, drop=["t"]).feature_names == ["x"]
    assert load(write(tmp_path / "two.csv", "t,x\n0,1.5\n1,2.5\n")).n_items == 2


def test_label_columns_are_refused_as_features_unless_named(tmp_path):
    """A column named like labels with at most 20 distinct integers is known classes; a float
    or many-valued one, or one that ``--columns`` names, is a feature."""
    f = write(tmp_path / "lab.csv", "x,y, Label \n1.5,2,0\n3,4.5,1\n2,1,1\n0.5,3,0\n")
    with pytest.raises(MtcError, match="' Label '.*--label-column ' Label '.*--drop ' Label '"):
        load(f)
    assert list(load(f, label_column=" Label ").labels) == ["0", "1", "1", "0"]
    assert load(f, drop=[" Label "]).feature_names == ["x", "y"]
    assert load(f, columns=["x", " Label "]).feature_names == ["x", " Label "]
    rng = np.random.default_rng(0)
    pd.DataFrame({"x": rng.random(500), "target": rng.random(500),
                  "cluster": np.arange(500) % 21 + 5}).to_csv(tmp_path / "f.csv", index=False)
    assert load(tmp_path / "f.csv").feature_names == ["x", "target", "cluster"]


@pytest.mark.parametrize("name, values, expected", [
    ("label", [1, 2, 2, 3], True), (" CLASS ", [0.0, 1.0, np.nan], True),
    ("species", ["a", "b"], True), ("target", [True, False], True),
    ("labels", np.arange(20), True), ("category", np.arange(21), False),
    ("target", [0.5, 1.0], False), ("labelled", [0, 1], False), ("x", [0, 1], False),
])
def test_label_like(name, values, expected):
    assert label_like(name, values) is expected


# --- arrays -------------------------------------------------------------------------------

def test_npy_with_label_index(tmp_path):
    np.save(tmp_path / "a.npy", np.array([[1.0, 2, 0], [3, 4, 1], [5, 7, 1]]))
    d = load(tmp_path / "a.npy", label_column="-1")
    assert d.feature_names == ["0", "1"] and d.kind == "table"
    assert list(d.labels) == ["0.0", "1.0", "1.0"]
    d = load(tmp_path / "a.npy")
    assert d.X.shape == (3, 3)


def test_npz_single_array_and_x_with_labels(tmp_path):
    np.savez(tmp_path / "one.npz", data=np.arange(6.0).reshape(3, 2))
    assert load(tmp_path / "one.npz").X.shape == (3, 2)
    X = np.array([[0.0, 1.5], [2, 1], [4, 0]])
    np.savez(tmp_path / "two.npz", X=X, labels=np.array(["a", "b", "a"]))
    d = load(tmp_path / "two.npz", label_column="labels")
    assert np.array_equal(d.X, X) and list(d.labels) == ["a", "b", "a"]
    assert load(tmp_path / "two.npz").labels is None
    np.savez(tmp_path / "pair.npz", data=X, y=np.array([1, 2, 1]))  # no X: y is named
    assert list(load(tmp_path / "pair.npz", label_column="y").labels) == ["1", "2", "1"]


def test_boolean_npy(tmp_path):
    np.save(tmp_path / "b.npy", np.array([[True, False], [False, True], [True, True]]))
    d = load(tmp_path / "b.npy")
    assert d.kind == "boolean" and d.X.dtype == np.float64


# --- sparse, images, permissions -----------------------------------------------------------

def test_matrix_market_is_csr(tmp_path):
    M = sp.random(6, 9, density=0.4, random_state=0, format="csr")
    scipy.io.mmwrite(tmp_path / "docs.mtx", M)
    d = load(tmp_path / "docs.mtx")
    assert sp.isspmatrix_csr(d.X) and d.X.dtype == np.float64 and d.kind == "sparse"
    assert d.X.shape == (6, 9) and np.allclose(d.X.toarray(), M.toarray())
    assert len(d.feature_names) == 9


def test_matrix_market_dense_layout(tmp_path):
    rng = np.random.default_rng(0)
    A, S = rng.normal(size=(4, 3)), rng.normal(size=(4, 4))
    for name, M in (("a.mtx", A), ("s.mtx", S + S.T), ("k.mtx", S - S.T)):
        scipy.io.mmwrite(tmp_path / name, M)  # array layout; general, symmetric, skew
        assert np.array_equal(load(tmp_path / name).X.toarray(),
                              scipy.io.mmread(tmp_path / name))


def test_png_grey_patches(tmp_path):
    d = load(grey_png(tmp_path / "g.png"))
    assert d.kind == "image" and d.X.shape == (15, 64)
    assert d.image == {"shape": (24, 40), "patch": 8}
    assert d.feature_names[0] == "p0" and d.feature_names[-1] == "p63"
    assert d.notes == ("image 40×24 grey → 15 patches of 8×8 (rows), 0 pixels cropped",)


def test_jpeg_rgb_cropped(tmp_path):
    rgb = np.random.default_rng(0).integers(0, 256, (24, 40, 3)).astype(np.uint8)
    Image.fromarray(rgb).save(tmp_path / "c.JPEG")
    d = load(tmp_path / "c.JPEG", patch=5)
    assert d.X.shape == (4 * 8, 25) and d.image == {"shape": (20, 40), "patch": 5}
    assert "160 pixels cropped" in d.notes[0] and "RGB" in d.notes[0]


def test_user_permission_lists(tmp_path):
    text = "# users and permissions\n1 1\n1 2\n2 2 3\n3 1 3\n"
    for f in (write(tmp_path / "perm.txt", text), tmp_path / "perm.txt.gz"):
        if f.suffix == ".gz":
            with gzip.open(f, "wt") as fh:
                fh.write(text)
        d = load(f)
        assert d.kind == "boolean" and d.feature_names == ["1", "2", "3"]
        assert np.array_equal(d.X, [[1, 1, 0], [0, 1, 1], [1, 0, 1]])
        assert d.X.dtype == np.float64 and "3 users" in d.notes[0]


def test_xlsx_and_parquet_read_as_csv(tmp_path):
    pytest.importorskip("openpyxl")
    pytest.importorskip("pyarrow")
    frame = pd.DataFrame({"a": [1.0, 2, 3.5, 0.5], "b": [2, 1, 4, 3],
                          "species": ["x", "y", "x", None]})
    frame.to_excel(tmp_path / "t.xlsx", index=False)
    frame.to_parquet(tmp_path / "t.parquet")
    csv_file = tmp_path / "t.csv"
    frame.to_csv(csv_file, index=False)
    ref = load(csv_file, label_column="species", dropna=True)
    for f in (tmp_path / "t.xlsx", tmp_path / "t.parquet"):
        d = load(f, label_column="species", dropna=True)
        assert np.array_equal(d.X, ref.X) and d.feature_names == ["a", "b"]
        assert list(d.labels) == ["x", "y", "x"]
        assert load(f, drop=["species", "b"]).feature_names == ["a"]
        with pytest.raises(MtcError, match="non-numeric feature column.*'species'"):
            load(f)
    with pd.ExcelWriter(tmp_path / "raw.xlsx") as book:  # no header; a second sheet
        pd.DataFrame([[1, 2.5, 7], [3, 4, 8], [5, 6, 7]]).to_excel(book, index=False,
                                                                   header=False)
        frame.to_excel(book, sheet_name="other")
    d = load(tmp_path / "raw.xlsx", label_column="2")
    assert d.X.tolist() == [[1, 2.5], [3, 4], [5, 6]] and list(d.labels) == ["7", "8", "7"]
    assert d.notes[0] == "read the first of 2 sheets, 'Sheet1'"
    with pytest.raises(MtcError, match="--no-header does not apply"):
        load(tmp_path / "t.parquet", header=False)


@pytest.mark.parametrize("suffix, module", [(".xlsx", "openpyxl"), (".parquet", "pyarrow")])
def test_missing_reader_library(tmp_path, monkeypatch, suffix, module):
    monkeypatch.setitem(sys.modules, module, None)  # import raises ImportError
    f = write(tmp_path / f"t{suffix}", "a,b\n")
    with pytest.raises(MtcError) as info:
        load(f)
    assert str(info.value) == f"{f}: reading {suffix} needs {module}: pip install 'mtc[io]'"


def test_formats_constant():
    assert set(FORMATS) == {"csv", "tsv", "xlsx", "parquet", "npy", "npz", "mtx", "image",
                            "permissions"}


# --- bad input ----------------------------------------------------------------------------

def _npy(name, A):
    def make(tmp):
        np.save(tmp / name, A)
        return tmp / name
    return make


def _code_points(points):
    """A one-character text array of raw code points (numpy stores UTF-32 unchecked)."""
    return np.array(points, dtype=np.uint32).view("<U1")


def _text(name, text):
    return lambda tmp: write(tmp / name, text)


def _raw(name, data: bytes):
    def make(tmp):
        (tmp / name).write_bytes(data)
        return tmp / name
    return make


def _mtx(name, A):
    def make(tmp):
        scipy.io.mmwrite(tmp / name, sp.csr_matrix(A))
        return tmp / name
    return make


def _npz(name, **arrays):
    def make(tmp):
        np.savez(tmp / name, **arrays)
        return tmp / name
    return make


def _png(name):
    return lambda tmp: grey_png(tmp / name)


def _needs(module, make):
    """``make``, or a skip when the optional reader ``module`` is not installed."""
    def needing(tmp):
        pytest.importorskip(module)
        return make(tmp)
    return needing


def _frame(name, frame):
    xlsx = name.endswith(".xlsx")

    def make(tmp):
        if xlsx:
            frame.to_excel(tmp / name, index=False)
        else:
            frame.to_parquet(tmp / name)
        return tmp / name
    return _needs("openpyxl" if xlsx else "pyarrow", make)


def _repeated_names(name):
    def make(tmp):
        import pyarrow as pa
        import pyarrow.parquet as pq
        pq.write_table(pa.table([[1, 3], [2, 4]], names=["a", "a"]), tmp / name)
        return tmp / name
    return _needs("pyarrow", make)


#: a header that claims 2 000 000 000 × 3 in a 79-byte file (review case N22e)
CLAIM = "%%MatrixMarket matrix coordinate real general\n2000000000 3 3\n1 1 1\n2 2 1\n3 3 1\n"
IRIS = "a,b,species,known\n1,2,x,s\n3,1,y,\n2,5,x,t\n"
WIDE = "n1,n2,n3,n4,n5,n6,v\na,b,c,d,e,f,1\ng,h,i,j,k,l,2\n"

BAD = {
    "not found": (lambda tmp: tmp / "missing.csv", {}, ["not found"]),
    "directory": (lambda tmp: (tmp / "dir.csv").mkdir() or tmp / "dir.csv", {},
                  ["directory"]),
    "zero bytes": (_text("empty.csv", ""), {}, ["empty"]),
    "blank lines only": (_text("blank.csv", "\n\n"), {}, ["empty"]),
    "header only": (_text("head.csv", "a,b\n"), {}, ["no data rows"]),
    "one row": (_text("one.csv", "a,b\n1,2\n"), {}, ["1 data row", "at least 2"]),
    "no feature left": (_text("lab.csv", IRIS), {"label_column": "species", "drop": ["a", "b"],
                                                   "train_labels": "known"},
                        ["no feature column left"]),
    "non-numeric": (_text("text.csv", IRIS), {},
                    ["'species'", "'known'", "--label-column", "--train-labels", "--drop"]),
    "non-numeric label": (_text("text.csv", IRIS), {},
                          ["'species'", "looks like one: --label-column species", "--drop"]),
    "label column": (_text("lab.csv", "x,Label,y\n1.5,0,2\n3,1,5\n4,0,1\n"), {},
                     ["'Label'", "class labels", "--label-column Label", "--drop Label"]),
    "non-numeric, many": (_text("wide.csv", WIDE), {},
                          ["'n1'", "'n5'", "…", "--drop"]),
    "nan": (_text("nan.csv", "a,b\n1,2\n3,\n4,nan\n5,6\n"), {},
            ["2 row(s)", "data row 2", "'b'", "--dropna"]),
    "inf": (_text("inf.csv", "a,b\n1,2\n-inf,3\n4,5\n"), {},
            ["1 row(s)", "data row 2", "'a'", "--dropna"]),
    "npy nan": (_npy("nan.npy", np.array([[1.0, 2], [3, np.nan], [4, 5]])), {},
                ["data row 2", "'1'"]),
    "missing label": (_text("ml.csv", "a,b,lab\n1,2,x\n3,4,\n5,7,y\n"),
                      {"label_column": "lab"}, ["'lab'", "data row 2", "--dropna"]),
    "dropna leaves one": (_text("few.csv", "a,b\n1,2\n,3\n4,\n"), {"dropna": True},
                          ["1 data row", "--dropna"]),
    "empty column": (_text("trail.csv", "a,b,\n1,2,\n3,4,\n"), {}, ["'Unnamed: 2'", "--drop"]),
    "unknown label": (_text("u.csv", IRIS), {"label_column": "specis"},
                      ["--label-column", "'specis'", "did you mean 'species'", "a, b"]),
    "unknown train": (_text("u.csv", IRIS), {"train_labels": "nope"},
                      ["--train-labels", "'nope'", "species"]),
    "unknown columns": (_text("u.csv", IRIS), {"columns": ["a", "bb"]},
                        ["--columns", "'bb'", "did you mean 'b'"]),
    "unknown drop": (_text("u.csv", IRIS), {"drop": ["zz"]}, ["--drop", "'zz'"]),
    "index out of range": (_text("raw.csv", "1,2\n3,4\n"), {"label_column": "5"},
                           ["--label-column", "'5'", "0..1"]),
    "same label and train": (_text("u.csv", IRIS),
                             {"label_column": "species", "train_labels": "species"},
                             ["--label-column", "--train-labels", "'species'"]),
    "label in columns": (_text("u.csv", IRIS), {"label_column": "species",
                                                "columns": ["a", "species"]},
                         ["--columns", "'species'", "--label-column"]),
    "columns repeated": (_text("u.csv", IRIS), {"columns": ["a", "b", "a"]},
                         ["--columns", "'a'", "more than once"]),
    "drop the label column": (_text("u.csv", IRIS), {"label_column": "species",
                                                     "drop": ["species"]},
                              ["--drop", "'species'", "--label-column"]),
    "forced header, one row": (_text("h.csv", "1,2\n"), {"header": True}, ["no data rows"]),
    "identical rows": (_text("same.csv", "a,b\n1,2\n1,2\n1,2\n"), {},
                       ["all 3 rows are identical", "nothing to select"]),
    "standardize constant column": (_text("k.csv", "a,b,c\n1,5,0\n2,5,1\n"),
                                    {"standardize": True}, ["'b'", "constant", "--drop"]),
    "standardize sparse": (_mtx("s.mtx", np.eye(3)), {"standardize": True},
                           ["--standardize", "dense"]),
    "mtx label column": (_mtx("s.mtx", np.eye(3)), {"label_column": "0"},
                         ["--label-column", "Matrix Market"]),
    "mtx drop": (_mtx("s.mtx", np.eye(3)), {"drop": ["0"]}, ["--drop"]),
    "mtx identical rows": (_mtx("s.mtx", np.ones((3, 2))), {}, ["identical"]),
    "image label column": (_png("g.png"), {"label_column": "x"}, ["--label-column"]),
    "not utf-8": (_raw("latin.csv", "a,b\n\xe9,1\n2,3\n".encode("latin-1")), {}, ["UTF-8"]),
    "ragged": (_text("rag.csv", "1,2\n3,4\n5,6,7\n"), {}, ["cannot read as CSV", "line 3"]),
    "semicolons": (_text("semi.csv", "a;b\n1;2\n3;4\n"), {}, ["semicolons"]),
    "bad npy": (_raw("bad.npy", b"not numpy at all"), {}, ["NumPy"]),
    "truncated npy": (_raw("cut.npy", b"\x93NUMPY\x01\x00garbage"), {}, ["NumPy"]),
    "npy header with a bytes key": (_raw("key.npy", b"\x93NUMPY\x01\x00v\x00{'descr': '<f8',"
                                    b"b'fortran_order': False, 'shape': (0,), }" + b" " * 60
                                    + b"\n"), {}, ["NumPy"]),
    "bad npz": (_raw("bad.npz", b"PK\x03\x04 broken zip"), {}, ["NumPy"]),
    "npy 1-D": (_npy("v.npy", np.arange(5.0)), {}, ["(5,)", "2-D"]),
    "npy complex": (_npy("c.npy", np.ones((3, 2), complex)), {}, ["complex"]),
    "npy text beyond U+10FFFF": (_npy("u.npy", _code_points([[0x110000, 49], [50, 51]])), {},
                                 ["not valid Unicode"]),
    "npy text with a surrogate": (_npy("s.npy", _code_points([[49, 0xD800], [50, 51]])), {},
                                  ["not valid Unicode"]),
    "npz labels with a surrogate": (_npz("l.npz", X=np.eye(3), y=_code_points([49, 0xDFFF, 50])),
                                    {"label_column": "y"}, ["'y'", "not valid Unicode"]),
    "npz several arrays": (_npz("several.npz", a=np.eye(3), b=np.eye(3)), {},
                           ["a, b", "'X'"]),
    "npz label array wrong length": (_npz("l.npz", X=np.eye(3), y=np.arange(4)),
                                     {"label_column": "y"}, ["--label-column", "'y'", "(4,)"]),
    "bad mtx": (_text("bad.mtx", "hello\n1 2 3\n"), {}, ["Matrix Market"]),
    "mtx claims 2e9 rows": (_text("claim.mtx", CLAIM), {},
                            ["2,000,000,000 × 3", "3 entries", "79 bytes", "not read"]),
    "mtx claims many entries": (_text("nnz.mtx", CLAIM.replace("2000000000 3 3", "40 40 900")),
                                {}, ["40 × 40 coordinate matrix with 900 entries", "74 bytes"]),
    "mtx array claims": (_text("dense.mtx", "%%MatrixMarket matrix array real general\n"
                                            "100 100\n1\n2\n"), {},
                         ["100 × 100 array", "bytes"]),
    "mtx.gz claims": (_raw("claim.mtx.gz", gzip.compress(CLAIM.encode())), {},
                      ["2,000,000,000 × 3", "gzip file"]),
    "mtx no columns": (_text("empty.mtx", "%%MatrixMarket matrix array real general\n"
                                           "2000000000 0\n"), {}, ["(2000000000, 0)", "no data"]),
    # the next two crash scipy's reader (SIGSEGV), so the dense layout is read by ours
    "dense mtx, two values on a line": (_text("two.mtx", "%%MatrixMarket matrix array real "
                                                         "general\n2 2\n1\n2 3"), {},
                                        ["Matrix Market", "line 4: 2 values", "one value"]),
    "dense mtx, too few values": (_text("few.mtx", "%%MatrixMarket matrix array integer "
                                                   "general\n1 3\n1.5"), {},
                                  ["1 × 3 general matrix takes 3 values", "holds 1"]),
    "dense mtx, not a number": (_text("nan.mtx", "%%MatrixMarket matrix array real general\n"
                                                 "% comment\n1 2\n1\nx\n"), {},
                                ["line 5: 'x' is not a number"]),
    "dense mtx, symmetric not square": (_text("sq.mtx", "%%MatrixMarket matrix array real "
                                                        "symmetric\n2 3\n1\n2\n3\n"), {},
                                        ["symmetric matrix must be square", "2 × 3"]),
    "corrupt mtx.gz": (_raw("c.mtx.gz", corrupt_gz(CLAIM)), {},
                       ["cannot read as Matrix Market", "invalid block type"]),
    "bad image": (_raw("bad.png", b"\x89PNG\r\n\x1a\nrubbish"), {}, ["cannot read the image"]),
    "too few patches": (_png("g.png"), {"patch": 24}, ["1 patch", "24×24"]),
    "too many pixels": (_png("g.png"), {"max_pixels": 500}, ["40×24", "960", "500"]),
    "bad permission line": (_text("perm.txt", "1 1\n2\n3 1 2\n"), {},
                            ["line 2", "user-permission"]),
    "corrupt gz csv": (_raw("c.csv.gz", corrupt_gz("a,b\n1,2\n3,5\n")), {},
                       ["cannot read as CSV", "invalid block type"]),
    "corrupt gz permissions": (_raw("p.txt.gz", corrupt_gz("1 1\n2 2\n")), {},
                               ["cannot read as a user-permission list", "invalid block type"]),
    "pandas index column": (_text("ix.csv", ",x,y\n0,1,2\n1,3,5\n2,4,1\n"), {},
                            ["'Unnamed: 0'", "row number or ID", "--drop 'Unnamed: 0'"]),
    "id column": (_text("id.csv", "ID,x,y\n17,1,2\n4,3,5\n9,4,1\n"), {},
                  ["'ID'", "its name", "--drop ID"]),
    "row number 0..n-1": (_text("n.csv", "x,t,y\n1.5,0,2\n3,1,5\n4,2,1\n"), {},
                          ["'t'", "run 0..2 in row order", "--drop t"]),
    "row number 1..n in npy": (_npy("n.npy", np.array([[1.0, 5], [2, 3], [3, 8], [4, 1]])),
                               {}, ["'0'", "run 1..4", "--drop 0"]),
    "two text columns, one empty": (_text("g.csv", "user,permission\nalice,read\n,write\n"),
                                    {}, ["(user, permission) pairs", "'user' is empty",
                                         "data row 2"]),
    "sep for an image": (_png("g.png"), {"sep": ";"}, ["--sep", "CSV and TSV"]),
    "not an xlsx": (_needs("openpyxl", _raw("junk.xlsx", b"PK\x03\x04 broken")), {},
                    ["Excel workbook"]),
    "empty sheet": (_frame("e.xlsx", pd.DataFrame()), {}, ["'Sheet1'", "empty"]),
    "xlsx header only": (_frame("h.xlsx", pd.DataFrame({"a": [], "b": []})), {},
                         ["no data rows"]),
    "not a parquet": (_needs("pyarrow", _raw("junk.parquet", b"PAR1 broken")), {},
                      ["cannot read as Parquet"]),
    "parquet no rows": (_frame("e.parquet", pd.DataFrame({"a": [], "b": []})), {},
                        ["no data rows"]),
    "parquet repeated names": (_repeated_names("r.parquet"), {},
                               ["cannot read as Parquet", "Multiple matches", "(a)"]),
    "unknown suffix": (_text("data.xls", "1,2\n"), {}, [".csv", ".npy", "--format"]),
    "unknown format": (_text("data.csv", "1,2\n"), {"format": "excel"},
                       ["--format", "'excel'", "csv"]),
}


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_bad_input_is_one_line_error(case, tmp_path, capfd):
    make, kwargs, expected = BAD[case]
    path = make(tmp_path)
    with pytest.raises(MtcError) as info:
        load(path, **kwargs)
    message = str(info.value)
    assert "\n" not in message and "\r" not in message
    assert path.name in message
    for part in expected:
        assert part in message, (part, message)
    assert capfd.readouterr() == ("", "")


def review_cases() -> dict[str, str]:
    """Case → wanted outcome in the review of ``mtc select``'s bad inputs
    (``tests/data/bad-inputs-select.tsv``)."""
    table = Path(__file__).resolve().parents[1] / "data" / "bad-inputs-select.tsv"
    with open(table, newline="") as fh:
        return {row["case"]: row["want"] for row in csv.DictReader(fh, delimiter="\t")}


REVIEW = {
    "N21b_corrupt_gz": ("corrupt gz csv", "invalid block type"),
    "N22e_mtx_claims_2e9_rows": ("mtx claims 2e9 rows", "2,000,000,000 × 3"),
    "N28e_perm_corrupt_gz": ("corrupt gz permissions", "invalid block type"),
}


@pytest.mark.parametrize("case", REVIEW)
def test_review_cases_are_one_line_errors(case, tmp_path):
    assert review_cases()[case] == "error"
    bad, part = REVIEW[case]
    make, kwargs, _ = BAD[bad]
    with pytest.raises(MtcError, match=part) as info:
        load(make(tmp_path), **kwargs)
    assert "\n" not in str(info.value)


def test_decompression_bomb_is_converted(tmp_path, monkeypatch, capfd):
    f = grey_png(tmp_path / "bomb.png")
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 100)  # 960 pixels > 2 × the limit
    with pytest.raises(MtcError, match="decompression bomb") as info:
        load(f)
    assert "bomb.png" in str(info.value) and "\n" not in str(info.value)
    assert capfd.readouterr() == ("", "")


def test_train_label_gaps_are_not_errors(tmp_path):
    f = write(tmp_path / "t.csv", "a,b,t\n1,2,\n3,4,\n5,7,x\n")
    assert load(f, train_labels="t").train_labels.tolist() == [None, None, "x"]


def test_npz_train_label_array_gaps_are_none(tmp_path):
    np.savez(tmp_path / "t.npz", X=np.array([[0.0, 1], [2, 1], [4, 0]]),
             y=np.array([1.0, np.nan, 2.0]))
    d = load(tmp_path / "t.npz", train_labels="y")
    assert d.train_labels.tolist() == ["1.0", None, "2.0"] and d.labels is None


def test_standardize_scales_extreme_values_first_and_keeps_ordinary_bits(tmp_path):
    """Review cases N11c and N12b: values of 1e308 and 1e-300 standardize to the z-scores of
    the same points at unit scale; ordinary data keep the bits of the plain z-score."""
    rng = np.random.default_rng(4)
    base = rng.normal(size=(40, 3)) + [0.0, 5.0, -2.0]
    plain = (base - base.mean(axis=0)) / base.std(axis=0)
    for scale in (1.0, 1e308 / 8, 1e-300):
        path = tmp_path / f"x{scale:g}.csv"
        pd.DataFrame(base * scale, columns=list("abc")).to_csv(path, index=False,
                                                               float_format="%.17g")
        np.testing.assert_allclose(load(path, standardize=True).X, plain, rtol=1e-9,
                                   atol=1e-12)
    for layout in (base, np.asfortranarray(base)):  # bit for bit the plain z-score
        z = _standardize(tmp_path / "x.csv", layout, list("abc"), "table")
        np.testing.assert_array_equal(z, (layout - layout.mean(axis=0)) / layout.std(axis=0))
