"""Which records of an object match a search term, best first.

Matching. Every leaf (word or phrase, :mod:`.terms`) becomes the set of its occurrences in
the searched fields: a one-token word is a lookup of its word forms (:func:`.text.word_forms`;
exactly the token in double quotes; ``LIKE`` for wildcards), a several-token leaf a chain of
self-joins on consecutive positions in one field. One DuckDB query for all searched objects
fetches the occurrences of every leaf; the boolean chain and the ranking are evaluated here
on those rows (DuckDB's fixed cost per query stage is larger than the work).

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
a live CRMArena org's answers in neulab/agent-data-protocol datasets/crmarena/sample_raw.json).

Ranking (no ORDER BY). BM25 over the record's searched fields (k1 = 1.2, b = 0.75), with
occurrences in a name field (``nameField``: Name, Title, Subject ...) counted three times,
multiplied by the share of the query's terms the record holds (coordination); ties go to
the smaller Id, so the order is deterministic. Terms under AND NOT do not score.
"""

from __future__ import annotations

import functools
import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from crmarena_sf.emulator.sosl.fields import group_fields, is_article, name_fields
from crmarena_sf.emulator.sosl.index import docs_table, generation, tokens_table, version
from crmarena_sf.emulator.sosl.postings import MAX_TOKENS, leaf_occurrences, postings_of
from crmarena_sf.emulator.sosl.ranked_lists import LIST_LENGTH, has_lists
from crmarena_sf.emulator.sosl.ranked_lists import groups as ranked_groups
from crmarena_sf.emulator.sosl.terms import Leaf, Term
from crmarena_sf.emulator.sosl.text import word_forms
from crmarena_sf.metadata.model import SObject

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

K1 = 1.2
B = 0.75
NAME_FIELD_WEIGHT = 3.0
LENGTHS_CACHE_KEY = "sosl.lengths"
SHARED_SCAN_BELOW = 100_000
"""Token rows below which an object's plain tokens share one scan (DuckDB row groups hold 122,880 rows)."""

Predicate = Callable[[set[int]], bool]


@dataclass(frozen=True)
class _Compiled:
    """A term compiled for matching: its distinct leaves and predicates over "which leaves occur"."""

    leaves: tuple[tuple[str, ...], ...]
    lookups: tuple[tuple[str, ...] | None, ...]
    """Per leaf: the tokens a plain one-token leaf looks up, or None for wildcard and phrase leaves."""
    strict: Matcher
    loose: Matcher | None
    """The term with implicit ANDs read as OR (articles only), or None."""
    positive: tuple[int, ...]


@dataclass(frozen=True)
class Matcher:
    """A predicate over "which leaves occur", and its shape when that is simpler: every leaf, or any."""

    predicate: Predicate
    shape: str | None
    """``"all"`` (a conjunction), ``"any"`` (a disjunction) or None (anything else)."""


def match(org: Org, obj: SObject, tree: Term, group: str, limit: int | None = None) -> list[str]:
    """Ids of ``obj``'s records matching ``tree`` in ``group``'s fields, best first (at most ``limit``)."""
    ids = match_objects(org, [obj], tree, group)[obj.name]
    return ids if limit is None else ids[:limit]


