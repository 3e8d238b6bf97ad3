"""Binding: a parsed SOQL tree checked against the org's schema, the way a real org checks it.

Resolves the object, every field path (case-insensitively; canonical names out), child
relationships and semi-join subqueries; decides the shape of the answer (which keys,
nested how, named ``expr0``... for unaliased aggregates); and refuses what Salesforce
refuses, with its words: unknown objects and fields, aliases outside aggregate queries
(``only aggregate expressions use field aliasing``), fields neither grouped nor aggregated
(``Field must be grouped or aggregated: Name``), ungroupable, unfilterable or unsortable
fields, OFFSET beyond 2000, FIELDS() without a small LIMIT, an aggregate or GROUP BY in a child
subquery (``only root queries support aggregate expressions``, the SOQL and SOSL Reference's
words, https://resources.docs.salesforce.com/sfdc/pdf/salesforce_soql_sosl.pdf). The result is a
:class:`BoundQuery`; field paths in its conditions carry ``meta["resolved"]``.
"""

from __future__ import annotations

from crmarena_sf.emulator.soql import nodes
from crmarena_sf.emulator.soql.bound import BoundQuery, ChildItem, ExprItem, FieldItem, TypeOfItem
from crmarena_sf.emulator.soql.category_filters import bind_data_categories
from crmarena_sf.emulator.soql.dialect import SOQL
from crmarena_sf.emulator.soql.errors import (
    bad_child_relationship,
    invalid_field,
    malformed,
    no_such_column,
    unsupported_type,
)
from crmarena_sf.emulator.soql.features import refuse_missing_features
from crmarena_sf.emulator.soql.functions import function_of
from crmarena_sf.emulator.soql.functions.registry import ARGUMENT, GROUP_BY, HAVING, ORDER_BY, SELECT, WHERE
from crmarena_sf.emulator.soql.limits import (
    FIELDS_MACRO_LIMIT,
    MAX_RELATIONSHIP_LEVELS,
    checked_limit,
    checked_offset,
)
from crmarena_sf.emulator.soql.nodes import FieldPath, conjuncts, offset_of
from crmarena_sf.emulator.soql.resolve import NAME_ENTITY_FIELDS, JoinNode, JoinTree, ResolvedField
from crmarena_sf.metadata.model import Field, Schema, SObject
from sqlglot import exp


# ---------------------------------------------------------------------------- binding
def bind(tree: exp.Select, schema: Schema) -> BoundQuery:
    """Check ``tree`` against ``schema``; raises SoqlError as a real org would refuse the query."""
    return _Binder(schema, "").query(tree)


