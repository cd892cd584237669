"""The record's schema migrations (Alembic): ``versions/`` holds one script per schema version."""