def match_objects(
    org: Org, objects: list[SObject], tree: Term, group: str, wanted: dict[str, int | None] | None = None
) -> dict[str, list[str]]:
    """Per object name: Ids of its records matching ``tree`` in ``group``'s fields, best first.

    One DuckDB query serves every object (a search without RETURNING covers a dozen).
    ``wanted``: per object name, how many of the best matches the caller reads (None or
    absent: all of them); an object may then answer with only that many.
    """
    wanted = wanted or {}
    out: dict[str, list[str]] = {obj.name: [] for obj in objects}
    plans = []
    for obj in objects:
        fields = group_fields(obj, group)
        if fields is None or fields:
            compiled = _compile(tree, relax_implicit=is_article(obj))
            known = _ranked_before(org, obj, fields, compiled, wanted.get(obj.name))
            if known is not None:
                out[obj.name] = known
                continue
            plan = _Plan(obj, fields, compiled, *_lengths(org, obj, fields))
            best = _best_from_lists(org, plan, wanted.get(obj.name))
            if best is not None:
                out[obj.name], complete = best
                _remember_ranked(org, plan, out[obj.name], complete)
                continue
            plans.append(plan)
    counts = _occurrences(org, plans)
    for plan in plans:
        per_leaf = counts[plan.obj.name]
        if not any(per_leaf):
            _remember_ranked(org, plan, [])
            continue
        compiled = plan.compiled
        limit = wanted.get(plan.obj.name)
        best = _best_of_one_word(compiled, per_leaf, plan, limit)
        if best is not None:
            out[plan.obj.name], complete = best
            _remember_ranked(org, plan, out[plan.obj.name], complete)
            continue
        ranked = _rank(compiled, per_leaf, compiled.strict, plan)
        if not ranked and compiled.loose is not None:
            ranked = _rank(compiled, per_leaf, compiled.loose, plan)
        ranked.sort()
        out[plan.obj.name] = [record_id for _, record_id in ranked]
        _remember_ranked(org, plan, out[plan.obj.name])
    return out


# ---------------------------------------------------------------------------- rankings already made
_ranked: OrderedDict[tuple, tuple[list[str], bool]] = OrderedDict()
_ranked_lock = threading.Lock()
MAX_RANKINGS = 128
"""Rankings kept (least recently used first out)."""
RANKING_KEPT = 2000
"""Best matches kept of a longer ranking: enough for any LIMIT (SOSL returns at most 2,000 rows)."""


def clear_rankings() -> None:
    """Forget every ranking kept (benchmarks timing a first search; tests)."""
    with _ranked_lock:
        _ranked.clear()


def _ranking_key(org: Org, obj: SObject, fields: tuple[str, ...] | None, compiled: _Compiled) -> tuple | None:
    """What a ranking is a pure function of: the state of the object's index, the fields, the term;
    None when the index state has no name (then nothing is shared)."""
    name = version(org, obj.name)
    return None if name is None else (name, obj.name, fields, compiled)


def _ranked_before(
    org: Org, obj: SObject, fields: tuple[str, ...] | None, compiled: _Compiled, wanted: int | None
) -> list[str] | None:
    """The ranking a search of the same term made on the same state of the index, when it holds what is wanted.

    A ranking depends only on the index's state (its occurrences and record lengths), the fields
    and the term: every org reading that state (a template and its forks) shares it, like the
    postings and lengths. A common word then costs its first search what ranking every match
    does, and a repeated one what its answer does.
    """
    key = _ranking_key(org, obj, fields, compiled)
    if key is None:
        return None
    with _ranked_lock:
        found = _ranked.get(key)
        if found is None:
            return None
        ids, complete = found
        if not complete and (wanted is None or wanted > len(ids)):
            return None
        _ranked.move_to_end(key)
    return ids


def _remember_ranked(org: Org, plan: _Plan, ids: list[str], complete: bool = True) -> None:
    """Keep ``ids``, the best of the ranking (all of it when ``complete``), for later searches."""
    key = _ranking_key(org, plan.obj, plan.fields, plan.compiled)
    if key is None:
        return
    kept = (ids[:RANKING_KEPT], complete and len(ids) <= RANKING_KEPT)
    with _ranked_lock:
        _ranked[key] = kept
        while len(_ranked) > MAX_RANKINGS:
            _ranked.popitem(last=False)


@dataclass(frozen=True)
class _Plan:
    """One object to match: its searched fields, the compiled term and the index statistics."""

    obj: SObject
    fields: tuple[str, ...] | None
    compiled: _Compiled
    lengths: dict[str, int]
    n_docs: int
    avg_len: float
    n_tokens: int


