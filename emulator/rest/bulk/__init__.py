"""The Bulk APIs: Bulk API 1.0 (``/services/async/XX.X``, :mod:`.bulk1`) and Bulk API 2.0
(``/services/data/vXX.X/jobs``, :mod:`.bulk2`), with the CSV and record handling they share."""
