"""Load order: parents before children, computed from the references the rows actually use.

Kahn's topological sort over the objects a push loads (ties broken by name, so the order is
the same on every run). An edge child -> parent exists when some row of the child points at
a row of the parent the push loads. A reference from an object to itself cannot be written at
insert (the parent row may not exist yet), so it is deferred to the update pass; so is one
nillable reference of each cycle, the first in name order (CumulusCI and Snowfakery break
cycles the same way, with an ``after`` step). A cycle of required references cannot be loaded
and is reported.
"""

from __future__ import annotations

from typing import Any


class CycleError(ValueError):
    """Objects that point at each other through required fields only."""


def order_objects(names: list[str], edges: dict[str, dict[str, list[Any]]]) -> tuple[list[str], list[Any]]:
    """``(order, deferred columns)``: ``edges[child][parent]`` are the columns of ``child`` pointing at ``parent``."""
    deferred: list[Any] = []
    remaining: dict[str, dict[str, list[Any]]] = {n: {} for n in names}
    for child, parents in edges.items():
        for parent, columns in parents.items():
            if parent == child:
                deferred.extend(c for c in columns if c not in deferred)
            elif child in remaining and parent in remaining:
                remaining[child][parent] = list(columns)
    order: list[str] = []
    while remaining:
        free = sorted(n for n, parents in remaining.items() if not parents)
        if not free:
            child, parent = _edge_to_break(remaining)
            deferred.extend(c for c in remaining[child].pop(parent) if c not in deferred)
            continue
        for name in free:
            order.append(name)
            del remaining[name]
            for parents in remaining.values():
                parents.pop(name, None)
    return order, deferred


def _edge_to_break(remaining: dict[str, dict[str, list[Any]]]) -> tuple[str, str]:
    for child in sorted(remaining):
        for parent in sorted(remaining[child]):
            if all(getattr(c, "nillable", True) for c in remaining[child][parent]):
                return child, parent
    raise CycleError(
        "these objects point at each other through required fields and cannot be loaded in any order: "
        + ", ".join(sorted(remaining))
    )
