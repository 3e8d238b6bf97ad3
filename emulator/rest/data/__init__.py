"""The data API, ``/services/data/vXX.X/...``: records, queries and searches, describes, composite
requests and collections, one module per resource, each declaring its ``ROUTES``."""
