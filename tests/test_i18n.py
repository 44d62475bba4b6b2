"""Internationalisation: the catalogues are complete and compiled, every user-facing string
is marked for translation, and the pages and emails speak each of the four languages."""

import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse
from django.utils import translation

from games import commands, engine
from games.away import emails
from games.core import words as labels
from games.models import Game
from tools import i18n
from tools.i18n_checks import (
    READABLE_ATTRIBUTES,
    project_python_files,
    project_templates,
    unmarked_python,
    unmarked_python_strings,
    unmarked_templates,
    untranslated_template_text,
)

BASE_DIR = Path(settings.BASE_DIR)
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]
CATALOGUES = {code: BASE_DIR / "locale" / code / "LC_MESSAGES" / "django.po" for code in TRANSLATED}


# 1. Catalogues: complete, and the committed .mo files compiled from them.


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_entry_of_the_catalogue_is_translated_and_none_is_fuzzy(code):
    assert CATALOGUES[code].exists(), f"run `make messages` to create {CATALOGUES[code]}"
    problems = i18n.problems(CATALOGUES[code])
    assert not problems, "\n".join(problems)


def test_a_message_defined_twice_is_found(tmp_path):
    po = tmp_path / "django.po"
    po.write_text('''msgid ""
msgstr "Language: fr\\n"

msgid "A round's result"
msgstr "Le résultat d'une manche"

msgctxt "card"
msgid "A round's result"
msgstr "Autre chose"

#: channels
msgid ""
"A round's "
"result"
msgstr "Le résultat d’une manche"

#~ msgid "A round's result"
#~ msgstr "Ancien"
''', encoding="utf-8")
    # The same words in another context are another message; obsolete entries are not read.
    assert i18n.defined_twice(po) == [
        f"{po}:12: defined twice (first at line 4): \"A round's result\""]


@pytest.mark.parametrize("code", TRANSLATED)
def test_gnu_gettext_accepts_the_catalogue(code):
    """`make messages` hands the catalogues to GNU gettext's tools, which refuse a whole
    file for one message defined twice or one whose translation breaks a format the
    English seems to have ("70% of" reads as "% o"); Babel, which compiles them, does not."""
    msgfmt = shutil.which("msgfmt")
    if not msgfmt:
        if os.getenv("REQUIRE_SERVICES") == "1":
            pytest.fail("REQUIRE_SERVICES=1 but GNU gettext is not installed "
                        "(apt-get install gettext)", pytrace=False)
        pytest.skip("GNU gettext is not installed (apt-get install gettext)")
    checked = subprocess.run([msgfmt, "--check", "-o", os.devnull, str(CATALOGUES[code])],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_catalogue_header_has_the_language_and_its_plural_forms(code):
    header = {e.msgid: e for e in i18n.parse_po(CATALOGUES[code])}[""]
    assert not header.fuzzy
    fields = dict(
        line.split(": ", 1) for line in header.msgstr[0].splitlines() if ": " in line
    )
    assert fields["Language"] == code
    assert "charset=UTF-8" in fields["Content-Type"]
    plural = "(n > 1)" if code == "fr" else "(n != 1)"
    assert fields["Plural-Forms"] == f"nplurals=2; plural={plural};"


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_committed_mo_file_is_compiled_from_the_po_file(code):
    po = CATALOGUES[code]
    mo = po.with_suffix(".mo")
    assert mo.exists(), "run `make messages` (or python -m tools.i18n compile)"
    assert i18n.compiled(mo.read_bytes()) == i18n.compiled(i18n.compile_po(po)), (
        f"{mo} is stale: run python -m tools.i18n compile"
    )


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_their_placeholders(code):
    placeholder = re.compile(r"%\(\w+\)[sdif]|\{\w*\}|%[sdif]")
    wrong = []
    for e in i18n.parse_po(CATALOGUES[code]):
        if not e.msgid or e.obsolete:
            continue
        wanted = sorted(placeholder.findall(e.msgid))
        wanted_plural = sorted(placeholder.findall(e.msgid_plural or e.msgid))
        for index, text in e.msgstr.items():
            found = sorted(placeholder.findall(text))
            # A singular form may leave out the count ("Un point" for "%(count)s point").
            expected = wanted_plural if index else wanted
            if found != expected and not (index == 0 and set(found) <= set(expected)):
                wrong.append(f"{e.msgid!r} -> {text!r}")
    assert not wrong, "\n".join(wrong)


def test_the_compiler_writes_what_gettext_reads(tmp_path):
    import gettext

    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
        '#, python-format\nmsgid "%(count)d Knight"\nmsgid_plural "%(count)d Knights"\n'
        'msgstr[0] "%(count)d Champion"\nmsgstr[1] "%(count)d Champions"\n\n'
        'msgctxt "card"\nmsgid "Cook"\nmsgstr "Berg"\n"ère"\n\n'
        '#, fuzzy\nmsgid "Pass"\nmsgstr "Passer"\n\n'
        'msgid "Quote \\"this\\"\\n"\nmsgstr "Citez « ceci »\\n"\n'
    )
    with open(tmp_path / "django.mo", "wb") as f:
        f.write(i18n.compile_po(po))
    with open(tmp_path / "django.mo", "rb") as f:
        t = gettext.GNUTranslations(f)
    assert t.ngettext("%(count)d Knight", "%(count)d Knights", 1) == "%(count)d Champion"
    assert t.ngettext("%(count)d Knight", "%(count)d Knights", 2) == "%(count)d Champions"
    assert t.pgettext("card", "Cook") == "Bergère"
    assert t.gettext("Pass") == "Pass"  # fuzzy entries are left out
    assert t.gettext('Quote "this"\n') == "Citez « ceci »\n"


