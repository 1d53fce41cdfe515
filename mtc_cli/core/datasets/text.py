"""The text datasets of Banerjee & Langford 2004 (Sect. 4.1), built from the files in
``data/`` into sparse document–term count matrices, cached under ``data/cache/``.

- ``classic3`` (MEDLINE, CISI, CRANFIELD) and ``classic2`` (CRANFIELD + CISI): from the
  document–term count matrix ``classic3.mat`` (Dhillon et al.'s 3891 × 4303 matrix, already
  stop-worded and pruned by its authors; the two empty CRANFIELD records are absent);
- ``cmu-different``, ``cmu-similar``, ``cmu-same`` (three groups each) and
  ``cmu-newsgroup-clean`` (all twenty), each ``-1000`` (every message of the groups) and
  ``-100`` (100 messages per group, drawn once with ``subset_seed``): from the raw 20
  Newsgroups messages (the original 19 997, 1000 per group; the "bydate" 18 846 also read),
  headers removed,
  tokenised into lowercase alphabetic words of ≥ 2 letters, English stop words removed
  (scikit-learn's list);
- ``yahoo``: the Yahoo K-series k1a count matrix (2340 × 21839, 20 classes) of CLUTO.

All datasets are then pruned alike: words in fewer than ``min_df`` documents or in more than
a fraction ``max_df`` of them are dropped, then documents left empty.
:meth:`Corpus.representation` gives the vectors the algorithms use: L2-normalised tf-idf
(scikit-learn's ``TfidfTransformer``) or L1-normalised term frequencies.
"""

from __future__ import annotations

import hashlib
import json
import os
import tarfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sp
from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer
from sklearn.preprocessing import normalize

NEWSGROUP_SETS = {
    "cmu-different": ("alt.atheism", "rec.sport.baseball", "sci.space"),
    "cmu-similar": ("talk.politics.guns", "talk.politics.mideast", "talk.politics.misc"),
    "cmu-same": ("comp.graphics", "comp.os.ms-windows.misc", "comp.windows.x"),
    "cmu-newsgroup-clean": None,   # all twenty groups
}
#: classic3.mat's labels (0, 1, 2) are MEDLINE, CISI, CRANFIELD (see data/classic3/SOURCE.md)
CLASSIC3 = ("MED", "CISI", "CRAN")
DATASETS = ("classic2", "classic3",
            *(f"{s}-{n}" for s in NEWSGROUP_SETS for n in (1000, 100)), "yahoo")
REPRESENTATIONS = ("l2_tfidf", "l1_tf")
TOKEN_PATTERN = r"(?u)\b[^\W\d_][^\W\d_]+\b"


@dataclass(frozen=True)
class Corpus:
    """A labelled document–term count matrix (documents × words, CSR)."""

    name: str
    counts: sp.csr_matrix
    labels: np.ndarray
    classes: tuple[str, ...]

    @property
    def n_docs(self) -> int:
        return self.counts.shape[0]

    @property
    def n_labels(self) -> int:
        return len(self.classes)

    def representation(self, kind: str) -> sp.csr_matrix:
        """``l2_tfidf``: tf × idf (smoothed idf, scikit-learn's default), rows of unit L2
        norm; ``l1_tf``: term counts, rows summing to one (word distributions)."""
        if kind == "l2_tfidf":
            return TfidfTransformer(norm="l2").fit_transform(self.counts).tocsr()
        if kind == "l1_tf":
            return normalize(self.counts, norm="l1").tocsr()
        raise ValueError(f"unknown representation {kind!r} (one of {REPRESENTATIONS})")

    def constant_error(self) -> float:
        """Error rate of the best constant classifier: 1 − the largest class fraction."""
        return 1.0 - np.bincount(self.labels).max() / self.n_docs


# --- raw sources ---------------------------------------------------------------------------

