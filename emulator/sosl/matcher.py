"""Which records of an object match a search term, best first.

Matching. Every leaf (word or phrase, :mod:`.terms`) becomes the set of its occurrences in
the searched fields: a one-token leaf is a token lookup (``LIKE`` for wildcards), a
several-token leaf a chain of self-joins on consecutive positions in one field. One DuckDB
query per object fetches the occurrence counts of every leaf; the boolean tree and the
ranking are evaluated here on those few rows (DuckDB's fixed cost per query stage is
larger than the work).

Words without an operator between them. "In most cases if an operator isn't specified,
AND is the default operator. When searching articles, documents, and solutions ... OR is
the default operator" (sforce_api_calls_sosl_find.htm), and Salesforce Help ("How Search
Works for Knowledge Articles") refines it: "If the search engine doesn't return any results
that match all the terms, it looks for matches using the 'OR' operator", boosting
"documents that contain more terms from the search query". So the implicit operator is AND
everywhere; for knowledge articles, a search that matches nothing with AND is answered with
OR, ranked by how many terms each article holds. This is what a live org did for CRMArena's
agents: a long natural-language article search "returned several loosely related articles",
while ``FIND {Womens Fitness Leggings}`` on products returned nothing (reference
crmarena.md §5).

Ranking (no ORDER BY). BM25 over the record's searched fields (k1 = 1.2, b = 0.75), with
occurrences in a name field (``nameField``: Name, Title, Subject ...) counted three times,
multiplied by the share of the query's terms the record holds (coordination); ties go to
the smaller Id, so the order is deterministic. Terms under AND NOT do not score.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from emulator.sosl.fields import group_fields, is_article, name_fields
from emulator.sosl.index import docs_table, generation, tokens_table
from emulator.sosl.terms import Leaf, Term
from metadata.model import SObject

if TYPE_CHECKING:
    from emulator.store.org import Org

K1 = 1.2
B = 0.75
NAME_FIELD_WEIGHT = 3.0
LENGTHS_CACHE_KEY = "sosl.lengths"

Predicate = Callable[[set[int]], bool]


@dataclass(frozen=True)
class _Compiled:
    """A term compiled for matching: its distinct leaves and predicates over "which leaves occur"."""

    leaves: tuple[tuple[str, ...], ...]
    strict: Predicate
    loose: Predicate | None
    """The predicate with implicit ANDs read as OR (articles only), or None."""
    positive: tuple[int, ...]


def match(org: Org, obj: SObject, tree: Term, group: str, limit: int | None = None) -> list[str]:
    """Ids of ``obj``'s records matching ``tree`` in ``group``'s fields, best first (at most ``limit``)."""
    ids = match_objects(org, [obj], tree, group)[obj.name]
    return ids if limit is None else ids[:limit]


def match_objects(org: Org, objects: list[SObject], tree: Term, group: str) -> dict[str, list[str]]:
    """Per object name: Ids of its records matching ``tree`` in ``group``'s fields, best first.

    One DuckDB query serves every object (a search without RETURNING covers a dozen).
    """
    plans = []
    for obj in objects:
        fields = group_fields(obj, group)
        if fields is None or fields:
            plans.append((obj, fields, _compile(tree, relax_implicit=is_article(obj))))
    counts = _occurrences(org, plans)
    out: dict[str, list[str]] = {obj.name: [] for obj in objects}
    for obj, fields, compiled in plans:
        per_leaf = counts[obj.name]
        if not any(per_leaf):
            continue
        lengths, n_docs, avg_len = _lengths(org, obj, fields)
        ranked = _rank(compiled, per_leaf, compiled.strict, lengths, n_docs, avg_len)
        if not ranked and compiled.loose is not None:
            ranked = _rank(compiled, per_leaf, compiled.loose, lengths, n_docs, avg_len)
        ranked.sort()
        out[obj.name] = [record_id for _, record_id in ranked]
    return out


def _rank(
    compiled: _Compiled,
    counts: list[dict[str, float]],
    predicate: Predicate,
    lengths: dict[str, int],
    n_docs: int,
    avg_len: float,
) -> list[tuple[float, str]]:
    """(-score, Id) of the records ``predicate`` accepts."""
    candidates: set[str] = set()
    for i in compiled.positive:
        candidates.update(counts[i])
    idf = [math.log(1 + (n_docs - len(c) + 0.5) / (len(c) + 0.5)) for c in counts]
    positive = compiled.positive
    out = []
    for record_id in candidates:
        present = {i for i, c in enumerate(counts) if record_id in c}
        if not predicate(present):
            continue
        norm = K1 * (1 - B + B * lengths.get(record_id, avg_len) / avg_len) if avg_len else K1
        score = 0.0
        held = 0
        for i in positive:
            tf = counts[i].get(record_id)
            if tf:
                held += 1
                score += idf[i] * tf * (K1 + 1) / (tf + norm)
        out.append((-score * held / len(positive), record_id))
    return out


# ---------------------------------------------------------------------------- compiling the term
def _compile(tree: Term, relax_implicit: bool) -> _Compiled:
    leaves: list[tuple[str, ...]] = []
    positive: set[int] = set()
    has_implicit = False

    def build(node: Term, implicit_op: str, negated: bool) -> Predicate:
        nonlocal has_implicit
        if isinstance(node, Leaf):
            if node.pieces not in leaves:
                leaves.append(node.pieces)
            index = leaves.index(node.pieces)
            if not negated:
                positive.add(index)
            return lambda present: index in present
        first = build(node.first, implicit_op, negated)
        steps = []
        for step in node.steps:
            has_implicit = has_implicit or step.implicit
            op = implicit_op if step.implicit else step.op
            steps.append((op, build(step.operand, implicit_op, negated or op == "AND NOT")))

        def evaluate(present: set[int]) -> bool:
            value = first(present)
            for op, operand in steps:  # strictly left to right
                if op == "OR":
                    value = value or operand(present)
                elif op == "AND":
                    value = value and operand(present)
                else:
                    value = value and not operand(present)
            return value

        return evaluate

    strict = build(tree, "AND", False)
    loose = build(tree, "OR", False) if relax_implicit and has_implicit else None
    return _Compiled(tuple(leaves), strict, loose, tuple(sorted(positive)) or (0,))


# ---------------------------------------------------------------------------- the index query
def _occurrences(
    org: Org, plans: list[tuple[SObject, tuple[str, ...] | None, _Compiled]]
) -> dict[str, list[dict[str, float]]]:
    """Per object, per leaf: record Id -> weighted number of occurrences (name fields count three times).

    One query: a UNION ALL of one lookup per (object, leaf). Equality lookups each prune the
    token-sorted table by its zone maps, where one ``token IN (...)`` would scan it all.
    Rows come back raw and are counted here: cheaper than a GROUP BY stage.
    """
    parts, params = [], []
    for p, (obj, fields, compiled) in enumerate(plans):
        tokens = org.table_sql(tokens_table(obj.name))
        field_filter = ""
        if fields is not None:
            field_filter = f" AND t0.field IN ({', '.join('?' * len(fields))})"
        for i, pieces in enumerate(compiled.leaves):
            sql, leaf_params = _leaf_sql(tokens, pieces)
            parts.append(f"SELECT {p} AS obj, {i} AS leaf, t0.record_id, t0.field FROM {sql}{field_filter}")
            params += leaf_params + list(fields or ())
    counts = {obj.name: [{} for _ in compiled.leaves] for obj, _, compiled in plans}
    if not parts:
        return counts
    names = [name_fields(obj) for obj, _, _ in plans]
    per_object = [counts[obj.name] for obj, _, _ in plans]
    for p, leaf, record_id, field in org.con.execute(" UNION ALL ".join(parts), params).fetchall():
        per_leaf = per_object[p][leaf]
        weight = NAME_FIELD_WEIGHT if field in names[p] else 1.0
        per_leaf[record_id] = per_leaf.get(record_id, 0.0) + weight
    return counts


def _leaf_sql(tokens: str, pieces: tuple[str, ...]) -> tuple[str, list]:
    """FROM-and-WHERE text finding ``pieces`` consecutively in one field (aliases t0, t1, ...)."""
    params: list = []
    conditions = []
    joins = []
    for j, piece in enumerate(pieces):
        if "*" in piece or "?" in piece:
            conditions.append(f"t{j}.token LIKE ?")
            params.append(piece.replace("*", "%").replace("?", "_"))
        else:
            conditions.append(f"t{j}.token = ?")
            params.append(piece)
        if j:
            joins.append(
                f"JOIN {tokens} t{j} ON t{j}.record_id = t0.record_id AND t{j}.field = t0.field "
                f"AND t{j}.pos = t0.pos + {j}"
            )
    if len(pieces) > 1:
        conditions.append("t0.pos > 0")
    return f"{tokens} t0 {' '.join(joins)} WHERE {' AND '.join(conditions)}", params


# ---------------------------------------------------------------------------- statistics
def _lengths(org: Org, obj: SObject, fields: tuple[str, ...] | None) -> tuple[dict[str, int], int, float]:
    """Tokens per record in the searched fields, how many records have any, and their mean (cached)."""
    key = (obj.name, fields, generation(org, obj.name))
    cache = org.cache.setdefault(LENGTHS_CACHE_KEY, {})
    found = cache.get(key)
    if found is None:
        docs = org.table_sql(docs_table(obj.name))
        where, params = "", []
        if fields is not None:
            where, params = " WHERE field IN (SELECT unnest(?::VARCHAR[]))", [list(fields)]
        rows = org.con.execute(f"SELECT record_id, sum(len)::INTEGER FROM {docs}{where} GROUP BY ALL", params)
        lengths = dict(rows.fetchall())
        n = len(lengths)
        found = cache[key] = (lengths, n, (sum(lengths.values()) / n) if n else 0.0)
    return found
