"""What every page says about the player's tables: how many await them (the header,
the tab title and the installed app's badge)."""

from games.core.turns import tables_awaiting


def awaiting_you(request) -> dict:
    """The count of tables awaiting the player, asked of the database only if the page
    shows it (fragments never do), and once."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    counted: list[int] = []

    def count() -> int:
        if not counted:
            counted.append(tables_awaiting(user))
        return counted[0]

    return {"awaiting_count": count}
