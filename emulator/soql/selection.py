"""One object's records asked for in parts, not as a query text: SOSL's ``RETURNING Object(...)``.

A search's RETURNING clause holds pieces of SOQL, a field list, a WHERE condition and an ORDER
BY, and its WITH DATA CATEGORY clause is one SOSL has already parsed (SOQL and SOSL Reference,
"RETURNING FieldSpec", https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_sosl_returning.htm,
and "WITH DATA CATEGORY DataCategorySpec"). A :class:`RecordSelection` carries them to the SOQL
engine as they are: each piece is read by its own production of the SOQL grammar
(:func:`crmarena_sf.emulator.soql.parser.parse_selection`) and the clause is put into the tree
as parsed, so nothing is spliced into a query text and parsed again. A selection keys the
engine's caches as a query text does.
"""

from __future__ import annotations

from dataclasses import dataclass

from crmarena_sf.emulator.soql.nodes import WithClause


@dataclass(frozen=True)
class RecordSelection:
    """``SELECT <fields> FROM <object_name> [WHERE (<where>)] [WITH <data_category>] [ORDER BY <order_by>]
    [LIMIT <limit>] [OFFSET <offset>]``, by parts."""

    object_name: str
    fields: str
    """The select list as written (``Id, Name, toLabel(Status)``)."""
    where: str | None = None
    """The condition as written, without ``WHERE``."""
    order_by: str | None = None
    """The ordering as written, without ``ORDER BY``."""
    limit: int | None = None
    offset: int | None = None
    data_category: WithClause | None = None
    """``WITH DATA CATEGORY``, parsed (SOSL's clause, :mod:`crmarena_sf.emulator.sosl.data_category`)."""
