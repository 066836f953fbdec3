"""Models of the scoring app (added by the issues that build it)."""
