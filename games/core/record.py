"""The engine state after each recorded action: the one place that turns a row of the
Action record back into an engine call (the replay, the review and a downloaded record all
rebuild through here)."""

from games import engine

# Recorded actions that are not a player's decision in a round.
SYSTEM_KINDS = frozenset({"start", "next_round", "ending", "join", "leave"})


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
    return state.apply(player, engine.action_from_json(payload))
