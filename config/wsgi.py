"""WSGI entry point: `gunicorn config.wsgi`.

After Django has loaded, everything alive (modules, URL patterns, templates, the scoring engine's
tables) is moved out of the garbage collector's sight with `gc.freeze()`: those objects live as
long as the worker, and a full collection no longer walks them in the middle of a request (on the
session page of a 40-player morning that cut the slowest renders by about a third; see
`make bench`).
"""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()
gc.collect()
gc.freeze()