def read_newsgroups(path) -> tuple[list[str], list[str], list[str]]:
    """All messages of a 20 Newsgroups tarball, ``<top>/<group>/<number>`` (the original
    ``20_newsgroups/`` or the "bydate" ``20news-bydate-train|test/``): (ids, groups, bodies),
    sorted by group, then top directory, then message number. The header block (up to the
    first empty line) is removed; text is decoded as Latin-1."""
    docs = []
    with tarfile.open(path) as tar:
        for member in tar:
            if not member.isfile():
                continue
            part, group, number = Path(member.name).parts[-3:]
            text = tar.extractfile(member).read().decode("latin-1")
            _, sep, body = text.partition("\n\n")
            docs.append((group, part, int(number), body if sep else ""))
    docs.sort(key=lambda d: d[:3])
    return ([f"{g}/{p}/{i}" for g, p, i, _ in docs], [d[0] for d in docs],
            [d[3] for d in docs])


def newsgroup_counts(bodies: list[str]) -> sp.csr_matrix:
    """Word counts of message bodies: lowercase alphabetic tokens of ≥ 2 letters,
    scikit-learn's English stop words removed (``CountVectorizer``)."""
    vec = CountVectorizer(lowercase=True, token_pattern=TOKEN_PATTERN, stop_words="english",
                          dtype=np.float64)
    return vec.fit_transform(bodies).tocsr()


def read_classic3(path) -> tuple[sp.csr_matrix, np.ndarray]:
    """classic3.mat: counts (3891 × 4303) and labels 0 = MED, 1 = CISI, 2 = CRAN."""
    mat = scipy.io.loadmat(path)
    return sp.csr_matrix(mat["A"], dtype=np.float64), mat["labels"].ravel().astype(np.int64)


def read_cluto_sparse(path) -> sp.csr_matrix:
    """A CLUTO sparse matrix file (gzip allowed): first line ``rows cols``, then one line per
    row ``nnz col val col val …`` with 0-based columns (the k1a/k1b conversion)."""
    import gzip

    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as fh:
        n_rows, n_cols = map(int, fh.readline().split())
        indptr, indices, data = [0], [], []
        for line in fh:
            values = line.split()
            if not values:
                continue
            nnz = int(values[0])
            pairs = np.asarray(values[1:], dtype=np.float64).reshape(-1, 2)
            if len(pairs) != nnz:
                raise ValueError(f"{path}: row {len(indptr)}: declared {nnz} entries, "
                                 f"found {len(pairs)}")
            indices.append(pairs[:, 0].astype(np.int64))
            data.append(pairs[:, 1])
            indptr.append(indptr[-1] + nnz)
    if len(indptr) - 1 != n_rows:
        raise ValueError(f"{path}: expected {n_rows} rows, found {len(indptr) - 1}")
    return sp.csr_matrix((np.concatenate(data), np.concatenate(indices), indptr),
                         shape=(n_rows, n_cols))


def read_labels_csv(path) -> np.ndarray:
    """``doc,label`` CSV (header line, documents in row order) → label array."""
    rows = np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.int64, ndmin=2)
    if not np.array_equal(rows[:, 0], np.arange(len(rows))):
        raise ValueError(f"{path}: documents must be listed in order 0, 1, 2, …")
    return rows[:, 1]


# --- building a dataset --------------------------------------------------------------------

def prune(counts: sp.csr_matrix, labels: np.ndarray, min_df: int, max_df: float):
    """Drop words in fewer than ``min_df`` documents or in more than a fraction ``max_df``
    of them, then documents left without words. Returns (counts, labels)."""
    df = np.bincount(counts.indices, minlength=counts.shape[1])
    keep = (df >= min_df) & (df <= max_df * counts.shape[0])
    counts = counts[:, keep]
    nonempty = np.diff(counts.indptr) > 0
    return counts[nonempty].tocsr(), labels[nonempty]


def subsample_per_class(labels: np.ndarray, per_class: int, seed: int) -> np.ndarray:
    """Sorted indices of ``per_class`` documents drawn without replacement from each class
    (all of a class that has fewer)."""
    rng = np.random.default_rng(seed)
    picks = [rng.choice(np.flatnonzero(labels == c), size=min(per_class, np.sum(labels == c)),
                        replace=False) for c in np.unique(labels)]
    return np.sort(np.concatenate(picks))