# 2. Every user-facing string in a template is marked for translation.

def test_the_template_check_finds_unmarked_text():
    found = untranslated_template_text(
        '{% load i18n %}<p title="Hover text">{% translate "Fine" %} Not fine {{ x }}</p>'
        '{% blocktranslate %}Fine {{ x }}{% endblocktranslate %} · 3 × {{ n }} —'
        '<input type="submit" value="Go"><input type="hidden" value="ok">'
        '{% comment %}Fine{% endcomment %}{# fine #}<script>let fine = 1;</script>'
        '<span class="rank-{{ r }}">{% block c %}app-{{ a }} model-{{ m }}{% endblock %}',
        is_html=True,
    )
    assert found == ['<p title="Hover text">', "Not fine", '<input value="Go">']


def test_every_template_text_is_marked_for_translation():
    assert project_templates(BASE_DIR)
    unmarked = unmarked_templates(BASE_DIR)
    assert not unmarked, "Mark these for translation:\n" + "\n".join(unmarked)


# 3. Every user-facing string literal in Python is marked for translation.

def test_the_python_check_finds_unmarked_strings():
    source = '''
from django.utils.translation import gettext as _
messages.success(request, "Saved.")
messages.error(request, _("Fine."))
messages.add_message(request, messages.INFO, f"Hello {name}")
raise Rejected("No way.", 409)
raise Rejected(_("Fine."), 409)
raise ValidationError({"end": "Too late."})
raise ValidationError(_("Fine %(x)s") % {"x": 1})
name = forms.CharField(label="Name", help_text=_("Fine"), max_length=3)
field = models.CharField(verbose_name="thing", choices=[("a", "Apple"), ("b", _("Fine"))])
class Colour(models.TextChoices):
    RED = "red", "Red"
    BLUE = "blue", _("Fine")
class Meta:
    verbose_name = "colour"
    labels = {"x": "Ex"}
self.message_user(request, "Done.", messages.SUCCESS)
log.info("not user-facing")
'''
    found = [why for _line, why in unmarked_python_strings(source)]
    assert sorted(found) == sorted([
        "messages.success(): 'Saved.'",
        "messages.add_message(): f'Hello {name}'",
        "Rejected(): 'No way.'",
        "ValidationError(): 'Too late.'",
        "label=: 'Name'",
        "verbose_name=: 'thing'",
        "choices=: 'Apple'",
        "Colour label: 'Red'",
        "verbose_name =: 'colour'",
        "labels =: 'Ex'",
        "message_user(): 'Done.'",
    ])


def test_every_user_facing_python_string_is_marked_for_translation():
    assert project_python_files(BASE_DIR)
    unmarked = unmarked_python(BASE_DIR)
    assert not unmarked, "Mark these for translation:\n" + "\n".join(unmarked)


# 4. The game's words, as the rulebooks have them (docs/RULES.md's table).

