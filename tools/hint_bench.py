"""How long a hint takes: the expert's evaluation of the first lead of several seeded
deals, at the site's default effort (the expert's own half-second budget), and how many
deals it sampled in that time.

    python -m tools.hint_bench            # 5 deals
    python -m tools.hint_bench --deals 20
"""

import argparse
import os
import time


def first_lead(engine, seed: int) -> dict:
    """The view of whoever leads the first trick of a 5-player game (no first-round taxes)."""
    state = engine.Game.new(5, engine.Options(first_round_taxes=False), seed)
    while True:
        player = next(p for p in range(5) if state.view(p)["legal_actions"])
        view = state.view(player)
        if view["phase"] == "play":
            return view
        state = state.apply(player, engine.action_from_json(view["legal_actions"][0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dalmuti_site.settings")
    import django

    django.setup()
    from games import engine
    from games.commands.hints import advise

    times = []
    for seed in range(1, args.deals + 1):
        view = first_lead(engine, seed)
        start = time.perf_counter()
        hint = advise(view, engine.Effort())
        times.append(time.perf_counter() - start)
        print(f"deal {seed}: {times[-1]:.2f} s, {hint['samples']} deals sampled, "
              f"{len(view['legal_actions'])} legal moves")
    print(f"hint time: mean {sum(times) / len(times):.2f} s, max {max(times):.2f} s")


if __name__ == "__main__":
    main()
