"""The figure of a selection: one heat map of every criterion's curve over k (each row
normalised, 1 = its best) with its choice boxed, the voters above the others and the true k
marked; the tally and the run-off; a view of the data — a 2-D PCA projection coloured by the
clustering at the voted k, or the singular values. ``--model auto``: one row per algorithm
of its S(k)/S_perm(k), its lowest value, its vote and the true k marked, beside the
winner's clustering.

``select_figure`` and ``auto_figure`` return the Figure (its layout is tested);
``save_figure`` and ``save_auto_figure`` write it as a PNG."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from mtc_cli.selection.catalog import CRITERIA

#: colours (Okabe & Ito): the voted k, a finalist or a k tied for the lead, the true k
_VOTED, _FINALIST, _OTHER, _TRUTH = "#0072B2", "#E69F00", "#BBBBBB", "#D55E00"
#: the cells without a value (k where a criterion is not defined or not computed)
_NO_VALUE = "#DDDDDD"
_HEAT = "viridis"
#: inches per row of a heat map
_ROW = 0.22
#: beside the k of a criterion that finds it directly, without a curve over k to draw
#: (:class:`mtc_cli.selection.readers.Reported`): its row is all "no value", nothing boxed
_DIRECT = "(found directly, no curve)"


def normalised(curve: pd.DataFrame, name: str) -> np.ndarray:
    """The curve of criterion ``name`` scaled to [0, 1] with 1 at its best value (a curve
    better low flipped), or as its reader draws it (Gavish & Donoho's s_k/τ as 1 where the
    rank is kept, s_k > τ, else 0)."""
    v = curve["value"].to_numpy(dtype=float)
    reader = CRITERIA[name].reader
    if hasattr(reader, "normalise"):
        return reader.normalise(v)
    ok = np.isfinite(v)
    if not ok.any():
        return v
    lo, hi = np.nanmin(v[ok]), np.nanmax(v[ok])
    z = (v - lo) / (hi - lo) if hi > lo else np.full_like(v, 0.5)
    return 1.0 - z if CRITERIA[name].better == "low" else z


def _k(v) -> str:
    return f"{v:g}"


def _box(ax, x, y, *, dashed: bool = False) -> None:
    """A box around the cell (x, y): black on a white halo, seen on every colour."""
    from matplotlib.patches import Rectangle

    for colour, lw in (("white", 3.2), ("black", 1.4)):
        ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, ec=colour, lw=lw,
                               ls="--" if dashed and colour == "black" else "-", zorder=4))


def _heat_axes(ax, values: np.ndarray, ks: np.ndarray, names: list, right: list, *,
               cmap: str, vmin: float, vmax: float):
    """``values`` (rows × ks) as cells, no-value cells hatched grey, ``names`` on the left
    and ``right`` on the right of each row; returns the mesh (for a colour bar) and the
    right-hand axis."""
    from matplotlib.patches import Rectangle
    from matplotlib.ticker import MaxNLocator

    ys = np.arange(len(names))
    ax.add_patch(Rectangle((ks[0] - 0.5, -0.5), len(ks), len(names), fc=_NO_VALUE,
                           ec="#999999", lw=0, hatch="////", zorder=0))
    mesh = ax.pcolormesh(np.append(ks, ks[-1] + 1) - 0.5, np.arange(len(names) + 1) - 0.5,
                         np.ma.masked_invalid(values), cmap=cmap, vmin=vmin, vmax=vmax,
                         edgecolors="white", linewidth=0.4 if len(ks) <= 30 else 0,
                         zorder=1)
    ax.set_xlim(ks[0] - 0.5, ks[-1] + 0.5)
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.grid(False)
    ax.set_yticks(ys, names, fontsize=7.5)
    ax.tick_params(axis="y", length=0)
    side = ax.secondary_yaxis("right")
    side.set_yticks(ys, right, fontsize=7.5)
    side.tick_params(length=0)
    side.spines["right"].set_visible(False)
    if len(ks) <= 25:
        ax.set_xticks(ks)
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("k")
    for spine in ax.spines.values():
        spine.set_visible(False)
    return mesh, side


def _true_k(ax, true_k: float, ks: np.ndarray, blocks: list) -> list:
    """The true k (of a label column; NaN: none) as a dashed line over the rows ``blocks``
    ((top, bottom) each) of a heat map over ``ks``; its legend entry, which says so when the
    true k lies outside the range drawn (no line then), or nothing without a true k."""
    from matplotlib.lines import Line2D

    if not np.isfinite(true_k):
        return []
    inside = ks[0] <= true_k <= ks[-1]
    if inside:
        for top, bottom in blocks:
            ax.vlines(true_k, top, bottom, color=_TRUTH, lw=1.6, ls=(0, (4, 2)), zorder=1.5)
    return [Line2D([], [], color=_TRUTH, lw=1.6, ls=(0, (4, 2)),
                   label=f"true k = {true_k:g}" + ("" if inside else
                                                   f", outside k = {ks[0]}..{ks[-1]}"))]


def draw_heatmap(ax, curves: pd.DataFrame, summary: pd.DataFrame, rule=None):
    """Every criterion of ``summary`` as a row over k: its curve normalised (1 = its best;
    :func:`normalised`), its chosen k boxed (dashed: a voter's choice at the largest k,
    which abstains under ``rule``), its choice on the right ("no choice" without one; a k
    found without a curve, such as Minka's rank, unboxed and said so); the
    voters of ``rule`` (:class:`mtc_cli.selection.voting.VoteRule`; None: every criterion)
    above the others, a blank row between; the true k (``summary.true_k``) as a line.
    Returns the mesh, for a colour bar."""
    from matplotlib.patches import Patch, Rectangle

    names = list(summary["criterion"])
    weights = None if rule is None else rule.weights
    voters = [c for c in names if weights is None or c in weights]
    others = [c for c in names if c not in voters]
    rows = voters + ([None] if voters and others else []) + others
    chosen = summary.set_index("criterion")["selected_k"].astype(float)
    k_hi = int(summary["k_max"].max())
    ks_seen = [*curves["k"].astype(int), *chosen.dropna().astype(int),
               int(summary["k_min"].min()), k_hi]
    ks = np.arange(min(ks_seen), max(ks_seen) + 1)
    values = np.full((len(rows), len(ks)), np.nan)
    right, abstains = [], False
    weighted = weights is not None and len(set(weights.values())) > 1
    for i, name in enumerate(rows):
        if name is None:
            right.append("")
            continue
        cur = curves[curves["criterion"] == name].sort_values("k")
        if len(cur):
            values[i, cur["k"].to_numpy(dtype=int) - ks[0]] = normalised(cur, name)
        k = chosen.get(name, np.nan)
        if not np.isfinite(k):
            right.append("no choice")
            continue
        if not len(cur):  # a k found directly (Minka's rank, HDBSCAN's count): no cell to box
            right.append(f"{_k(k)} {_DIRECT}")
            continue
        silent = (name in voters and rule is not None and rule.edge_abstains and k >= k_hi)
        abstains |= silent
        right.append(_k(k) + (" abstains" if silent else "")
                     + (f"  w {weights[name]:.2f}" if weighted and name in voters else ""))
        _box(ax, k, i, dashed=silent)
    labels = ["" if r is None else f"{r} (1: s_k > τ)" if r == "gavish_donoho" else r
              for r in rows]
    mesh, side = _heat_axes(ax, values, ks, labels, right, cmap=_HEAT, vmin=0.0, vmax=1.0)
    for i, name in enumerate(rows):
        if name in others:
            ax.get_yticklabels()[i].set_color("#555555")
    handles = [Patch(fill=False, ec="black", lw=1.4, label="its choice (right: k)")]
    if abstains:
        handles.append(Patch(fill=False, ec="black", lw=1.4, ls="--",
                             label=f"a voter's choice at the largest k = {k_hi}: abstains"))
    if np.isnan(values[[r is not None for r in rows]]).any():
        handles.append(Patch(fc=_NO_VALUE, ec="#999999", hatch="////", label="no value"))
    true_k = summary["true_k"].iloc[0] if "true_k" in summary else np.nan
    handles += _true_k(ax, true_k, ks, [(-0.5, len(voters) - 0.5),
                                        (len(voters) + 0.5, len(rows) - 0.5)]
                       if None in rows else [(-0.5, len(rows) - 0.5)])
    if None in rows:
        gap = rows.index(None)
        ax.add_patch(Rectangle((ks[0] - 0.5, gap - 0.5), len(ks), 1, fc="white", lw=0,
                               zorder=2))
        how = " (w: the weight of each)" if weighted else ""
        ax.text(ks[0] - 0.3, gap, f"▲ {len(voters)} vote{how}    ▼ {len(others)} do not vote",
                fontsize=7.5, va="center", ha="left", style="italic", zorder=5)
    elif not others:
        ax.set_ylabel("every criterion votes", fontsize=8)
    ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=len(handles),
              fontsize=7.5, frameon=False, borderaxespad=0.3, handlelength=1.6)
    return mesh


def draw_vote(ax, vote: pd.DataFrame) -> None:
    """The tally: one bar per chosen k (votes cast; their weight when the weights differ),
    the voted k blue, a finalist of the run-off or a k tied for the lead orange."""
    from mtc_cli.selection.voting import kind

    if vote.empty:
        ax.set_axis_off()
        ax.set_title("no vote: no voter has a choice", fontsize=9)
        return
    x = np.arange(len(vote))
    weighted = not np.allclose(vote["weight"], vote["votes"])
    height = vote["weight" if weighted else "votes"].to_numpy(dtype=float)
    other = vote["finalist"] if "finalist" in vote else vote["leading"]
    colours = np.where(vote["voted"], _VOTED, np.where(other, _FINALIST, _OTHER))
    ax.bar(x, height, color=colours, width=0.6)
    for xi, h, n in zip(x, height, vote["votes"], strict=True):
        ax.text(xi, h, f"{h:.2f}" if weighted else str(n), ha="center", va="bottom",
                fontsize=7.5)
    ax.set_xticks(x, [str(k) for k in vote["k"]])
    ax.set_xlabel("chosen k")
    ax.set_ylabel("weight of the votes" if weighted else "votes cast")
    ax.set_ylim(0, max(height.max(), 1) * 1.15)
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.grid(False, axis="x")
    k = int(vote.loc[vote["voted"], "k"].iloc[0])
    why = ""
    if "finalist" in vote:
        why = "\nthe two leading k (blue, orange) meet in a run-off"
    elif vote["leading"].sum() > 1:
        why = f"\n{int(vote['leading'].sum())} k tie for the lead: the smallest"
    ax.set_title(f"{kind(vote)} vote: k = {k}{why}", fontsize=9)


def draw_runoff(ax, vote: pd.DataFrame, cast: dict) -> None:
    """The run-off of the two finalists: how many voters back each (the finalist nearer
    their choice) and how many, equidistant, abstain; the winner blue."""
    from mtc_cli.selection.voting import backing

    a, b = vote.loc[vote["finalist"], "k"].astype(int)
    back = backing(cast, a, b)
    winner = int(vote.loc[vote["voted"], "k"].iloc[0])
    weighted = not np.allclose(vote["weight"], vote["votes"])
    n = [back[k][1] if weighted else back[k][0] for k in (a, b)]
    ax.bar([0, 1], n, color=[_VOTED if k == winner else _FINALIST for k in (a, b)],
           width=0.6)
    for x, v in enumerate(n):
        ax.text(x, v, f"{v:.2f}" if weighted else f"{v:g}", ha="center", va="bottom",
                fontsize=7.5)
    ax.set_xticks([0, 1], [f"k = {a}", f"k = {b}"])
    ax.set_ylim(0, max(max(n), 1) * 1.15)
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_ylabel("weight backing it" if weighted else "voters backing it")
    ax.grid(False, axis="x")
    tie = " (a tie: the smaller)" if np.isclose(n[0], n[1]) else ""
    equal = back[None][0]
    ax.set_title(f"run-off: k = {winner}{tie}\n"
                 + (f"{equal} equidistant voter{'s' * (equal != 1)} abstain"
                    if equal else "each voter backs the nearer k"), fontsize=9)


def _cluster_style(i: int) -> tuple[str, str]:
    """(colour, marker) of cluster ``i``: Okabe & Ito's eight colours, then new markers."""
    from mtc_cli.show.plotting import OKABE_ITO

    return OKABE_ITO[i % len(OKABE_ITO)], "os^Dv<>p"[i // len(OKABE_ITO) % 8]


def draw_projection(ax, projection: pd.DataFrame, title: str) -> None:
    """The objects on their first two principal components, coloured by cluster."""
    for i, (_, g) in enumerate(projection.groupby("cluster")):
        colour, marker = _cluster_style(i)
        ax.scatter(g["pc1"], g["pc2"], s=6, alpha=0.75, lw=0, color=colour, marker=marker)
    ax.set_xlabel("PC 1")
    ax.set_ylabel("PC 2")
    ax.set_title(title, fontsize=9)


def draw_spectrum(ax, spectrum: pd.DataFrame, summary: pd.DataFrame, voted: float) -> None:
    """The singular values (log scale; numerically zero ones left out), Gavish & Donoho's
    threshold τ where that criterion ran, and the voted rank."""
    s = spectrum["singular_value"].to_numpy(dtype=float)
    shown = s > s.max() * 1e-10
    ax.semilogy(spectrum["rank"][shown], s[shown], "o-", ms=2.5, lw=1, color="#444444",
                label="singular value")
    if "gavish_donoho" in set(summary["criterion"]):
        ax.axhline(spectrum["threshold"].iloc[0], color=_FINALIST, ls=":", lw=1.5,
                   label="Gavish–Donoho threshold τ")
    if np.isfinite(voted):
        ax.axvline(voted, color=_VOTED, lw=1.2, label=f"voted rank {voted:g}")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("rank")
    ax.set_ylabel("singular value")
    zero = int((~shown).sum())
    ax.set_title("singular values" + (f" ({zero} numerically zero not shown)" if zero else ""),
                 fontsize=9)
    ax.legend(fontsize=7.5, loc="upper right")


def _answer_line(answer: pd.DataFrame | None) -> str:
    """``answer.csv`` as the text says it: the answer (:func:`answer.headline`), at the edge
    if it is, and its doubt (:func:`answer.doubt`), wrapped."""
    from mtc_cli.selection import answer as answers

    if answer is None or answer.empty:
        return ""
    a = answer.iloc[0].to_dict()
    edge = " (at the edge of the range: more groups may lie beyond it)" \
        if bool(a.get("at_edge")) else ""
    line = f"answer: {answers.headline(a)}{edge} — {answers.doubt(a)}"
    return "\n".join(textwrap.wrap(line, 150))


def _title(fig, title: str, answer: pd.DataFrame | None) -> None:
    line = _answer_line(answer)
    fig.suptitle(title + (f"\n{line}" if line else ""), fontsize=10)


def _view_title(answer: pd.DataFrame | None, projection: pd.DataFrame, model: str | None,
                k: float) -> str:
    """What the data view shows: the answer's clustering (``projection.csv`` is drawn at the
    answer's k), one colour for k = 1; without ``answer.csv`` (an older run), ``model``'s
    clustering at its voted ``k``."""
    shown = f"({len(projection)} shown)"
    if answer is not None and not answer.empty:
        a = answer.iloc[0]
        if not isinstance(a["model"], str):
            return f"no group structure: one colour {shown}"
        return f"{a['model']} at the answer's k = {_k(float(a['k']))} {shown}"
    who = f"{model} at its voted" if model else "clustering at the voted"
    return f"{who} k = {_k(k)} {shown}"


def select_figure(curves: pd.DataFrame, summary: pd.DataFrame, vote: pd.DataFrame,
                  extra: dict, title: str, rule=None, answer: pd.DataFrame | None = None):
    """The criteria's heat map (top); the tally, the run-off if any, and the data view
    (bottom). ``extra``: ``projection`` or ``spectrum``; ``rule``: the vote's
    (:func:`mtc_cli.selection.voting.rule_for`; None: every criterion votes);
    ``answer``: ``answer.csv`` if the run has one."""
    from mtc_cli.selection import choice, voting
    from mtc_cli.show import plotting

    n_rows = len(summary) + (rule is not None and rule.weights is not None
                             and 0 < len(set(rule.weights) & set(summary["criterion"]))
                             < len(summary))
    heat_h = 0.9 + _ROW * n_rows
    fig = plotting.new_figure(11.0, heat_h + 3.9, layout="constrained")
    gs = fig.add_gridspec(2, 1, height_ratios=[heat_h, 3.3])
    ax = fig.add_subplot(gs[0])
    mesh = draw_heatmap(ax, curves, summary, rule)
    bar = fig.colorbar(mesh, ax=ax, fraction=0.025, pad=0.01, aspect=max(4, 2 * n_rows))
    bar.set_label("normalised curve\n(1 = its best)", fontsize=7.5)
    bar.ax.tick_params(labelsize=7.5)
    runoff = "finalist" in vote and vote["voted"].any()
    bottom = gs[1].subgridspec(1, 3 if runoff else 2,
                               width_ratios=[1.0, 0.55, 1.3] if runoff else [1.0, 1.3])
    draw_vote(fig.add_subplot(bottom[0]), vote)
    if runoff:
        cast = voting.ballots(choice.choices(summary), rule or voting.PLURALITY,
                              int(summary["k_max"].max()))
        draw_runoff(fig.add_subplot(bottom[1]), vote, cast)
    view = fig.add_subplot(bottom[-1])
    voted = vote.loc[vote["voted"], "k"]
    if "projection" in extra and len(voted):
        draw_projection(view, extra["projection"],
                        _view_title(answer, extra["projection"], None,
                                    float(voted.iloc[0])))
    elif "spectrum" in extra:
        draw_spectrum(view, extra["spectrum"], summary,
                      float(voted.iloc[0]) if len(voted) else np.nan)
    else:
        view.set_axis_off()
    _title(fig, title, answer)
    return fig


def save_figure(curves: pd.DataFrame, summary: pd.DataFrame, vote: pd.DataFrame,
                extra: dict, title: str, path: Path, rule=None,
                answer: pd.DataFrame | None = None) -> Path:
    """:func:`select_figure` as a PNG."""
    from mtc_cli.show import plotting

    return plotting.save(select_figure(curves, summary, vote, extra, title, rule, answer),
                         path)


def draw_stability(ax, stability: pd.DataFrame, decision: pd.DataFrame,
                   true_k: float = np.nan):
    """``--model auto``: one row per algorithm of its S(k)/S_perm(k) (values written in
    the cells when they fit), its lowest boxed, its vote dotted; the winner's name bold;
    the true k (of a label column; NaN: none) as a line. Returns the mesh, for a colour
    bar."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    models = list(decision["model"])
    ks_seen = [*stability["k"].astype(int), *decision["vote_k"].dropna().astype(int)]
    ks = np.arange(min(ks_seen), max(ks_seen) + 1)
    values = np.full((len(models), len(ks)), np.nan)
    for i, m in enumerate(models):
        g = stability[stability["model"] == m]
        values[i, g["k"].to_numpy(dtype=int) - ks[0]] = g["value"].to_numpy(dtype=float)
    right = []
    for _, r in decision.iterrows():
        low = (f"lowest {r['min_stability']:.2f} at {_k(r['stability_k'])}"
               if np.isfinite(r["min_stability"]) else "no S/S_perm")
        others = int(r.get("backers", 1)) - 1
        vote = (f"votes {_k(r['vote_k'])}" + (f" with {others} other{'s' * (others > 1)}"
                                              if others > 0 else "")
                if np.isfinite(r["vote_k"]) else "no vote")
        right.append(f"{low}; {vote}")
    top = max(1.0, float(np.nanmax(values))) if np.isfinite(values).any() else 1.0
    mesh, side = _heat_axes(ax, values, ks, models, right, cmap=_HEAT + "_r", vmin=0.0,
                            vmax=top)
    if len(ks) <= 16:
        for (i, j), v in np.ndenumerate(values):
            if np.isfinite(v):
                ax.text(ks[j], i, f"{v:.2f}", ha="center", va="center", fontsize=7,
                        color="black" if v < 0.6 * top else "white", zorder=2)
    for i, (_, r) in enumerate(decision.iterrows()):
        if np.isfinite(r["stability_k"]):
            _box(ax, r["stability_k"], i)
        if np.isfinite(r["vote_k"]):
            ax.plot(r["vote_k"], i + 0.3, marker="o", ms=4.5, mfc="white", mec="black",
                    mew=0.9, zorder=5, ls="none")
        if r["winner"]:
            for t in (ax.get_yticklabels()[i], side.get_yticklabels()[i]):
                t.set_fontweight("bold")
    handles = [Patch(fill=False, ec="black", lw=1.4, label="its lowest S/S_perm"),
               Line2D([], [], marker="o", ms=4.5, mfc="white", mec="black", mew=0.9,
                      ls="none", label="the k it votes for (written on the right)"),
               *_true_k(ax, true_k, ks, [(-0.5, len(models) - 0.5)])]
    ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.0, 1.0),
              ncol=len(handles), fontsize=7.5, frameon=False, borderaxespad=0.3)
    return mesh


def _why_winner(decision: pd.DataFrame, rule: str, one: bool = False) -> str:
    """Who won, by which rule, and with whom it tied (``one``: the answer is k = 1, and the
    winner only the best k ≥ 2 the tests of k = 1 weighed)."""
    best = decision[decision["winner"]]
    if best.empty:
        return "no algorithm has a finite S/S_perm: none wins"
    w = best.iloc[0]
    from mtc_cli.selection.auto import RULE_TIES, parse_rule, words

    name = parse_rule(rule)[0]
    who = "the best k ≥ 2, which the tests of k = 1 weighed" if one else "winner"
    line = f"{who}: {w['model']} by {words(rule)} ({RULE_TIES[name]})"
    if name == "lowest":
        tied = decision[(decision["min_stability"] == w["min_stability"])
                        & ~decision["winner"]]
        if len(tied):
            line += "; tied with " + ", ".join(
                f"{m} (at k = {_k(k)})" for m, k in zip(tied["model"], tied["stability_k"],
                                                        strict=True))
        elif np.isfinite(w["margin"]):
            line += f"; the next lowest is {w['margin']:.2f} higher"
    return line


def auto_figure(stability: pd.DataFrame, decision: pd.DataFrame,
                projection: pd.DataFrame | None, title: str, rule: str = "lowest",
                answer: pd.DataFrame | None = None, true_k: float = np.nan):
    """``--model auto``: every algorithm's S(k)/S_perm(k) as a row (left) and the data view
    coloured by the answer's clustering (right: one colour for k = 1); ``rule``: the winner's
    (:data:`mtc_cli.selection.auto.WINNER_RULES`); ``true_k``: of a label column (NaN:
    none), drawn as a line over the rows."""
    from mtc_cli.show import plotting

    height = max(3.6, 1.6 + _ROW * 1.3 * len(decision))
    fig = plotting.new_figure(12.0, height, layout="constrained")
    gs = fig.add_gridspec(1, 2, width_ratios=[1.6, 1.0])
    ax = fig.add_subplot(gs[0])
    mesh = draw_stability(ax, stability, decision, true_k)
    bar = fig.colorbar(mesh, ax=ax, fraction=0.03, pad=0.01)
    bar.set_label("S(k)/S_perm(k)\n(lower: more stable)", fontsize=7.5)
    bar.ax.tick_params(labelsize=7.5)
    one = answer is not None and not answer.empty and \
        not isinstance(answer.iloc[0]["model"], str)
    ax.set_title("\n".join(textwrap.wrap(_why_winner(decision, rule, one), 90)), fontsize=8.5,
                 loc="left", pad=22)
    view = fig.add_subplot(gs[1])
    best = decision[decision["winner"]]
    if projection is not None and len(best):
        draw_projection(view, projection,
                        _view_title(answer, projection, best["model"].iloc[0],
                                    float(best["answer_k"].iloc[0])))
    else:
        view.set_axis_off()
    _title(fig, title, answer)
    return fig


def save_auto_figure(stability: pd.DataFrame, decision: pd.DataFrame,
                     projection: pd.DataFrame | None, title: str, path: Path,
                     rule: str = "lowest", answer: pd.DataFrame | None = None,
                     true_k: float = np.nan) -> Path:
    """:func:`auto_figure` as a PNG."""
    from mtc_cli.show import plotting

    return plotting.save(auto_figure(stability, decision, projection, title, rule, answer,
                                     true_k), path)
