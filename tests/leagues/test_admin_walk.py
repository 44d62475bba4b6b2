"""Every admin URL, walked as two organisers (one seated at a table of her own league) and
as a superuser, against games in play in both leagues and in none: no hand, deal seed or
private line of a game in play shows to anybody, and no organiser reaches or changes
anything of a league she does not organise.

The URLs are enumerated from the admin site itself (every registered model's own URLs,
every object, every action it offers, every autocomplete field), not listed by hand, so a
model admin added later is walked too.
"""

import json

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core import serializers
from django.urls import NoReverseMatch, reverse

from games.models import Action, Game, Seat
from games.read.replay import record_sentence
from leagues.models import League, LeagueGame, Membership, Season

from .helpers import make_user

pytestmark = pytest.mark.django_db


def league_of(obj):
    """The league an admin object belongs to, None for a table of no league, or "people"
    for what belongs to no table at all (accounts, groups, ratings...)."""
    if isinstance(obj, League):
        return obj
    if hasattr(obj, "league_id") and not isinstance(obj, Game):
        return obj.league
    game = obj if isinstance(obj, Game) else getattr(obj, "game", None)
    if isinstance(game, Game):
        link = LeagueGame.objects.filter(game=game).first()
        return link.league if link else None
    return "people"


def walked_objects(model):
    objects = list(model._default_manager.all())
    if model is Action:
        # One action of each kind per game is enough: they share one page template.
        seen, sample = set(), []
        for action in objects:
            if (action.game_id, action.kind) not in seen:
                seen.add((action.game_id, action.kind))
                sample.append(action)
        objects = sample
    return objects


def admin_urls():
    """(url, object or None) for every URL of every registered model admin."""
    urls = [(reverse("admin:index"), None)]
    for model, model_admin in admin.site._registry.items():
        opts = model._meta
        urls.append((reverse("admin:app_list", args=[opts.app_label]), None))
        objects = walked_objects(model)
        for pattern in model_admin.get_urls():
            if not pattern.name:
                continue
            try:
                urls.append((reverse(f"admin:{pattern.name}"), None))
                continue
            except NoReverseMatch:
                pass
            for obj in objects:
                try:
                    urls.append((reverse(f"admin:{pattern.name}", args=[obj.pk]), obj))
                except NoReverseMatch:
                    break
        changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
        # The raw-id lookup popup, and a filter for each league and for none.
        urls.append((changelist + "?_popup=1&_to_field=id", None))
        for league in League.objects.all():
            urls.append((changelist + f"?league={league.pk}", None))
            urls.append((changelist + f"?league__id__exact={league.pk}", None))
        urls.append((changelist + "?league=none", None))
    return urls


def autocomplete_urls():
    urls = []
    for model, model_admin in admin.site._registry.items():
        sources = [(model, model_admin.autocomplete_fields)]
        sources += [(inline.model, inline.autocomplete_fields) for inline in model_admin.inlines]
        for source, fields in sources:
            for field in fields:
                query = {"app_label": source._meta.app_label,
                         "model_name": source._meta.model_name, "field_name": field, "term": ""}
                urls.append(reverse("admin:autocomplete") + "?" + "&".join(
                    f"{k}={v}" for k, v in query.items()))
    return urls


def secrets_in_play():
    """What no admin page may show while these games are in play: the deal's seed, the
    engine state (every hand) and each private line of the log."""
    found = []
    for game in Game.objects.filter(status=Game.Status.PLAYING):
        names = {s.player: s.name for s in game.seats.select_related("user")
                 if s.player is not None}
        start = game.actions.get(kind="start")
        found.append(str(start.payload["seed"]))
        found.append(str(game.seed))
        for action in game.actions.all():
            for event in action.events:
                if event.get("visible_to") is not None:
                    text = record_sentence(event, names)
                    if text:
                        found.append(text)
    return found


HAND_MARKS = ["&quot;hands&quot;", '"hands"', "(every hand)", "&quot;hand&quot;", '"hand"']


def over(obj) -> bool:
    """A page about a game that is over (its record may show every hand, as the replay
    does)."""
    game = obj if isinstance(obj, Game) else getattr(obj, "game", None)
    return isinstance(game, Game) and game.is_over


def snapshot(objects):
    return {(type(o).__name__, o.pk): serializers.serialize("json", [o]) for o in objects}


def league_records():
    models = [League, Membership, Season, LeagueGame, Game, Seat]
    return [o for model in models for o in model._default_manager.all()]


def action_names(client, model):
    opts = model._meta
    page = client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
    if page.status_code != 200 or not page.context or not page.context.get("action_form"):
        return []
    return [name for name, _label in page.context["action_form"].fields["action"].choices
            if name]


