"""WITH DATA CATEGORY: articles filtered by how they are classified in the org's data category groups.

SOQL and SOSL Reference, "WITH DATA CATEGORY" and "dataCategorySelection"
(https://developer.salesforce.com/docs/platform/salesforce-soql-sosl/guide/sforce-api-calls-soql-select-with-datacategory.html):

- the query reads articles (``KnowledgeArticleVersion`` or an article type such as
  ``Knowledge__kav``); groups and categories are written with ``__c``
  (``WITH DATA CATEGORY Topics__c BELOW Policies__c``);
- ``AT`` selects the category, ``ABOVE`` the category and its parents up to ``All``,
  ``BELOW`` the category and its subcategories, ``ABOVE_OR_BELOW`` both;
- several categories of one group go in parentheses (any of them); several groups are joined
  by AND (each must hold); a group may be named only once;
- an article matches a selection when one of its ``<ArticleType>__DataCategorySelection``
  rows is in the group at one of the selected categories: an article not classified in a
  group matches no selection of that group.

The hierarchy is the org's metadata (:mod:`crmarena_sf.metadata.data_categories`). Modelled, not
verified: the wording of the refusals (an unknown group or category, a group named twice, a
query on an object that is not an article), each a MALFORMED_QUERY at the name concerned.
"""

from __future__ import annotations

from dataclasses import dataclass

from crmarena_sf.emulator.soql.errors import malformed
from crmarena_sf.emulator.soql.nodes import DataCategorySelection, WithClause
from crmarena_sf.emulator.soql.resolve import column
from crmarena_sf.metadata import data_categories
from crmarena_sf.metadata.model import Schema, SObject
from sqlglot import exp

SUFFIX = "__c"


@dataclass(frozen=True)
class CategoryFilter:
    """One group's condition: the article has a selection in ``group`` at one of ``categories``."""

    selection_object: str
    group: str
    categories: tuple[str, ...]


def selection_object(obj: SObject) -> str | None:
    """The categorization object of an article type: ``Knowledge__kav`` -> ``Knowledge__DataCategorySelection``."""
    if obj.name.endswith("__kav"):
        return obj.name[: -len("__kav")] + "__DataCategorySelection"
    if obj.name == "KnowledgeArticleVersion":
        return "KnowledgeArticleVersion__DataCategorySelection"
    return None


def bind_data_categories(withs: list[WithClause], obj: SObject, schema: Schema) -> list[CategoryFilter]:
    """The filters of the query's WITH DATA CATEGORY clause (none without one); raises SoqlError."""
    filters: list[CategoryFilter] = []
    for clause in withs:
        if clause.kind != "DATA CATEGORY":
            continue
        categorized = selection_object(obj)
        if categorized is None or schema.get(categorized) is None:
            raise malformed(f"WITH DATA CATEGORY is not supported for {obj.name}", clause.offset)
        seen: set[str] = set()
        for selection in clause.selections:
            f = _filter(selection, categorized)
            if f.group.lower() in seen:
                raise malformed(
                    f"Data category group {selection.group} is used more than once", selection.offset
                )
            seen.add(f.group.lower())
            filters.append(f)
    return filters


def _filter(selection: DataCategorySelection, categorized: str) -> CategoryFilter:
    group = _developer_name(selection.group, data_categories.group)
    if group is None:
        raise malformed(f"Invalid data category group: {selection.group}", selection.offset)
    chosen: list[str] = []
    for written, offset in zip(selection.categories, selection.category_offsets):
        category = _developer_name(written, group.category)
        if category is None:
            raise malformed(f"Invalid data category: {written}", offset)
        chosen.extend(_selected(group, category.name, selection.selector))
    return CategoryFilter(categorized, group.name, tuple(dict.fromkeys(chosen)))


def _developer_name(written: str, find):
    """The metadata a ``Name__c`` names (None without the suffix or for an unknown name)."""
    if not written.lower().endswith(SUFFIX):
        return None
    return find(written[: -len(SUFFIX)])


def _selected(group: data_categories.DataCategoryGroup, name: str, selector: str) -> list[str]:
    """The categories a selector reaches from ``name``: AT itself, ABOVE its parents, BELOW its children."""
    out = [name]
    if selector in ("ABOVE", "ABOVE_OR_BELOW"):
        out.extend(group.ancestors(name))
    if selector in ("BELOW", "ABOVE_OR_BELOW"):
        out.extend(group.descendants(name))
    return out


def category_predicate(f: CategoryFilter, article_alias: str) -> exp.Expression:
    """``Id IN (SELECT ParentId FROM <selections> WHERE group = g AND category IN (...))`` (live rows only)."""
    table = exp.Table(
        this=exp.to_identifier(f.selection_object, quoted=True),
        alias=exp.TableAlias(this=exp.to_identifier("dcs", quoted=True)),
    )
    conditions = [
        exp.EQ(
            this=exp.Lower(this=column("dcs", "DataCategoryGroupName")),
            expression=exp.Literal.string(f.group.lower()),
        ),
        exp.In(
            this=exp.Lower(this=column("dcs", "DataCategoryName")),
            expressions=[exp.Literal.string(c.lower()) for c in f.categories],
        ),
        exp.Not(this=exp.Coalesce(this=column("dcs", "IsDeleted"), expressions=[exp.false()])),
    ]
    inner = (
        exp.Select(expressions=[column("dcs", "ParentId")])
        .from_(table, copy=False)
        .where(exp.and_(*conditions), copy=False)
    )
    return exp.In(this=column(article_alias, "Id"), query=exp.Subquery(this=inner))
