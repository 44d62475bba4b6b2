import pytest
from django.urls import reverse

from games.core.words import card_name
from games.models import Round
from games.read import replay
from tests.leagues.helpers import make_user, play_until

pytestmark = pytest.mark.django_db


def finish(game):
    return play_until(game, lambda g: g.is_over)


def replay_url(game, step=None):
    url = reverse("replay", args=[game.pk])
    return url if step is None else f"{url}?step={step}"


def test_the_replay_stays_closed_while_the_game_is_in_play_and_opens_once_it_is_over(
    client, alice, bob, game
):
    client.force_login(alice)
    dealt = Round.objects.get(game=game, number=1)
    bob_seat = game.seats.get(user=bob)
    bob_hand = dealt.hands[dealt.positions.index(bob_seat.player)]

    closed = client.get(replay_url(game))
    assert closed.status_code == 403
    assert b"Every hand" not in closed.content

    finish(game)
    response = client.get(replay_url(game, 1))
    assert response.status_code == 200
    rows = {row["name"]: row for row in response.context["players"]}
    assert [g.rank for g in rows["Bob"]["hand"]
            for _i in range(g.count)] == sorted(bob_hand)
    assert all(row["count"] > 0 for row in rows.values())
    assert card_name(min(bob_hand)) in response.content.decode().replace("\u00ad", "")


def test_someone_without_a_seat_gets_a_404_even_after_the_game(client, game):
    finish(game)
    client.force_login(make_user("mallory"))
    assert client.get(replay_url(game)).status_code == 404


def test_visitors_must_log_in(client, game):
    finish(game)
    response = client.get(replay_url(game))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_it_steps_forward_and_back_through_every_action(client, alice, game):
    game = finish(game)
    client.force_login(alice)
    total = game.actions.count()
    first = client.get(replay_url(game))
    assert (first.context["step"], first.context["total"]) == (1, total)
    assert first.context["previous"] is None and first.context["next"] == 2
    assert b'href="?step=2&amp;by=action"' in first.content

    middle = client.get(replay_url(game, 5))
    assert (middle.context["previous"], middle.context["next"]) == (4, 6)
    assert b'href="?step=4&amp;by=action"' in middle.content
    assert b'href="?step=6&amp;by=action"' in middle.content

    last = client.get(replay_url(game, total))
    assert last.context["next"] is None
    assert client.get(replay_url(game, total + 50)).context["step"] == total
    assert client.get(replay_url(game, "nonsense")).context["step"] == 1


def test_each_step_shows_the_state_after_that_action(client, alice, game):
    game = finish(game)
    client.force_login(alice)
    actions = list(game.actions.order_by("seq"))
    states = [state for _action, state in replay.replay(game, actions)]
    assert states[-1].to_json() == game.state == replay.rebuild_state(game).to_json()
    step = next(i for i, a in enumerate(actions, start=1) if a.kind == "play")
    response = client.get(replay_url(game, step))
    state = states[step - 1]
    shown = {row["name"]: row["count"] for row in response.context["players"]}
    names = {s.player: s.name for s in game.seats.all()}
    assert shown == {
        names[state.seats[seat]]: len(state.round.hand(seat))
        for seat in range(state.round.n_players)
    }
    assert response.context["trick_plays"]
    assert response.context["happened"]


def test_the_rounds_are_one_click_away(client, alice, game):
    game = finish(game)
    client.force_login(alice)
    starts = client.get(replay_url(game)).context["round_starts"]
    assert [r["number"] for r in starts] == [1, 2]
    second = game.actions.get(kind="next_round")
    assert starts[1]["step"] == second.seq


