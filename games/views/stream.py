"""The event stream: an open game page is told at once that its table changed."""

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone
from django.utils.translation import get_language

from games.core import live

from ..models import Seat
from .updates import follower


def _watcher(request, game_id: int) -> list:
    """The user's seat at the table as [player number], [None] before the seats are
    drawn, [] without a seat. The database connection goes back at once: a stream stays
    open for hours and must not hold one."""
    try:
        user = request.user
        if not user.is_authenticated:
            return []
        return list(Seat.objects.filter(game_id=game_id, user=user)
                    .values_list("player", flat=True)[:1])
    finally:
        if not connection.in_atomic_block:
            connection.close()


async def stream(request, game_id: int):
    """Server-sent events telling an open game page, at once, that the table changed.
    Only served by an ASGI server with Redis reachable; otherwise 204, which tells the
    browser not to reconnect (the page keeps polling)."""
    seat = await sync_to_async(_watcher)(request, game_id)
    if not seat:
        raise Http404
    if not live.enabled() or not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    if await live.hub() is None:
        return HttpResponse(status=204)  # Redis is down: the page polls
    key = request.session.session_key
    session = live.session_streams(key) if key else None
    # Each change comes with the update itself, drawn once for the table's pages in this
    # page's language and time zone; when the turn comes to this page's player, with their
    # own forms, which carry the page's form token (read now, so that a browser without
    # one is given it with the stream's answer).
    get_token(request)
    follow = follower(game_id, seat[0], get_language(), timezone.get_current_timezone_name(),
                      lambda: get_token(request))
    return StreamingHttpResponse(
        live.events(game_id, seat[0], session, follow), content_type="text/event-stream",
        # Named here, the charset is not looked up again for every chunk the stream sends.
        charset="utf-8",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
