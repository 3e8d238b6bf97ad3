"""The APIs around the org's setup: the Metadata API's ``createMetadata`` (SOAP,
``/services/Soap/m/XX.X``, :mod:`.metadata_api`) and the Tooling API clients read at login
(``/services/data/vXX.X/tooling``, :mod:`.tooling`)."""