RULEBOOK_WORDS = {
    "en": {
        "cards": ["Dalmuti", "Archbishop", "Earl Marshal", "Baroness", "Abbess", "Knight",
                  "Seamstress", "Mason", "Cook", "Shepherdess", "Stonecutter", "Peasant",
                  "Jester"],
        "titles": ["Great Dalmuti", "Lesser Dalmuti", "Merchant", "Lesser Peon", "Greater Peon"],
        "phrase": "3 Knights (1 Jester)", "one": "1 Knight", "played": "played",
    },
    "nl": {
        "cards": ["Dalmuti", "Aartsbisschop", "Hofmaarschalk", "Barones", "Abdis", "Ridder",
                  "Naaister", "Steenkapper", "Kokkin", "Herderin", "Werkman", "Keuterboer",
                  "Nar"],
        "titles": ["Grote Dalmuti", "Kleine Dalmuti", "Koopman", "Kleine Dienaar",
                   "Grote Dienaar"],
        "phrase": "3 Ridders (1 Nar)", "one": "1 Ridder", "played": "speelde",
    },
    "de": {
        "cards": ["Dalmuti", "Erzbischof", "Hofmarschall", "Baronin", "Äbtissin", "Ritter",
                  "Näherin", "Steinmetz", "Köchin", "Schafhirtin", "Bergmann", "Tagelöhner",
                  "Narr"],
        "titles": ["Großer Dalmuti", "Kleiner Dalmuti", "Händler", "Kleiner Diener",
                   "Großer Diener"],
        "phrase": "3 Ritter (1 Narr)", "one": "1 Ritter", "played": "spielte",
    },
    "fr": {
        "cards": ["Grand Dalmuti", "Archiprêtre", "Chef d’armée", "Princesse", "Oracle",
                  "Champion", "Marchande", "Artisan", "Bergère", "Bateleur", "Servante",
                  "Paysan", "Joker"],
        "titles": ["Grand Dalmuti", "Petit Dalmuti", "Marchand", "Petit Bouffon", "Gros Bouffon"],
        "phrase": "3 Champions (1 Joker)", "one": "1 Champion", "played": "a joué",
    },
}
LANGUAGES = list(RULEBOOK_WORDS)
TITLE_KEYS = ["great_dalmuti", "lesser_dalmuti", "merchant", "lesser_peon", "greater_peon"]


def test_every_language_of_the_site_is_checked():
    assert sorted(LANGUAGES) == sorted(code for code, _name in settings.LANGUAGES)


@pytest.mark.parametrize("code", LANGUAGES)
def test_card_names_and_titles_are_the_rulebooks(code):
    words = RULEBOOK_WORDS[code]
    with translation.override(code):
        assert [labels.card_name(rank) for rank in [*range(1, 13), engine.JESTER]] == words["cards"]
        assert [labels.title_name(key) for key in TITLE_KEYS] == words["titles"]
        assert labels.cards_phrase([6, 6, engine.JESTER]) == words["phrase"]
        assert labels.card_set(6, 1) == words["one"]


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_games_name_is_given_in_the_language_wherever_it_is_named(code):
    """The site calls the game by its name in each language ("Der Große Dalmuti"): an
    email's subject or a sentence must not fall back to the English one."""
    with translation.override(code):
        name = translation.gettext("The Great Dalmuti")
    assert name != "The Great Dalmuti"
    english = [entry.msgid for entry in i18n.parse_po(CATALOGUES[code])
               if "Great Dalmuti" in entry.msgid and any(
                   "Great Dalmuti" in text for text in entry.msgstr.values())]
    assert english == []


def test_the_german_title_inside_a_sentence_is_quoted():
    """German inflects what follows a preposition or an article ("mit deinen Freunden
    Der Große Dalmuti"); a title that does not inflect stands in quotes there, as the
    tables' names do. Only the title: the rank ("the Great Dalmuti") inflects."""
    unquoted = [entry.msgid for entry in i18n.parse_po(CATALOGUES["de"])
                if "The Great Dalmuti" in entry.msgid
                and not entry.msgid.startswith("The Great Dalmuti")
                and any("„Der Große Dalmuti“" not in text for text in entry.msgstr.values())]
    assert unquoted == []