class _Binder:
    def __init__(self, schema: Schema, prefix: str, level: int = 1) -> None:
        self.schema = schema
        self.prefix = prefix
        self.level = level
        """Which level of parent-to-child relationships this binder's query is (the root query is 1)."""
        self._subqueries = 0

    def sub_binder(self, child: bool = False) -> _Binder:
        self._subqueries += 1
        return _Binder(
            self.schema, f"{self.prefix}s{self._subqueries}_", self.level + 1 if child else self.level
        )

    # ------------------------------------------------------------------ top level
    def query(
        self, tree: exp.Select, parent: BoundQuery | None = None, semi_join: bool = False
    ) -> BoundQuery:
        table = tree.args["from_"].this
        alias = table.args.get("alias")
        relationship = None
        if parent is not None:
            qualifier = table.meta.get("qualifier")
            if qualifier is not None and not parent.joins.is_own_name(qualifier.name):
                raise bad_child_relationship(qualifier.name, qualifier.meta.get("offset"))
            relationship = parent.obj.child_relationship(table.name)
            if relationship is None:
                raise bad_child_relationship(table.name, table.meta.get("offset"))
            obj = self.schema.get(relationship.childSObject)
            if obj is None:
                raise bad_child_relationship(table.name, table.meta.get("offset"))
        else:
            obj = self.schema.get(table.name)
            if obj is None or not obj.queryable:
                raise unsupported_type(table.name, table.meta.get("offset"))
        joins = JoinTree(obj, self.prefix, alias.name if alias else None)
        for path, path_alias in tree.meta.get("from_paths", ()):
            joins.name_path(path.expressions, path_alias, self.schema)
        bound = BoundQuery(tree=tree, obj=obj, joins=joins, relationship=relationship)
        bound.scope = tree.meta.get("using_scope")
        bound.categories = bind_data_categories(refuse_missing_features(tree), obj, self.schema)
        self.limits(tree, bound)
        select = tree.expressions
        bound.aggregate = tree.args.get("group") is not None or any(
            _contains_aggregate(item) for item in select
        )
        bound.count_only = len(select) == 1 and _is_count_star(select[0])
        if parent is not None and (bound.aggregate or bound.count_only):
            raise malformed("only root queries support aggregate expressions", _aggregate_offset(tree))
        if bound.count_only:
            bound.aggregate = False
        if tree.args.get("where") is not None:
            bound.where = tree.args["where"].this
            self.condition(bound.where, bound)
        if tree.args.get("group") is not None:
            self.group_by(tree.args["group"], bound)
        if not bound.count_only:
            self.select_list(select, bound, semi_join)
        if tree.args.get("having") is not None:
            if not bound.aggregate:
                raise malformed("unexpected token: 'HAVING'", tree.args["having"].meta.get("offset"))
            bound.having = tree.args["having"].this
            self.condition(bound.having, bound, having=True)
        if tree.args.get("order") is not None:
            self.order_by(tree.args["order"], bound)
        return bound

    def limits(self, tree: exp.Select, bound: BoundQuery) -> None:
        limit = tree.args.get("limit")
        offset = tree.args.get("offset")
        bound.limit = checked_limit(int(limit.expression.name)) if limit is not None else None
        bound.offset = checked_offset(int(offset.expression.name)) if offset is not None else None

    # ------------------------------------------------------------------ select list
    def select_list(self, select: list[exp.Expression], bound: BoundQuery, semi_join: bool) -> None:
        expr_index = 0
        grouped = {_group_key(g) for g in bound.group}
        for item in select:
            alias = None
            node = item
            if isinstance(item, exp.Alias):
                alias, node = item.alias, item.this
            if isinstance(node, nodes.FieldsMacro):
                self.fields_macro(node, bound)
                continue
            if isinstance(node, exp.Subquery):
                if bound.aggregate or semi_join or self.level >= MAX_RELATIONSHIP_LEVELS:
                    raise malformed("unexpected token: 'SELECT'", offset_of(node))
                child_tree = node.this
                child = self.sub_binder(child=True).query(child_tree, parent=bound)
                bound.items.append(ChildItem(child.relationship.relationshipName, child.relationship, child))
                continue
            if isinstance(node, nodes.TypeOf):
                if bound.aggregate:
                    raise malformed("unexpected token: 'TYPEOF'", offset_of(node))
                bound.items.append(self.typeof(node, bound))
                continue
            if isinstance(node, FieldPath):
                resolved = bound.joins.resolve(node.expressions, self.schema)
                node.meta["resolved"] = resolved
                if alias is not None and not bound.aggregate:
                    raise malformed(
                        "only aggregate expressions use field aliasing", offset_of(item.args["alias"])
                    )
                if bound.aggregate:
                    if _group_key(node) not in grouped:
                        raise malformed(f"Field must be grouped or aggregated: {node.text}", offset_of(node))
                    bound.items.append(ExprItem(node, alias or resolved.field.name, resolved.field))
                else:
                    self.add_field(bound, FieldItem(resolved, resolved.field.name, resolved.names), node)
                continue
            # a function call
            spec = self.function(node, bound, SELECT)
            if not bound.aggregate and spec.keeps_field_key:
                inner = _wrapped_field(node)
                if not isinstance(inner, FieldPath):
                    raise malformed("unexpected token: '('", offset_of(node))
                resolved = inner.meta["resolved"]
                key = alias or resolved.field.name
                self.add_field(
                    bound, FieldItem(resolved, key, resolved.names if alias is None else (), node), node
                )
                continue
            if not bound.aggregate and spec.record_value:
                key = alias if alias is not None else f"expr{expr_index}"
                expr_index += alias is None
                self.add_field(bound, ExprItem(node, key, None), item.args.get("alias") or node)
                continue
            if not bound.aggregate:
                raise malformed(f"Field must be grouped or aggregated: {_describe(node)}", offset_of(node))
            if not _contains_aggregate(node) and _group_key(node) not in grouped:
                raise malformed(f"Field must be grouped or aggregated: {_describe(node)}", offset_of(node))
            key = alias
            if key is None:
                key = f"expr{expr_index}"
                expr_index += 1
            bound.items.append(ExprItem(node, key, _field_of(node)))

    def fields_macro(self, node: nodes.FieldsMacro, bound: BoundQuery) -> None:
        kind = node.name
        if kind in ("ALL", "CUSTOM") and not _bounded(bound):
            raise malformed(
                f"The SOQL FIELDS function must have a LIMIT of at most {FIELDS_MACRO_LIMIT}", offset_of(node)
            )
        for f in bound.obj.fields:
            if kind == "CUSTOM" and not f.custom or kind == "STANDARD" and f.custom:
                continue
            resolved = ResolvedField(bound.joins.root, f, bound.obj.name)
            if bound.aggregate:
                raise malformed(f"Field must be grouped or aggregated: {f.name}", offset_of(node))
            self.add_field(bound, FieldItem(resolved, f.name, ()), None)

    def add_field(self, bound: BoundQuery, item: FieldItem | ExprItem, node: exp.Expression | None) -> None:
        """Add a field to the record; naming one twice is refused.

        ``node`` is None for a field FIELDS() adds. A field FIELDS() selects that the list also
        names (``SELECT Id, FIELDS(ALL) FROM User LIMIT 200``) is INVALID_FIELD ``duplicate field
        selected: Id``, without a position (SOQL and SOSL Reference, "FIELDS()",
        https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_soql_select_fields.htm).
        """
        key = (tuple(n.lower() for n in getattr(item, "names", ())), item.key.lower())
        seen = bound.tree.meta.setdefault("_selected", {})
        if key in seen:
            if node is None or seen[key]:
                name = item.resolved.field.name if isinstance(item, FieldItem) else item.key
                raise invalid_field(f"duplicate field selected: {name}")
            text = node.text if isinstance(node, FieldPath) else item.key
            raise malformed(f"duplicate field selected: {text}", offset_of(node))
        seen[key] = node is None
        bound.items.append(item)

    def typeof(self, node: nodes.TypeOf, bound: BoundQuery) -> TypeOfItem:
        path = node.this
        target = bound.joins.relationship(path.expressions, self.schema)
        if not target.polymorphic and len(target.targets) != 1:
            raise malformed("unexpected token: 'TYPEOF'", offset_of(node))
        by_name = {obj.name.lower(): obj for obj, _ in target.targets}
        branches: dict[str, list[Field]] = {}
        for branch in node.expressions:
            type_name = branch.this.name
            obj = by_name.get(type_name.lower())
            if obj is None:
                raise unsupported_type(type_name, offset_of(branch.this))
            fields = []
            for p in branch.expressions:
                f = obj.field(p.text) if len(p.parts) == 1 else None
                if f is None:
                    raise no_such_column(p.text, obj.name, offset_of(p))
                fields.append(f)
            branches[obj.name] = fields
        default = []
        for p in node.args.get("default") or []:
            resolved = _name_entity_field(target, p)
            default.append(resolved)
        return TypeOfItem(target.names[-1] if target.names else path.text, target, branches, default)

    # ------------------------------------------------------------------ functions
    def function(self, node: exp.Expression, bound: BoundQuery, clause: str):
        """Resolve the field paths inside a call and check it as its registry entry says; returns the entry."""
        spec = function_of(node)
        if spec is None or clause not in spec.clauses:
            raise malformed("unexpected token: '('", offset_of(node))
        fields = []
        for argument in node.expressions:
            if isinstance(argument, FieldPath):
                resolved = bound.joins.resolve(argument.expressions, self.schema)
                argument.meta["resolved"] = resolved
                if not (resolved.field.is_compound and spec.compound_arguments):
                    _usable_in(resolved.field, clause, argument)
                fields.append(resolved.field)
            elif function_of(argument) is not None:
                self.function(argument, bound, ARGUMENT)
                fields.append(_field_of(argument))
            else:
                fields.append(None)
        if spec.check is not None:
            grouped = {_group_key(g) for g in bound.group}
            spec.check(node, fields, lambda expression: _group_key(expression) in grouped)
        return spec

    # ------------------------------------------------------------------ clauses
    def group_by(self, group: exp.Group, bound: BoundQuery) -> None:
        items = list(group.expressions)
        if len(items) == 1 and isinstance(items[0], (exp.Rollup, exp.Cube)):
            bound.group_kind = "ROLLUP" if isinstance(items[0], exp.Rollup) else "CUBE"
            items = list(items[0].expressions)
        for item in items:
            if isinstance(item, FieldPath):
                resolved = bound.joins.resolve(item.expressions, self.schema)
                item.meta["resolved"] = resolved
                if not resolved.field.groupable:
                    raise malformed(
                        f"field '{resolved.field.name}' can not be grouped in a query call", offset_of(item)
                    )
            else:
                if _contains_aggregate(item):
                    raise malformed("unexpected token: '('", offset_of(item))
                self.function(item, bound, GROUP_BY)
        bound.group = items

    def order_by(self, order: exp.Order, bound: BoundQuery) -> None:
        grouped = {_group_key(g) for g in bound.group}
        for ordered in order.expressions:
            value = ordered.this
            if isinstance(value, FieldPath):
                resolved = bound.joins.resolve(value.expressions, self.schema)
                value.meta["resolved"] = resolved
                if not resolved.field.sortable:
                    raise malformed(
                        f"field '{resolved.field.name}' can not be sorted in a query call", offset_of(value)
                    )
                if bound.aggregate and _group_key(value) not in grouped:
                    raise malformed(
                        f"Ordered field must be grouped or aggregated: {value.text}", offset_of(value)
                    )
            else:
                self.function(value, bound, ORDER_BY)
                if not bound.aggregate and _contains_aggregate(value):
                    raise malformed("unexpected token: '('", offset_of(value))
                if bound.aggregate and not _contains_aggregate(value) and _group_key(value) not in grouped:
                    raise malformed(
                        f"Ordered field must be grouped or aggregated: {_describe(value)}", offset_of(value)
                    )
            bound.order.append(ordered)

    def condition(self, node: exp.Expression, bound: BoundQuery, having: bool = False) -> None:
        """Resolve the fields of WHERE/HAVING conditions; bind semi-join subqueries."""
        if isinstance(node, (exp.And, exp.Or)):
            self.condition(node.this, bound, having)
            self.condition(node.expression, bound, having)
            return
        if isinstance(node, (exp.Not, exp.Paren)):
            self.condition(node.this, bound, having)
            return
        left = node.this
        if isinstance(left, FieldPath):
            resolved = bound.joins.resolve(left.expressions, self.schema)
            left.meta["resolved"] = resolved
            f = resolved.field
            if f.is_compound or not f.filterable:
                raise invalid_field(f"field '{f.name}' can not be filtered in a query call", offset_of(left))
            if having and _group_key(left) not in {_group_key(g) for g in bound.group}:
                raise malformed(f"Field must be grouped or aggregated: {left.text}", offset_of(left))
        else:
            if _contains_aggregate(left) and not having:
                raise malformed("unexpected token: '('", offset_of(left))
            spec = self.function(left, bound, HAVING if having else WHERE)
            if spec.operators is not None and type(node) not in spec.operators:
                raise malformed(
                    f"unexpected token: '{node.meta.get('operator', '')}'", node.meta.get("offset")
                )
        if isinstance(node, exp.In) and node.args.get("query") is not None:
            self.semi_join(node, bound)

    def semi_join(self, node: exp.In, bound: BoundQuery) -> None:
        """``Id IN (SELECT AccountId FROM Case ...)``: one Id or reference field on each side, same target."""
        subquery = node.args["query"]
        inner_tree = subquery.this
        if bound.tree.meta.get("semi_join_level"):
            raise malformed("Nesting of semi join sub-selects is not supported", offset_of(subquery))
        inner_tree.meta["semi_join_level"] = 1
        inner = self.sub_binder().query(inner_tree, semi_join=True)
        if inner.obj.name == bound.obj.name:
            raise malformed(
                "The inner and outer selects should not be on the same object type", offset_of(subquery)
            )
        items = inner.items
        left = node.this.meta["resolved"].field if isinstance(node.this, FieldPath) else None
        if len(items) != 1 or not isinstance(items[0], FieldItem) or inner.aggregate:
            raise malformed("unexpected token: ','", offset_of(inner_tree))
        selected = items[0].resolved
        if left is None or left.type not in ("id", "reference"):
            raise malformed(
                f"The left operand field in the where expression in the outer query '{_left_name(node)}' "
                "must be an Id or a reference",
                offset_of(subquery),
            )
        if selected.field.type not in ("id", "reference"):
            raise malformed(
                f"The selected field '{selected.field.name}' in the subquery must be an Id or a reference",
                offset_of(subquery),
            )
        left_targets = _targets(left, bound.obj if left.type == "id" else None)
        right_targets = _targets(selected.field, selected.node.obj if selected.field.type == "id" else None)
        if not left_targets & right_targets:
            raise malformed(
                f"The selected field '{selected.field.name}' in the subquery and the left operand field in the "
                f"where expression in the outer query '{left.name}' should point to the same object type",
                offset_of(subquery),
            )
        node.meta["bound"] = inner


