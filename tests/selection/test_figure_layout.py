"""The figures of ``mtc select`` can be read: every text the renderer draws (titles, tick
labels, legend entries, annotations) lies inside the figure (a label placed in a panel
inside that panel), overlaps no other text, is at least 7 pt and never says "nan" — for a
clustering run and an ``auto`` run with a label column (its true k drawn), an svd run and a
boolean run drawn by ``mtc select`` itself, and for tables made to hold a run-off, an
abstention, a criterion without a choice, one whose choice has no curve (not boxed), a true
k outside the range, a tie of algorithms and an ``answer.csv``."""

import itertools
import re

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text
from matplotlib.transforms import Bbox
from PIL import Image
from sklearn.datasets import make_blobs

from mtc_cli.selection import figure, voting
from mtc_cli.show import plotting

#: small and fast: every criterion still runs
FAST = ["--k", "1..4", "--splits", "2", "--set", "references=2", "--set",
        "clest_references=1", "--set", "clest_splits=2", "--set", "permutations=3"]


def drawn_texts(fig) -> list:
    """(text, its extent in pixels) of every non-empty text drawn when the figure is (on a
    new Agg canvas: a figure that was saved is closed)."""
    canvas = FigureCanvasAgg(fig)
    drawn = {}
    draw = Text.draw

    def record(self, renderer):
        if self.get_visible() and self.get_text().strip():
            drawn[id(self)] = self
        return draw(self, renderer)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Text, "draw", record)
        canvas.draw()
    renderer = canvas.get_renderer()
    return [(t, t.get_window_extent(renderer)) for t in drawn.values()]


def check_layout(fig) -> list[str]:
    """Assert the figure's texts are readable; returns them."""
    texts = drawn_texts(fig)
    assert len(texts) > 10
    edge = fig.bbox
    for t, box in texts:
        what = repr(t.get_text())
        assert t.get_fontsize() >= 7, f"{what} is {t.get_fontsize()} pt"
        assert not re.search(r"\bnan\b", t.get_text(), re.IGNORECASE), what
        assert (box.x0 >= edge.x0 - 0.5 and box.y0 >= edge.y0 - 0.5
                and box.x1 <= edge.x1 + 0.5 and box.y1 <= edge.y1 + 0.5), \
            f"{what} leaves the figure: {box} beyond {edge}"
    for t, box in texts:  # the labels placed in a panel stay in it
        if t.axes is not None and t in t.axes.texts:
            panel = t.axes.bbox
            assert (box.x0 >= panel.x0 - 0.5 and box.x1 <= panel.x1 + 0.5
                    and box.y0 >= panel.y0 - 0.5 and box.y1 <= panel.y1 + 0.5), \
                f"{t.get_text()!r} leaves its panel"
    for (a, box_a), (b, box_b) in itertools.combinations(texts, 2):
        cut = Bbox.intersection(box_a, box_b)
        assert cut is None or cut.width < 1 or cut.height < 1, \
            f"{a.get_text()!r} overlaps {b.get_text()!r}"
    return [t.get_text() for t, _ in texts]


# --- the figures mtc select draws ----------------------------------------------------------

def _blobs(path):
    X, y = make_blobs(60, 2, centers=3, cluster_std=0.5, random_state=1)
    pd.DataFrame(X, columns=["a", "b"]).assign(label=y).to_csv(path, index=False)
    return path


def _image(path):
    rng = np.random.default_rng(0)  # 144 patches of 64 pixels: Minka's rank is defined
    u, v = rng.random((96, 2)), rng.random((2, 96))
    Image.fromarray(np.clip(120 * u @ v + rng.normal(0, 3, (96, 96)), 0, 255)
                    .astype(np.uint8)).save(path)
    return path


def _grants(path):
    rng = np.random.default_rng(4)
    roles = rng.random((3, 12)) < 0.4
    users = roles[rng.integers(3, size=30)]
    path.write_text("".join(f"u{i} " + " ".join(f"p{j}" for j in np.flatnonzero(r)) + "\n"
                            for i, r in enumerate(users)))
    return path


RUNS = {
    "gmm": (_blobs, "blobs.csv", ["--label-column", "label", "--model", "gmm"]),
    "auto": (_blobs, "blobs.csv", ["--label-column", "label", "--model", "auto"]),
    "svd": (_image, "texture.png", []),
    "boolean": (_grants, "grants.txt", []),
}


