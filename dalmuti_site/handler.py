"""Django's ASGI handler, with the middleware chain run as the synchronous code it is.

Django builds the chain for an asynchronous core under ASGI. Our middleware, and Django's
own, are synchronous, so Django runs the chain in a thread, comes back to the event loop
for its asynchronous core, and goes into the thread again for the (synchronous) view:
three passes between the event loop and the request's thread, each a future, a copy of
the context and a wake-up on either side. Built for a synchronous core, the chain and the
view run in the request's thread in one pass, as under a WSGI server; an asynchronous
view (a game page's event stream) is still awaited in the event loop, and responses,
streams among them, are sent from there as before. Measured with `tools.bench_load`
(README, "Load"): `/health/` 1.6–2.0 → 1.3–1.4 ms of web CPU under uvicorn, the unchanged
poll 2.2–2.9 → 1.8–2.1 ms.
"""

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler


class OneThreadHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request):
        # In the request's own thread, as Django runs every synchronous part of a request
        # under ASGI (thread_sensitive: the thread its ThreadSensitiveContext keeps).
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
