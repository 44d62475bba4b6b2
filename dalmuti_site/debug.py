"""What the debug page may show when something breaks during a game."""

import re

from django.views.debug import SafeExceptionReporterFilter


class GameSecretsFilter(SafeExceptionReporterFilter):
    """Besides Django's own secrets (passwords, keys), hide every local variable and
    setting that holds a game's state, its seed or hands: from any one of them every
    hand of the round follows, and a developer's screen can be seen by players."""

    hidden_settings = re.compile(
        r"API|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|STATE|SEED|HAND|CARDS|DEAL",
        flags=re.IGNORECASE,
    )
    _game_secrets = re.compile(r"state|seed|hand|cards|deal|round|view|game", re.IGNORECASE)

    def get_traceback_frame_variables(self, request, tb_frame):
        variables = super().get_traceback_frame_variables(request, tb_frame)
        return [
            (name, self.cleansed_substitute if self._game_secrets.search(name) else value)
            for name, value in variables
        ]