@pytest.fixture(scope="module", params=list(RUNS))
def drawn(request, tmp_path_factory):
    """(kind, the figure ``mtc select`` saved as select.png, its run directory)."""
    from mtc_cli.cli import main

    make, name, args = RUNS[request.param]
    tmp = tmp_path_factory.mktemp(request.param)
    saved = []
    save = plotting.save

    def keep(fig, path):
        saved.append(fig)
        return save(fig, path)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(plotting, "save", keep)
        result = CliRunner().invoke(main, ["select", str(make(tmp / name)), *args, *FAST,
                                           "--out", str(tmp / "run")],
                                    catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert len(saved) == 1
    return request.param, saved[0], tmp / "run"


def heat_rows(ax) -> dict:
    """criterion → (the text on the right of its row, the k boxed in its row) of a heat map."""
    from matplotlib.patches import Rectangle

    (side,) = ax.child_axes
    boxed = {}
    for p in ax.patches:
        if isinstance(p, Rectangle) and not p.get_fill() and p.get_edgecolor()[:3] == (0, 0, 0):
            x, y = p.get_xy()
            boxed.setdefault(round(y + 0.5), []).append(x + 0.5)
    left = [t.get_text().split(" (")[0] for t in ax.get_yticklabels()]
    right = [t.get_text() for t in side.get_yticklabels()]
    return {name: (text, boxed.get(i, [])) for i, (name, text)
            in enumerate(zip(left, right, strict=True)) if name}


def true_k_lines(ax) -> set:
    """The k of the dashed vertical lines (the true k) drawn on a heat map."""
    from matplotlib.collections import LineCollection

    return {float(seg[0][0]) for c in ax.collections if isinstance(c, LineCollection)
            for seg in c.get_segments()}


def test_select_figures_are_readable(drawn):
    kind, fig, run = drawn
    texts = check_layout(fig)
    summary = pd.read_csv(run / "summary.csv")
    heat = fig.axes[0]
    true_k = summary["true_k"].dropna().unique()
    if kind in ("gmm", "auto"):  # a label column given: its true k drawn and named
        assert list(true_k) == [3] and true_k_lines(heat) == {3.0}
        assert "true k = 3" in texts
    else:
        assert not len(true_k) and not true_k_lines(heat)
    if kind == "auto":
        decision = pd.read_csv(run / "auto.csv")
        assert [t.get_text() for t in heat.get_yticklabels()] == list(decision["model"])
        return
    rows, curves = heat_rows(heat), pd.read_csv(run / "curves.csv")
    assert set(rows) == set(summary["criterion"])
    for name, k in zip(summary["criterion"], summary["selected_k"], strict=True):
        right, boxed = rows[name]  # each criterion's choice as the table says it
        if np.isnan(k):
            assert (right, boxed) == ("no choice", [])
        elif name not in set(curves["criterion"]):  # a k found without a curve: not boxed
            assert (right, boxed) == (f"{k:g} (found directly, no curve)", [])
        else:
            assert right.split()[0] == f"{k:g}" and boxed == [k]
    if kind == "svd":  # Minka's rank is found without a curve
        assert not (curves["criterion"] == "pca_mle").any()
        assert rows["pca_mle"][1] == [] and "no curve" in rows["pca_mle"][0]
    if kind in ("svd", "boolean"):
        curves = pd.read_csv(run / "curves.csv")
        ax = fig.axes[0]
        lo, hi = ax.get_xlim()
        assert lo <= curves["k"].min() - 0.5 and curves["k"].max() + 0.5 <= hi


# --- tables made for the hard cases --------------------------------------------------------

def _selection(k_hi: int, true_k: float):
    """(summary, curves, vote, rule): 12 criteria on k = 1..k_hi, two of them voters that
    choose k_hi (abstaining), one without a choice, one (c_index) whose choice comes
    without a curve, a weighted run-off."""
    names = ["mtc", "bic", "aic", "silhouette", "gap", "clest", "hartigan", "knee",
             "davies_bouldin", "calinski_harabasz", "prediction_strength", "c_index"]
    chosen = [3, 4, 4, 3, k_hi, 2, np.nan, 5, 3, k_hi, 4, 6]
    rng = np.random.default_rng(1)
    curves = pd.concat([pd.DataFrame({"criterion": c, "k": np.arange(1, k_hi + 1),
                                      "value": rng.random(k_hi)}) for c in names
                        if c not in ("hartigan", "c_index")], ignore_index=True)
    summary = pd.DataFrame({"criterion": names, "selected_k": np.array(chosen, dtype=float),
                            "k_min": 1, "k_max": k_hi, "true_k": true_k})
    rule = voting.VoteRule(weights={c: w for c, w in zip(names[1:11], np.linspace(0.9, 0.4, 10),
                                                     strict=True)},
                       edge_abstains=True, runoff=True, name="made")
    vote = voting.elect(dict(zip(names, summary["selected_k"], strict=True)), rule, k_hi)[1]
    return summary, curves, vote, rule


@pytest.mark.parametrize("k_hi", [8, 60])
def test_a_run_off_an_abstention_and_no_choice_are_drawn_and_readable(k_hi):
    summary, curves, vote, rule = _selection(k_hi, true_k=4)
    assert "finalist" in vote
    answer = pd.DataFrame({"model": ["gmm"], "k": [4], "runner_up_model": ["kmeans"],
                           "runner_up_k": [3], "support": [0.625], "runner_up_support": [0.25],
                           "draws": [8], "weak": [False], "at_edge": [False]})
    projection = pd.DataFrame({"pc1": np.arange(30.0), "pc2": np.arange(30.0) % 7,
                               "cluster": np.arange(30) % 12})
    fig = figure.select_figure(curves, summary, vote, {"projection": projection},
                               "made.csv: a title as long as a real one, k = 1..8, 600 objects"
                               " × 5 features", rule, answer)
    texts = check_layout(fig)
    assert "no choice" in texts
    rows = heat_rows(fig.axes[0])
    assert rows["c_index"] == ("6 (found directly, no curve)", [])  # its row has no cell
    assert rows["hartigan"] == ("no choice", []) and rows["knee"][1] == [5]
    assert true_k_lines(fig.axes[0]) == {4.0} and "true k = 4" in texts
    assert sum("abstains" in t for t in texts) == 3  # two rows and the legend
    assert any("run-off" in t for t in texts)
    assert any("answer: gmm, k = 4 — the answer is backed by 5 of 8 random splits; the "
               "runner-up (the best other k), kmeans at k = 3, by 2 of 8" in t for t in texts)
    assert any("gmm at the answer's k = 4 (30 shown)" in t for t in texts)
    plotting.pyplot().close(fig)


def test_a_true_k_outside_the_range_is_said_not_drawn():
    summary, curves, vote, rule = _selection(8, true_k=12)
    fig = figure.select_figure(curves, summary, vote, {}, "made.csv", rule)
    texts = check_layout(fig)
    assert "true k = 12, outside k = 1..8" in texts and not true_k_lines(fig.axes[0])
    plotting.pyplot().close(fig)


def test_no_vote_is_said(tmp_path):
    summary, curves, _, rule = _selection(8, true_k=np.nan)
    summary["selected_k"] = np.nan
    vote = voting.elect(dict.fromkeys(summary["criterion"], np.nan), rule, 8)[1]
    vote.to_csv(tmp_path / "vote.csv", index=False)  # as the figure reads it: no dtypes
    fig = figure.select_figure(curves, summary, pd.read_csv(tmp_path / "vote.csv"), {},
                               "made.csv", rule)
    texts = check_layout(fig)
    assert "no vote: no voter has a choice" in texts and texts.count("no choice") == 12
    plotting.pyplot().close(fig)


def test_auto_shows_every_algorithm_and_its_ties():
    models = ["kmeans", "gmm", "ward", "average", "complete", "single", "spectral",
              "pathbased", "hdbscan"]
    rng = np.random.default_rng(2)
    ks = np.arange(2, 11)
    curves = {m: pd.Series(rng.random(len(ks)) + 0.1, index=ks) for m in models}
    for m in ("single", "spectral", "pathbased"):  # three perfectly stable at k = 3
        curves[m][3] = 0.0
    from mtc_cli.selection import auto

    votes = dict(zip(models, [1, 1, 4, 4, 3, 3, 2, 3, np.nan], strict=True))
    decision = auto.standings(curves, votes)
    stability = pd.concat([pd.DataFrame({"model": m, "k": c.index, "value": c.to_numpy()})
                           for m, c in curves.items()], ignore_index=True)
    answer = pd.DataFrame({"model": ["single"], "k": [3], "runner_up_model": [np.nan],
                           "runner_up_k": [np.nan], "support": [np.nan]})
    fig = figure.auto_figure(stability, decision, None, "made.csv: auto", answer=answer,
                             true_k=12)
    texts = check_layout(fig)
    heat = fig.axes[0]
    assert "true k = 12, outside k = 1..10" in texts and not true_k_lines(heat)
    assert [t.get_text() for t in heat.get_yticklabels()] == models
    title = heat.get_title(loc="left").replace("\n", " ")
    assert "winner: single" in title and "tied with spectral" in title and "pathbased" in title
    assert "answer: single, k = 3" in " ".join(texts) and "runner-up" not in " ".join(texts)
    plotting.pyplot().close(fig)
