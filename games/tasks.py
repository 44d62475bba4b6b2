"""Celery tasks. Each is idempotent: it derives what to do from the database, so running
it twice (a redelivery after a lost worker, a sweep) does no harm."""

from celery import shared_task

from . import services

# A long chain of bot moves is split over several task runs so that one run never holds
# a worker for long.
BOT_MOVES_PER_RUN = 200


@shared_task(acks_late=True)
def play_bots(game_id: int) -> int:
    """Play every bot move the table waits for; returns how many were made."""
    moves = 0
    while moves < BOT_MOVES_PER_RUN and services.play_bot_move(game_id):
        moves += 1
    if moves == BOT_MOVES_PER_RUN:
        services.enqueue(play_bots, game_id)
    return moves
