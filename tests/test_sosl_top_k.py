"""A search with a LIMIT answers the best of the full ranking, in its order (issue 26).

A first search with a LIMIT need not rank every match (a one-word term's best are found from
the scores of its distinct (occurrences, length) pairs, emulator.sosl.matcher), but what it
answers must be exactly the slice of the full ranking: the same records in the same order,
ties to the smaller Id, with OFFSET, with several terms, phrases, OR, AND NOT and wildcards.
The org is generated with many matches of a common word, many ties (equal occurrences and
lengths) and enough tokens that its index is searched in DuckDB, not in memory (100,000).
"""

from __future__ import annotations

import random

import pytest
from crmarena_sf.emulator import sosl
from crmarena_sf.emulator.sosl.matcher import clear_rankings
from crmarena_sf.emulator.store.org import Org
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FILLER = [f"filler{i}" for i in range(40)]
TERMS = [
    "jacket",
    "jackets",
    "jacket shell",
    "jacket OR shell",
    "jacket AND NOT shell",
    '"studio jacket"',
    "jack*",
    "shell",
]


def _product(rng: random.Random) -> dict:
    """A product whose name and description hold the common word 0-3 times among filler words."""
    name = [rng.choice(FILLER) for _ in range(rng.randint(1, 3))]
    name += ["studio", "jacket"] * rng.choice([0, 0, 1, 1, 2])
    description = [rng.choice(FILLER) for _ in range(rng.choice([20, 30, 30, 40]))]
    description += ["jacket"] * rng.choice([0, 1, 1, 2, 3]) + ["shell"] * rng.choice([0, 0, 1])
    rng.shuffle(description)
    return {"Name": " ".join(name), "Description": " ".join(description)}


@pytest.fixture(scope="module")
def org():
    """2,600 products (about 100,000 tokens), half of them holding "jacket"."""
    org = Org.new()
    rng = random.Random(26)
    ids = org.insert_many("Product2", [_product(rng) for _ in range(2600)])
    assert all(isinstance(i, str) for i in ids)
    yield org
    org.close()


def _ids(org: Org, text: str) -> list[str]:
    clear_rankings()  # every search ranks anew: the first search of the term on this state
    return [r["Id"] for r in sosl.search(org, text)["searchRecords"]]


def test_the_org_is_searched_in_duckdb_with_many_matches(org):
    from crmarena_sf.emulator.sosl.matcher import _lengths
    from crmarena_sf.emulator.sosl.postings import MAX_TOKENS

    sosl.ensure_index(org)
    assert _lengths(org, org.schema.get("Product2"), None)[3] >= MAX_TOKENS
    assert len(_ids(org, "FIND {jacket} RETURNING Product2(Id)")) > 1000


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    term=st.sampled_from(TERMS),
    limit=st.integers(min_value=1, max_value=60),
    offset=st.one_of(st.none(), st.integers(min_value=0, max_value=40)),
)
def test_a_limited_search_is_the_slice_of_the_full_ranking(org, term, limit, offset):
    full = _ids(org, f"FIND {{{term}}} RETURNING Product2(Id)")
    tail = "" if offset is None else f" OFFSET {offset}"
    top = _ids(org, f"FIND {{{term}}} RETURNING Product2(Id LIMIT {limit}{tail})")
    start = offset or 0
    assert top == full[start : start + limit]


@pytest.mark.parametrize("limit", [1, 20, 200])
def test_a_limited_search_beside_a_second_object_is_the_slice_of_the_full_ranking(org, limit):
    full = _ids(org, "FIND {jacket} RETURNING Product2(Id), Account(Id)")
    top = _ids(org, f"FIND {{jacket}} RETURNING Product2(Id LIMIT {limit}), Account(Id)")
    assert top == full[:limit]


def _first_of_full(org: Org, limit: int) -> tuple[list[str], list[str]]:
    full = _ids(org, "FIND {jacket} RETURNING Product2(Id)")
    return _ids(org, f"FIND {{jacket}} RETURNING Product2(Id LIMIT {limit})"), full[:limit]


def _best_ids(org: Org, n: int) -> list[str]:
    return _ids(org, f"FIND {{jacket}} RETURNING Product2(Id LIMIT {n})")


@pytest.mark.parametrize("limit", [1, 20, 60])
def test_after_writes_to_the_best_matches_a_limited_search_is_still_the_slice(org, limit):
    """Writes note the words they touch; the best of a noted word are ranked from every match."""
    fork = org.fork()
    try:
        best = _best_ids(fork, 5)
        fork.update(
            "Product2", best[0], {"Name": "filler1", "Description": "filler1 filler2"}
        )  # loses the word
        fork.update("Product2", best[1], {"Name": "jacket jacket jacket"})  # short and strong now
        fork.delete("Product2", best[2])
        new = fork.insert("Product2", {"Name": "jacket", "Description": "jacket"})
        top, expected = _first_of_full(fork, limit)
        assert top == expected
        full = _ids(fork, "FIND {jacket} RETURNING Product2(Id)")
        assert best[0] not in full and best[2] not in full and new in full[:5]
        assert _best_ids(org, 5) == best  # the template's lists are its own
    finally:
        fork.close()


def test_a_write_to_other_words_leaves_the_common_words_lists_usable(org):
    fork = org.fork()
    try:
        fork.insert("Product2", {"Name": "filler3 plain", "Description": "filler4"})
        top, expected = _first_of_full(fork, 20)
        assert top == expected
    finally:
        fork.close()


def test_an_org_file_written_record_by_record_answers_the_slice(tmp_path):
    """An org file indexes each write at once (no deferred batch): the same words are noted."""
    org = Org.new(path=tmp_path / "org.duckdb")
    try:
        rng = random.Random(7)
        org.insert_many("Product2", [_product(rng) for _ in range(2600)])
        sosl.ensure_index(org)
        best = _best_ids(org, 3)
        org.update("Product2", best[0], {"Name": "filler5", "Description": "filler6"})
        org.update("Product2", best[1], {"Name": "jacket jacket"})
        top, expected = _first_of_full(org, 20)
        assert top == expected and best[0] not in top
    finally:
        org.close()


@pytest.fixture(scope="module")
def plural_org():
    """Like ``org``, but a third of the names end in "jackets" too: the best records hold both forms."""
    org = Org.new()
    rng = random.Random(27)
    products = [_product(rng) for _ in range(2600)]
    for product in products[::3]:
        product["Name"] += " jackets"
    org.insert_many("Product2", products)
    yield org
    org.close()


@pytest.mark.parametrize("word", ["jacket", "jackets", '"jackets"'])
@pytest.mark.parametrize("limit", [1, 20, 60])
def test_a_word_found_in_two_forms_is_the_slice_of_the_full_ranking(plural_org, word, limit):
    full = _ids(plural_org, f"FIND {{{word}}} RETURNING Product2(Id)")
    top = _ids(plural_org, f"FIND {{{word}}} RETURNING Product2(Id LIMIT {limit})")
    assert len(full) > 500 and top == full[:limit]
