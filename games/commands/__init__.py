"""The write side: every change to a table goes through a command here.

Views, bots, tasks and the admin all come here. Each command runs in one transaction
holding the table's row lock, validates through the engine, appends to the Action record
and saves the new engine state, so two concurrent submissions for the same turn can never
both win, and a rejected one changes nothing. Work for the background (bot moves, emails)
is handed to games.core.background and leaves only after the commit.

    tables   — before the start: create, join, bots, seats, start; invitations; rematches
    moves    — playing: a player's action, a bot's move, standing orders
    absence  — the clock: timeouts, stand-ins, vacation, "I am here"
    agreement — ending the game by the players' agreement
    base     — what they share: Rejected, the record, saving a state
"""

from .absence import (
    end_vacation,
    enforce_deadlines,
    forget_old_pauses,
    nudge,
    seen,
    seen_at,
    set_away,
    start_vacation,
    take_seat_back,
    vote_stand_in,
)
from .account import delete_account
from .agreement import lapse_end_proposals, propose_end, vote_end
from .base import Rejected, Settled, give_turn_to_bot
from .moves import (
    BOT_STALL,
    BotsStuck,
    act,
    already_recorded,
    bot_work,
    bots_awaited,
    bots_due,
    bots_failed,
    deal_seen,
    end_after_this_round,
    end_of_hold,
    hold_due,
    play_bot_move,
    set_profile_standing_orders,
    set_standing_orders,
    standing_order_action,
    wake_bots,
)
from .notifications import set_talk_notices
from .seats import (
    BOT_NAMES,
    choose_join_place,
    free_bot_name,
    join_in_progress,
    leave_game,
    name_changed,
    taken_off,
)
from .tables import (
    add_bot,
    cancel_table,
    check_bot_level,
    could_not_invite,
    create_table,
    expire_invitations,
    expire_open_tables,
    invite,
    invite_users,
    join,
    open_rematch,
    rematch_lineup,
    remove_seat,
    set_channel,
    set_min_on_time,
    set_watchable,
    start,
    try_channel,
    withdraw_invitation,
)
from .usual_group import invite_group, open_table_with, refuse_invitations, set_blocked

__all__ = [
    "give_turn_to_bot",
    "BOT_NAMES", "BOT_STALL", "BotsStuck", "act", "add_bot", "already_recorded", "bot_work",
    "bots_awaited", "bots_due", "bots_failed", "cancel_table", "check_bot_level",
    "choose_join_place", "could_not_invite", "delete_account",
    "create_table", "end_after_this_round", "end_vacation", "enforce_deadlines",
    "expire_invitations", "expire_open_tables", "free_bot_name", "forget_old_pauses",
    "name_changed",
    "invite", "invite_users", "withdraw_invitation",
    "join",
    "join_in_progress", "lapse_end_proposals", "leave_game", "propose_end", "vote_end",
    "nudge", "open_rematch", "play_bot_move", "Rejected", "rematch_lineup", "Settled",
    "refuse_invitations", "remove_seat", "deal_seen", "seen", "seen_at", "set_away",
    "set_blocked", "set_channel", "set_min_on_time", "set_profile_standing_orders",
    "set_standing_orders", "set_talk_notices", "set_watchable",
    "standing_order_action", "start", "taken_off", "try_channel", "start_vacation",
    "take_seat_back",
    "vote_stand_in", "wake_bots", "end_of_hold", "hold_due", "invite_group", "open_table_with",
]
