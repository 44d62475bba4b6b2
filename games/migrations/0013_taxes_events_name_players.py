"""The taxes announced in the record named the round's seats in their exchanges, where
every other event names players: rewrite those written before, from each round's seats."""

from django.db import migrations


def name_players(apps, schema_editor):
    Action = apps.get_model("games", "Action")
    Round = apps.get_model("games", "Round")
    seats_of = {}
    for action in Action.objects.order_by("pk").iterator():
        taxes = [e for e in action.events or () if e.get("type") == "taxes"]
        if not taxes:
            continue
        key = (action.game_id, action.round_number)
        if key not in seats_of:
            rnd = Round.objects.filter(game_id=key[0], number=key[1]).first()
            seats_of[key] = rnd.positions if rnd else None
        seats = seats_of[key]
        if seats is None:
            continue
        for event in taxes:
            event["exchanges"] = [{**e, "from": seats[e["from"]], "to": seats[e["to"]]}
                                  for e in event["exchanges"]]
        action.save(update_fields=["events"])


class Migration(migrations.Migration):
    dependencies = [("games", "0012_merge_channels_and_lapsing")]
    operations = [migrations.RunPython(name_players, migrations.RunPython.noop)]
