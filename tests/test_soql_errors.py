"""SOQL errors exactly as a real org words them, caret prefix included.

Real payloads these tests reproduce (real payloads in public issues and public client code):
mautic/mautic#13406 (INVALID_FIELD with a window of a long select list), the
node-salesforce-connection tests run against a live org (``q=invalid`` ->
``unexpected token: 'invalid'`` without prefix; ``unexpected token: '<EOF>'``), the
``SELECT Id FROM Contact123`` INVALID_TYPE at column 16, the ``liam.carter@example.com``
MALFORMED_QUERY at column 54, the Summer '24 release notes (mixing AND and OR without
parentheses, ``Invalid datetime: ...``), and the INVALID_FIELD text for quoted dates.
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator import soql
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.soql.errors import caret_prefix

WSDL = " Please reference your WSDL or the describe call for the appropriate names."


def error_of(org, text: str, **options) -> SalesforceError:
    with pytest.raises(SalesforceError) as info:
        soql.query(org, text, **options)
    assert info.value.status == 400
    return info.value


def test_unknown_field_names_the_entity_with_the_caret_prefix(built):
    org, _ = built
    err = error_of(org, "SELECT Id, Foo__c FROM Account")
    assert err.error_code == "INVALID_FIELD"
    assert err.message == (
        "\nSELECT Id, Foo__c FROM Account\n           ^\nERROR at Row:1:Column:12\n"
        "No such column 'Foo__c' on entity 'Account'. If you are attempting to use a custom field, "
        "be sure to append the '__c' after the custom field name." + WSDL
    )
    assert err.to_rest() == {"message": err.message, "errorCode": "INVALID_FIELD"}


def test_unknown_object_is_invalid_type_at_column_16_like_the_contact123_sample(built):
    org, _ = built
    err = error_of(org, "SELECT Id FROM Contact123")
    assert err.error_code == "INVALID_TYPE"
    assert err.message == (
        "\nSELECT Id FROM Contact123\n               ^\nERROR at Row:1:Column:16\n"
        "sObject type 'Contact123' is not supported. If you are attempting to use a custom object, "
        "be sure to append the '__c' after the entity name." + WSDL
    )


def test_a_query_that_is_not_a_query_has_no_prefix_like_q_invalid(built):
    org, _ = built
    err = error_of(org, "invalid")
    assert (err.error_code, err.message) == ("MALFORMED_QUERY", "unexpected token: 'invalid'")


def test_end_of_query_is_an_eof_token(built):
    org, _ = built
    err = error_of(org, "SELECT Id FROM Account WHERE")
    assert err.message == (
        "\nSELECT Id FROM Account WHERE\n                            ^\nERROR at Row:1:Column:29\nunexpected token: '<EOF>'"
    )


def test_a_keyword_where_a_field_belongs_is_an_unexpected_token(built):
    org, _ = built
    err = error_of(org, "SELECT Id, FROM Account")
    assert err.message.endswith("ERROR at Row:1:Column:12\nunexpected token: 'FROM'")


def test_the_window_shows_words_around_the_error_like_the_liam_carter_sample(built):
    org, _ = built
    err = error_of(
        org, "SELECT Id,Name FROM Contact WHERE Email = liam.carter@example.com ORDER BY CreatedDate"
    )
    window = "Contact WHERE Email = liam.carter@example.com ORDER BY CreatedDate"
    assert err.message == f"\n{window}\n{' ' * 33}^\nERROR at Row:1:Column:54\nunexpected token: '@'"


def test_the_window_of_a_long_select_list_matches_mautic_13406():
    text = (
        "select Id, Company,Email,LastName,SF_date__c, ConvertedContactId from Lead where IsConverted = false"
    )
    assert caret_prefix(text, 34) == (
        "\nselect Id, Company,Email,LastName,SF_date__c, ConvertedContactId from\n"
        "                                  ^\nERROR at Row:1:Column:35\n"
    )


def test_errors_on_later_lines_give_their_row_and_column(built):
    org, _ = built
    err = error_of(org, "SELECT Id\nFROM Account\nWHERE Nope__c = 1")
    assert err.message.startswith(
        "\nWHERE Nope__c = 1\n      ^\nERROR at Row:3:Column:7\nNo such column 'Nope__c'"
    )


def test_bad_parent_relationship(built):
    org, _ = built
    err = error_of(org, "SELECT Id, Owner__r.Name FROM Case")
    assert err.error_code == "INVALID_FIELD"
    assert err.message.endswith(
        "Didn't understand relationship 'Owner__r' in field path. If you are attempting to use a custom "
        "relationship, be sure to append the '__r' after the custom relationship name." + WSDL
    )


def test_bad_child_relationship(built):
    org, _ = built
    err = error_of(org, "SELECT Id, (SELECT Id FROM Contactz) FROM Account")
    assert err.error_code == "INVALID_TYPE"
    assert "Didn't understand relationship 'Contactz' in FROM part of query call." in err.message


def test_a_polymorphic_relationship_exposes_the_name_entity_only(built):
    org, _ = built
    err = error_of(org, "SELECT Owner.Department FROM Case")
    assert "No such column 'Department' on entity 'Name'." in err.message


def test_mixing_and_with_or_needs_parentheses_summer_24_notes(built):
    org, _ = built
    err = error_of(org, "SELECT Id FROM Case WHERE Status = 'New' AND Priority = 'High' OR Origin = 'Web'")
    assert err.message.endswith("unexpected token: 'OR'")
    assert soql.query(
        org, "SELECT Id FROM Case WHERE Status = 'New' AND (Priority = 'High' OR Origin = 'Web')"
    )


def test_unknown_function_is_a_syntax_error_at_its_parenthesis(built):
    org, _ = built
    err = error_of(org, "SELECT LOWER(Name) FROM Account")
    assert err.message.endswith("ERROR at Row:1:Column:13\nunexpected token: '('")


def test_unterminated_string(built):
    org, _ = built
    err = error_of(org, "SELECT Id FROM Account WHERE Name = 'abc")
    assert err.error_code == "MALFORMED_QUERY"
    assert err.message.endswith("mismatched character '<EOF>' expecting '''")


def test_an_impossible_datetime_summer_24_wording(built):
    org, _ = built
    err = error_of(org, "SELECT Id FROM Account WHERE SystemModstamp > 2020-12-12t12:12:00-25:00")
    assert err.message.endswith("Invalid datetime: 2020-12-12t12:12:00-25:00")


@pytest.mark.parametrize(
    "where, message",
    [
        (
            "CreatedDate > '2024-01-01T00:00:00Z'",
            "must be of type dateTime and should not be enclosed in quotes",
        ),
        ("CreatedDate > 2024-01-01", "must be of type dateTime and should not be enclosed in quotes"),
        ("Birthdate = 2024-01-01T00:00:00Z", "must be of type date and should not be enclosed in quotes"),
        ("NumberOfEmployees = '5'", "must be of type int and should not be enclosed in quotes"),
        ("AnnualRevenue > '5'", "must be of type double and should not be enclosed in quotes"),
        ("Name = 5", "must be of type string and should be enclosed in quotes"),
        ("IsDeleted = 'true'", "must be of type boolean and should not be enclosed in quotes"),
    ],
)
def test_values_of_the_wrong_type_are_refused_like_salesforce(built, where, message):
    org, _ = built
    obj = "Contact" if "Birthdate" in where else "Account"
    err = error_of(org, f"SELECT Id FROM {obj} WHERE {where}")
    assert err.error_code == "INVALID_FIELD"
    field = where.split()[0]
    assert err.message.endswith(f"value of filter criterion for field '{field}' {message}")


def test_invalid_id_literal_and_like_on_an_id(built):
    org, _ = built
    err = error_of(org, "SELECT Id FROM Account WHERE Id = 'abc'")
    assert (err.error_code, err.message.splitlines()[-1]) == (
        "INVALID_QUERY_FILTER_OPERATOR",
        "invalid ID field: abc",
    )
    err = error_of(org, "SELECT Id FROM Account WHERE Id LIKE '001%'")
    assert (err.error_code, err.message.splitlines()[-1]) == (
        "INVALID_QUERY_FILTER_OPERATOR",
        "invalid operator on id field",
    )


def test_aggregate_rules(built):
    org, _ = built
    assert error_of(org, "SELECT Name, COUNT(Id) FROM Account").message.endswith(
        "Field must be grouped or aggregated: Name"
    )
    assert error_of(org, "SELECT Id Name FROM Account").message.endswith(
        "only aggregate expressions use field aliasing"
    )
    err = error_of(org, "SELECT Description, COUNT(Id) FROM Case GROUP BY Description")
    assert err.message.endswith("field 'Description' can not be grouped in a query call")
    err = error_of(org, "SELECT Id FROM Case WHERE Description = 'x'")
    assert (err.error_code, err.message.splitlines()[-1]) == (
        "INVALID_FIELD",
        "field 'Description' can not be filtered in a query call",
    )
    err = error_of(org, "SELECT Name FROM Account GROUP BY Name ORDER BY Industry")
    assert err.message.endswith("Ordered field must be grouped or aggregated: Industry")


def test_semi_join_fields_must_point_to_the_same_object(built):
    org, _ = built
    err = error_of(org, "SELECT Id FROM Account WHERE Id IN (SELECT ContactId FROM Case)")
    assert err.error_code == "MALFORMED_QUERY"
    assert err.message.endswith(
        "The selected field 'ContactId' in the subquery and the left operand field in the where expression "
        "in the outer query 'Id' should point to the same object type"
    )


def test_semi_join_on_the_same_object_is_refused(built):
    org, _ = built
    err = error_of(org, "SELECT Id FROM Account WHERE ParentId IN (SELECT Id FROM Account)")
    assert err.message.endswith("The inner and outer selects should not be on the same object type")


def test_offset_beyond_2000_and_fields_without_limit(built):
    org, _ = built
    err = error_of(org, "SELECT Id FROM Account LIMIT 10 OFFSET 2001")
    assert (err.error_code, err.message) == (
        "NUMBER_OUTSIDE_VALID_RANGE",
        "Maximum SOQL offset allowed is 2000",
    )
    err = error_of(org, "SELECT FIELDS(ALL) FROM Account")
    assert err.message.endswith("The SOQL FIELDS function must have a LIMIT of at most 200")


def test_duplicate_field(built):
    org, _ = built
    assert error_of(org, "SELECT Name, name FROM Account").message.endswith("duplicate field selected: name")


@pytest.mark.parametrize(
    "text",
    [
        "SELECT Id, FIELDS(ALL) FROM Account LIMIT 200",
        "SELECT FIELDS(STANDARD), name FROM Account",
        "SELECT FIELDS(ALL), FIELDS(STANDARD) FROM Account LIMIT 200",
    ],
)
def test_a_field_fields_also_selects_is_invalid_field_as_the_fields_reference_shows(built, text):
    """SOQL and SOSL Reference, "FIELDS()": ``SELECT Id, FIELDS(ALL) FROM User LIMIT 200`` answers 400
    ``duplicate field selected: Id`` (sforce_api_calls_soql_select_fields.htm)."""
    org, _ = built
    err = error_of(org, text)
    assert err.error_code == "INVALID_FIELD"
    assert err.message in ("duplicate field selected: Id", "duplicate field selected: Name")
    assert soql.query(org, "SELECT Name, FIELDS(CUSTOM) FROM Account LIMIT 200")["totalSize"] > 0


def test_bad_query_locator(built):
    org, _ = built
    for locator in ("01gEm0000000999AAA-2000", "nonsense", ""):
        with pytest.raises(SalesforceError) as info:
            soql.query_more(org, locator)
        assert (info.value.error_code, info.value.message, info.value.status) == (
            "INVALID_QUERY_LOCATOR",
            "invalid query locator",
            400,
        )


def test_pathological_inputs_answer_with_errors(built):
    org, _ = built
    deep = "SELECT Id FROM Account WHERE " + "(" * 10_000 + "Name = 'x'" + ")" * 10_000
    assert error_of(org, deep).error_code == "QUERY_TOO_COMPLICATED"
    assert error_of(org, "SELECT Id FROM Account WHERE Name = '\x00'; DROP TABLE Account").error_code == (
        "MALFORMED_QUERY"
    )
    assert error_of(org, "SELECT Id FROM Account; SELECT Id FROM Contact").error_code == "MALFORMED_QUERY"
    big_in = "SELECT Id FROM Account WHERE Name IN (" + ", ".join(f"'n{i}'" for i in range(5000)) + ")"
    assert soql.query(org, big_in)["totalSize"] == 0


def test_a_statement_past_100000_characters_is_refused_like_django_salesforce_164(built):
    org, _ = built
    text = "SELECT Id FROM Account WHERE Name IN (" + ", ".join(f"'n{i:06d}'" for i in range(10_000)) + ")"
    err = error_of(org, text)
    assert (err.error_code, err.message) == (
        "MALFORMED_QUERY",
        "SOQL statements can not be longer than 100000 characters",
    )


@pytest.mark.parametrize(
    "text, code, message",
    [
        ("SELECT MIN(ClosedDate), TYPEOF Owner WHEN User THEN Name ELSE Name END FROM Case", "MALFORMED_QUERY",
         "unexpected token: 'TYPEOF'"),
        ("SELECT Name FROM Contact ORDER BY FORMAT(MailingAddress)", "MALFORMED_QUERY", "unexpected token: '('"),
        ("SELECT Name FROM Contact ORDER BY DAY_ONLY(MailingAddress)", "MALFORMED_QUERY",
         "field 'MailingAddress' can not be sorted in a query call"),
        ("SELECT GROUPING(OwnerId) FROM Account", "MALFORMED_QUERY", "Field must be grouped or aggregated: OwnerId"),
        ("SELECT GROUPING(CreatedDate) c FROM Case GROUP BY Priority", "MALFORMED_QUERY",
         "Field must be grouped or aggregated: CreatedDate"),
        ("SELECT Name FROM Account WHERE NumberOfEmployees LIKE 'Acme%'", "INVALID_FIELD",
         "value of filter criterion for field 'NumberOfEmployees' must be of type int and should not be enclosed in "
         "quotes"),
        ("SELECT Name FROM Account WHERE NumberOfEmployees LIKE 5", "MALFORMED_QUERY", "unexpected token: '5'"),
        ("SELECT Subject FROM Case WHERE IsClosed LIKE 'x'", "INVALID_FIELD",
         "value of filter criterion for field 'IsClosed' must be of type boolean and should not be enclosed in quotes"),
        ("SELECT COUNT(Description) FROM Case ORDER BY DAY_ONLY(CreatedDate)", "MALFORMED_QUERY",
         "Ordered field must be grouped or aggregated: CreatedDate"),
        ("SELECT Name FROM Account ORDER BY convertCurrency(AnnualRevenue)", "MALFORMED_QUERY", "unexpected token: '('"),
    ],
)  # fmt: skip
def test_queries_that_once_failed_inside_the_engine_are_refused_with_a_code(built, text, code, message):
    org, _ = built
    err = error_of(org, text)
    assert (err.error_code, err.message.splitlines()[-1]) == (code, message)


def test_tolabel_of_a_field_without_picklist_values_is_its_value(built):
    org, _ = built
    body = soql.query(org, "SELECT Name FROM Account WHERE toLabel(Name) = 'acme corp'")
    assert [r["Name"] for r in body["records"]] == ["Acme Corp"]


def test_fields_with_a_field_it_also_selects_through_simple_salesforce():
    """The reference's own example, as a client sees it (sforce_api_calls_soql_select_fields.htm)."""
    from simple_salesforce.exceptions import SalesforceMalformedRequest

    import crmarena_sf

    sf = crmarena_sf.connect("blank")
    with pytest.raises(SalesforceMalformedRequest) as refused:
        sf.query("SELECT Id, FIELDS(ALL) FROM User LIMIT 200")
    assert refused.value.content == [
        {"message": "duplicate field selected: Id", "errorCode": "INVALID_FIELD"}
    ]
