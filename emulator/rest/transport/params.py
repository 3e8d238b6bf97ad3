"""Numbers a client writes in a URL, a header or a composite reference.

API versions are ``XX.X`` in ASCII digits (REST API Developer Guide, "Versions",
https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_versions.htm),
as are ``Sforce-Query-Options: batchSize`` (headers_queryoptions.htm), Bulk API 2.0's
``maxRecords`` and a composite reference's ``[index]``: Salesforce reads them with Java's
integer parsers, which take ASCII digits only. ``v٦٢.0`` (Arabic-Indic digits), ``v６２.0``
(fullwidth) or ``v²`` are not versions, although Python's ``str.isdigit`` and ``int`` accept
them. A value is measured before it is converted, so a 5,000-digit ``batchSize`` costs nothing.
"""

from __future__ import annotations


def is_ascii_number(text: str) -> bool:
    """True for one or more ASCII digits and nothing else."""
    return text.isascii() and text.isdigit()


def capped_number(text: str, maximum: int) -> int | None:
    """The value of ASCII digits ``text``, at most ``maximum``; None when ``text`` is not ASCII digits."""
    if not is_ascii_number(text):
        return None
    significant = text.lstrip("0") or "0"
    if len(significant) > len(str(maximum)):
        return maximum
    return min(int(significant), maximum)
