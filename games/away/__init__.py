"""What reaches a player away from the site: what a message may say about a game
(`content`, only what the player's own view shows) and the emails (`emails`). Web push is
sent by `push.sender` from the same content; who is told what, and when, is decided by
`games.commands.notifications`."""
