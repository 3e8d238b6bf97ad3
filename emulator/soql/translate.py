"""Translation: a bound SOQL query to one DuckDB SELECT (a sqlglot tree) and the shape of its rows.

Only SELECTs over the org's own tables come out of here: the FROM object and every
parent relationship become quoted table names and LEFT JOINs, conditions become
predicates (:mod:`crmarena_sf.emulator.soql.predicates`), functions become DuckDB expressions
(:mod:`crmarena_sf.emulator.soql.functions`), and every user value stays a literal inside the tree.
Besides the Salesforce semantics done by those modules, this one reproduces:

- records in the recycle bin are invisible unless the query is a queryAll (a table known to
  hold none, :mod:`crmarena_sf.emulator.store.recycle_bin`, needs no condition for it);
- ``USING SCOPE mine`` keeps the running user's records;
- ORDER BY ignores case, sorts picklists in their defined order, and puts nulls first
  ascending and last descending unless told otherwise;
- a child subquery's LIMIT and OFFSET apply per parent record;
- an aggregate query groups text ignoring case, shows each group's least spelling, and lists
  ROLLUP/CUBE subtotals after their groups, the grand total last (:mod:`crmarena_sf.emulator.soql.grouping`);
- WITH DATA CATEGORY keeps the articles classified as asked (:mod:`crmarena_sf.emulator.soql.category_filters`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import sqlglot
from crmarena_sf.emulator.soql.activity_sources import activity_source
from crmarena_sf.emulator.soql.bound import BoundQuery, ChildItem, ExprItem, FieldItem, TypeOfItem
from crmarena_sf.emulator.soql.category_filters import category_predicate
from crmarena_sf.emulator.soql.errors import malformed
from crmarena_sf.emulator.soql.functions import (
    TEXT_TYPES,
    CompileContext,
    Typed,
    function_of,
    translate_function,
)
from crmarena_sf.emulator.soql.grouping import group_order, ignoring_case, shown_spelling, subtotal_order
from crmarena_sf.emulator.soql.json_records import (
    JSON_AS_IS_TYPES,
    aggregate_struct,
    record_json,
    record_struct,
)
from crmarena_sf.emulator.soql.limits import MAX_RELATIONSHIP_LEVELS, MAX_RELATIONSHIP_LEVELS_BEFORE_58
from crmarena_sf.emulator.soql.nodes import FieldPath, offset_of
from crmarena_sf.emulator.soql.predicates import translate_condition
from crmarena_sf.emulator.soql.resolve import JoinNode, ResolvedField, column
from crmarena_sf.emulator.soql.seek import fenced, id_list_condition, narrow_fences, seek_condition
from crmarena_sf.emulator.soql.shape import (
    Entry,
    address_value,
    aggregate_builder,
    converted,
    converter,
    no_value,
    record_builder,
    wire_value,
)
from crmarena_sf.metadata.model import Schema
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect

_SELECT_STAR = "SELECT *"
_DUCKDB = Dialect.get_or_raise("duckdb")
_GENERATORS = threading.local()
"""One DuckDB generator per thread: a generator keeps state while it writes, but none from one tree to the next."""
# The first generator builds its class's dispatch table (about 1 ms): at import, not in a process's first query.
_GENERATORS.duckdb = _DUCKDB.generator()


def _duckdb_sql(node: exp.Expression) -> str:
    """DuckDB SQL for ``node``: ``node.sql(dialect="duckdb")`` without a new dialect and generator each time."""
    generator = getattr(_GENERATORS, "duckdb", None)
    if generator is None:
        generator = _GENERATORS.duckdb = _DUCKDB.generator()
    # Not copied first (a copy cost more than the rendering): DuckDB's generator leaves these nodes as they are.
    return generator.generate(node, copy=False)


_PARENT_IDS = sqlglot.parse_one("SELECT UNNEST(CAST(? AS VARCHAR[]))", read="duckdb")
"""The list of parent Ids a child subquery is run for (a bound parameter, never spliced)."""


@dataclass
class ChildPlan:
    """A child relationship subquery, run once per batch of parent records."""

    key: str
    plan: QueryPlan


@dataclass
class QueryPlan:
    """A compiled query: DuckDB SQL text, and how to turn its rows into REST records."""

    sql: str
    kind: str
    """``records``, ``aggregate`` or ``count``."""
    build: Callable[[tuple], dict | None]
    children: list[ChildPlan] = field(default_factory=list)
    parent_key_index: int | None = None
    """For a child plan: the column holding the parent's Id."""
    json_source: Callable[[], str] | None = None
    """Renders :attr:`json_sql`; None when DuckDB cannot write this query's records (see json_records)."""
    expect_many: bool = False
    """Whether the next run is expected to return many rows (then DuckDB writes the JSON)."""
    id_list: bool = False
    """The SQL holds the run-time Id list (the first parameter) as :data:`crmarena_sf.emulator.soql.seek.ID_LIST`."""
    _json_sql: str | None = field(default=None, repr=False)
    statements: dict[str | tuple[str, int], object] = field(default_factory=dict, repr=False, compare=False)
    """:attr:`sql` and :attr:`json_sql` parsed by DuckDB, by text (:func:`crmarena_sf.emulator.soql.execute.run`)."""

    @property
    def json_sql(self) -> str | None:
        """The same query selecting ``(Id, record JSON text)`` when DuckDB can write the records (see json_records).

        Rendered when first needed: most queries return few rows and never run it.
        """
        if self._json_sql is None and self.json_source is not None:
            self._json_sql = self.json_source()
        return self._json_sql


