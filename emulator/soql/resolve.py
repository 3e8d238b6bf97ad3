"""Field paths against the schema: which joins a path needs and which column it ends on.

``Contact.Account.Owner.Name`` from Case walks parent relationships (case-insensitively,
answering with canonical names) and becomes LEFT JOINs: each relationship hop is one
node of a :class:`JoinTree`, shared by every path that goes through it. A polymorphic
relationship (``Owner`` of a Case is a User or a Group, ``What`` of a Task many things)
joins every target table and reads a field from whichever matched; through such a
relationship only the fields of Salesforce's ``Name`` entity are visible, and the path goes
on only through the Name entity's own relationships: ``Owner.Profile.Name``,
``Owner.UserRole.Name`` (SOQL and SOSL Reference, "Understanding Polymorphic Keys and
Relationships"; Object Reference, "Name").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crmarena_sf.emulator.soql.errors import bad_relationship, no_such_column
from crmarena_sf.metadata.model import Field, SObject
from sqlglot import exp

NAME_ENTITY_FIELDS = (
    "Id Alias CommunityNickname Email FirstName IsActive LastName LastReferencedDate LastViewedDate "
    "Name Phone ProfileId RecordTypeId Title Type UserRoleId Username"
).split()
"""Fields of the ``Name`` entity: what a polymorphic relationship exposes (Object Reference, "Name")."""
_NAME_ENTITY = {f.lower(): f for f in NAME_ENTITY_FIELDS}


def column(alias: str, name: str) -> exp.Column:
    """``"alias"."name"``, always quoted (Case, Order and Group are SQL keywords)."""
    return exp.column(name, table=alias, quoted=True)  # from strings: no identifiers built to be copied


@dataclass(eq=False)
class JoinNode:
    """One relationship hop: the object(s) it reaches and the alias each is joined as."""

    names: tuple[str, ...]
    """Canonical relationship names from the query's object (empty for the object itself)."""
    targets: list[tuple[SObject, str]]
    parent: JoinNode | None = None
    foreign_key: str | None = None
    children: dict[str, JoinNode] = field(default_factory=dict)

    def __deepcopy__(self, memo) -> JoinNode:
        # Copying a tree whose paths carry meta["resolved"] (the SQL generator copies what it
        # renders) must share the join tree, not clone it with the schema objects it points at.
        return self

    @property
    def polymorphic(self) -> bool:
        return len(self.targets) > 1

    @property
    def obj(self) -> SObject:
        """The object reached (the first target for a polymorphic relationship)."""
        return self.targets[0][0]

    def id_expression(self) -> exp.Expression:
        """The Id of the record this hop reached (NULL when there is none)."""
        return self.value_expression("Id")

    def value_expression(self, field_name: str) -> exp.Expression:
        """The column holding ``field_name`` on the reached record (COALESCE over polymorphic targets)."""
        sources = []
        for obj, alias in self.targets:
            f = obj.field(field_name)
            # Name.Type is the record's object (User, Opportunity) or, for a Group, its own Type
            # (Queue): an Account's or an Opportunity's own Type field is not what What.Type reads.
            by_object = field_name == "Type" and self.polymorphic and obj.name != "Group"
            if f is not None and not f.is_compound and not by_object:
                sources.append(column(alias, f.name))
            elif field_name == "Type" and self.polymorphic:
                sources.append(
                    exp.If(
                        this=exp.Not(this=exp.Is(this=column(alias, "Id"), expression=exp.Null())),
                        true=exp.Literal.string(obj.name),
                    )
                )
        if not sources:
            return exp.Null()
        if len(sources) == 1:
            return sources[0]
        return exp.Coalesce(this=sources[0], expressions=sources[1:])


@dataclass(frozen=True)
class ResolvedField:
    """A field path resolved: the hop it ends on and the field (with canonical name and type)."""

    node: JoinNode
    field: Field
    entity: str
    """The object named in messages about this field (``Name`` through a polymorphic hop)."""

    def __deepcopy__(self, memo) -> ResolvedField:
        return self  # immutable, and points into the shared join tree and schema

    @property
    def expression(self) -> exp.Expression:
        return self.node.value_expression(self.field.name)

    @property
    def names(self) -> tuple[str, ...]:
        return self.node.names


NAME_ENTITY_RELATIONSHIPS = {"profile": "ProfileId", "userrole": "UserRoleId", "recordtype": "RecordTypeId"}
"""Relationships of the ``Name`` entity: its reference fields ProfileId, UserRoleId and RecordTypeId."""


def _name_entity_relationship(node: JoinNode, name: str):
    """A relationship a polymorphic hop continues through: one the Name entity has (``Owner.Profile``).

    The targets that have its reference field lend it (a User owner has a Profile, a queue has none),
    so ``Owner.Profile.Name`` is the profile's name for User owners and null for queues.
    """
    field_name = NAME_ENTITY_RELATIONSHIPS.get(name.lower())
    if field_name is None:
        return None
    for obj, _ in node.targets:
        ref = obj.parent_relationship(name)
        if ref is not None and ref.name == field_name:
            return ref
    return None


