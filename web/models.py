"""The web app has no models. This module exists because Django sends `post_migrate` only to
apps with a models module, and the web app syncs the role groups on it (web.role_groups)."""