# ---------------------------------------------------------------------------- helpers
def _wrapped_field(node: exp.Expression) -> exp.Expression | None:
    """The field inside nested field-keeping calls: ``FORMAT(convertCurrency(Amount))`` -> ``Amount``."""
    while True:
        spec = function_of(node)
        if spec is None or not spec.keeps_field_key or not node.expressions:
            return node
        node = node.expressions[0]


def _bounded(bound: BoundQuery) -> bool:
    """FIELDS(ALL) and FIELDS(CUSTOM) need a bounded result: LIMIT 200 or less, or an Id filter.

    SOQL and SOSL Reference, "FIELDS()" (sforce_api_calls_soql_select_fields.htm): the result set
    is bounded by ``LIMIT n`` (n at most 200) or by ``WHERE Id IN (...)`` / ``Id = '...'`` on the
    queried object (at most 200 Ids), as a condition every record must meet.
    """
    if bound.limit is not None and bound.limit <= FIELDS_MACRO_LIMIT:
        return True
    for node in conjuncts(bound.where):
        if isinstance(node, (exp.EQ, exp.In)) and _is_own_id(node.this):
            values = [node.expression] if isinstance(node, exp.EQ) else node.expressions
            if (
                values
                and len(values) <= FIELDS_MACRO_LIMIT
                and all(isinstance(v, exp.Literal) and v.is_string for v in values)
            ):
                return True
    return False


