"""The engine state after each recorded action: the one place that turns a row of the
Action record back into an engine call (the replay, the review and a downloaded record all
rebuild through here)."""

from games import engine

# Records that tell the table something without changing the game: a proposal to end it
# and its votes (the agreement itself is an "ending"), the stand-in taking a seat, and a
# player saying they leave (the "leave" itself comes between the rounds).
NOTE_KINDS = frozenset({"end_proposal", "end_vote", "end_closed", "stand_in", "leaving"})
# Recorded actions that are not a player's decision in a round.
SYSTEM_KINDS = frozenset({"start", "next_round", "ending", "join", "leave"}) | NOTE_KINDS


def apply_recorded(state: engine.Game | None, options: engine.Options, kind: str,
                   player: int | None, payload: dict) -> engine.Game:
    """The state after one recorded action (the engine alone: a downloaded record
    replays through here too)."""
    if kind == "start":
        return engine.Game.new(payload["players"], options, payload["seed"],
                               lineup=payload.get("lineup"))
    if kind == "next_round":
        return state.next_round()
    if kind == "ending":
        return state.end_after_this_round(payload["end"])
    if kind == "join":
        return state.join(payload["place"])[0]
    if kind == "leave":
        return state.leave(payload["player"])
    if kind in NOTE_KINDS:
        return state
    return state.apply(player, engine.action_from_json(payload))