def _rank(
    compiled: _Compiled, counts: list[dict[str, float]], matcher: Matcher, plan: _Plan
) -> list[tuple[float, str]]:
    """(-score, Id) of the records ``matcher`` accepts."""
    lengths, n_docs, avg_len = plan.lengths, plan.n_docs, plan.avg_len
    positive = compiled.positive
    if matcher.shape == "all":
        sets = sorted((counts[i].keys() for i in positive), key=len)
        candidates = set(sets[0]).intersection(*sets[1:])
    else:
        candidates = set()
        for i in positive:
            candidates.update(counts[i])
    idf = [math.log(1 + (n_docs - len(c) + 0.5) / (len(c) + 0.5)) for c in counts]
    out = []
    for record_id in candidates:
        if matcher.shape is None and not matcher.predicate(
            {i for i, c in enumerate(counts) if record_id in c}
        ):
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


def _best_of_one_word(
    compiled: _Compiled, counts: list[dict[str, float]], plan: _Plan, limit: int | None
) -> tuple[list[str], bool] | None:
    """The ``limit`` best matches of a term with one scoring leaf (``FIND {jacket}``), in :func:`_rank`'s
    order, and whether they are all the matches; None when the term has more (then :func:`_rank`).

    Such a record's score depends only on its weighted occurrences and its length, so records
    sharing both share a score: each distinct pair is scored once (a common word's thousand
    matches have a few dozen), the scores are sorted, and only the records of the best scores
    are sorted by Id (the tie-break) until ``limit`` are taken. Equal scores of different pairs
    fall into one group, so the order is exactly that of sorting every (-score, Id).
    """
    if limit is None or len(compiled.positive) != 1 or compiled.strict.shape is None:
        return None
    occurrences = counts[compiled.positive[0]]
    if len(occurrences) <= limit:
        return None
    lengths, n_docs, avg_len = plan.lengths, plan.n_docs, plan.avg_len
    groups: dict[tuple[float, float], list[str]] = {}
    for record_id, tf in occurrences.items():
        key = (tf, lengths.get(record_id, avg_len))
        group = groups.get(key)
        if group is None:
            groups[key] = [record_id]
        else:
            group.append(record_id)
    score = _one_word_score(len(occurrences), n_docs, avg_len)
    by_score: dict[float, list[str]] = {}
    for (tf, length), ids in groups.items():
        by_score.setdefault(score(tf, length), []).extend(ids)
    best: list[str] = []
    for score in sorted(by_score):
        best.extend(sorted(by_score[score]))
        if len(best) >= limit:
            break
    return best[:limit], False


def _one_word_score(matched: int, n_docs: int, avg_len: float) -> Callable[[float, float], float]:
    """``score(tf, length)``: the sort key (the negated score) :func:`_rank` gives a record holding the
    one scoring word ``tf`` times (weighted) in ``length`` tokens, the word being in ``matched``
    of ``n_docs`` records; the same float, computed term by term as there."""
    idf = math.log(1 + (n_docs - matched + 0.5) / (matched + 0.5))

    def score(tf: float, length: float) -> float:
        norm = K1 * (1 - B + B * length / avg_len) if avg_len else K1
        return -(idf * tf * (K1 + 1) / (tf + norm))

    return score


def _best_from_lists(org: Org, plan: _Plan, limit: int | None) -> tuple[list[str], bool] | None:
    """:func:`_best_of_one_word`'s answer read from the word's ranked lists (:mod:`.ranked_lists`), and
    whether it is every match; None when the lists cannot tell it (then every match is ranked).

    Within one weighted count a record's score falls as its length grows (floats included: each
    step of the formula rounds monotonically), and equal lengths go by Id: so every record of
    the best ``limit`` is among the first ``limit`` of its count's list. A list cut short hides
    records that score at most what its last listed one does; the answer stands only when none
    of them could reach it: those of the last listed length come after it by Id, those longer
    score at most what one token more would, which must be below the last answer's score.
    """
    compiled = plan.compiled
    if (
        limit is None
        or limit > LIST_LENGTH
        or plan.fields is not None
        or len(compiled.leaves) != 1
        or compiled.lookups[0] is None
        or plan.n_tokens < MAX_TOKENS
        or not plan.avg_len
        or not has_lists(org, plan.obj.name)
    ):
        return None
    groups = ranked_groups(org, plan.obj, compiled.lookups[0], limit)
    if groups is None:
        return None
    matched = sum(n for _, n, _, _ in groups)
    score = _one_word_score(matched, plan.n_docs, plan.avg_len)
    ranked = sorted(
        (score(tf, length), record_id) for tf, _, lens, ids in groups for length, record_id in zip(lens, ids)
    )
    best = ranked[:limit]
    for tf, n, lens, ids in groups:
        if n > len(ids) and (
            (score(tf, lens[-1]), ids[-1]) < best[-1] or score(tf, lens[-1] + 1) <= best[-1][0]
        ):
            return None
    return [record_id for _, record_id in best], matched <= limit