def _is_own_id(node: exp.Expression) -> bool:
    resolved = node.meta.get("resolved") if isinstance(node, FieldPath) else None
    return resolved is not None and not resolved.names and resolved.field.name == "Id"


def _usable_in(f: Field, clause: str, path: FieldPath) -> None:
    """A compound field (an address) has no value of its own to pass to a function: refused as its clause refuses it.

    Other fields keep what the function makes of them (``CALENDAR_MONTH(CreatedDate)`` groups
    though ``CreatedDate`` itself cannot be grouped).
    """
    if not f.is_compound:
        return
    if clause in (WHERE, HAVING):
        raise invalid_field(f"field '{f.name}' can not be filtered in a query call", offset_of(path))
    if clause == ORDER_BY:
        raise malformed(f"field '{f.name}' can not be sorted in a query call", offset_of(path))
    if clause == GROUP_BY:
        raise malformed(f"field '{f.name}' can not be grouped in a query call", offset_of(path))


def _aggregate_offset(tree: exp.Select) -> int | None:
    """Where a child subquery first aggregates: its first aggregate call, else its GROUP BY."""
    for item in tree.expressions:
        if _contains_aggregate(item) or _is_count_star(item):
            calls = (n for n in item.walk() if function_of(n) is not None and function_of(n).aggregate)
            return offset_of(next(calls, item))
    return tree.args["group"].meta.get("offset")


