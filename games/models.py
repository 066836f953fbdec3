"""Models of the games app: sessions' rounds, tables and results (added by their issue)."""
