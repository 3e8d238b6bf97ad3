"""Record Ids: 15 case-sensitive characters plus the case-safe checksum suffix."""

import pytest
from crmarena_sf.emulator import ids


@pytest.mark.parametrize(
    "id15, id18",
    [
        ("001D000000IqhSL", "001D000000IqhSLIAZ"),  # REST API Developer Guide sample Id
        ("012000000000000", "012000000000000AAA"),  # the master record type of every object
        ("01254000001upcK", "01254000001upcKAAQ"),  # a real record type Id from a describe
        ("005Ws000001xSR9", "005Ws000001xSR9IAM"),  # a CRMArena user Id
    ],
)
def test_checksum_matches_real_ids(id15, id18):
    assert ids.to18(id15) == id18
    assert ids.normalize(id15) == id18
    if id15.lower() != id15:  # the 15 characters are case-sensitive: another casing is another Id
        assert ids.to18(id15.lower()) != id18


def test_normalize_rejects_what_is_not_an_id():
    assert ids.normalize("abc") is None
    assert ids.normalize("001D000000IqhSLXXX") is None  # suffix disagrees with the body
    assert ids.normalize("001D000000IqhSLiaz") == "001D000000IqhSLIAZ"  # the suffix is case-insensitive


def test_minted_ids_are_unique_and_decodable():
    minted = [ids.make_id("500", n) for n in range(1, 5000)]
    assert len(set(minted)) == len(minted)
    assert all(len(i) == 18 and i.startswith("500Em0") for i in minted)
    assert [ids.counter_of(i) for i in minted[:3]] == [1, 2, 3]
    assert ids.normalize(minted[-1]) == minted[-1]
