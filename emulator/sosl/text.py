"""How search sees text: the tokens of a field value and of a search word.

Salesforce's search "splits record information separated by spaces or punctuation into
separate tokens" and is case-insensitive (SOQL and SOSL Reference, sforce_api_calls_sosl_find.htm);
older editions of that page add that "words ... are delimited by spaces, punctuation, and
changes from letters to digits (and vice-versa)", and the Salesforce search blog ("Inside
Search", 2012) says tokenization breaks text "at spaces, punctuation, and alphanumeric
boundaries". So a token here is a maximal run of letters (with their combining marks) or a
maximal run of decimal digits, lower-cased: ``Women's XR500`` -> ``women``, ``s``, ``xr``,
``500``. CRMArena observed exactly that on a live org: ``FIND {Womens Fitness Leggings}``
found nothing for products named "Women's ...", so neither the apostrophe nor plural
forms are normalised away (reference crmarena.md §5; no stemming or lemmatisation here).

Rich text (``htmlFormatted`` fields such as ``Knowledge__kav.FAQ_Answer__c``) is indexed
without its tags and character entities (``&amp;``, ``&#39;``): they are markup, not words.
An entity is replaced by a separator, which is what decoding it gives for the punctuation
entities such text holds (``&#39;`` is an apostrophe); a letter entity such as ``&eacute;``
would split its word, an accepted simplification.

Record text is tokenised inside DuckDB (:func:`token_list_sql`, RE2 classes ``\\p{L}\\p{M}``
and ``\\p{Nd}``); search words are tokenised in Python by :func:`char_class`, which uses
the same Unicode categories, so both sides agree.
"""

from __future__ import annotations

import unicodedata

TOKEN_PATTERN = r"[\p{L}\p{M}]+|\p{Nd}+"
"""RE2 pattern of one token (letters with combining marks, or decimal digits)."""

HTML_TAG_PATTERN = r"<[^>]*>"
HTML_ENTITY_PATTERN = r"&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);"

STOP_WORDS = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their then "
    "there these they this to was will with".split()
)
"""Words dropped from an operator-free run of search words.

Salesforce's search uses "tokenization, lemmatization, and stopword lists" (Salesforce Help,
"How Search Works for Knowledge Articles", service.knowledge_search_algorithm.htm) without
publishing the list; this is Lucene's English stop set, the engine family Salesforce search
is built on. A word in double quotes, joined by an explicit operator, or standing alone is
always searched.
"""

LETTER = "L"
DIGIT = "D"


def char_class(ch: str) -> str | None:
    """``"L"`` for a letter or combining mark, ``"D"`` for a decimal digit, None for a separator."""
    if ch.isascii():
        if ch.isalpha():
            return LETTER
        if ch.isdigit():
            return DIGIT
        return None
    category = unicodedata.category(ch)
    if category[0] in "LM":
        return LETTER
    if category == "Nd":
        return DIGIT
    return None


def tokens(text: str) -> list[str]:
    """The search tokens of ``text`` (lower-cased letter runs and digit runs, in order)."""
    out: list[str] = []
    current: list[str] = []
    kind = None
    for ch in text:
        cls = char_class(ch)
        if cls is None or cls != kind:
            if current:
                out.append("".join(current).lower())
                current = []
            kind = cls
        if cls is not None:
            current.append(ch)
    if current:
        out.append("".join(current).lower())
    return out


def searchable_text_sql(column_sql: str, html: bool) -> str:
    """SQL for the text of a column as search reads it (tags and entities removed from rich text)."""
    if not html:
        return column_sql
    without_tags = f"regexp_replace({column_sql}, '{HTML_TAG_PATTERN}', ' ', 'g')"
    return f"regexp_replace({without_tags}, '{HTML_ENTITY_PATTERN}', ' ', 'g')"


def token_list_sql(column_sql: str, html: bool = False) -> str:
    """SQL for the list of tokens of a column (same rule as :func:`tokens`)."""
    return f"regexp_extract_all(lower({searchable_text_sql(column_sql, html)}), '{TOKEN_PATTERN}')"


def phone_digits_sql(column_sql: str) -> str:
    """SQL for a phone number's digits run together (``(336) 555-1234`` -> ``3365551234``).

    Phone search finds a number whatever its punctuation; indexing the digits as one more
    token lets ``FIND {3365551234}`` find ``(336) 555-1234`` as ``FIND {336-555-1234}`` does.
    """
    return f"regexp_replace({column_sql}, '[^0-9]', '', 'g')"
