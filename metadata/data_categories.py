"""The org's data category groups: how its knowledge articles are classified.

A real org keeps data category groups as metadata (Metadata API ``DataCategoryGroup``; SOAP API
``describeDataCategoryGroups()`` and ``describeDataCategoryGroupStructures()``): each group is a
tree of categories under its top category ``All``, used by an object (here the articles,
``KnowledgeArticleVersion``). An article is classified by one row of its categorization object
(``Knowledge__DataCategorySelection``: the group's and the category's developer names) per
category it belongs to, never a category together with its own parent or child (Object
Reference, "Knowledge__DataCategorySelection"). SOQL filters articles by their categories with
``WITH DATA CATEGORY Topics__c BELOW Policies__c`` (groups and categories are named with
``__c`` there).

The org has two groups: ``Topics`` (what an article is about) and ``Channels`` (where its
answer applies: every policy article applies everywhere, so it is classified at ``All``).
The generator's knowledge step classifies the articles (:mod:`crmarena_sf.loaders.generate.knowledge`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class DataCategory:
    """One category: its developer name, label and subcategories."""

    name: str
    label: str
    children: tuple[DataCategory, ...] = ()

    def walk(self) -> Iterator[tuple[DataCategory, tuple[str, ...]]]:
        """Every category of this subtree with the names of its ancestors (nearest last)."""
        stack: list[tuple[DataCategory, tuple[str, ...]]] = [(self, ())]
        while stack:
            category, ancestors = stack.pop()
            yield category, ancestors
            stack.extend((child, (*ancestors, category.name)) for child in reversed(category.children))


@dataclass(frozen=True)
class DataCategoryGroup:
    """A data category group: a tree of categories under ``All``, used by the objects it lists."""

    name: str
    label: str
    description: str
    objects: tuple[str, ...]
    top: DataCategory

    def category(self, name: str) -> DataCategory | None:
        """The category named ``name`` (developer name, any case)."""
        return next((c for c, _ in self.top.walk() if c.name.lower() == name.lower()), None)

    def ancestors(self, name: str) -> tuple[str, ...]:
        """The developer names of a category's ancestors, ``All`` first."""
        return next((a for c, a in self.top.walk() if c.name.lower() == name.lower()), ())

    def descendants(self, name: str) -> tuple[str, ...]:
        """The developer names of a category's subcategories, at any depth."""
        category = self.category(name)
        return tuple(c.name for c, _ in category.walk())[1:] if category is not None else ()


def _leaves(*pairs: tuple[str, str]) -> tuple[DataCategory, ...]:
    return tuple(DataCategory(name, label) for name, label in pairs)


GROUPS = (
    DataCategoryGroup(
        "Topics",
        "Topics",
        "What an article is about",
        ("KnowledgeArticleVersion",),
        DataCategory(
            "All",
            "All",
            (
                DataCategory(
                    "Policies",
                    "Policies",
                    _leaves(
                        ("Billing", "Billing and Refunds"),
                        ("Returns", "Returns and Exchanges"),
                        ("Shipping", "Shipping and Delivery"),
                        ("Orders", "Orders and Cancellations"),
                        ("Warranty", "Warranty and Defects"),
                        ("Rewards", "Rewards Program"),
                    ),
                ),
                DataCategory(
                    "Products",
                    "Products",
                    _leaves(
                        ("Footwear", "Footwear"), ("Apparel", "Apparel"), ("Gear", "Outdoor and Fitness Gear")
                    ),
                ),
                DataCategory(
                    "Services",
                    "Store Services",
                    _leaves(
                        ("Payments", "Payments and Gift Cards"),
                        ("Discounts", "Discounts and Offers"),
                        ("Tracking", "Order Tracking"),
                        ("Account", "Your Account"),
                    ),
                ),
            ),
        ),
    ),
    DataCategoryGroup(
        "Channels",
        "Channels",
        "Where an article's answer applies",
        ("KnowledgeArticleVersion",),
        DataCategory("All", "All", _leaves(("Online", "Online Store"), ("Stores", "Retail Stores"))),
    ),
)


def group(name: str) -> DataCategoryGroup | None:
    """The group named ``name`` (developer name, any case)."""
    return next((g for g in GROUPS if g.name.lower() == name.lower()), None)
