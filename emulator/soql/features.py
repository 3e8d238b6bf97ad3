"""Clauses for features this org does not have, answered as an org without them answers.

A real org answers valid syntax for a feature it lacks with a coded error naming the feature,
not with a syntax error. The emulated org is a Service Cloud org with Lightning Knowledge; it
has no Chatter feeds (``WITH UserId = '...'`` reads UserProfileFeed), no RecordVisibility
pilot (``WITH RecordVisibilityContext (...)``), no Data 360 data lake or model objects
(``SET OPTIONS (...)``) and not the arithmetic-formula beta (``FORMULA('a - b')`` in WHERE).
SOQL and SOSL Reference: sforce-api-calls-soql-select-with,
sforce-api-calls-soql-select-with-recordvisibilitycontext, sforce-api-calls-soql-select-set-options,
sforce-api-calls-soql-select-formula
(https://developer.salesforce.com/docs/platform/salesforce-soql-sosl/guide/).

Modelled, not verified: the code is Salesforce's ``FUNCTIONALITY_NOT_ENABLED``; the wording
"<feature> is not enabled for this organization" is this emulator's, as no public payload
shows a real org's words for these clauses.
"""

from __future__ import annotations

from crmarena_sf.emulator.soql.errors import SoqlError
from crmarena_sf.emulator.soql.nodes import ACCESS_MODES, WithClause
from sqlglot import exp

NOT_ENABLED = "FUNCTIONALITY_NOT_ENABLED"
FEATURES = {
    "UserId": "WITH UserId (UserProfileFeed)",
    "RecordVisibilityContext": "WITH RecordVisibilityContext (RecordVisibility)",
    "SET OPTIONS": "SET OPTIONS (Data 360 query options)",
    "FORMULA": "FORMULA() in WHERE clauses (beta)",
}


def not_enabled(feature: str, offset: int | None = None) -> SoqlError:
    """FUNCTIONALITY_NOT_ENABLED naming the feature (modelled wording, see the module docstring)."""
    return SoqlError(
        NOT_ENABLED, f"{FEATURES.get(feature, feature)} is not enabled for this organization", offset
    )


def refuse_missing_features(tree: exp.Select) -> list[WithClause]:
    """Raise for a WITH or SET OPTIONS clause of a feature this org lacks; return the WITH clauses it has."""
    kept = []
    for clause in tree.meta.get("with", ()):
        if clause.kind in ACCESS_MODES or clause.kind == "DATA CATEGORY":
            kept.append(clause)
        else:
            raise not_enabled(clause.kind, clause.offset)
    set_options = tree.meta.get("set_options")
    if set_options is not None:
        raise not_enabled("SET OPTIONS", set_options.offset)
    return kept