class JoinTree:
    """The joins of one query level, built as its field paths are resolved."""

    def __init__(self, obj: SObject, alias_prefix: str, object_alias: str | None = None) -> None:
        self.prefix = alias_prefix
        self.root = JoinNode((), [(obj, f"{alias_prefix}t0")])
        self.object_alias = object_alias.lower() if object_alias else None
        self.path_aliases: dict[str, list[exp.Identifier]] = {}
        """``FROM Contact c, c.Account a``: ``a`` names the relationship path ``Account``."""
        self._count = 0

    def is_own_name(self, name: str) -> bool:
        """True for the queried object's name or its alias (``FROM Account.Contacts``, ``FROM a.Contacts``)."""
        lowered = name.lower()
        return lowered == self.obj.name.lower() or lowered == self.object_alias

    def name_path(self, parts: list[exp.Identifier], alias: exp.Identifier | None, schema) -> None:
        """A relationship path named in FROM (alias notation): checked now, its alias usable in every clause."""
        node = self.relationship(parts, schema)
        if alias is not None:
            self.path_aliases[alias.name.lower()] = [exp.to_identifier(n) for n in node.names]

    def _expanded(self, hops: list[exp.Identifier], node: JoinNode) -> list[exp.Identifier]:
        """``hops`` without the object's name or alias in front, and with a path alias replaced by its path."""
        if hops and self._is_object_prefix(hops[0].name, node):
            hops = hops[1:]
        if (
            hops
            and hops[0].name.lower() in self.path_aliases
            and node.obj.parent_relationship(hops[0].name) is None
        ):
            hops = [*self.path_aliases[hops[0].name.lower()], *hops[1:]]
        return hops

    @property
    def obj(self) -> SObject:
        return self.root.obj

    @property
    def alias(self) -> str:
        return self.root.targets[0][1]

    def resolve(self, parts: list[exp.Identifier], schema) -> ResolvedField:
        """The field named by ``parts`` (identifiers of a FieldPath); raises INVALID_FIELD like a real org."""
        node = self.root
        hops = self._expanded(list(parts[:-1]), node)
        for ident in hops:
            node = self._hop(node, ident, schema)
        last = parts[-1]
        if node.polymorphic:
            canonical = _NAME_ENTITY.get(last.name.lower())
            if canonical is None:
                raise no_such_column(last.name, "Name", last.meta.get("offset"))
            f = next((o.field(canonical) for o, _ in node.targets if o.field(canonical) is not None), None)
            if f is None:
                f = Field(name=canonical, label=canonical, type="string", soapType="xsd:string")
            return ResolvedField(node, f, "Name")
        f = node.obj.field(last.name)
        if f is None:
            raise no_such_column(last.name, node.obj.name, last.meta.get("offset"))
        return ResolvedField(node, f, node.obj.name)

    def relationship(self, parts: list[exp.Identifier], schema) -> JoinNode:
        """The hop a path of relationship names reaches (for TYPEOF and nested parents)."""
        node = self.root
        hops = list(parts)
        if len(hops) > 1 and self._is_object_prefix(hops[0].name, node):
            hops = hops[1:]
        hops = self._expanded(hops, node)
        for ident in hops:
            node = self._hop(node, ident, schema)
        return node

    def _is_object_prefix(self, name: str, node: JoinNode) -> bool:
        """``OrderItem.Order.AccountId`` from OrderItem: a path may start with the object's name or alias."""
        lowered = name.lower()
        if node.obj.parent_relationship(name) is not None:
            return False
        return lowered == node.obj.name.lower() or lowered == self.object_alias

    def _hop(self, node: JoinNode, ident: exp.Identifier, schema) -> JoinNode:
        offset = ident.meta.get("offset")
        ref = (
            _name_entity_relationship(node, ident.name)
            if node.polymorphic
            else node.obj.parent_relationship(ident.name)
        )
        if ref is None:
            raise bad_relationship(ident.name, offset)
        key = ref.relationshipName.lower()
        child = node.children.get(key)
        if child is not None:
            return child
        targets = []
        for target_name in ref.referenceTo:
            target = schema.get(target_name)
            if target is None:
                continue
            self._count += 1
            targets.append((target, f"{self.prefix}t{self._count}"))
        if not targets:
            raise bad_relationship(ident.name, offset)
        child = JoinNode(node.names + (ref.relationshipName,), targets, node, ref.name)
        node.children[key] = child
        return child

    def joins(self) -> list[exp.Join]:
        """LEFT JOINs for every hop used, parents before children."""
        out: list[exp.Join] = []
        pending = list(self.root.children.values())
        while pending:
            node = pending.pop(0)
            foreign_key = node.parent.value_expression(node.foreign_key)
            for obj, alias in node.targets:
                table = exp.Table(
                    this=exp.to_identifier(obj.name, quoted=True),
                    alias=exp.TableAlias(this=exp.to_identifier(alias, quoted=True)),
                )
                on = exp.EQ(this=column(alias, "Id"), expression=foreign_key.copy())
                out.append(exp.Join(this=table, side="LEFT", on=on))
            pending.extend(node.children.values())
        return out
