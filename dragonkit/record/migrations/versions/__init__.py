"""One script per schema version, oldest first."""
