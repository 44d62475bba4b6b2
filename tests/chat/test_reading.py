from chat.models import Message
from games import commands
from tests.helpers import play_out

from .conftest import HTMX, say, title_of


def test_the_table_shows_each_message_with_the_speakers_current_title(client, alice, bob, game):
    say(game, bob, "At your service.")
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    chat = page[page.index('id="chat"'):]
    assert "At your service." in chat
    assert "<bdi>Bob</bdi>" in chat
    bob_title = title_of(game, bob)
    assert f'<span class="chat-title title-{bob_title}">' in chat


def test_the_newest_message_shows_even_with_the_panel_closed(client, alice, bob, game):
    say(game, bob, "First")
    say(game, bob, "Newest of all")
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    summary = page[page.index("<summary>", page.index('id="chat"')):]
    summary = summary[:summary.index("</summary>")]
    assert "Newest of all" in summary
    assert "First" not in summary


def test_the_panel_holds_the_latest_30_and_the_chat_page_all(client, alice, bob, game, settings):
    settings.CHAT_RATE_LIMIT = 1000
    for n in range(35):
        say(game, bob, f"message number {n:02d}")
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "message number 34" in page and "message number 05" in page
    assert "message number 04" not in page
    everything = client.get(f"/t/{game.pk}/chat/").content.decode()
    assert all(f"message number {n:02d}" in everything for n in range(35))


def test_the_chat_fragment_answers_htmx_with_the_log(client, alice, bob, game):
    message = say(game, bob, "Fragment please")
    client.force_login(alice)
    response = client.get(f"/t/{game.pk}/chat/", **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Fragment please" in body
    assert "<html" not in body
    assert f'id="chat-seen" name="c" value="{message.pk}"' in body
    assert "HX-Request" in response["Vary"]
    assert "no-store" in response["Cache-Control"]


def test_someone_who_left_the_lobby_is_still_quoted(client, alice, bob, lobby):
    say(lobby, bob, "Sorry, I have to go.")
    commands.remove_seat(lobby.pk, lobby.seats.get(user=bob).pk)
    assert Message.objects.get().seat is None
    client.force_login(alice)
    page = client.get(f"/t/{lobby.pk}/chat/").content.decode()
    assert "<bdi>Bob</bdi>" in page and "Sorry, I have to go." in page


def test_my_own_messages_are_marked_as_mine(client, alice, bob, game):
    say(game, alice, "Mine")
    say(game, bob, "His")
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/chat/").content.decode()
    assert page.count('class="chat-msg mine"') == 1
    assert page.index("Mine") > page.index('class="chat-msg mine"')


def test_a_finished_game_keeps_its_conversation(client, alice, bob, game):
    say(game, alice, "Good game, everyone")
    game.status = game.Status.FINISHED
    game.save(update_fields=["status"])
    client.force_login(bob)
    assert "Good game, everyone" in client.get(f"/t/{game.pk}/chat/").content.decode()


def test_a_finished_table_no_longer_asks_its_players_to_act_their_rank(client, alice, game):
    """"Play your part" (and the sound of a turn coming) belong to a game in play: at a
    finished table the empty talk panel just says nobody talked, and the sound's switch,
    which only a coming turn would use, is gone."""
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "Play your part: the rulebooks insist" in page
    assert "data-sound-toggle" in page
    play_out(game)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert "The game is over." in page
    assert "Nobody has said anything yet." in page
    assert "Play your part: the rulebooks insist" not in page
    assert "data-sound-toggle" not in page
    chat_page = client.get(f"/t/{game.pk}/chat/").content.decode()
    assert "Nobody has said anything yet." in chat_page
    assert "Play your part: the rulebooks insist" not in chat_page
