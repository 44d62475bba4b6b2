"""The account emails' task (found by Celery's autodiscovery; registered with
games.core.background when the app starts)."""

from celery import shared_task

from games.core import background

from . import outbox


@shared_task(acks_late=True)
def send_account_email(email_id: int) -> str:
    """Send one account email; running it twice sends one. A failed send is tried again
    by the sweep once its delay has passed."""
    return outbox.deliver(email_id)


def _send(email_id: int) -> None:
    send_account_email.apply_async(args=(email_id,))


background.register("account_email", _send)
