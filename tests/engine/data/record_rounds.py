"""Record rounds made by the engine as it is: states, legal actions, views and events.

``PYTHONPATH=. python tests/engine/data/record_rounds.py tests/engine/data/rounds_before.json``
made ``rounds_before.json`` with the engine before it was split into phases
(``test_stored_rounds.py`` checks the engine of today against it)."""
import hashlib
import json
import random
import sys

from games.engine import Options, Round, action_to_json, deal
from tests.engine.helpers import give_both_jesters

OPTION_SETS = {
    "classic": Options(),
    "worst": Options(tribute_return="worst", philanthropic="flat"),
    "chosen_trade": Options(merchant_trade="chosen", master_rule=True,
                            philanthropic="per_position"),
    "random_trade": Options(merchant_trade="random", merchant_trade_from=7),
    "at_once": Options(great_revolution="at_once", reduced_deck=True),
    "no_first_taxes": Options(first_round_taxes=False, scoring=False),
}

def key(r):
    d = r.to_json()
    rec = d["records"]
    return (d["phase"], rec["taxes_status"], rec["trade_status"], bool(rec["revolution"]),
            bool(d["trick"]), bool(d["passed"]), len(d["pending"]),
            d["decide"] and (d["decide"]["jester_seat"] is not None,
                             sum(c is not None for c in d["decide"]["choices"])))

def record(r):
    n = r.n_players
    return {
        "state": json.dumps(r.to_json()),
        "legal_actions": [[action_to_json(a) for a in r.legal_actions(s)] for s in range(n)],
        "views_sha256": hashlib.sha256(
            json.dumps([r.view(s) for s in [*range(n), None]]).encode()).hexdigest(),
        "last_events": r.last_events,
    }

out = []
seen = set()
for label, options in OPTION_SETS.items():
    for n in (5, 8, 4, 6):
        for seed in range(12):
            hands = deal(n, options, seed)
            holder = seed % (n + 1)
            if holder < n:
                hands = give_both_jesters(hands, holder)
            first = label == "no_first_taxes" or seed % 5 == 0
            rng = random.Random(seed)
            r = Round.start(hands, options, first_round=first, seed=seed)
            while True:
                k = (label,) + key(r)
                if k not in seen:
                    seen.add(k)
                    out.append({"label": f"{label}/{n}p/seed{seed}", **record(r)})
                if r.phase == "over":
                    break
                seat = rng.choice(r.awaiting)
                r = r.apply(seat, rng.choice(r.legal_actions(seat)))
with open(sys.argv[1], "w") as f:
    json.dump(out, f, indent=1)
print(len(out), "states")
