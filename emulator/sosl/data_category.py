"""SOSL's WITH DATA CATEGORY: the search's articles filtered by their data categories, as SOQL filters them.

SOQL and SOSL Reference, "WITH DATA CATEGORY DataCategorySpec"
(https://developer.salesforce.com/docs/platform/salesforce-soql-sosl/guide/sforce-api-calls-sosl-with-data-category.html):
``FIND {tourism} RETURNING KnowledgeArticleVersion (Id, Title WHERE PublishStatus='online')
WITH DATA CATEGORY Location__c AT America__c``; a group, AT / ABOVE / BELOW / ABOVE_OR_BELOW and
a category (several in parentheses), specifiers joined by AND only; the statement must return
articles (``KnowledgeArticleVersion`` or an article type) or questions.

One implementation with SOQL: the clause is parsed by SOQL's WITH grammar
(:class:`crmarena_sf.emulator.soql.with_clauses.WithClauseParser`), checked by
:func:`crmarena_sf.emulator.soql.category_filters.bind_data_categories` for every object returned, and the
RETURNING clauses run through :func:`crmarena_sf.emulator.soql.select_records` with the clause
as parsed, which SOQL applies as its own ``WITH DATA CATEGORY``.

Modelled, not verified: these refusals are MALFORMED_SEARCH (a search's syntax code) with the
SOQL module's words, the caret at the name concerned; a statement without RETURNING is refused
at WITH ("WITH DATA CATEGORY requires a RETURNING clause").
"""

from __future__ import annotations

from crmarena_sf.emulator.soql.category_filters import bind_data_categories
from crmarena_sf.emulator.soql.errors import SoqlError
from crmarena_sf.emulator.soql.nodes import WithClause
from crmarena_sf.emulator.soql.with_clauses import WithClauseParser
from crmarena_sf.emulator.sosl.errors import SoslSyntaxError
from crmarena_sf.emulator.sosl.scanner import Scanner
from crmarena_sf.metadata.model import Schema, SObject

KIND = "DATA CATEGORY"


def parse_data_category(text: str, start: int, end: int, offset: int) -> WithClause:
    """The selections written in ``text[start:end]`` (after ``WITH DATA CATEGORY``, the WITH at ``offset``).

    The fragment is parsed in place (the text before it blanked), so errors point into the statement.
    """
    parser = WithClauseParser(" " * start + text[start:end])
    try:
        selections = [parser.data_category_selection()]
        while parser.take_word("AND"):
            selections.append(parser.data_category_selection())
        if parser.peek() is not None:
            raise parser.unexpected()
    except SoqlError as exc:
        if exc.offset is not None and exc.offset >= len(text[:end].rstrip()) and end < len(text.rstrip()):
            rest = Scanner(text)  # the fragment ended at a clause of the statement: name that token
            rest.pos = end
            raise rest.unexpected() from None
        raise _as_search_error(exc) from None
    return WithClause(KIND, offset, tuple(selections))


def check_data_category(clause: WithClause, objects: list[SObject], schema: Schema, returning: bool) -> None:
    """Refuse the clause for a statement without RETURNING, for an object that is not an article, or
    for an unknown group or category (SoslSyntaxError)."""
    if not returning:
        raise SoslSyntaxError(
            "MALFORMED_SEARCH", "WITH DATA CATEGORY requires a RETURNING clause", clause.offset
        )
    for obj in objects:
        try:
            bind_data_categories([clause], obj, schema)
        except SoqlError as exc:
            raise _as_search_error(exc) from None


def _as_search_error(exc: SoqlError) -> SoslSyntaxError:
    return SoslSyntaxError("MALFORMED_SEARCH", exc.message, exc.offset)
