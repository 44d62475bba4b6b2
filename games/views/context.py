"""What every page says about the player's tables: how many await them (the header,
the tab title and the installed app's badge)."""

from games.core.turns import tables_awaiting


def awaiting_you(request) -> dict:
    """The count of tables awaiting the player, asked of the database only if the page
    shows it (fragments never do), and once: not at all where the request was told it
    (`awaiting_counted`: a move's answer, asked with the next player's)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    told = getattr(request, "awaiting_counted", None)
    counted: list[int] = [] if told is None else [told]

    def count() -> int:
        if not counted:
            counted.append(tables_awaiting(user))
        return counted[0]

    return {"awaiting_count": count}
