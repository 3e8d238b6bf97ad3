"""SOSL statements and search terms: every clause, term operator and syntax error, without an org.

Sources: SOQL and SOSL Reference (sforce_api_calls_sosl_syntax.htm, _find.htm, _in.htm,
_returning.htm, _limit.htm, _offset.htm, _examples.htm) and errors observed on live orgs
(a live CRMArena org's answers in neulab/agent-data-protocol datasets/crmarena/sample_raw.json; Salesforce StackExchange #254017).
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.sosl.statement import parse
from crmarena_sf.emulator.sosl.terms import Chain, Leaf, Step, leaves
from crmarena_sf.emulator.sosl.text import tokens, word_forms


def tree(term: str):
    return parse(f"FIND {{{term}}}").term.tree


def words(*texts: str) -> list[Leaf]:
    return [Leaf((t,)) for t in texts]


def implicit(first, *rest):
    """Operands joined by implicit ANDs."""
    return Chain(first, tuple(Step("AND", r, True) for r in rest))


def error(text: str) -> SalesforceError:
    with pytest.raises(SalesforceError) as info:
        parse(text)
    return info.value


# ---------------------------------------------------------------------------- errors seen on live orgs
def test_unescaped_apostrophe_is_the_live_orgs_malformed_search():
    """Verbatim from a live CRMArena org (a live CRMArena org's answers in neulab/agent-data-protocol datasets/crmarena/sample_raw.json)."""
    err = error("FIND {women's trail jacket} IN ALL FIELDS")
    assert err.error_code == "MALFORMED_SEARCH"
    assert err.message == (
        "\nFIND {women's trail jacket} IN ALL FIELDS\n          ^\nERROR at Row:1:Column:11\n"
        "line 1:11 mismatched character ''' expecting '}'"
    )
    assert err.status == 400


def test_unescaped_hyphen_is_a_mismatched_character_at_its_column():
    """StackExchange #254017: ``FIND {AB-C*}`` -> ``line 1:8 mismatched character '-' expecting '}'``."""
    err = error("FIND {AB-C*} IN all FIELDS")
    assert err.message.endswith("line 1:8 mismatched character '-' expecting '}'")
    assert "ERROR at Row:1:Column:8" in err.message


@pytest.mark.parametrize("reserved", list("&|!{[]^~:'+-"))
def test_every_reserved_character_must_be_escaped_inside_braces(reserved):
    err = error(f"FIND {{ab{reserved}cd}}")
    assert err.message.endswith(f"line 1:8 mismatched character '{reserved}' expecting '}}'")
    assert parse(f"FIND {{ab\\{reserved}cd}}").term.tree is not None


def test_an_unclosed_brace_expects_one_at_the_end():
    err = error("FIND {acme")
    assert err.error_code == "MALFORMED_SEARCH"
    assert err.message.endswith("line 1:10 mismatched character '<EOF>' expecting '}'")


def test_mismatched_character_counts_lines_and_columns_on_later_lines():
    err = error("FIND\n{ab-c}")
    assert err.message.endswith("line 2:3 mismatched character '-' expecting '}'")
    assert "ERROR at Row:2:Column:3" in err.message


@pytest.mark.parametrize("term", ["a", "a*", '"a"', "", " b ", "(x)"])
def test_a_term_shorter_than_two_characters_is_invalid_search(term):
    err = error(f"FIND {{{term}}}")
    assert err.error_code == "INVALID_SEARCH"
    assert err.message == f"search term must be longer than one character: {term.strip()}"


def test_find_without_braces_has_no_search_term():
    err = error("FIND acme")
    assert (err.error_code, err.message) == (
        "MALFORMED_SEARCH",
        "No search term found. The search term must be enclosed in braces.",
    )


def test_a_statement_not_starting_with_find_has_no_caret():
    err = error("SELECT Id FROM Account")
    assert (err.error_code, err.message) == ("MALFORMED_SEARCH", "unexpected token: 'SELECT'")
    assert error("").message == "unexpected token: '<EOF>'"


def test_a_misspelled_clause_is_an_unexpected_token_with_its_caret():
    err = error("FIND {acme} RETURNIN Account")
    assert (
        err.message
        == "\nFIND {acme} RETURNIN Account\n            ^\nERROR at Row:1:Column:13\nunexpected token: 'RETURNIN'"
    )


@pytest.mark.parametrize(
    "text, token",
    [
        ("FIND {acme} IN BODY FIELDS", "BODY"),
        ("FIND {acme} IN NAME", "<EOF>"),
        ("FIND {acme} RETURNING Account(", "<EOF>"),
        ("FIND {acme} RETURNING Account()", ")"),
        ("FIND {acme} RETURNING Account(Id WHERE)", ")"),
        ("FIND {acme} RETURNING Account(Id LIMIT x)", "x"),
        ("FIND {acme} RETURNING Account(Id ORDER Name)", "Name"),
        ("FIND {acme} LIMIT", "<EOF>"),
        ("FIND {acme} WITH NOTHING", "NOTHING"),
        ("FIND {acme} LIMIT 5 RETURNING Account", "RETURNING"),
        ("FIND {acme} RETURNING Account,", "<EOF>"),
    ],
)
def test_syntax_errors_name_the_unexpected_token(text, token):
    err = error(text)
    assert err.error_code == "MALFORMED_SEARCH"
    assert err.message.endswith(f"unexpected token: '{token}'")


def test_offset_above_2000_is_refused():
    """sforce_api_calls_sosl_offset.htm: "SOSL offset should be between 0 to 2000"."""
    err = error("FIND {acme} RETURNING Account(Id LIMIT 10 OFFSET 2001)")
    assert err.error_code == "MALFORMED_SEARCH"
    assert err.message.endswith("\nSOSL offset should be between 0 to 2000")
    assert parse("FIND {acme} RETURNING Account(Id OFFSET 2000)").returning[0].offset_rows == 2000


def test_a_quoted_term_with_an_illegal_escape_is_an_invalid_string_literal():
    err = error("FIND 'a\\?b'")
    assert err.message.endswith(
        "Invalid string literal 'a\\?b'. Illegal character sequence '\\?' in string literal."
    )


# ---------------------------------------------------------------------------- clauses
def test_every_clause_of_the_syntax():
    statement = parse(
        "find {Joe Smith} in name fields returning Account(Id, Name WHERE Name LIKE 'J%' "
        "ORDER BY Name DESC NULLS LAST LIMIT 5 OFFSET 2), Contact, Lead(Name) "
        "WITH DIVISION = 'Global' WITH SNIPPET (target_length=120) WITH SPELL_CORRECTION = false "
        "WITH METADATA = 'LABELS' WITH PricebookId = '01s000000000001' WITH DATA CATEGORY Geography__c AT (usa__c) "
        "LIMIT 50 UPDATE TRACKING, VIEWSTAT"
    )
    assert statement.group == "NAME"
    assert statement.limit == 50
    account, contact, lead = statement.returning
    assert (account.name, account.fields_text, account.where_text) == (
        "Account",
        "Id, Name",
        "Name LIKE 'J%'",
    )
    assert (account.order_text, account.limit, account.offset_rows) == ("Name DESC NULLS LAST", 5, 2)
    assert (contact.name, contact.fields_text) == ("Contact", None)
    assert lead.fields_text == "Name"


@pytest.mark.parametrize("group", ["ALL", "NAME", "EMAIL", "PHONE", "SIDEBAR"])
def test_search_groups(group):
    assert parse(f"FIND {{acme}} IN {group} FIELDS").group == group


def test_defaults_all_fields_no_returning_no_limit():
    statement = parse("FIND {acme}")
    assert (statement.group, statement.returning, statement.limit) == ("ALL", [], None)


def test_overall_limit_is_capped_at_2000():
    """sforce_api_calls_sosl_limit.htm: up to 2,000 results (API 28.0 and later)."""
    assert parse("FIND {acme} LIMIT 5000").limit == 2000


def test_where_text_keeps_parentheses_strings_and_subclause_words():
    spec = parse(
        "FIND {acme} RETURNING Account(Id WHERE (Name = 'x) LIMIT 3' OR Id IN (SELECT AccountId FROM Contact LIMIT 1)) LIMIT 2)"
    ).returning[0]
    assert spec.where_text == "(Name = 'x) LIMIT 3' OR Id IN (SELECT AccountId FROM Contact LIMIT 1))"
    assert spec.limit == 2


def test_using_listview_is_accepted():
    spec = parse("FIND {acme} RETURNING Account(Id USING ListView = Recent LIMIT 3)").returning[0]
    assert spec.limit == 3


def test_the_quoted_form_apex_uses():
    statement = parse("FIND 'acme\\\\-corp' IN ALL FIELDS RETURNING Account")
    assert statement.term.tree == Leaf(("acme", "corp"))


# ---------------------------------------------------------------------------- the search term
def test_words_are_joined_by_an_implicit_and():
    assert tree("Joe Smith") == implicit(*words("joe", "smith"))


def test_operators_are_case_insensitive_and_read_left_to_right():
    """ "Searches are evaluated from left to right": a OR b AND c is (a OR b) AND c."""
    aa, bb, cc = words("aa", "bb", "cc")
    assert tree("aa or bb AND cc") == Chain(aa, (Step("OR", bb), Step("AND", cc)))


def test_and_not_and_parentheses():
    aa, bb, cc = words("aa", "bb", "cc")
    assert tree("aa AND NOT (bb OR cc)") == Chain(aa, (Step("AND NOT", Chain(bb, (Step("OR", cc),))),))


def test_quoted_operators_are_words():
    """_examples.htm: FIND {"and" or "or"} and FIND {"joe and mary"}."""
    assert tree('"and" or "or"') == Chain(
        Leaf(("and",), quoted=True), (Step("OR", Leaf(("or",), quoted=True)),)
    )
    assert tree('"joe and mary"') == Leaf(("joe", "and", "mary"), quoted=True)


def test_find_in_returning_are_plain_words():
    """_examples.htm lists FIND {in}, FIND {returning}, FIND {find} as valid searches."""
    assert [tree(w) for w in ("in", "returning", "find")] == words("in", "returning", "find")


def test_a_word_with_punctuation_is_a_phrase_of_its_tokens():
    assert tree("acme.com") == Leaf(("acme", "com"))
    assert tree("mylogin@mycompany.com") == Leaf(("mylogin", "mycompany", "com"))


def test_letters_and_digits_are_separate_tokens():
    """Older FIND pages: words are delimited by "changes from letters to digits (and vice-versa)"."""
    assert tree("XR500") == Leaf(("xr", "500"))
    assert tokens("XR500 naïve 3-5") == ["xr", "500", "naïve", "3", "5"]


def test_word_forms_cover_regular_plurals_but_not_an_s_after_an_irregular_plural():
    assert word_forms("refund") == ("refund", "refunds")
    assert word_forms("policies")[:2] == ("policies", "policy")
    assert "box" in word_forms("boxes") and "shoe" in word_forms("shoes")
    # Womens does not find Women's on a live CRMArena org (neulab/agent-data-protocol datasets/crmarena/sample_raw.json).
    assert word_forms("womens") == ("womens",)
    assert word_forms("women") == ("women",)
    assert word_forms("xr") == ("xr",) and word_forms("500") == ("500",)


def test_a_possessive_s_is_not_a_token():
    """Lucene's English possessive rule: Women's and Kids’ are women and kids (a live CRMArena org's answers in neulab/agent-data-protocol datasets/crmarena/sample_raw.json still holds)."""
    assert tokens("Women's Kids’ MEN'S 90's it's-x") == ["women", "kids", "men", "90", "s", "it", "x"]
    assert tree("Women\\'s Leggings") == Chain(Leaf(("women",)), (Step("AND", Leaf(("leggings",)), True),))
    assert tree("Womens") == Leaf(("womens",))


def test_wildcards_take_the_type_of_the_preceding_character():
    assert tree("Sm?th*") == Leaf(("sm?th*",))
    assert tree("ab*12") == Leaf(("ab*", "12"))


def test_a_leading_wildcard_is_ignored():
    assert tree("*acme") == Leaf(("acme",))


def test_escaped_wildcards_are_literal_punctuation():
    """_find.htm: "where are you\\?" finds the phrase; the escaped ? is punctuation, not a wildcard."""
    assert tree('"where are you\\?"') == Leaf(("where", "are", "you"), quoted=True)
    assert tree("abc\\*") == Leaf(("abc",))


def test_stop_words_leave_operator_free_runs_but_never_alone():
    assert tree("the north face") == implicit(*words("north", "face"))
    assert tree("the") == Leaf(("the",))
    assert tree('"the" north') == implicit(Leaf(("the",), quoted=True), Leaf(("north",)))
    assert tree("aa AND the") == Chain(Leaf(("aa",)), (Step("AND", Leaf(("the",))),))


def test_broken_term_grammar_is_read_leniently():
    acme, corp = words("acme", "corp")
    assert tree("acme AND") == acme
    assert tree("OR acme") == acme
    assert tree("AND NOT acme corp") == implicit(acme, corp)
    assert tree("(acme OR corp") == Chain(acme, (Step("OR", corp),))
    assert tree("acme) corp") == implicit(acme, corp)
    assert tree('"acme corp') == Leaf(("acme", "corp"), quoted=True)
    assert tree("((((acme))))") == acme


def test_over_4000_characters_operators_become_or_and_over_10000_nothing_is_found():
    """_find.htm, search term length."""
    long_term = " AND ".join(["acme"] * 900)
    assert {step.op for step in tree(long_term).steps} == {"OR"}
    assert parse("FIND {" + " AND ".join(["acme"] * 400) + "}").term.tree.steps[0].op == "AND"
    huge = parse("FIND {" + "ab " * 3400 + "}").term
    assert huge.finds_nothing


def test_deep_parentheses_do_not_exhaust_the_stack():
    term = "(" * 5000 + "acme" + ")" * 5000
    assert leaves(tree(term)) == [Leaf(("acme",))]
