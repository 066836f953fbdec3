"""The suite's PostgreSQL backend (config.test_settings only): see base.py."""