def test_htmx_gets_only_the_replay_fragment(client, alice, game):
    finish(game)
    client.force_login(alice)
    response = client.get(replay_url(game, 3), headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert b"<html" not in response.content
    assert response.content.lstrip().startswith(b'<div id="replay"')
    assert b'hx-get="?step=4&amp;by=action"' in response.content
    assert "HX-Request" in response["Vary"]


def test_a_game_ended_early_can_be_replayed(client, alice, game):
    from leagues.services import end_game

    play_until(game, lambda g: g.version >= 10)
    end_game(game.pk, "Stalled")
    client.force_login(alice)
    response = client.get(replay_url(game, 10))
    assert response.status_code == 200
    assert response.context["step"] == 10


def test_it_steps_by_trick_and_by_round(client, alice, game):
    game = finish(game)
    client.force_login(alice)
    actions = list(game.actions.order_by("seq"))
    trick_ends = [
        a.seq for a in actions
        if any(e["type"] in ("trick_won", "round_over") for e in a.events)
    ]
    second_round = game.actions.get(kind="next_round").seq
    first_trick = client.get(replay_url(game, 1) + "&by=trick").context
    assert trick_ends[0] >= first_trick["next"] > 1
    after = client.get(replay_url(game, trick_ends[0]) + "&by=trick").context
    assert after["previous"] < trick_ends[0] < after["next"] <= trick_ends[1]
    by_round = client.get(replay_url(game, 2) + "&by=round").context
    assert (by_round["previous"], by_round["next"]) == (1, second_round)
    assert client.get(replay_url(game, second_round) + "&by=round").context["next"] == len(
        actions
    )


def test_the_controls_keep_their_place_at_either_end(client, alice, game):
    game = finish(game)
    client.force_login(alice)
    total = game.actions.count()
    for step in (1, 5, total):
        content = client.get(replay_url(game, step)).content.decode()
        controls = content[content.index('class="replay-steps"'):content.index("</nav>",
                           content.index('class="replay-steps"'))]
        for label in ("First", "Back", "Play", "Forward", "Last"):
            assert f">{label}<" in controls, (step, label)
    first = client.get(replay_url(game, 1)).content.decode()
    assert '<span class="button secondary" aria-disabled="true">Back</span>' in first


def test_autoplay_polls_the_next_step_until_paused_or_at_the_end(client, alice, game):
    game = finish(game)
    client.force_login(alice)
    total = game.actions.count()
    playing = client.get(replay_url(game, 3) + "&by=trick&play=1",
                         headers={"HX-Request": "true"})
    tick = f'hx-get="?step={playing.context["next"]}&amp;by=trick&amp;play=1" ' \
        'hx-trigger="every 1s"'
    assert tick in playing.content.decode()
    assert b">Pause<" in playing.content
    paused = client.get(replay_url(game, 3) + "&by=trick", headers={"HX-Request": "true"})
    assert b'hx-trigger="every 1s"' not in paused.content
    at_the_end = client.get(replay_url(game, total) + "&play=1")
    assert b'hx-trigger="every 1s"' not in at_the_end.content


def test_the_replay_draws_the_table_as_the_game_page_does(client, alice, bob, game):
    """Seats round the felt (the viewer's at the bottom), the trick in its centre, and
    every hand below: the game page's own partials."""
    finish(game)
    actions = list(game.actions.order_by("seq"))
    step = next(i for i, a in enumerate(actions, start=1) if a.kind == "play")
    client.force_login(bob)
    response = client.get(replay_url(game, step))
    page = response.content.decode()
    # Bob's seat goes to the bottom (static/css/felt.css), wherever he sits in turn order.
    bob = next(row["position"] for row in response.context["players"] if row["name"] == "Bob")
    assert f'class="felt seats-4 me-{bob} seated"' in page
    assert [page.count(f'<li class="seat pos-{p}') for p in range(1, 6)] == [1, 1, 1, 1, 0]
    assert 'class="centre"' in page and 'class="to-beat play' in page
    assert response.context["to_beat_play"] == response.context["trick_plays"][-1]
    assert page.count('<span class="hand-of">') == 4


def test_every_line_of_the_records_log_opens_the_replay_at_its_step(client, alice, game):
    import re

    from games.models import Action

    finish(game)
    client.force_login(alice)
    page = client.get(reverse("game_record", args=[game.pk])).content.decode()
    log = page[page.index('<section class="full-log">'):]
    steps = [int(step) for step in re.findall(
        rf'<a class="log-step" href="{re.escape(replay_url(game))}\?step=(\d+)">', log)]
    recorded = list(Action.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert steps and steps == sorted(steps)
    assert set(steps) <= set(recorded) and steps[-1] == recorded[-1]


def test_the_replays_last_step_says_the_last_play_not_one_to_beat(client, alice, game):
    """Once the round is over nobody is to beat anything: its last play is said as such,
    as the game page says it."""
    game = finish(game)
    client.force_login(alice)
    page = client.get(replay_url(game, game.actions.count())).content.decode()
    assert "The last play, by" in page
    assert "played, to beat:" not in page and "the others must beat this" not in page


def test_a_round_is_reached_at_the_step_size_chosen_and_the_round_shown_is_marked(
        client, alice, game):
    """Going to a round keeps the player's step size (a player stepping move by move who
    jumps to round 2 goes on move by move from its start), and the round's link is
    answered with the steps too, so it follows each step."""
    game = finish(game)
    client.force_login(alice)
    second = game.actions.get(kind="next_round").seq
    page = client.get(replay_url(game, 3) + "&by=trick").content.decode()
    assert f'href="?step={second}&amp;by=trick"' in page
    assert f'hx-get="?step={second}&amp;by=trick"' in page
    assert "by=round" not in page.split('class="replay-rounds"')[1].split("</nav>")[0]
    step = client.get(replay_url(game, second + 1), headers={"HX-Request": "true"})
    rounds = step.content.decode().split('class="replay-rounds"')[1].split("</nav>")[0]
    assert '<strong aria-current="true">Round 2</strong>' in " ".join(rounds.split())
    assert 'href="?step=1&amp;by=action"' in rounds