# What any action form asks for, filled in; applied only to objects outside the walker's
# leagues (those must stay exactly as they were).
APPLY = {
    "apply": "yes", "post": "yes", "reason": "Walking the admin", "name": "Walked",
    "bots": "3", "bot_level": "basic", "level": "basic", "turn_limit": "86400",
}


@pytest.fixture
def superuser():
    return make_user("root", is_staff=True, is_superuser=True)


def walk(client, user, ground, mine):
    """GET every URL; for an organiser, also try to change every object outside `mine`."""
    client.force_login(user)
    secrets = secrets_in_play()
    others = [lg.name for lg in League.objects.exclude(pk__in=[lg.pk for lg in mine])]
    foreign_names = others + [
        g.name for g in Game.objects.all()
        if league_of(g) is None or (league_of(g) not in mine)
    ] + [s.name for s in Season.objects.exclude(league__in=mine)]
    organiser = not user.is_superuser
    outside = [o for o in league_records()
               if organiser and league_of(o) not in mine and league_of(o) != "people"]
    before = snapshot(outside)
    pages = 0

    def check(url, response, obj=None):
        nonlocal pages
        assert response.status_code != 500, url
        if response.status_code != 200:
            return
        pages += 1
        body = response.content.decode()
        for secret in secrets:
            assert secret not in body, f"{url} shows {secret!r}"
        for mark in HAND_MARKS if not over(obj) else ():
            assert mark not in body, f"{url} shows a hand ({mark})"
        if organiser:
            for name in foreign_names:
                assert name not in body, f"{url} shows {name!r} to {user}"
            assert "@example.com" not in body, f"{url} shows an email address to {user}"

    for url, obj in admin_urls():
        response = client.get(url)
        check(url, response, obj)
        if obj is not None and organiser and league_of(obj) not in (*mine, "people"):
            assert response.status_code in (302, 403, 404), f"{user} reaches {url}"
            # ...and cannot change or delete it either.
            response = client.post(url, {"name": "Taken", "post": "yes", "reason": "x"})
            assert response.status_code in (302, 403, 404), f"{user} posts to {url}"
    for url in autocomplete_urls():
        check(url, client.get(url))

    for model in admin.site._registry:
        opts = model._meta
        changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
        for action in action_names(client, model):
            for obj in walked_objects(model):
                data = {"action": action, "_selected_action": [obj.pk], "index": "0"}
                check(f"{changelist} {action}", client.post(changelist, data))
                if organiser and league_of(obj) not in (*mine, "people"):
                    seat = Seat.objects.filter(game=obj, user__isnull=False).first() \
                        if isinstance(obj, Game) else None
                    host = obj.members.first() if isinstance(obj, League) else None
                    extra = {"seat": seat.pk if seat else "", "host": host.pk if host else ""}
                    response = client.post(changelist, {**data, **APPLY, **extra})
                    check(f"{changelist} {action} applied", response)
    assert snapshot(outside) == before, f"{user} changed another league's records"
    assert Game.objects.filter(status=Game.Status.PLAYING).count() == 3
    return pages


def test_the_first_organiser_walks_every_admin_url(client, ground):
    assert walk(client, ground.olga, ground, [ground.mondays]) > 20


def test_the_second_organiser_walks_every_admin_url(client, ground):
    assert walk(client, ground.fred, ground, [ground.fridays]) > 20


def test_a_superuser_walks_every_admin_url_and_sees_no_card_in_play(client, ground, superuser):
    assert walk(client, superuser, ground, list(League.objects.all())) > 50


def test_the_walk_reaches_the_pages_that_matter(client, ground):
    """The organiser's own league's pages do answer (the walk is not vacuous)."""
    client.force_login(ground.olga)
    for url in (
        reverse("admin:leagues_league_change", args=[ground.mondays.pk]),
        reverse("admin:games_game_change", args=[ground.monday_game.pk]),
        reverse("admin:games_game_change", args=[ground.monday_finished.pk]),
        reverse("admin:games_game_history", args=[ground.monday_game.pk]),
        reverse("admin:leagues_season_changelist"),
    ):
        assert client.get(url).status_code == 200, url
    page = client.get(reverse("admin:games_game_changelist")).content.decode()
    assert "Monday table" in page and "Monday finished" in page
    found = client.get(reverse("admin:autocomplete"), {
        "app_label": "leagues", "model_name": "membership", "field_name": "user", "term": "er",
    })
    assert found.status_code == 200
    assert {r["text"] for r in json.loads(found.content)["results"]} >= {
        "Erik (@erik)", "Bert (@bert)"}
    assert get_user_model().objects.filter(username="erik").exists()