class _Columns:
    """The SELECT list being built; equal expressions share one column."""

    def __init__(self) -> None:
        self.expressions: list[exp.Expression] = []
        self.sqls: list[str] = []
        """Each column's DuckDB SQL, rendered once as it is added: the plans' select lists are these texts."""
        self._index: dict[str, int] = {}

    def add(self, expression: exp.Expression) -> int:
        key = _duckdb_sql(expression)
        index = self._index.get(key)
        if index is None:
            index = len(self.expressions)
            self._index[key] = index
            self.expressions.append(expression)
            self.sqls.append(key)
        return index


@dataclass(frozen=True, slots=True)
class PlanOptions:
    """Everything a plan depends on besides its query: how :func:`compile_plan` compiles it, and
    (with the query) the key the plan cache keeps it under (:mod:`crmarena_sf.emulator.soql.plans`)."""

    schema: Schema
    ctx: CompileContext
    """The org's day, time zone, fiscal year and running user (date literals, fiscal functions, USING SCOPE mine)."""
    api_version: str
    include_deleted: bool = False
    """queryAll: records in the recycle bin too."""
    restrict_ids: bool = False
    """The plan takes one parameter, a list of Ids, and keeps only those records (SOSL's
    RETURNING clauses run this way over the Ids a search matched)."""
    read_through: tuple[tuple[str, str], ...] = ()
    """``Org.read_through``: the tables a fork reads from another catalog; they are qualified with
    it so DuckDB reads the table itself, not the fork's view."""
    indexed: frozenset[tuple[str, str]] = frozenset()
    """The ``(table, column)`` pairs with an index (:mod:`crmarena_sf.emulator.soql.seek` fences lookups on them)."""
    without_deleted: frozenset[str] = frozenset()
    """Tables known to hold no deleted record (:mod:`crmarena_sf.emulator.store.recycle_bin`): their
    queries need no recycle-bin condition."""
    json_records: bool = field(default=True, compare=False)
    """Let DuckDB write the records as JSON where it can (:mod:`crmarena_sf.emulator.soql.json_records`).
    A guess from the table's size when the plan is compiled, not part of the cache key: every
    later run follows the row count the one before saw."""
    _hash: int = field(default=0, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # The plan cache hashes its key on every query: hash the tables and indexes once, here.
        key = (self.schema, self.ctx, self.api_version, self.include_deleted, self.restrict_ids,
               self.read_through, self.indexed, self.without_deleted)  # fmt: skip
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:
        return self._hash


def compile_plan(bound: BoundQuery, options: PlanOptions) -> QueryPlan:
    """The plan of a bound query for ``options`` (its org's day, time zone and fiscal year, its tables)."""
    _check_relationship_levels(bound, options.api_version)
    translator = _Translator(
        options.ctx,
        options.schema,
        f"/services/data/v{options.api_version}/sobjects/",
        options.include_deleted,
    )
    translator.catalogs = dict(options.read_through)
    translator.json_records = options.json_records
    translator.indexed = options.indexed
    translator.without_deleted = options.without_deleted
    if options.restrict_ids and not bound.count_only and not bound.aggregate:
        return translator.records_plan(bound, restrict=True)
    return translator.plan(bound)


def _check_relationship_levels(bound: BoundQuery, api_version: str) -> None:
    """Parent-to-child subqueries nest up to five levels from API 58.0, two before it.

    SOQL and SOSL Reference, "Understanding Relationship Query Limitations"
    (sforce_api_calls_soql_relationships_query_limits.htm). A query nesting deeper than its
    API version allows is refused at the first subquery too deep (modelled wording: the
    syntax error of a subquery where none may be).
    """
    try:
        version = float(api_version)
    except ValueError:
        version = 99.0
    allowed = MAX_RELATIONSHIP_LEVELS if version >= 58 else MAX_RELATIONSHIP_LEVELS_BEFORE_58

    def walk(query: BoundQuery, level: int) -> None:
        for item in query.items:
            if isinstance(item, ChildItem):
                if level + 1 > allowed:
                    raise malformed("unexpected token: 'SELECT'", offset_of(item.query.tree))
                walk(item.query, level + 1)

    walk(bound, 1)


class _Translator:
    def __init__(self, ctx: CompileContext, schema: Schema, url_prefix: str, include_deleted: bool) -> None:
        self.ctx = ctx
        self.schema = schema
        self.url_prefix = url_prefix
        self.include_deleted = include_deleted
        self.catalogs: dict[str, str] = {}
        self.grouping_text = False
        self.json_records = True
        self.indexed: frozenset[tuple[str, str]] = frozenset()
        self.without_deleted: frozenset[str] = frozenset()
        self.fenced = False
        """True once a statement of this query has an indexed lookup fenced (emulator.soql.seek)."""
        """True while translating an aggregate query: its text is grouped ignoring case."""

    def render(self, node: exp.Expression) -> str:
        """DuckDB SQL for ``node`` (:meth:`base` qualified the tables a fork reads through)."""
        if self.fenced:
            narrow_fences(node)
        return _duckdb_sql(node)

    def render_from(self, select: exp.Select) -> str:
        """``select`` rendered from FROM on, to follow a select list already rendered (:attr:`_Columns.sqls`).

        A records plan's two queries (records, JSON) share all of it, so it is rendered once.
        """
        if self.fenced:
            narrow_fences(select)  # while its select list, which reads columns too, is still there
        select.set("expressions", [exp.Star()])
        text = self.render(select)
        assert text.startswith(_SELECT_STAR), text
        return text[len(_SELECT_STAR) :]

    def qualified(self, table: exp.Table) -> exp.Table:
        """``table``, qualified with its owner's catalog when this fork reads it through."""
        catalog = self.catalogs.get(table.name)
        if catalog is not None:
            table.set("db", exp.to_identifier("main"))
            table.set("catalog", exp.to_identifier(catalog, quoted=True))
        return table

    def table_name(self, name: str) -> str:
        """The SQL naming object ``name``'s table, qualified as :meth:`qualified` does."""
        return _duckdb_sql(self.qualified(exp.Table(this=exp.to_identifier(name, quoted=True))))

    # ------------------------------------------------------------------ operands
    def field_sql(self, path: FieldPath) -> Typed:
        resolved: ResolvedField = path.meta["resolved"]
        typed = Typed(resolved.expression, resolved.field.type, resolved.field)
        return ignoring_case(typed) if self.grouping_text else typed

    def operand(self, node: exp.Expression) -> Typed:
        return translate_function(node, self.ctx, self.field_sql)

    def condition(self, node: exp.Expression) -> exp.Expression:
        return translate_condition(node, self.ctx, self.operand, self.semi_join)

    def semi_join(self, node: exp.In) -> exp.Expression:
        """``Id IN (SELECT AccountId FROM Case ...)`` as an IN subquery over the inner object's table."""
        inner: BoundQuery = node.meta["bound"]
        item = inner.items[0]
        selected = item.resolved.expression
        select = self.base(inner, [selected])
        select = select.where(exp.Not(this=exp.Is(this=selected.copy(), expression=exp.Null())), copy=False)
        return exp.Subquery(this=select)

    # ------------------------------------------------------------------ common parts
    def base(
        self, bound: BoundQuery, columns: list[exp.Expression], listed: exp.Expression | None = None
    ) -> exp.Select:
        """SELECT columns FROM the object with its joins, WHERE conditions, scope and recycle bin rule.

        ``listed``: the condition keeping the records of the Id list given at run time, on an
        indexed column. It, or else a condition of the WHERE an index answers, is fenced into
        a scan of its own (:mod:`crmarena_sf.emulator.soql.seek`).
        """
        where = self.condition(bound.where) if bound.where is not None else None
        obj, alias = bound.joins.root.targets[0]
        table: exp.Expression
        derived = activity_source(obj.name, self.schema, self.ctx.today, self.table_name)
        if derived is not None:  # ActivityHistory, OpenActivity: views of Task and Event
            table = exp.Subquery(
                this=derived, alias=exp.TableAlias(this=exp.to_identifier(alias, quoted=True))
            )
        else:
            table = self.qualified(
                exp.Table(
                    this=exp.to_identifier(obj.name, quoted=True),
                    alias=exp.TableAlias(this=exp.to_identifier(alias, quoted=True)),
                )
            )
        seek = listed if listed is not None else seek_condition(where, alias, obj.name, self.indexed)
        if seek is not None:
            table = fenced(table, alias, seek)
            self.fenced = True
        select = exp.Select(expressions=columns).from_(table, copy=False)
        for join in bound.joins.joins():
            self.qualified(join.this)
            select = select.join(join, copy=False)
        filters = []
        if where is not None:
            filters.append(exp.Paren(this=where))
        if (
            not self.include_deleted
            and obj.field("IsDeleted") is not None
            and obj.name not in self.without_deleted
        ):
            filters.append(
                exp.Not(this=exp.Coalesce(this=column(alias, "IsDeleted"), expressions=[exp.false()]))
            )
        for f in bound.categories:
            predicate = category_predicate(f, alias)
            for table in predicate.find_all(exp.Table):
                self.qualified(table)
            filters.append(predicate)
        if bound.scope and bound.scope.lower() == "mine" and obj.field("OwnerId") is not None:
            filters.append(
                exp.EQ(this=column(alias, "OwnerId"), expression=exp.Literal.string(self.ctx.user_id))
            )
        if filters:
            select = select.where(exp.and_(*filters, copy=False), copy=False)
        return select

    def order(self, bound: BoundQuery) -> list[exp.Ordered]:
        out = []
        for ordered in bound.order:
            typed = self.operand(ordered.this)
            value = typed.sql
            f = typed.field
            if (
                typed.type in ("picklist",)
                and f is not None
                and f.picklistValues
                and not _is_count(ordered.this)
            ):
                value = exp.Case(
                    ifs=[
                        exp.If(
                            this=exp.EQ(this=value, expression=exp.Literal.string(v.value)),
                            true=exp.Literal.number(i),
                        )
                        for i, v in enumerate(f.picklistValues)
                    ],
                    default=exp.Literal.number(len(f.picklistValues)),
                )
            elif typed.type in TEXT_TYPES:
                value = exp.Lower(this=value)
            out.append(
                exp.Ordered(
                    this=value,
                    desc=bool(ordered.args.get("desc")),
                    nulls_first=bool(ordered.args.get("nulls_first")),
                )
            )
        return out

    def finish(self, select: exp.Select, bound: BoundQuery, ordered: list[exp.Ordered]) -> exp.Select:
        if ordered:
            select = select.order_by(*ordered, copy=False)
        # Given as nodes: from a number, sqlglot's builders would parse "LIMIT n" with its SQL parser.
        if bound.limit is not None:
            select = select.limit(exp.Limit(expression=exp.Literal.number(bound.limit)), copy=False)
        if bound.offset:
            select = select.offset(exp.Offset(expression=exp.Literal.number(bound.offset)), copy=False)
        return select

    # ------------------------------------------------------------------ plans
    def plan(self, bound: BoundQuery) -> QueryPlan:
        if bound.count_only:
            return self.count_plan(bound)
        if bound.aggregate:
            return self.aggregate_plan(bound)
        return self.records_plan(bound)

    def count_plan(self, bound: BoundQuery) -> QueryPlan:
        inner = self.base(bound, [exp.Literal.number(1)])
        if bound.group:
            inner = inner.group_by(*[ignoring_case(self.operand(g)).sql for g in bound.group], copy=False)
        inner = self.finish(inner, bound, [])
        select = exp.Select(expressions=[exp.Count(this=exp.Star())]).from_(
            exp.Subquery(this=inner), copy=False
        )
        return QueryPlan(self.render(select), "count", lambda row: None)

    def aggregate_plan(self, bound: BoundQuery) -> QueryPlan:
        self.grouping_text = True
        try:
            return self._aggregate_plan(bound)
        finally:
            self.grouping_text = False

    def _aggregate_plan(self, bound: BoundQuery) -> QueryPlan:
        columns = _Columns()
        entries: list[Entry] = []
        as_json = True  # DuckDB can write each row's JSON (emulator.soql.json_records)
        for item in bound.items:
            assert isinstance(item, ExprItem)
            typed = self.operand(item.node)
            spec = function_of(item.node)
            if spec is not None and spec.convert is not None:
                entries.append((item.key, converted(columns.add(typed.sql), spec.convert(typed, self.ctx))))
                as_json = False
                continue
            shown = shown_spelling(typed, bound.group_kind is not None)
            index = columns.add(wire_value(shown, typed.type))
            entries.append((item.key, converted(index, converter(typed.type))))
            as_json = as_json and typed.type in JSON_AS_IS_TYPES
        select = self.base(bound, columns.expressions)
        typed_groups = [self.operand(g) for g in bound.group]
        groups = [g.sql for g in typed_groups]
        if bound.group_kind == "ROLLUP":
            select = select.group_by(exp.Rollup(expressions=groups), copy=False)
        elif bound.group_kind == "CUBE":
            select = select.group_by(exp.Cube(expressions=groups), copy=False)
        elif groups:
            select = select.group_by(*groups, copy=False)
        if bound.having is not None:
            select = select.having(self.condition(bound.having), copy=False)
        ordered = self.order(bound)
        if not ordered and typed_groups:  # a stable order, run after run (emulator.soql.grouping)
            ordered = (
                subtotal_order(typed_groups) if bound.group_kind is not None else group_order(typed_groups)
            )
        select = self.finish(select, bound, ordered)
        rest = self.render_from(select)
        plan = QueryPlan(f"SELECT {', '.join(columns.sqls)}{rest}", "aggregate", aggregate_builder(entries))
        struct = (
            aggregate_struct([(key, columns.sqls[source]) for key, source in entries])  # type: ignore[index]
            if as_json and all(isinstance(source, int) for _, source in entries)
            else None
        )
        if struct is not None:
            record = record_json(struct)
            plan.json_source = lambda: f"SELECT NULL, {_duckdb_sql(record)}{rest}"
        return plan

    def records_plan(
        self, bound: BoundQuery, parent_key: exp.Expression | None = None, restrict: bool = False
    ) -> QueryPlan:
        columns = _Columns()
        root = bound.joins.root
        id_index = columns.add(root.id_expression())
        parent_key_index = columns.add(parent_key) if parent_key is not None else None
        children: list[ChildPlan] = []
        entries = self.entries(bound, columns, children)
        listed_by = root.id_expression() if restrict else parent_key
        listed = (
            id_list_condition(listed_by)
            if listed_by is not None and self.is_indexed(bound, listed_by)
            else None
        )
        select = self.base(bound, columns.expressions, listed)
        if restrict and listed is None:
            restriction = exp.In(this=root.id_expression(), query=exp.Subquery(this=_PARENT_IDS.copy()))
            select = select.where(restriction, copy=False)
        ordered = self.order(bound)
        if parent_key is not None:
            select = self.per_parent(select, bound, parent_key, ordered, listed is None)
        else:
            select = self.finish(select, bound, ordered)
        type_name = bound.obj.name
        build = record_builder(type_name, id_index, self.url_prefix, entries)
        rest = self.render_from(select)
        plan = QueryPlan(
            f"SELECT {', '.join(columns.sqls)}{rest}",
            "records",
            build,
            children,
            parent_key_index,
            id_list=listed is not None,
        )
        if parent_key is None and not children:
            rendered: list[exp.Expression] = [exp.Var(this=sql) for sql in columns.sqls]  # not rendered again
            struct = record_struct(self.tree, rendered, type_name, id_index, self.url_prefix)
            if struct is not None:
                record = record_json(struct)  # built now: threads may render it at once, never change it
                head = f"SELECT {columns.sqls[id_index]}, "
                plan.json_source = lambda: f"{head}{_duckdb_sql(record)}{rest}"
                plan.expect_many = self.json_records
                if plan.expect_many:
                    plan.json_sql  # noqa: B018 -- its first run reads it: rendered now, with the plan
        return plan

    def is_indexed(self, bound: BoundQuery, key: exp.Expression) -> bool:
        """Whether ``key``, a column of the FROM object, has an index."""
        return isinstance(key, exp.Column) and (bound.obj.name, key.name) in self.indexed

    def per_parent(
        self,
        select: exp.Select,
        bound: BoundQuery,
        parent_key: exp.Expression,
        ordered: list[exp.Ordered],
        by_parameter: bool = True,
    ) -> exp.Select:
        """A child subquery for a batch of parents: LIMIT/OFFSET count per parent, in the subquery's order.

        ``by_parameter``: the parents' Ids come as a list parameter (else :meth:`base` fenced them in).
        """
        if by_parameter:
            select = select.where(
                exp.In(this=parent_key.copy(), query=exp.Subquery(this=_PARENT_IDS.copy())), copy=False
            )
        if bound.limit is not None or bound.offset:
            window = exp.Window(
                this=exp.RowNumber(),
                partition_by=[parent_key.copy()],
                order=exp.Order(expressions=[o.copy() for o in ordered]) if ordered else None,
            )
            first = (bound.offset or 0) + 1
            condition: exp.Expression = exp.GTE(this=window, expression=exp.Literal.number(first))
            if bound.limit is not None:
                condition = exp.Between(
                    this=window.copy(),
                    low=exp.Literal.number(first),
                    high=exp.Literal.number(first + bound.limit - 1),
                )
            select = select.qualify(condition, copy=False)
        if ordered:
            select = select.order_by(*ordered, copy=False)
        return select

    # ------------------------------------------------------------------ record entries
    def entries(self, bound: BoundQuery, columns: _Columns, children: list[ChildPlan]) -> list[Entry]:
        """The entries of a record in SELECT order, parent fields nested under their relationship."""
        root: list = []
        nested: dict[tuple[str, ...], list] = {(): root}
        for item in bound.items:
            if isinstance(item, FieldItem):
                target = self.parent_entries(item.resolved.node, item.names, columns, nested)
                target.append(self.field_entry(item, columns))
            elif isinstance(item, ChildItem):
                key = item.key
                fk = column(item.query.joins.alias, item.relationship.field)
                children.append(ChildPlan(key, self.records_plan(item.query, parent_key=fk)))
                root.append((key, no_value))
            elif isinstance(item, TypeOfItem):
                root.append(self.typeof_entry(item, columns))
            elif isinstance(item, ExprItem):  # a value of its own: DISTANCE(...) dist
                typed = self.operand(item.node)
                root.append((item.key, columns.add(wire_value(typed.sql, typed.type))))
        self.tree = root
        return _finish(root, self.url_prefix)

    def parent_entries(
        self,
        node: JoinNode,
        names: tuple[str, ...],
        columns: _Columns,
        nested: dict[tuple[str, ...], list],
    ) -> list:
        if names in nested:
            return nested[names]
        holder = self.parent_entries(node.parent, names[:-1], columns, nested)
        entries: list = []
        nested[names] = entries
        holder.append(
            _Parent(names[-1], self.type_namer(node), columns.add(node.id_expression()), entries, node)
        )
        return entries

    def type_namer(self, node: JoinNode) -> Callable[[str], str] | str:
        """The object a hop reaches: its name, or for a polymorphic hop a function of the Id's key prefix."""
        if not node.polymorphic:
            return node.obj.name
        names = {obj.keyPrefix: obj.name for obj, _ in node.targets if obj.keyPrefix}
        fallback = node.obj.name
        return lambda record_id: names.get(record_id[:3], fallback)

    def field_entry(self, item: FieldItem, columns: _Columns) -> Entry:
        """A field's entry: ``(key, column)`` when the SQL already gives the JSON value, else a builder."""
        f = item.resolved.field
        node = item.resolved.node
        if f.is_compound:
            indexes = {
                key: columns.add(wire_value(column(node.targets[0][1], name), node.obj.field(name).type))
                for key, name in node.obj.compound_components(f.name).items()
            }
            return (item.key, address_value(indexes))
        if item.call is None:
            typed = Typed(item.resolved.expression, f.type, f)
            convert = converter(f.type)
        else:
            typed = self.operand(item.call)
            spec = function_of(item.call)
            convert = spec.convert(typed, self.ctx) if spec.convert is not None else converter(typed.type)
        if convert is None:
            return (item.key, columns.add(wire_value(typed.sql, typed.type)))
        return (item.key, converted(columns.add(typed.sql), convert))

    def typeof_entry(self, item: TypeOfItem, columns: _Columns) -> Entry:
        """TYPEOF: one record shape per WHEN type (ELSE for the others), chosen by the parent's Id."""
        node = item.node
        id_index = columns.add(node.id_expression())
        aliases = {obj.name: alias for obj, alias in node.targets}

        def entries_of(sources: list[tuple[str, exp.Expression, str]]) -> list[Entry]:
            return [
                (name, converted(columns.add(wire_value(sql, ftype)), converter(ftype)))
                for name, sql, ftype in sources
            ]

        shapes = {
            type_name: record_builder(
                type_name,
                id_index,
                self.url_prefix,
                entries_of([(f.name, column(aliases[type_name], f.name), f.type) for f in fields]),
            )
            for type_name, fields in item.branches.items()
        }
        default_entries = entries_of([(f.name, node.value_expression(f.name), f.type) for f in item.default])
        namer = self.type_namer(node)
        type_of = (lambda _id: namer) if isinstance(namer, str) else namer
        for obj, _ in node.targets:
            if obj.name not in shapes:
                shapes[obj.name] = record_builder(obj.name, id_index, self.url_prefix, default_entries)

        def value(row: tuple) -> dict | None:
            record_id = row[id_index]
            if record_id is None:
                return None
            return shapes[type_of(record_id)](row)

        return (item.key, value)


def _is_count(node: exp.Expression) -> bool:
    """COUNT(x) keeps no picklist order: it is a number."""
    spec = function_of(node)
    return spec is not None and spec.name in ("COUNT", "COUNT_DISTINCT")


class _Parent:
    """A parent record being assembled: its entries are complete only once every item is seen."""

    def __init__(
        self, key: str, type_of: Callable[[str], str] | str, id_index: int, entries: list, node: JoinNode
    ) -> None:
        self.key, self.type_of, self.id_index, self.entries, self.node = key, type_of, id_index, entries, node


def _finish(entries: list, url_prefix: str) -> list[Entry]:
    """Entries with nested parents turned into builders (now that their own entries are known)."""
    out: list[Entry] = []
    for entry in entries:
        if isinstance(entry, _Parent):
            build = record_builder(
                entry.type_of, entry.id_index, url_prefix, _finish(entry.entries, url_prefix)
            )
            out.append((entry.key, build))
        else:
            out.append(entry)
    return out
