"""The org store: DuckDB tables per sObject, validated record operations, forks."""
