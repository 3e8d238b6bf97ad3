"""A search's ranking is made once per state of the index and read again by the same search after.

SOSL ranks a term's matches best first (emulator.sosl.matcher: BM25, ties to the smaller Id). The
ranking depends only on the index's state, the fields searched and the term, so it is kept
and read again by a later search of the same term on the same state: the answer must be the
one a fresh ranking gives, and any write (a new state) must be seen at once, in the org that
wrote and in no other.
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator import sosl
from crmarena_sf.emulator.sosl import index
from crmarena_sf.emulator.sosl.matcher import clear_rankings

SEARCHES = [
    "FIND {jacket} RETURNING Product2(Id, Name LIMIT 5)",
    "FIND {jacket} RETURNING Product2(Id, Name)",
    "FIND {jacket} RETURNING Product2(Id, Name LIMIT 2 OFFSET 3)",
    "FIND {jacket OR shoes} RETURNING Product2(Name LIMIT 4), Account(Name)",
    "FIND {jacket} IN NAME FIELDS RETURNING Product2(Name LIMIT 3)",
    "FIND {jacket} RETURNING Product2(Name WHERE IsActive = true LIMIT 3)",
    "FIND {jacket} RETURNING Product2(Name ORDER BY Name LIMIT 3)",
    "FIND {jacket} LIMIT 3",
]


@pytest.fixture
def fork(tiny_org):
    fork = tiny_org.fork()
    yield fork
    fork.close()


@pytest.mark.parametrize("text", SEARCHES)
def test_a_search_read_again_answers_as_a_fresh_ranking_does(fork, text):
    clear_rankings()
    fresh = sosl.search(fork, text)
    again = sosl.search(fork, text)  # the ranking kept
    assert again == fresh
    wider = text.replace("LIMIT 5", "LIMIT 50")  # more than a ranking kept for a smaller limit needs
    clear_rankings()
    assert sosl.search(fork, wider) == sosl.search(fork, wider)


def test_a_write_is_ranked_at_once_in_the_org_that_wrote_only(tiny_org, fork):
    text = "FIND {jacket} RETURNING Product2(Name LIMIT 3)"
    before = sosl.search(fork, text)["searchRecords"]
    assert before == sosl.search(tiny_org, text)["searchRecords"]
    assert index.version(fork, "Product2") is not None  # the ranking was kept, under the index's state
    fork.insert("Product2", {"Name": "Jacket Jacket Jacket"})  # the word three times in a short name
    after = sosl.search(fork, text)["searchRecords"]
    assert after[0]["Name"] == "Jacket Jacket Jacket" and after[1:] == before[:2]
    assert sosl.search(tiny_org, text)["searchRecords"] == before  # the template's state is unchanged
    second = fork.fork()
    try:
        assert sosl.search(second, text)["searchRecords"] == after  # a fork reads its parent's state
    finally:
        second.close()


def test_a_limited_search_of_one_word_answers_the_head_of_the_full_ranking(fork):
    """A word's best n (the matcher ranks only the records that can reach them) are the first n of its
    whole ranking, in the same order: BM25 score first, the smaller Id among equal scores. The word is
    put in names (weighted) and descriptions, once and several times, in texts of equal and different
    lengths, so scores tie within and across these groups."""
    for i in range(24):
        words = ["jacket"] * (1 + i % 3) + ["warm", "coat", "layer"][: i % 4]
        if i % 2:
            fork.insert("Product2", {"Name": f"Item {i % 5}", "Description": " ".join(words)})
        else:
            fork.insert("Product2", {"Name": " ".join(words)})
    clear_rankings()
    whole = [r["Id"] for r in sosl.search(fork, "FIND {jacket} RETURNING Product2(Id)")["searchRecords"]]
    assert len(whole) > 24
    for n in (1, 2, 7, 13, 24, len(whole) - 1):
        clear_rankings()
        text = f"FIND {{jacket}} RETURNING Product2(Id LIMIT {n})"
        head = [r["Id"] for r in sosl.search(fork, text)["searchRecords"]]
        assert head == whole[:n], n
        assert [r["Id"] for r in sosl.search(fork, text)["searchRecords"]] == head  # the kept head
        # a wider search after the kept head ranks anew rather than answering the head alone
        assert [
            r["Id"] for r in sosl.search(fork, "FIND {jacket} RETURNING Product2(Id)")["searchRecords"]
        ] == whole
