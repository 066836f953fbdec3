#!/usr/bin/env python
"""Django's command-line utility for Pegboard."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # A development checkout sets neither: run it in development mode. Production sets
    # SECRET_KEY, and then DEBUG stays off unless it is set (gunicorn's config.wsgi never
    # defaults it).
    if "SECRET_KEY" not in os.environ:
        os.environ.setdefault("DEBUG", "1")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
