"""Boolean access-control matrices (users × permissions): file loaders, role-based
generators after Molloy et al. 2010 and the flip noise of Sect. 4.2 of Frank et al. 2011.

A generator returns a :class:`RoleModel`: the error-free matrix X* together with the roles
that produce it, X* = Z ∨· U (user–role assignment Z, role–permission assignment U, Boolean
matrix product). The three generators follow the three generation processes Molloy et al.
(SACMAT 2010, "Mining roles with noisy data"; the processes of Molloy et al., SACMAT 2009,
"Evaluating role mining algorithms") used for the synthetic matrices of MTC Fig. 3:

- :func:`flat_roles` — flat random roles (the random generator of Vaidya et al. 2006);
- :func:`role_tree` — a role hierarchy: roles form a tree and inherit their parent's
  permissions;
- :func:`enterprise_rbac` — enterprise RBAC (Kern et al. 2002): business roles are sets of
  functional roles, functional roles are sets of permissions.

:func:`skewed_roles` (ours, for MTC Fig. 4) draws flat roles of skewed popularity and adds
user-specific exceptions, so that a factorization with many roles can fit patterns that do
not generalize.

The papers give the processes, not every constant; the sizes and counts are parameters.
Every generator makes each permission belong to at least one role and each role be held by
at least one user, so X* has the requested number of users and permissions, none empty.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from mtc_cli.core.models.boolean import boolean_product

# --- loaders --------------------------------------------------------------------------------

def _natural(tokens: set[str]) -> list[str]:
    """Sorted ids: numerically when all are integers, else lexicographically."""
    if all(t.lstrip("-").isdigit() for t in tokens):
        return sorted(tokens, key=int)
    return sorted(tokens)


def load_user_permissions(path) -> tuple[np.ndarray, list[str], list[str]]:
    """A user–permission file as a Boolean matrix (users × permissions).

    Each non-empty line not starting with ``#`` is a user id followed by one or more
    permission ids, whitespace-separated; a user may span several lines (their union is
    taken). This reads both the HP Labs format of Ene et al. 2008 (one ``user permission``
    pair per line, 1-based integers) and the one-user-per-line format of Molloy et al.
    (``u_NAME p_A p_B …``). ``.gz`` files are decompressed. Ids need not be contiguous:
    rows and columns are the distinct ids, in numeric (else lexicographic) order.

    Returns ``(X, users, permissions)`` with X of dtype bool.
    """
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    grants: list[tuple[str, str]] = []
    with opener(path, "rt") as fh:
        for number, line in enumerate(fh, start=1):
            tokens = line.split()
            if not tokens or tokens[0].startswith("#"):
                continue
            if len(tokens) < 2:
                raise ValueError(f"{path}: line {number}: expected a user and at least one "
                                 f"permission, got {line.strip()!r}")
            grants.extend((tokens[0], p) for p in tokens[1:])
    if not grants:
        raise ValueError(f"{path}: no user-permission grants found")
    users = _natural({u for u, _ in grants})
    perms = _natural({p for _, p in grants})
    row = {u: i for i, u in enumerate(users)}
    col = {p: j for j, p in enumerate(perms)}
    X = np.zeros((len(users), len(perms)), dtype=bool)
    X[[row[u] for u, _ in grants], [col[p] for _, p in grants]] = True
    return X, users, perms


# --- role models ----------------------------------------------------------------------------

@dataclass(frozen=True)
class RoleModel:
    """An error-free access-control matrix and the roles that produce it.

    ``X = Z ∨· U``: ``Z`` (users × roles) assigns roles to users, ``U`` (roles ×
    permissions) holds each role's permissions (for a hierarchy: including the inherited
    ones). ``parts`` holds generator-specific structure (tree parents; functional roles).
    """

    X: np.ndarray
    Z: np.ndarray
    U: np.ndarray
    parts: dict = field(default_factory=dict)

    @property
    def n_roles(self) -> int:
        return self.U.shape[0]


def _random_sets(rng: np.random.Generator, n_sets: int, n_items: int, max_size: int,
                 cover: bool) -> np.ndarray:
    """``n_sets`` random subsets of ``n_items`` items, each of a size uniform on
    1..``max_size``, items uniform without replacement; with ``cover``, every item left in
    no set joins one set chosen uniformly. Returns an (n_sets, n_items) Boolean matrix."""
    if n_sets < 1 or n_items < 1 or max_size < 1:
        raise ValueError(f"need n_sets, n_items, max_size >= 1, got {n_sets}, {n_items}, "
                         f"{max_size}")
    S = np.zeros((n_sets, n_items), dtype=bool)
    sizes = rng.integers(1, min(max_size, n_items) + 1, size=n_sets)
    for s, size in enumerate(sizes):
        S[s, rng.choice(n_items, size=size, replace=False)] = True
    if cover:
        orphans = np.flatnonzero(~S.any(axis=0))
        S[rng.integers(0, n_sets, size=len(orphans)), orphans] = True
    return S


def flat_roles(rng: np.random.Generator, n_users: int = 500, n_perms: int = 101,
               n_roles: int = 15, max_roles_per_user: int = 3, max_perms_per_role: int = 20
               ) -> RoleModel:
    """Flat random roles (Vaidya et al. 2006, as used by Molloy et al. 2009/2010).

    Each role holds a uniform number (1..``max_perms_per_role``) of permissions drawn
    uniformly; each user holds a uniform number (1..``max_roles_per_user``) of roles.
    """
    U = _random_sets(rng, n_roles, n_perms, max_perms_per_role, cover=True)
    Z = _random_sets(rng, n_users, n_roles, max_roles_per_user, cover=True)
    return RoleModel(boolean_product(Z, U), Z, U)


def role_tree(rng: np.random.Generator, n_users: int = 500, n_perms: int = 347,
              branching: int = 3, depth: int = 3, max_roles_per_user: int = 2) -> RoleModel:
    """A role hierarchy (the tree process of Molloy et al. 2009/2010).

    The roles are the nodes of a complete tree with the given ``branching`` and ``depth``
    (root at depth 0; nodes numbered breadth-first). The permissions are split at random
    among the roles (each role owns at least one); a role grants its own permissions and,
    by inheritance, all of its ancestors'. Each user holds a uniform number
    (1..``max_roles_per_user``) of roles drawn uniformly from all nodes.
    ``parts["parent"]`` is each role's parent (−1 for the root), ``parts["own"]`` the
    (roles × permissions) matrix of permissions owned before inheritance.
    """
    if branching < 1 or depth < 0:
        raise ValueError(f"need branching >= 1 and depth >= 0, got {branching}, {depth}")
    parent = [-1]
    frontier = [0]
    for _ in range(depth):
        nxt = []
        for p in frontier:
            for _ in range(branching):
                parent.append(p)
                nxt.append(len(parent) - 1)
        frontier = nxt
    n_roles = len(parent)
    if n_perms < n_roles:
        raise ValueError(f"the tree has {n_roles} roles, each owning a permission: need "
                         f"n_perms >= {n_roles}, got {n_perms}")
    owner = np.concatenate([rng.permutation(n_roles),
                            rng.integers(0, n_roles, size=n_perms - n_roles)])
    own = np.zeros((n_roles, n_perms), dtype=bool)
    own[owner, rng.permutation(n_perms)] = True
    U = own.copy()
    for r in range(1, n_roles):  # breadth-first: a parent is final before its children
        U[r] |= U[parent[r]]
    Z = _random_sets(rng, n_users, n_roles, max_roles_per_user, cover=True)
    return RoleModel(boolean_product(Z, U), Z, U,
                     {"parent": np.array(parent), "own": own})


def enterprise_rbac(rng: np.random.Generator, n_users: int = 500, n_perms: int = 190,
                    n_functional: int = 40, max_perms_per_functional: int = 10,
                    n_business: int = 20, max_functional_per_business: int = 4,
                    max_business_per_user: int = 2) -> RoleModel:
    """Enterprise RBAC (Kern et al. 2002; the ERBAC process of Molloy et al. 2009/2010).

    Functional roles are random permission sets (1..``max_perms_per_functional`` each),
    business roles random sets of functional roles (1..``max_functional_per_business``),
    and users hold 1..``max_business_per_user`` business roles. The roles of the returned
    model are the business roles, with U = B ∨· F their permissions;
    ``parts["B"]`` (business × functional) and ``parts["F"]`` (functional × permissions).
    """
    F = _random_sets(rng, n_functional, n_perms, max_perms_per_functional, cover=True)
    B = _random_sets(rng, n_business, n_functional, max_functional_per_business, cover=True)
    U = boolean_product(B, F)
    Z = _random_sets(rng, n_users, n_business, max_business_per_user, cover=True)
    return RoleModel(boolean_product(Z, U), Z, U, {"B": B, "F": F})


def skewed_roles(rng: np.random.Generator, n_users: int = 300, n_perms: int = 150,
                 n_roles: int = 12, max_roles_per_user: int = 2, max_perms_per_role: int = 30,
                 popularity: float = 1.5, exception_users: float = 0.2,
                 max_exceptions: int = 15) -> RoleModel:
    """Flat random roles of skewed popularity plus user-specific exceptions.

    The ``n_roles`` shared roles are random permission sets as in :func:`flat_roles`
    (1..``max_perms_per_role`` permissions each, every permission in some role). Each user
    holds a uniform number (1..``max_roles_per_user``) of distinct shared roles: ``n_roles``
    users chosen at random hold role t (t = 0, 1, …) so that every role has a holder, and
    every other role of a user is drawn without replacement with probability ∝
    (t + 1)^−``popularity`` (Zipf; 0 is uniform), so that a few roles have many users and
    most roles few. Then round(``exception_users`` · ``n_users``) users chosen at random
    each get a uniform number (1..``max_exceptions``) of further permissions, uniform among
    those their shared roles do not grant: one single-user role per such user, appended
    after the shared roles. ``parts["shared"]`` is ``n_roles``.
    """
    if not 1 <= n_roles <= n_users:
        raise ValueError(f"need 1 <= n_roles <= n_users, got {n_roles}, {n_users}")
    if popularity < 0 or not 0 <= exception_users <= 1 or max_exceptions < 1:
        raise ValueError(f"need popularity >= 0, 0 <= exception_users <= 1 and "
                         f"max_exceptions >= 1, got {popularity}, {exception_users}, "
                         f"{max_exceptions}")
    U = _random_sets(rng, n_roles, n_perms, max_perms_per_role, cover=True)
    weight = np.arange(1, n_roles + 1, dtype=np.float64) ** -popularity
    n_held = rng.integers(1, min(max_roles_per_user, n_roles) + 1, size=n_users)
    Z = np.zeros((n_users, n_roles), dtype=bool)
    Z[rng.choice(n_users, size=n_roles, replace=False), np.arange(n_roles)] = True
    for i in range(n_users):
        free = weight * ~Z[i]
        more = n_held[i] - int(Z[i].sum())
        if more > 0:
            Z[i, rng.choice(n_roles, size=more, replace=False, p=free / free.sum())] = True
    X = boolean_product(Z, U)
    holders = np.sort(rng.choice(n_users, size=int(round(exception_users * n_users)),
                                 replace=False))
    E = np.zeros((len(holders), n_perms), dtype=bool)
    for e, i in enumerate(holders):
        outside = np.flatnonzero(~X[i])
        size = min(int(rng.integers(1, max_exceptions + 1)), len(outside))
        E[e, rng.choice(outside, size=size, replace=False)] = True
    ZE = np.zeros((n_users, len(holders)), dtype=bool)
    ZE[holders, np.arange(len(holders))] = True
    Z, U = np.hstack([Z, ZE]), np.vstack([U, E])
    return RoleModel(boolean_product(Z, U), Z, U, {"shared": n_roles})


GENERATORS = {"flat": flat_roles, "tree": role_tree, "erbac": enterprise_rbac}


# --- noise ----------------------------------------------------------------------------------

def flip_noise(rng: np.random.Generator, X: np.ndarray, additive: float, subtractive: float,
               relative_to: str = "ones") -> np.ndarray:
    """The noisy matrix X from the error-free X*: spurious grants added (0 → 1) and true
    grants removed (1 → 0), at separately set rates (Sect. 4.2 of Frank et al. 2011;
    Molloy et al. 2010).

    ``relative_to="ones"``: remove round(``subtractive`` · |X*|₁) of the ones and add
    round(``additive`` · |X*|₁) ones at zeros of X*, positions uniform without replacement
    (rates relative to the number of grants, as Molloy et al. state noise; fair to sparse
    matrices). ``relative_to="entries"``: each one is removed with probability
    ``subtractive`` and each zero set with probability ``additive`` (independent flips;
    equal rates flip a fraction of all entries).
    """
    X = np.asarray(X, dtype=bool)
    if not (0.0 <= additive and 0.0 <= subtractive):
        raise ValueError(f"noise rates must be >= 0, got {additive}, {subtractive}")
    if relative_to == "entries":
        if additive > 1 or subtractive > 1:
            raise ValueError("per-entry flip probabilities must be <= 1")
        flip = np.where(X, rng.random(X.shape) < subtractive, rng.random(X.shape) < additive)
        return X ^ flip
    if relative_to != "ones":
        raise ValueError(f"relative_to must be 'ones' or 'entries', got {relative_to!r}")
    ones, zeros = np.flatnonzero(X), np.flatnonzero(~X)
    n_remove = int(round(subtractive * len(ones)))
    n_add = int(round(additive * len(ones)))
    if n_remove > len(ones) or n_add > len(zeros):
        raise ValueError(f"cannot remove {n_remove} of {len(ones)} ones or add {n_add} ones "
                         f"at {len(zeros)} zeros")
    out = X.copy().ravel()
    out[rng.choice(ones, size=n_remove, replace=False)] = False
    out[rng.choice(zeros, size=n_add, replace=False)] = True
    return out.reshape(X.shape)
