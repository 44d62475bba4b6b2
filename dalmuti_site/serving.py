"""What a web process does once, when the site is loaded and before it serves a request.

Python's garbage collector looks for reference cycles among the objects made since its
last look (700 more than were freed, by default), and now and then walks every object the
process holds. A web process holds a great many that live as long as it does (Django,
the site's modules, its URLs and views), and each full walk went through all of them
too: some 60 ms each, while a busy process looked a few times a second. Measured with
`tools.bench_load --gc` (README, "Load"), collecting took 2.5–6% of the web processes'
CPU while tables played (0.6–1.6 ms a move); with this, 1.3–2% (0.3–0.5 ms).
"""

import gc

from django.urls import get_resolver

# The new objects after which the collector looks again (Python's default: 700): most of
# a request's objects are freed before it looks, and fewer survive to be walked again.
YOUNG_OBJECTS = 10_000


def ready_to_serve() -> None:
    """Load what every request uses (the URL patterns, and with them every view module),
    then set what the process holds by then aside from the collector for good
    (`gc.freeze`: those objects live as long as the process anyway), after one
    collection, so that nothing of the start's garbage is kept with them."""
    get_resolver().url_patterns  # noqa: B018 - imports the views
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])