def _is_count_star(node: exp.Expression) -> bool:
    return isinstance(node, exp.Anonymous) and node.name == "COUNT" and not node.expressions


def _contains_aggregate(node: exp.Expression) -> bool:
    """True for an aggregate call anywhere in ``node`` (GROUPING() counts: it reads the grouping)."""
    if isinstance(node, exp.Alias):
        node = node.this
    if isinstance(node, exp.Subquery):
        return False
    for n in node.walk():
        spec = function_of(n)
        if spec is not None and spec.aggregate:
            return True
    return False


def _group_key(node: exp.Expression) -> str:
    """A comparable text for a grouped expression: canonical field path, or the function's SOQL text."""
    if isinstance(node, FieldPath):
        resolved = node.meta.get("resolved")
        if resolved is not None:
            return ".".join(resolved.names + (resolved.field.name,)).lower()
        return node.text.lower()
    return node.sql(dialect=SOQL).lower()


def _field_of(node: exp.Expression) -> Field | None:
    """The field a function is applied to (the innermost field path), if any."""
    path = next(node.find_all(FieldPath), None)
    if path is None or "resolved" not in path.meta:
        return None
    return path.meta["resolved"].field


def _describe(node: exp.Expression) -> str:
    path = next(node.find_all(FieldPath), None)
    return path.text if path is not None else node.name


def _left_name(node: exp.In) -> str:
    return node.this.text if isinstance(node.this, FieldPath) else node.this.name


def _targets(f: Field, own: SObject | None) -> set[str]:
    if f.type == "id" and own is not None:
        return {own.name}
    return set(f.referenceTo)


def _name_entity_field(node: JoinNode, path: FieldPath) -> Field:
    if len(path.parts) != 1:
        raise no_such_column(path.text, "Name", offset_of(path))
    wanted = path.parts[0].lower()
    for name in NAME_ENTITY_FIELDS:
        if name.lower() == wanted:
            for obj, _ in node.targets:
                f = obj.field(name)
                if f is not None:
                    return f
            return Field(name=name, label=name, type="string", soapType="xsd:string")
    raise no_such_column(path.text, "Name", offset_of(path))