# Each language quotes a name (a table's, the game's) one way throughout, Dutch “…”,
# German „…“, French « … »: a player reads the same marks on the page, in a subject line
# and in a tip. The opening marks of the other two ways:
OTHER_OPENING_QUOTES = {"nl": "„«", "de": "«", "fr": "„“"}


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_language_quotes_with_one_pair_of_marks(code):
    odd = [text for entry in i18n.parse_po(CATALOGUES[code]) for text in entry.msgstr.values()
           if any(mark in text for mark in OTHER_OPENING_QUOTES[code])]
    assert odd == []


def test_every_rule_message_of_the_engine_has_a_translation():
    from games.core.words import ILLEGAL_MOVE_MESSAGES
    from games.engine.errors import MESSAGES

    assert set(MESSAGES) <= set(ILLEGAL_MOVE_MESSAGES)


def test_no_message_fakes_a_plural():
    """"%(count)d game(s)" cannot be translated well: use ngettext / {% plural %}."""
    fakes = [e.msgid for e in i18n.parse_po(CATALOGUES["nl"]) if re.search(r"\w\(s\)", e.msgid)]
    assert not fakes


# 5. Pages and emails speak each language.


def english_leftovers(content: str, code: str) -> list[str]:
    """Whole texts of the page that are an English message whose translation differs:
    something rendered before the language was chosen, or outside the catalogue."""
    if code == "en":
        return []
    translated = {
        e.msgid for e in i18n.parse_po(CATALOGUES[code])
        if e.msgid and e.msgid_plural is None and not re.search(r"%\(|\{", e.msgid)
        and e.msgstr.get(0) not in ("", e.msgid)
    }

    found = []

    class Texts(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.extend(v.strip() for k, v in attrs if k in READABLE_ATTRIBUTES and v)

        def handle_data(self, data):
            found.append(data.strip())

    Texts(convert_charrefs=True).feed(content)
    # The language switch names every language in that language: "English" stays.
    own_names = {translation.get_language_info(c)["name_local"] for c, _n in settings.LANGUAGES}
    return sorted({text for text in found if text in translated - own_names})


def assert_speaks(response, code: str, *msgids: str) -> str:
    """The page is in `code`: its lang, the translations of `msgids`, no English left."""
    import html

    assert response.status_code == 200, response.status_code
    content = response.content.decode()
    assert f'<html lang="{code}">' in content
    text = html.unescape(content)
    with translation.override(code):
        for msgid in msgids:
            wanted = translation.gettext(msgid)
            if code != "en":
                assert wanted != msgid, f"{msgid!r} is not translated into {code}"
            assert wanted in text, f"{wanted!r} ({msgid!r}) is not on the page"
    assert english_leftovers(content, code) == []
    return text


@pytest.fixture
def player(db, django_user_model, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

    def make(code: str):
        return django_user_model.objects.create_user(
            "alice", "alice@example.com", "correct-horse-battery", display_name="Alice",
            language=code, email_verified=True,
        )

    return make


def table_in_play(user) -> Game:
    """Alice and four bots, played on until some cards are on the table and it is Alice's
    turn to play."""
    game = commands.create_table(user, "Alice's table", 5, {"rounds": 2})
    for _ in range(4):
        commands.add_bot(game.pk, "basic")
    commands.start(game.pk)
    alice_played = False
    for _ in range(500):
        game = Game.objects.get(pk=game.pk)
        seat = game.seats.get(user=user)
        if str(seat.player) not in game.awaiting:
            assert commands.play_bot_move(game.pk), "the game waits for nobody"
            continue
        view = game.engine_state().view(seat.player)
        if view["phase"] == "play" and alice_played:
            return game
        legal = view["legal_actions"]
        plays = [a for a in legal if a["type"] == "play"]
        action = plays[0] if plays else legal[0]
        alice_played = alice_played or action["type"] == "play"
        turn = game.awaiting[str(seat.player)][0]
        commands.act(game.pk, user, engine.action_from_json(action), turn)
    raise AssertionError("Alice never got to play")


@pytest.mark.parametrize("code", LANGUAGES)
def test_pages_for_visitors_follow_the_browser(client, db, code):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = code
    assert_speaks(client.get(reverse("home")), code,
                  "Life is not fair. Play it with friends, one move at a time.")
    assert_speaks(client.get(reverse("login")), code, "Log in", "Forgot your password?")
    assert_speaks(client.get(reverse("signup")), code,
                  "Create an account to play The Great Dalmuti with your friends.",
                  "Email address")
    assert_speaks(client.get(reverse("password_reset")), code, "Reset your password")


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_password_reset_email_is_in_the_language_of_the_request(client, player, code,
                                                                    after_commit):
    player(code)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = code
    with after_commit():
        client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    with translation.override(code):
        assert message.subject == translation.gettext("Reset your Dalmuti password")
        assert translation.gettext("To choose a new password, open this link:") in message.body
        html_body = message.alternatives[0][0]
        assert translation.gettext("Choose a new password") in html_body
        assert f'<html lang="{code}">' in html_body


@pytest.mark.parametrize("code", LANGUAGES)
def test_account_pages_follow_the_profile(client, player, code):
    client.force_login(player(code))
    assert_speaks(client.get(reverse("home")), code, "My games", "New table (standard rules)")
    assert_speaks(client.get(reverse("profile")), code, "Profile", "Display name",
                  "Follow my browser")
    assert_speaks(client.get(reverse("password_change")), code, "Change your password")
    assert_speaks(client.get(reverse("new_table")), code, "Open a new table",
                  "Merchant trade", "Philanthropic scoring")
    assert_speaks(client.get(reverse("history")), code, "Game history", "Table or player")


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_admin_speaks_the_profile_language(client, player, code):
    from django.utils.text import capfirst

    alice = player(code)
    alice.is_staff = alice.is_superuser = True
    alice.save()
    client.force_login(alice)
    response = client.get(reverse("admin:games_game_changelist"))
    assert response.status_code == 200
    content = response.content.decode()
    assert f'<html lang="{code}"' in content
    with translation.override(code):
        assert str(capfirst(Game._meta.verbose_name_plural)) in content
        assert translation.gettext("Log out") in content  # Django's own catalogue


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_lobby_follows_the_profile(client, player, code):
    alice = player(code)
    game = commands.create_table(alice, "Alice's table", 5, {"rounds": 2})
    commands.add_bot(game.pk, "basic")
    client.force_login(alice)
    assert_speaks(client.get(game.get_absolute_url()), code, "Invite friends", "Add a bot",
                  "Rules at this table")


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_game_in_play_speaks_the_rulebooks_words(client, player, code):
    alice = player(code)
    game = table_in_play(alice)
    client.force_login(alice)
    text = assert_speaks(client.get(game.get_absolute_url()), code,
                         "Your hand", "The trick", "Your turn!")
    text = text.replace("\u00ad", "")  # the soft hyphens a narrow card or seat breaks at
    words = RULEBOOK_WORDS[code]
    for title in words["titles"]:
        assert title in text
    seat = game.seats.get(user=alice)
    hand = game.engine_state().view(seat.player)["hand"]
    for rank in set(hand):
        assert words["cards"][rank - 1] in text

    log = assert_speaks(client.get(reverse("game_log", args=[game.pk])), code, "Back to the table")
    assert any(f"Alice, {title}, {words['played']} " in log for title in words["titles"])


@pytest.mark.parametrize("code", LANGUAGES)
def test_game_emails_are_in_the_players_language(player, code):
    from games.models import Notification

    alice = player(code)
    game = commands.create_table(alice, "Table 7", 4, {"rounds": 2})
    for _ in range(3):
        commands.add_bot(game.pk, "basic")
    commands.start(game.pk)
    started = Notification.objects.get(user=alice, kind=Notification.Kind.STARTED)
    assert emails.deliver(started.pk) == "sent"
    message = mail.outbox[-1]
    game = Game.objects.get(pk=game.pk)
    with translation.override(code):
        subject = translation.gettext("The game at “%(table)s” has started") % {"table": game.name}
        # Its no-break spaces kept (French: « Table » and "signe :" never broken).
        assert message.subject == subject
        assert translation.gettext("Go to the table:") in message.body
        assert translation.gettext("Unsubscribe from all game emails") in message.alternatives[0][0]
    assert any(title in message.body for title in RULEBOOK_WORDS[code]["titles"])


def test_djangos_password_words_speak_to_a_dutch_player_as_the_site_does(client):
    """The site says "je" to its Dutch players; Django's own Dutch says "u"."""
    page = client.get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Je wachtwoord mag niet volledig uit cijfers bestaan." in page
    assert "Uw " not in page and " uw " not in page
