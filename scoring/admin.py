"""Admin of the scoring app: models register here as they are added."""