# ---------------------------------------------------------------------------- compiling the term
@functools.lru_cache(maxsize=1024)
def _compile(tree: Term, relax_implicit: bool) -> _Compiled:
    leaves: list[tuple[str, ...]] = []
    keys: list[tuple] = []
    positive: set[int] = set()
    has_implicit = False

    def build(node: Term, implicit_op: str, negated: bool, ops: set[str]) -> Predicate:
        nonlocal has_implicit
        if isinstance(node, Leaf):
            key = (node.pieces, node.quoted)
            if key not in keys:
                keys.append(key)
                leaves.append(node.pieces)
            index = keys.index(key)
            if not negated:
                positive.add(index)
            return lambda present: index in present
        first = build(node.first, implicit_op, negated, ops)
        steps = []
        for step in node.steps:
            has_implicit = has_implicit or step.implicit
            op = implicit_op if step.implicit else step.op
            ops.add(op if isinstance(step.operand, Leaf) else op + " (...)")
            steps.append((op, build(step.operand, implicit_op, negated or op == "AND NOT", ops)))

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

    def matcher(implicit_op: str) -> Matcher:
        ops: set[str] = set()
        predicate = build(tree, implicit_op, False, ops)
        flat = {op.removesuffix(" (...)") for op in ops}
        shape = "all" if flat <= {"AND"} else "any" if flat == {"OR"} else None
        return Matcher(predicate, shape)

    strict = matcher("AND")
    loose = matcher("OR") if relax_implicit and has_implicit else None
    lookups = tuple(_lookup(pieces, quoted) for pieces, quoted in keys)
    return _Compiled(tuple(leaves), lookups, strict, loose, tuple(sorted(positive)) or (0,))


def _lookup(pieces: tuple[str, ...], quoted: bool) -> tuple[str, ...] | None:
    """The tokens a plain one-token leaf finds: its word forms, or exactly itself in double quotes."""
    if len(pieces) != 1 or "*" in pieces[0] or "?" in pieces[0]:
        return None
    return pieces if quoted else word_forms(pieces[0])


