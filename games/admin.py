"""Admin of the games app: models register here as they are added."""
