"""The web side of games, one module per concern:

    lobby        — My games, a new table, the lobby before the start
    table        — the game page, actions, the poll, a player's own settings at the table
    invitations  — inviting, joining by link, declining
    history      — finished games: the list, a game's record, the replay, the rematch
    unsubscribe  — the one-click unsubscribe link of every email
"""
