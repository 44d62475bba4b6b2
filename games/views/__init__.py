"""The web side of games, one module per concern:

    lobby         — My games, a new table, the lobby before the start
    page          — the table's page, shown again after a change; refusals answered one way
    play          — a move, the poll (from Redis alone when nothing changed), the game's log
    seat_settings — a player's own settings at a table in play, nudges, votes, leaving
    watching      — watching by link, and the host's switch that allows it
    stream        — the event stream that tells an open page of a change at once
    invitations   — inviting, joining by link, declining
    invited       — the host withdrawing an invitation nobody answered
    history       — finished games: the list, a game's record, the replay, the rematch
    unsubscribe   — the one-click unsubscribe link of every email, and the link that stops
                    invitations to an address without an account
"""
