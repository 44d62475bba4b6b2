"""The read side: what one seat may see. Built only from the engine's view of a seat;
nothing here changes a row.

    seat       — the game page's view-model: the table as one seat sees it (the seats
                 around it, the trick, my turn, the game so far, seat changes, my orders)
    hand       — my hand as the page draws it, and my legal actions as it offers them
    results    — standings, scoreboard, the last round's result, the seating draw
    narration  — the log lines, "since you looked", the last trick, since when it waits
    my_games   — "My games": round, title and whose turn, for each game in play
    replay     — the record read back: states rebuilt, the full log, the replay
    access     — the one door to a table's private parts
    account    — the tables an account's deletion would leave
"""
