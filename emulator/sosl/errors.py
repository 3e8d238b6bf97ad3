"""SOSL errors in Salesforce's words.

Two families reach the caller, both HTTP 400:

- ``INVALID_SEARCH`` for a search term shorter than two characters:
  ``search term must be longer than one character: a`` (issue 5; the same sentence
  appears in public Apex logs, SalesforceLabs/Milestones-PM#27).
- ``MALFORMED_SEARCH`` for syntax, with the caret prefix Salesforce writes for query errors.
  A live org answered ``FIND {women's trail jacket} IN ALL FIELDS`` with::

      \\nFIND {women's trail jacket} IN ALL FIELDS\\n          ^\\nERROR at Row:1:Column:11\\nline 1:11 mismatched character ''' expecting '}'

  (a live CRMArena org's answers in neulab/agent-data-protocol datasets/crmarena/sample_raw.json); ``line 1:11`` is the lexer's 0-based column of the
  apostrophe, and the prefix prints that number as its (1-based) column, so the caret
  stands one character to the left. Salesforce StackExchange #254017 shows the same
  message for ``FIND {AB-C*}`` (``line 1:8 mismatched character '-' expecting '}'``).

Errors in RETURNING name objects and fields as SOQL does (``INVALID_TYPE``,
``INVALID_FIELD``; :mod:`crmarena_sf.emulator.soql.errors`).
"""

from __future__ import annotations

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.soql.errors import caret_prefix

MAX_OFFSET = 2000


class SoslSyntaxError(Exception):
    """A statement error before rendering: code, message and the offset its caret points at."""

    def __init__(self, error_code: str, message: str, offset: int | None) -> None:
        super().__init__(f"{error_code}: {message}")
        self.error_code = error_code
        self.message = message
        self.offset = offset

    def without_caret(self) -> SoslSyntaxError:
        """The same error rendered without the caret prefix (Salesforce omits it at the first token)."""
        self.offset = None
        return self

    def render(self, text: str) -> SalesforceError:
        """The REST error for this problem in statement ``text``."""
        message = self.message
        if self.offset is not None:
            message = caret_prefix(text, self.offset) + message
        return SalesforceError(self.error_code, message, status=400)


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and 0-based column of ``offset`` (how the SOSL lexer counts)."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start


def mismatched_character(text: str, offset: int, expecting: str = "}") -> SoslSyntaxError:
    """``line 1:11 mismatched character ''' expecting '}'`` at an unescaped reserved character (or end)."""
    line, column = line_and_column(text, offset)
    shown = text[offset] if offset < len(text) else "<EOF>"
    caret = offset - 1 if column > 0 else offset
    return SoslSyntaxError(
        "MALFORMED_SEARCH",
        f"line {line}:{column} mismatched character '{shown}' expecting '{expecting}'",
        caret,
    )


def unexpected_token(text: str, token_text: str | None, offset: int) -> SoslSyntaxError:
    """``unexpected token: 'X'`` (``'<EOF>'`` past the end), as the SOQL parser words it."""
    shown = "<EOF>" if token_text is None else token_text
    return SoslSyntaxError("MALFORMED_SEARCH", f"unexpected token: '{shown}'", offset)


def no_search_term() -> SalesforceError:
    """A statement whose FIND is not followed by a braced (or quoted) search term."""
    return SalesforceError(
        "MALFORMED_SEARCH", "No search term found. The search term must be enclosed in braces.", status=400
    )


def term_too_short(term: str) -> SalesforceError:
    """INVALID_SEARCH for a search term of fewer than two characters."""
    return SalesforceError(
        "INVALID_SEARCH", f"search term must be longer than one character: {term}", status=400
    )


def offset_out_of_range(offset: int | None) -> SoslSyntaxError:
    """OFFSET beyond 2,000 rows (SOQL and SOSL Reference, sforce_api_calls_sosl_offset.htm)."""
    return SoslSyntaxError("MALFORMED_SEARCH", "SOSL offset should be between 0 to 2000", offset)


def not_searchable(object_name: str, offset: int | None) -> SoslSyntaxError:
    """An object whose describe says ``searchable: false`` named in RETURNING.

    Wording from a public Apex trace (``entity type AccountHistory does not support search``,
    lc169.blogspot.com, "Unsupported Object Types for SOSL Query"); the REST error code for it
    is not documented, INVALID_TYPE is the code Salesforce uses for unusable object types.
    """
    return SoslSyntaxError("INVALID_TYPE", f"entity type {object_name} does not support search", offset)