def build(name: str, sources: dict, *, min_df: int, max_df: float,
          subset_seed: int) -> Corpus:
    """Build dataset ``name`` (one of :data:`DATASETS`) from ``sources`` = paths of
    ``classic3`` (.mat), ``newsgroups`` (tarball), ``yahoo`` (CLUTO matrix) and
    ``yahoo_labels`` (CSV)."""
    if name in ("classic2", "classic3"):
        counts, labels = read_classic3(sources["classic3"])
        classes = CLASSIC3
        if name == "classic2":          # CRANFIELD + CISI
            keep = labels != 0
            counts, labels, classes = counts[keep], labels[keep] - 1, CLASSIC3[1:]
    elif name == "yahoo":
        counts = read_cluto_sparse(sources["yahoo"])
        labels = read_labels_csv(sources["yahoo_labels"])
        if len(labels) != counts.shape[0]:
            raise ValueError(f"{sources['yahoo_labels']}: {len(labels)} labels for "
                             f"{counts.shape[0]} documents")
        classes = tuple(f"k1a-{c}" for c in range(labels.max() + 1))
    else:
        group_set, _, size = name.rpartition("-")
        if group_set not in NEWSGROUP_SETS or size not in ("100", "1000"):
            raise ValueError(f"unknown dataset {name!r} (one of {', '.join(DATASETS)})")
        _, groups, bodies = read_newsgroups(sources["newsgroups"])
        classes = NEWSGROUP_SETS[group_set] or tuple(sorted(set(groups)))
        index = {g: i for i, g in enumerate(classes)}
        chosen = np.array([i for i, g in enumerate(groups) if g in index])
        labels = np.array([index[groups[i]] for i in chosen])
        if size == "100":
            sub = subsample_per_class(labels, 100, subset_seed)
            chosen, labels = chosen[sub], labels[sub]
        counts = newsgroup_counts([bodies[i] for i in chosen])
    counts, labels = prune(counts, labels, min_df, max_df)
    return Corpus(name, counts, labels, tuple(classes))


def _fingerprint(name: str, sources: dict, settings: dict) -> str:
    """Cache key: the dataset, its settings and the size + mtime of each source file."""
    files = {k: [str(p), os.path.getsize(p), int(os.path.getmtime(p))]
             for k, p in sorted(sources.items())}
    blob = json.dumps({"name": name, "settings": settings, "files": files}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def load(name: str, sources: dict, cache_dir, *, min_df: int = 2, max_df: float = 0.5,
         subset_seed: int = 0) -> Corpus:
    """:func:`build`, cached as ``<cache_dir>/<name>-<key>.npz`` (written atomically, so
    parallel workers may race safely) and memoised per process."""
    sources = {k: str(v) for k, v in sources.items()}
    return _load(name, tuple(sorted(sources.items())), str(cache_dir), min_df, max_df,
                 subset_seed)


@lru_cache(maxsize=4)
def _load(name, sources, cache_dir, min_df, max_df, subset_seed) -> Corpus:
    sources = dict(sources)
    settings = {"min_df": min_df, "max_df": max_df, "subset_seed": subset_seed}
    path = Path(cache_dir) / f"{name}-{_fingerprint(name, sources, settings)}.npz"
    if path.is_file():
        with np.load(path, allow_pickle=False) as z:
            counts = sp.csr_matrix((z["data"], z["indices"], z["indptr"]),
                                   shape=tuple(z["shape"]))
            return Corpus(name, counts, z["labels"], tuple(z["classes"].tolist()))
    corpus = build(name, sources, min_df=min_df, max_df=max_df, subset_seed=subset_seed)
    from mtc_cli.core.files import new_temp_file

    fd, tmp = new_temp_file(path, suffix=".npz")
    os.close(fd)
    try:
        c = corpus.counts
        np.savez_compressed(tmp, data=c.data, indices=c.indices, indptr=c.indptr,
                            shape=np.array(c.shape), labels=corpus.labels,
                            classes=np.array(corpus.classes))
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
    return corpus
