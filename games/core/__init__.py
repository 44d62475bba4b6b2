"""Beside the rows, shared by every floor above them: the turn clock (`clock`), what the
commands and the read side both ask about a table (`turns`: who is at it, nudges,
stand-in votes, the games waiting for a player), the game's words in the reader's
language (`words`), the hand-over of background work after commit
(`background`) and the tables' versions kept in Redis for the cheap poll (`live`)."""
