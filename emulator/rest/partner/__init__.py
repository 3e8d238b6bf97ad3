"""The SOAP partner API (``/services/Soap/u/XX.X``): login and logout, and the calls clients make after login."""
