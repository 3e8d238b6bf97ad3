"""The connection floor: what gives a caller an org, above the loaders and below the tasks.

:mod:`.connect` (``connect()``: an unmodified ``simple_salesforce.Salesforce`` for the emulator
or a real org), :mod:`.orgs` (org names and paths resolved to emulated orgs), :mod:`.mock`
(``mock_salesforce()``: any simple-salesforce login answered by an emulated org). The task
families, agents and runner reach orgs only through these; the front door re-exports them.
"""
