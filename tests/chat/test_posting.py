from django.core import mail

from chat import flourishes
from chat.models import Message

from .conftest import HTMX, say, seat_of, title_of


def test_it_posts_a_message_and_answers_htmx_with_the_fresh_log(client, alice, game):
    client.force_login(alice)
    response = client.post(f"/t/{game.pk}/chat/post/", {"text": "Good evening, Peons."}, **HTMX)
    assert response.status_code == 200
    message = Message.objects.get()
    assert (message.game, message.seat, message.text) == (game, seat_of(game, alice),
                                                        "Good evening, Peons.")
    body = response.content.decode()
    assert 'id="chat-log" class="chat-log" hx-swap-oob="true"' in body
    assert "Good evening, Peons." in body
    assert f'name="c" value="{message.pk}"' in body
    assert 'id="chat-error"' in body


def test_a_plain_form_post_goes_back_to_the_table(client, alice, game):
    client.force_login(alice)
    response = client.post(f"/t/{game.pk}/chat/post/", {"text": "No JavaScript here"})
    assert response.status_code == 302
    assert response["Location"] == f"/t/{game.pk}/?chat=open#chat"
    page = client.get(response["Location"]).content.decode()
    assert "No JavaScript here" in page
    assert "data-chat-panel open" in page


def test_it_rejects_an_empty_message(client, alice, game):
    client.force_login(alice)
    response = client.post(f"/t/{game.pk}/chat/post/", {"text": "  \n\t "}, **HTMX)
    assert response.status_code == 400
    assert "Write something first." in response.content.decode()
    assert not Message.objects.exists()


def test_it_takes_500_characters_and_rejects_501(client, alice, game):
    client.force_login(alice)
    ok = client.post(f"/t/{game.pk}/chat/post/", {"text": "a" * 500}, **HTMX)
    too_long = client.post(f"/t/{game.pk}/chat/post/", {"text": "b" * 501}, **HTMX)
    assert ok.status_code == 200
    assert too_long.status_code == 400
    assert "at most 500 characters" in too_long.content.decode()
    assert list(Message.objects.values_list("text", flat=True)) == ["a" * 500]


def test_a_rejected_plain_post_keeps_the_text_on_the_chat_page(client, alice, game):
    client.force_login(alice)
    response = client.post(f"/t/{game.pk}/chat/post/", {"text": "c" * 600})
    assert response.status_code == 400
    body = response.content.decode()
    assert "at most 500 characters" in body
    assert f'value="{"c" * 600}"' in body


def test_messages_are_one_line_of_plain_text(alice, game):
    message = say(game, alice, "  two\nlines\x00 and\ta tab  ")
    assert message.text == "two lines  and a tab"


def test_chat_sends_no_email_and_leaves_the_game_alone(client, alice, game):
    client.force_login(alice)
    before = (game.version, game.updated, game.awaiting)
    mail.outbox.clear()
    client.post(f"/t/{game.pk}/chat/post/", {"text": "Anyone there?"}, **HTMX)
    client.post(f"/t/{game.pk}/chat/post/", {"text": "Hello?"})
    game.refresh_from_db()
    assert Message.objects.count() == 2
    assert mail.outbox == []
    assert (game.version, game.updated, game.awaiting) == before


def test_it_offers_the_flourishes_of_my_title(client, alice, game):
    client.force_login(alice)
    page = client.get(f"/t/{game.pk}/").content.decode()
    mine = flourishes.for_title(title_of(game, alice))
    assert mine
    for flourish in mine:
        assert f'name="flourish" value="{flourish.key}"' in page
    others = set(flourishes.BY_KEY) - {f.key for f in mine}
    for key in others:
        assert f'value="{key}"' not in page


def test_a_flourish_is_stored_as_a_key_and_shown_as_its_words(client, alice, bob, game):
    flourish = flourishes.for_title(title_of(game, alice))[0]
    client.force_login(alice)
    response = client.post(f"/t/{game.pk}/chat/post/", {"flourish": flourish.key,
                                                         "text": "ignored"}, **HTMX)
    assert response.status_code == 200
    message = Message.objects.get()
    assert (message.flourish, message.text) == (flourish.key, "")
    client.force_login(bob)
    page = client.get(f"/t/{game.pk}/").content.decode()
    assert str(flourish.text) in page
    assert "chat-msg flourish" in page


def test_a_flourish_of_another_title_is_refused(client, alice, game):
    mine = {f.key for f in flourishes.for_title(title_of(game, alice))}
    other = next(key for key in flourishes.BY_KEY if key not in mine)
    client.force_login(alice)
    for key in (other, "no-such-flourish"):
        response = client.post(f"/t/{game.pk}/chat/post/", {"flourish": key}, **HTMX)
        assert response.status_code == 400
        assert "does not suit your present title" in response.content.decode()
    assert not Message.objects.exists()


def test_every_title_has_flourishes_from_the_rulebooks():
    assert set(flourishes.BY_TITLE) == {
        "great_dalmuti", "lesser_dalmuti", "merchant", "lesser_peon", "greater_peon",
    }
    assert "refreshment" in {f.key for f in flourishes.BY_TITLE["great_dalmuti"]}
    assert "grovel" in {f.key for f in flourishes.BY_TITLE["lesser_peon"]}
    assert "deal" in {f.key for f in flourishes.BY_TITLE["greater_peon"]}
    assert "coffee" in {f.key for f in flourishes.BY_TITLE["greater_peon"]}
    assert len(flourishes.BY_KEY) == sum(len(fs) for fs in flourishes.BY_TITLE.values())


def test_in_the_lobby_people_talk_without_titles_or_flourishes(client, alice, bob, lobby):
    client.force_login(bob)
    assert client.post(f"/t/{lobby.pk}/chat/post/", {"text": "Start already!"}).status_code == 302
    refused = client.post(f"/t/{lobby.pk}/chat/post/", {"flourish": "grovel"}, **HTMX)
    assert refused.status_code == 400
    client.force_login(alice)
    page = client.get(f"/t/{lobby.pk}/chat/").content.decode()
    assert "Start already!" in page
    assert 'class="chat-title' not in page
    assert 'name="flourish"' not in page