# ---------------------------------------------------------------------------- the index query
def _occurrences(org: Org, plans: list[_Plan]) -> dict[str, list[dict[str, float]]]:
    """Per object, per leaf: record Id -> weighted number of occurrences (name fields count three times).

    Objects with a small index are matched on their in-memory postings (:mod:`.postings`).
    The others share one query, a UNION ALL of lookups. On an object with a large index (several DuckDB row
    groups), each plain leaf is its own lookup, bounded by the range of its word forms so that
    the token-sorted table's zone maps narrow it to a row group; on a small one, where every
    lookup scans the same single row group, the plain leaves share one ``token IN (...)`` scan.
    Wildcard and phrase leaves are lookups of their own. Rows come back raw and are counted
    here (cheaper than a GROUP BY stage).
    """
    counts = {plan.obj.name: [{} for _ in plan.compiled.leaves] for plan in plans}
    parts, params = [], []
    by_token: list[dict[str, list[int]]] = []
    for p, plan in enumerate(plans):
        by_token.append({})
        postings = postings_of(org, plan.obj, plan.n_tokens)
        if postings is not None:
            _count_in_memory(postings, plan, counts[plan.obj.name])
            continue
        tokens = org.table_sql(tokens_table(plan.obj.name))
        field_filter, field_params = "", list(plan.fields or ())
        if plan.fields is not None:
            field_filter = f" AND t0.field IN ({', '.join('?' * len(plan.fields))})"
        shared: dict[str, list[int]] = {}
        small = plan.n_tokens < SHARED_SCAN_BELOW
        for i, lookup in enumerate(plan.compiled.lookups):
            if lookup is not None and small:
                for token in lookup:
                    shared.setdefault(token, []).append(i)
            elif lookup is not None:
                marks = ", ".join("?" * len(lookup))
                # the word's rows in a scan of their own, which the token index answers (emulator.soql.seek)
                words = f"(SELECT * FROM {tokens} t0 WHERE t0.token BETWEEN ? AND ? AND t0.token IN ({marks}) OFFSET 0)"
                parts.append(
                    f"SELECT {p} AS obj, {i} AS leaf, NULL, t0.record_id, t0.field FROM {words} t0 "
                    f"WHERE TRUE{field_filter}"
                )
                params += [min(lookup), max(lookup), *lookup, *field_params]
            else:
                sql, leaf_params = _leaf_sql(tokens, plan.compiled.leaves[i])
                parts.append(
                    f"SELECT {p} AS obj, {i} AS leaf, NULL, t0.record_id, t0.field FROM {sql}{field_filter}"
                )
                params += leaf_params + field_params
        by_token[p] = shared
        if shared:
            marks = ", ".join("?" * len(shared))
            parts.append(
                f"SELECT {p} AS obj, -1 AS leaf, t0.token, t0.record_id, t0.field FROM {tokens} t0 "
                f"WHERE t0.token IN ({marks}){field_filter}"
            )
            params += list(shared) + field_params
    if not parts:
        return counts
    names = [name_fields(plan.obj) for plan in plans]
    per_object = [counts[plan.obj.name] for plan in plans]
    for p, leaf, token, record_id, field in org.con.execute(" UNION ALL ".join(parts), params).fetchall():
        weight = NAME_FIELD_WEIGHT if field in names[p] else 1.0
        for i in by_token[p][token] if leaf < 0 else (leaf,):
            per_leaf = per_object[p][i]
            per_leaf[record_id] = per_leaf.get(record_id, 0.0) + weight
    return counts


def _count_in_memory(postings, plan: _Plan, counts: list[dict[str, float]]) -> None:
    names = name_fields(plan.obj)
    for i, pieces in enumerate(plan.compiled.leaves):
        per_leaf = counts[i]
        for record_id, field, _ in leaf_occurrences(postings, pieces, plan.compiled.lookups[i], plan.fields):
            per_leaf[record_id] = per_leaf.get(record_id, 0.0) + (
                NAME_FIELD_WEIGHT if field in names else 1.0
            )


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
def _lengths(
    org: Org, obj: SObject, fields: tuple[str, ...] | None
) -> tuple[dict[str, int], int, float, int]:
    """Tokens per record in the searched fields, how many records have any, their mean, their total.

    A pure function of the index's state: shared, like the postings, by every org reading the
    same version of the object's index (a template and its forks); per org otherwise.
    """
    name = version(org, obj.name)
    if name is not None:
        key: tuple = (name, fields)
        cache = _shared_lengths
    else:
        key = (obj.name, fields, generation(org, obj.name))
        cache = org.cache.setdefault(LENGTHS_CACHE_KEY, {})
        if len(cache) > MAX_SHARED_LENGTHS:
            cache.clear()
    found = cache.get(key)
    if found is None:
        docs = org.table_sql(docs_table(obj.name))
        where, params = "", []
        if fields is not None:
            where, params = " WHERE field IN (SELECT unnest(?::VARCHAR[]))", [list(fields)]
        rows = org.con.execute(f"SELECT record_id, sum(len)::INTEGER FROM {docs}{where} GROUP BY ALL", params)
        lengths = dict(rows.fetchall())
        n, total = len(lengths), sum(lengths.values())
        found = (lengths, n, (total / n) if n else 0.0, total)
        with _shared_lock:
            cache[key] = found
            if cache is _shared_lengths:
                while len(cache) > MAX_SHARED_LENGTHS:
                    cache.popitem(last=False)
    return found


_shared_lengths: OrderedDict = OrderedDict()
_shared_lock = threading.Lock()
MAX_SHARED_LENGTHS = 256
