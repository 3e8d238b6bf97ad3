"""The ``crmarena-sf`` command line."""
