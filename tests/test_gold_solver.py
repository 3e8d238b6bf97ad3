"""The build's second gold computation on two forks at once: the same answers, in the drafts' order,
an error where its draft is, and no fork left open."""

from __future__ import annotations

import pytest
from crmarena_sf.tasks.gold_solver import GoldSolver

import crmarena_sf
from crmarena_sf.connection.connect import emulated_org


@pytest.fixture()
def sf():
    client = crmarena_sf.connect(org="blank")
    for i in range(12):
        client.Account.create({"Name": f"Account {i}"})
    yield client
    emulated_org(client).close()


def name_of(client, params):
    """A solver reading the build org's state: the one account with the draft's name, and the org that answered."""
    records = client.query(f"SELECT Name FROM Account WHERE Name = 'Account {params['i']}'")
    if params.get("fail"):
        raise LookupError(f"draft {params['i']} failed")
    return [r["Name"] for r in records], emulated_org(client.sf)


def test_two_forks_give_the_one_by_one_answers_in_order(sf):
    drafts = [{"i": i} for i in range(12)]
    with GoldSolver(sf, workers=1) as serial:
        one_by_one = list(serial.solutions(name_of, drafts))
    build_org = emulated_org(sf)
    with GoldSolver(sf, workers=2) as solver:
        together = list(solver.solutions(name_of, drafts))
        assert [answer for answer, _ in together] == [[f"Account {i}"] for i in range(12)]
        assert [answer for answer, _ in together] == [answer for answer, _ in one_by_one]
        orgs = {id(org) for _, org in together}
        assert all(org is build_org for _, org in one_by_one)
        assert id(build_org) not in orgs and 1 <= len(orgs) <= 2  # each thread on its own fork
        assert len(build_org.open_forks()) == len(orgs)
    assert build_org.open_forks() == []  # closing the solver closes its forks


def test_an_error_is_raised_where_its_draft_is(sf):
    drafts = [{"i": i, "fail": i == 7} for i in range(12)]
    got = []
    with GoldSolver(sf, workers=2) as solver, pytest.raises(LookupError, match="draft 7 failed"):
        for answer, _ in solver.solutions(name_of, drafts):
            got.append(answer)
    assert got == [[f"Account {i}"] for i in range(7)]
    assert emulated_org(sf).open_forks() == []


def test_a_client_without_an_emulated_org_is_solved_one_by_one():
    """A real org (here: simple-salesforce logging in against mock_salesforce) has nothing to fork."""
    from simple_salesforce import Salesforce

    with crmarena_sf.mock_salesforce(org="blank"):
        client = Salesforce(username="analyst@example.com", password="pw", security_token="token")
        client.Account.create({"Name": "Account 0"})
        solver = GoldSolver(client, workers=2)
        assert solver.workers == 1
        with solver:
            assert [answer for answer, _ in solver.solutions(name_of, [{"i": 0}])] == [["Account 0"]]
