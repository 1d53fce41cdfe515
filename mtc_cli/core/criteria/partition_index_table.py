"""What each index of :mod:`mtc_cli.core.criteria.partition_indices` is — its smallest k, whether
its value at k needs the partition at k + 1, what its rule chooses, its source, which way its
values are better — apart from the numerics, so that the command line can list the criteria
without importing numpy."""

#: name → (k_min, needs_next, optimises, source, better), in the order of the criteria table;
#: ``better``: ``"low"`` where the rule reads the values from below (the least C-index; the
#: first k with H(k) ≤ 10, or with the Duda–Hart z at most its critical value; the knee of
#: the falling W(k)), else ``"high"``
TABLE = {
    "knee": (1, False, "knee of W(k) by Kneedle", "Satopää et al. 2011", "low"),
    "hartigan": (1, True, "smallest k with H(k) ≤ 10", "Hartigan 1975", "low"),
    "krzanowski_lai": (2, True, "max KL(k)", "Krzanowski & Lai 1988", "high"),
    "ratkowsky_lance": (2, False, "max mean_j √(BGSS_j/TSS_j) / √k",
                        "Ratkowsky & Lance 1978", "high"),
    "dunn": (2, False, "max min separation / max diameter", "Dunn 1974", "high"),
    "c_index": (2, False, "min (S_w − S_min)/(S_max − S_min)", "Hubert & Levin 1976", "low"),
    "gamma": (2, False, "max (s⁺ − s⁻)/(s⁺ + s⁻)", "Baker & Hubert 1975", "high"),
    "duda_hart": (1, True, "smallest k with Je(2)/Je(1) ≥ critical (z ≤ 3.2)",
                  "Duda & Hart 1973", "low"),
    "beale": (1, True, "smallest k whose Beale F has p ≥ 0.1", "Beale 1969", "high"),
}
