"""The rules engine of The Great Dalmuti (docs/RULES.md): pure Python, no I/O, deterministic.

A ``Round`` referees one deal; a ``Game`` runs the whole game (seating draw, rounds,
scores, joining and leaving). Players and pages see a round only through ``view(seat)``.
"""

from .actions import (
    PASS,
    Action,
    GiveBack,
    Pass,
    Play,
    Revolution,
    Trade,
    TradeCard,
    action_from_json,
    action_to_json,
)
from .bots import (
    BOTS,
    SIMPLER,
    Decision,
    Effort,
    Failure,
    choose_action,
    decide,
    timeout_action,
)
from .cards import (
    JESTER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RANK_NAMES,
    TITLE_NAMES,
    TITLES,
    deck_for,
    full_deck,
    title,
)
from .errors import MESSAGES, IllegalMove
from .events import EVENT_KINDS, EventKind
from .game import JSON_VERSION, Game, derive_seed, seating_draw, seating_from_cards
from .options import Options
from .round import PHASES, Round, deal

__all__ = [
    "JESTER",
    "JSON_VERSION",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MESSAGES",
    "PASS",
    "PHASES",
    "RANK_NAMES",
    "TITLES",
    "TITLE_NAMES",
    "BOTS",
    "EVENT_KINDS",
    "EventKind",
    "SIMPLER",
    "Decision",
    "Effort",
    "Failure",
    "Action",
    "Game",
    "GiveBack",
    "IllegalMove",
    "Options",
    "Pass",
    "Play",
    "Revolution",
    "Round",
    "Trade",
    "TradeCard",
    "action_from_json",
    "action_to_json",
    "choose_action",
    "decide",
    "deal",
    "deck_for",
    "derive_seed",
    "full_deck",
    "seating_draw",
    "seating_from_cards",
    "timeout_action",
    "title",
]
