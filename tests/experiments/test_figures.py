"""Figures: integer choices drawn on their ticks, legends outside the data, and a user's
data named in the title instead of the paper's figure."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mtc_cli.show import plotting


def test_dodge_slots_are_symmetric_and_fit_the_grid_step():
    offsets, width = plotting.dodge(np.arange(0.1, 1.01, 0.05), 3, share=0.6)
    assert offsets == pytest.approx([-width, 0.0, width])
    assert 3 * width == pytest.approx(0.6 * 0.05)
    # a coarse grid: the group stays within an eighth of the range around its point
    _, coarse = plotting.dodge([0.2, 0.7, 1.4], 3, share=0.6)
    assert 3 * coarse == pytest.approx(0.6 * 1.2 / 8)
    assert plotting.dodge([2.0], 2)[1] == pytest.approx(0.3)


@pytest.mark.parametrize("place", [plotting.legend_below, plotting.legend_beside])
def test_legends_lie_outside_the_axes(place):
    fig, axes = plotting.figure()
    ax = axes[0, 0]
    ax.plot([0, 1], [0, 1], label="a curve")
    ax.set_xlabel("k")
    legend = place(ax)
    fig.canvas.draw()
    box, frame = legend.get_window_extent(), ax.get_window_extent()
    assert not box.overlaps(frame)
    plotting.pyplot().close(fig)


def test_gmm_overlap_draws_selected_k_at_exact_values(monkeypatch, tmp_path):
    from experiments import gmm_overlap as g

    p = g.Params(sigma_over_d=[0.2, 0.5, 0.8], reps=3, k_max=4, example_sigmas=[0.2])
    rng = np.random.default_rng(0)
    rows = pd.DataFrame([{"sigma_over_d": s, "rep": r, "criterion": c, "k": k,
                          "score": rng.normal()}
                         for s in p.sigma_over_d for r in range(p.reps)
                         for c in (*g.CRITERIA, "training_cost") for k in range(1, 5)])
    summary = g.experiment.summarize(rows, p)
    figures = []
    monkeypatch.setattr(plotting, "save", lambda fig, path: figures.append(fig) or path)
    g.experiment.plot(rows, summary, p, tmp_path)
    ax = figures[0].axes[3]  # the selected-k panel, below the three cost curves
    medians = [line for line in ax.get_lines() if line.get_linestyle() == "None"]
    assert len(medians) == len(g.CRITERIA)
    xs = {}
    for line in medians:
        c = next(c for c in g.CRITERIA if line.get_label().startswith(g.LABELS[c]))
        s = summary[summary["criterion"] == c].sort_values("sigma_over_d")
        assert list(line.get_ydata()) == list(s["selected_k"])  # not nudged off its k
        xs[c] = np.asarray(line.get_xdata())
    # told apart side by side instead: BIC left of σ, MTC at σ, AIC right of σ
    assert xs["mtc"] == pytest.approx(p.sigma_over_d)
    assert (xs["bic"] < xs["mtc"]).all() and (xs["mtc"] < xs["aic"]).all()
    plotting.pyplot().close("all")


def test_user_data_is_named_in_the_title_not_the_paper():
    from experiments import boolean_denoising as bd
    from experiments import stability_leukemia as sl

    assert "Lange et al." in sl.figure_title(sl.Params(), 5)
    own = sl.Params(dataset=sl.Table(path=Path("/somewhere/my_table.csv")))
    title = sl.figure_title(own, 5)
    assert "my_table.csv" in title and "Lange" not in title and "Golub" not in title
    assert bd.data_note(bd.Params()) == "(MTC Fig. 3)"
    mixed = bd.Params(real=[bd.HP / "hc.txt.gz", Path("/somewhere/acl.txt.gz")])
    assert bd.data_note(mixed) == "on acl.txt.gz"
