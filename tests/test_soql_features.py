"""Valid syntax for features this org lacks: parsed, and answered with a code naming the feature.

Sources (https://developer.salesforce.com/docs/platform/salesforce-soql-sosl/guide/):
sforce-api-calls-soql-select-with (``WITH UserId='005D0000001AamR'`` on UserProfileFeed),
sforce-api-calls-soql-select-with-recordvisibilitycontext (at least one option),
sforce-api-calls-soql-select-set-options, sforce-api-calls-soql-select-formula (FORMULA() (Beta):
``WHERE FORMULA('Amount - ExpectedRevenue') > 100``, ``+`` or ``-`` only, not in SELECT). The
code is Salesforce's FUNCTIONALITY_NOT_ENABLED; its wording here is modelled (emulator.soql.features).
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator import soql
from crmarena_sf.emulator.errors import SalesforceError


def error_of(org, text: str) -> tuple[str, str]:
    with pytest.raises(SalesforceError) as info:
        soql.query(org, text)
    assert info.value.status == 400
    return info.value.error_code, info.value.message.splitlines()[-1]


@pytest.mark.parametrize(
    "text, feature",
    [
        ("SELECT Id FROM Case WITH UserId='005D0000001AamR' ORDER BY CreatedDate DESC, Id DESC LIMIT 20",
         "WITH UserId (UserProfileFeed)"),
        ("SELECT Id FROM Account WHERE Name = 'x' WITH RecordVisibilityContext (maxDescriptorPerRecord=100, "
         "supportsDomains=true, supportsDelegates=true)", "WITH RecordVisibilityContext (RecordVisibility)"),
        ("SELECT Id, Name FROM Account WHERE Name != null SET OPTIONS (dataspace = 'default', honorEmptyStrings = true)",
         "SET OPTIONS (Data 360 query options)"),
        ("SELECT Id FROM Account FOR VIEW SET OPTIONS (dataspace = 'default') FOR UPDATE",
         "SET OPTIONS (Data 360 query options)"),
        ("SELECT Id FROM Account WHERE FORMULA('AnnualRevenue - NumberOfEmployees') > 100",
         "FORMULA() in WHERE clauses (beta)"),
        ("SELECT Id FROM Account WHERE NOT (formula('Owner.Id+NumberOfEmployees') <= 500 OR Name = 'x')",
         "FORMULA() in WHERE clauses (beta)"),
    ],
)  # fmt: skip
def test_valid_syntax_for_a_missing_feature_names_the_feature(built, text, feature):
    org, _ = built
    assert error_of(org, text) == (
        "FUNCTIONALITY_NOT_ENABLED",
        f"{feature} is not enabled for this organization",
    )


def test_user_profile_feed_itself_is_not_an_object_of_this_org(built):
    org, _ = built
    code, _ = error_of(org, "SELECT Id FROM UserProfileFeed WITH UserId='005D0000001AamR' LIMIT 20")
    assert code == "INVALID_TYPE"


@pytest.mark.parametrize(
    "text, token",
    [
        ("SELECT Id FROM Account WITH RecordVisibilityContext", "<EOF>"),
        ("SELECT Id FROM Account WHERE FORMULA('AnnualRevenue * NumberOfEmployees') > 100",
         "AnnualRevenue * NumberOfEmployees"),
        ("SELECT FORMULA('AnnualRevenue - NumberOfEmployees') FROM Account", "("),
        ("SELECT Id FROM Account SET OPTIONS ()", ")"),
    ],
)  # fmt: skip
def test_invalid_syntax_is_still_a_syntax_error(built, text, token):
    org, _ = built
    assert error_of(org, text) == ("MALFORMED_QUERY", f"unexpected token: '{token}'")


def test_formula_stays_a_field_name_outside_a_call(built):
    org, _ = built
    code, message = error_of(org, "SELECT Formula FROM Account")
    assert code == "INVALID_FIELD" and "No such column 'Formula'" in message
