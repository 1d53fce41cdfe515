"""Text datasets: raw readers on tiny synthetic files, pruning, subsets, the cache, and
the shipped classic3 matrix."""

import gzip
import io
import tarfile

import numpy as np
import pytest
import scipy.sparse as sp

from mtc_cli.core.datasets import text


def make_tarball(path, messages):
    with tarfile.open(path, "w:gz") as tar:
        for name, body in messages.items():
            data = body.encode("latin-1")
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


@pytest.fixture
def sources(tmp_path, root):
    msgs = {}
    for part in ("20news-bydate-train", "20news-bydate-test"):
        for g, words in [("alt.atheism", "god belief atheism"),
                         ("rec.sport.baseball", "pitcher inning baseball"),
                         ("sci.space", "orbit shuttle launch"),
                         ("comp.graphics", "pixel image render")]:
            for i in range(3):
                msgs[f"{part}/{g}/{i + (0 if part.endswith('train') else 50)}"] = (
                    f"From: someone@x.org\nSubject: header words\n\n{words} the and {words} "
                    f"common{i} shared\n")
    make_tarball(tmp_path / "ng.tar.gz", msgs)
    return {"newsgroups": tmp_path / "ng.tar.gz",
            "classic3": root / "data/classic3/classic3.mat"}


def test_read_newsgroups_strips_headers_and_sorts(sources):
    ids, groups, bodies = text.read_newsgroups(sources["newsgroups"])
    assert len(ids) == 24
    assert groups == sorted(groups)
    assert all("Subject" not in b and "someone" not in b for b in bodies)


def test_newsgroup_dataset_drops_stop_words_rare_and_common_words(sources):
    c = text.build("cmu-different-1000", sources, min_df=2, max_df=0.5, subset_seed=0)
    assert c.n_docs == 18 and c.n_labels == 3
    assert np.array_equal(np.bincount(c.labels), [6, 6, 6])
    # "the"/"and" are stop words; "shared" is in every document (> max_df); "common0".."2"
    # hold a digit (not alphabetic tokens); the 9 topic words are in 6 of 18 (kept)
    assert c.counts.shape[1] == 9
    sub = text.build("cmu-different-100", sources, min_df=1, max_df=1.0, subset_seed=0)
    assert sub.n_docs == 18                          # fewer than 100 per group: all


def test_subsample_per_class_draws_without_replacement():
    labels = np.repeat([0, 1, 2], [50, 7, 30])
    idx = text.subsample_per_class(labels, 10, seed=1)
    assert np.array_equal(np.bincount(labels[idx]), [10, 7, 10])
    assert len(np.unique(idx)) == len(idx)


def test_prune_by_document_frequency_by_hand():
    counts = sp.csr_matrix(np.array([[1, 0, 2, 0], [1, 1, 0, 0], [1, 0, 0, 0], [1, 0, 0, 3]],
                                    dtype=float))
    out, labels = text.prune(counts, np.arange(4), min_df=1, max_df=0.5)
    # word 0 is in 4/4 documents (> 0.5): dropped; document 2 is then empty
    assert out.toarray().tolist() == [[0, 2, 0], [1, 0, 0], [0, 0, 3]]
    assert labels.tolist() == [0, 1, 3]


def test_cluto_reader(tmp_path):
    path = tmp_path / "m.txt.gz"
    with gzip.open(path, "wt") as fh:
        fh.write("2 4\n2 0 1 3 2\n1 1 5\n")
    assert text.read_cluto_sparse(path).toarray().tolist() == [[1, 0, 0, 2], [0, 5, 0, 0]]


def test_cache_round_trip(tmp_path, sources):
    a = text.load("classic2", sources, tmp_path / "cache")
    files = list((tmp_path / "cache").glob("classic2-*.npz"))
    assert len(files) == 1
    text._load.cache_clear()
    b = text.load("classic2", sources, tmp_path / "cache")
    assert (a.counts != b.counts).nnz == 0 and np.array_equal(a.labels, b.labels)
    assert a.classes == b.classes


def test_shipped_classic3_and_classic2(sources):
    c3 = text.build("classic3", sources, min_df=1, max_df=1.0, subset_seed=0)
    assert c3.counts.shape == (3891, 4303)
    assert c3.constant_error() == pytest.approx(1 - 1460 / 3891)
    c2 = text.build("classic2", sources, min_df=1, max_df=1.0, subset_seed=0)
    assert c2.n_docs == 1460 + 1398 and c2.classes == ("CISI", "CRAN")


def test_representations_are_normalised(sources):
    c = text.build("classic3", sources, min_df=2, max_df=0.5, subset_seed=0)
    l2 = c.representation("l2_tfidf")
    l1 = c.representation("l1_tf")
    np.testing.assert_allclose(sp.linalg.norm(l2, axis=1), 1.0)
    np.testing.assert_allclose(np.asarray(l1.sum(axis=1)).ravel(), 1.0)
