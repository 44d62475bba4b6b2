import asyncio
import os
import re

import django

from dalmuti_site.handler import OneThreadHandler
from dalmuti_site.serving import ready_to_serve

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dalmuti_site.settings")

# A game page's event stream (games/urls.py): held open for hours, it waits in the event
# loop, not in a thread, so it is not counted below.
STREAM = re.compile(r"^/t/\d+/stream/$")


class Bounded:
    """At most `limit` ordinary requests at a time in this process; the others wait their
    turn here, in the event loop, at no cost.

    Under ASGI, Django runs the synchronous part of each request in a thread of its own.
    Unbounded, a burst (every open page of a table asking at once after a move) starts
    as many threads as requests, which then contend for the interpreter lock and the
    database pool until requests time out; bounded, they are served in order, as a
    synchronous worker serves its backlog. Streams go straight through."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit
        self.turns: asyncio.Semaphore | None = None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or STREAM.match(scope["path"]):
            return await self.app(scope, receive, send)
        if self.turns is None:
            self.turns = asyncio.Semaphore(self.limit)
        async with self.turns:
            return await self.app(scope, receive, send)


# What django.core.asgi.get_asgi_application does, with our handler.
django.setup(set_prefix=False)
application = Bounded(OneThreadHandler(), int(os.getenv("ASGI_CONCURRENCY", "4")))
ready_to_serve()
