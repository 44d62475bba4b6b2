"""What the debug page may show when something breaks during a game."""

import re

from django.views.debug import SafeExceptionReporterFilter

# Keys under which a game's secrets are kept: the hands (a player's view has "hand"), the
# shuffled deck, the seeds every deal follows from, and who holds both jesters.
SECRET_KEYS = frozenset({"hands", "hand", "seed", "deck", "jester_seat"})
# The same keys in any text (a JSON state, a repr): "hands": / 'seed': / seed=.
_SECRET_TEXT = re.compile(
    r"""["'](?:hands|hand|seed|deck|jester_seat)["']\s*:|\b(?:hands|seed|deck)=|games\.engine\."""
)
# How far into nested containers a value is searched; deeper ones are hidden unread.
_DEPTH = 6
_ITEMS = 500


def _engine_module(name: str) -> bool:
    return name == "games.engine" or name.startswith("games.engine.")


class GameSecretsFilter(SafeExceptionReporterFilter):
    """Besides Django's own secrets (passwords, keys), hide every value that holds a
    game's state, its seed or hands: from any one of them every hand of the round
    follows, and a developer's screen can be seen by players.

    Values are judged by what they are and what they hold, whatever their names: the
    engine's objects, any dict (or list, tuple, set of them) with a hand, the deck or a
    seed, text in which such a key appears (the state as JSON), and any other object whose
    printed form shows one. The engine's own frames show no values at all: every local
    there is about the cards. Names are checked too, for what no value gives away (a lone
    hand is a list of numbers)."""

    hidden_settings = re.compile(
        r"API|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|STATE|SEED|HAND|CARDS|DEAL",
        flags=re.IGNORECASE,
    )
    _game_secrets = re.compile(r"state|seed|hand|cards|deal|round|view|game|deck",
                               re.IGNORECASE)

    def get_traceback_frame_variables(self, request, tb_frame):
        variables = super().get_traceback_frame_variables(request, tb_frame)
        if _engine_module(tb_frame.f_globals.get("__name__", "")):
            return [(name, self.cleansed_substitute) for name, _value in variables]
        return [
            (name, self.cleansed_substitute
             if self._game_secrets.search(name) or self._hides(value) else value)
            for name, value in variables
        ]

    def _hides(self, value, depth: int = 0) -> bool:
        """Whether a value holds or shows a game's secrets (when unsure: yes)."""
        if value is self.cleansed_substitute or value is None:
            return False
        if depth > _DEPTH:
            return True
        if _engine_module(type(value).__module__ or ""):
            return True
        if isinstance(value, (bool, int, float, complex)):
            return False
        if isinstance(value, (bytes, bytearray, memoryview)):
            return self._hides(bytes(value).decode("utf-8", "replace"), depth)
        if isinstance(value, str):
            return bool(_SECRET_TEXT.search(value))
        if isinstance(value, dict):
            if any(isinstance(key, str) and key in SECRET_KEYS for key in value):
                return True
            items = list(value.items())
            if len(items) > _ITEMS:
                return True
            return any(self._hides(key, depth + 1) or self._hides(item, depth + 1)
                       for key, item in items)
        if isinstance(value, (list, tuple, set, frozenset)):
            if len(value) > _ITEMS:
                return True
            return any(self._hides(item, depth + 1) for item in value)
        # Anything else (a query set of dicts, a partial holding a state, a lazy object):
        # judged by what the page would print for it.
        try:
            shown = repr(value)
        except Exception:
            return True
        return bool(_SECRET_TEXT.search(shown))
