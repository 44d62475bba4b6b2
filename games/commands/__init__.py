"""The write side: every change to a table goes through a command here.

Views, bots, tasks and the admin all come here. Each command runs in one transaction
holding the table's row lock, validates through the engine, appends to the Action record
and saves the new engine state, so two concurrent submissions for the same turn can never
both win, and a rejected one changes nothing. Work for the background (bot moves, emails)
is handed to games.background and leaves only after the commit.

    tables   — before the start: create, join, bots, seats, start; invitations; rematches
    moves    — playing: a player's action, a bot's move, standing orders
    absence  — the clock: timeouts, stand-ins, vacation, "I am here"
    base     — what they share: Rejected, the record, saving a state
"""

from .absence import (
    end_vacation,
    enforce_deadlines,
    nudge,
    nudged,
    seen,
    seen_at,
    set_away,
    stand_in_votes,
    start_vacation,
    take_seat_back,
    vote_stand_in,
)
from .base import Rejected
from .moves import (
    act,
    bots_awaited,
    end_after_this_round,
    play_bot_move,
    set_standing_orders,
    standing_order_action,
    trick_key,
    wake_bots,
)
from .tables import (
    BOT_NAMES,
    add_bot,
    cancel_table,
    create_table,
    expire_open_tables,
    invite,
    invite_users,
    join,
    open_rematch,
    rematch_lineup,
    remove_seat,
    set_watchable,
    start,
)

__all__ = [
    "BOT_NAMES", "Rejected", "act", "add_bot", "bots_awaited", "cancel_table", "create_table",
    "expire_open_tables", "nudge", "nudged",
    "end_after_this_round", "end_vacation", "enforce_deadlines", "invite", "invite_users", "join",
    "open_rematch", "play_bot_move", "rematch_lineup", "remove_seat", "seen", "seen_at",
    "set_watchable",
    "set_away", "set_standing_orders", "standing_order_action", "start", "start_vacation",
    "stand_in_votes", "take_seat_back", "trick_key", "vote_stand_in", "wake_bots",
]
