"""How search sees text: the tokens of a field value and of a search word.

Salesforce's search "splits record information separated by spaces or punctuation into
separate tokens" and is case-insensitive (SOQL and SOSL Reference, sforce_api_calls_sosl_find.htm);
older editions of that page add that "words ... are delimited by spaces, punctuation, and
changes from letters to digits (and vice-versa)", and the Salesforce search blog ("Inside
Search", 2012) says tokenization breaks text "at spaces, punctuation, and alphanumeric
boundaries". So a token here is a maximal run of letters (with their combining marks) or a
maximal run of decimal digits, lower-cased: ``Trail-Jacket XR500`` -> ``trail``, ``jacket``,
``xr``, ``500``. A possessive ``'s`` (or ``’s``) ending a word is dropped, as Lucene's English
possessive filter does: ``Women's`` is the token ``women``. A search word also finds its
regular singular and plural forms (:func:`word_forms`), but ``womens`` is not a form of
``women``: a live org answered ``FIND {Womens Fitness Leggings}`` with nothing for products
named "Women's ..." (a live CRMArena org's answers in neulab/agent-data-protocol datasets/crmarena/sample_raw.json).

Rich text (``htmlFormatted`` fields such as ``Knowledge__kav.FAQ_Answer__c``) is indexed
without its tags and character entities (``&amp;``, ``&#39;``): they are markup, not words.
Apostrophe entities are decoded (``Women&#39;s`` reads as ``Women's``); any other entity
becomes a separator, which is what decoding gives for the punctuation entities such text
holds; a letter entity such as ``&eacute;`` would split its word, an accepted simplification.

Record text is tokenised inside DuckDB for full builds (:func:`token_list_sql`, RE2 classes
``\\p{L}\\p{M}`` and ``\\p{Nd}``) and in Python for single records and search words
(:func:`tokens`, same Unicode categories, DuckDB's simple lower-casing); property tests
check that both agree.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

TOKEN_PATTERN = r"[\p{L}\p{M}]+(?:['’]s)?|\p{Nd}+"
"""RE2 pattern of one token in lower-cased text: letters (with combining marks, and a
possessive ``'s`` the token then loses), or decimal digits."""

APOSTROPHES = "'\u2019"

HTML_TAG_PATTERN = r"<[^>]*>"
HTML_ENTITY_PATTERN = r"&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);"
APOSTROPHE_ENTITIES = ((r"&(#0*39|#[xX]0*27|apos);", "'"), (r"&(rsquo|#0*8217|#[xX]0*2019);", "\u2019"))
"""Entities of apostrophes, decoded before the others become separators: ``Women&#39;s`` reads as ``Women's``."""

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

_IRREGULAR_PLURAL_ENDINGS = ("men", "ren", "ple")
"""Words already plural (women, children, people): an ``s`` after them is not a plural ending."""


_SIBILANT_ENDINGS = ("s", "x", "z", "ch", "sh")


def word_forms(token: str) -> tuple[str, ...]:
    """The index tokens a search word finds: itself and its regular singular and plural forms.

    Salesforce search uses "tokenization, lemmatization, and stopword lists" (Salesforce Help,
    "How Search Works for Knowledge Articles"), so ``refund`` finds "Refunds" and ``policies``
    finds "Policy". This covers regular English noun plurals only (``-s``, ``-es``, ``-ies``;
    no verb forms); where the singular is ambiguous (``shoes``: shoe or sho) both are tried,
    and a form no record holds simply finds nothing. An ``s`` after an irregular plural is not
    a plural ending: ``womens`` is not ``women``, so ``FIND {Womens Fitness Leggings}`` finds
    no "Women's" product, as on the live CRMArena org (a live CRMArena org's answers in neulab/agent-data-protocol datasets/crmarena/sample_raw.json).
    """
    if len(token) < 3 or not token.isalpha():
        return (token,)
    if token.endswith("s") and not token.endswith(("ss", "us", "is")):
        if token[:-1].endswith(_IRREGULAR_PLURAL_ENDINGS):
            return (token,)
        if token.endswith("ies") and len(token) > 4:
            singulars = [token[:-3] + "y", token[:-1]]
        elif token.endswith("es") and token[:-2].endswith((*_SIBILANT_ENDINGS, "o")):
            singulars = [token[:-2], token[:-1]]
        else:
            singulars = [token[:-1]]
    else:
        singulars = [token]
    forms = [token]
    for root in singulars:
        forms += [form for form in (root, *_plurals(root)) if form not in forms and len(form) > 2]
    return tuple(forms)


def _plurals(root: str) -> tuple[str, ...]:
    if root.endswith(_IRREGULAR_PLURAL_ENDINGS):
        return ()
    if root.endswith(_SIBILANT_ENDINGS):
        return (root + "es",)
    if root.endswith("o"):
        return (root + "s", root + "es")
    if root.endswith("y") and len(root) > 1 and root[-2] not in "aeiou":
        return (root[:-1] + "ies",)
    return (root + "s",)


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


def lower(text: str) -> str:
    """Lower case as DuckDB's ``lower`` does it: character by character, simple case mapping.

    (Python's ``str.lower`` applies special casing: ``İ`` becomes two characters, a final
    ``Σ`` becomes ``ς``.)
    """
    if text.isascii():
        return text.lower()
    return "".join("i" if ch == "\u0130" else ch.lower() for ch in text)


def tokens(text: str, wildcard_at: Callable[[int], bool] | None = None) -> list[str]:
    """The search tokens of ``text`` (lower-cased letter runs and digit runs, in order).

    A letter run followed by an apostrophe and ``s`` loses them: ``Women's`` is ``women``
    (Lucene's English possessive rule; see the module docstring). ``wildcard_at(i)`` marks
    positions of a search term holding an unescaped ``*`` or ``?``: kept inside the token
    being read (a wildcard starting a token is dropped, as the search ignores it there).
    """
    out: list[str] = []
    current: list[str] = []
    kind = None
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if wildcard_at is not None and wildcard_at(i):
            if current:
                current.append(ch)
            i += 1
            continue
        cls = char_class(ch)
        if current and cls != kind:
            out.append(lower("".join(current)))
            current = []
            if kind == LETTER and ch in APOSTROPHES and i + 1 < n and text[i + 1] in "sS":
                kind = None
                i += 2
                continue
        kind = cls
        if cls is not None:
            current.append(ch)
        i += 1
    if current:
        out.append(lower("".join(current)))
    return out


_TAG = re.compile(HTML_TAG_PATTERN)
_ENTITY = re.compile(HTML_ENTITY_PATTERN)


_APOSTROPHE_ENTITIES = [(re.compile(pattern), char) for pattern, char in APOSTROPHE_ENTITIES]


def searchable_text(value: str, html: bool) -> str:
    """A field value as search reads it (the Python twin of :func:`searchable_text_sql`)."""
    if not html:
        return value
    value = _TAG.sub(" ", value)
    for pattern, char in _APOSTROPHE_ENTITIES:
        value = pattern.sub(char, value)
    return _ENTITY.sub(" ", value)


_DIGIT_GROUPS = re.compile("[0-9][^0-9]+[0-9]")
_NOT_DIGIT = re.compile("[^0-9]")


def phone_digits(value: str) -> str | None:
    """A phone number's digits run together, when it has several digit groups (else None)."""
    if not _DIGIT_GROUPS.search(value):
        return None
    return _NOT_DIGIT.sub("", value)


def searchable_text_sql(column_sql: str, html: bool) -> str:
    """SQL for the text of a column as search reads it (tags and entities removed from rich text)."""
    if not html:
        return column_sql
    text = f"regexp_replace({column_sql}, '{HTML_TAG_PATTERN}', ' ', 'g')"
    for pattern, char in APOSTROPHE_ENTITIES:
        text = f"regexp_replace({text}, '{pattern}', '{char.replace(chr(39), chr(39) * 2)}', 'g')"
    return f"regexp_replace({text}, '{HTML_ENTITY_PATTERN}', ' ', 'g')"


def token_list_sql(column_sql: str, html: bool = False) -> str:
    """SQL for the list of tokens of a column (same rule as :func:`tokens`)."""
    pattern = TOKEN_PATTERN.replace("'", "''")
    extracted = f"regexp_extract_all(lower({searchable_text_sql(column_sql, html)}), '{pattern}')"
    return f"list_transform({extracted}, lambda t: regexp_replace(t, '[’'']s$', ''))"


PHONE_GROUPS_SQL = "'[0-9][^0-9]+[0-9]'"
"""RE2 pattern (as an SQL literal) of a phone number with several digit groups."""


def phone_digits_sql(column_sql: str) -> str:
    """SQL for a phone number's digits run together (``(336) 555-1234`` -> ``3365551234``).

    Phone search finds a number whatever its punctuation; indexing the digits as one more
    token lets ``FIND {3365551234}`` find ``(336) 555-1234`` as ``FIND {336-555-1234}`` does.
    """
    return f"regexp_replace({column_sql}, '[^0-9]', '', 'g')"
