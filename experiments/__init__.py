"""One protocol per paper figure family; each module exposes an ``experiment`` object."""
