from django.urls import path

from .views import history, invitations, lobby, rules, table, unsubscribe

urlpatterns = [
    path("", lobby.home, name="home"),
    path("rules/", rules.rules, name="rules"),
    path("tables/new/", lobby.new_table, name="new_table"),
    path("t/<int:game_id>/", table.game_page, name="game"),
    path("t/<int:game_id>/act/", table.act, name="act"),
    path("t/<int:game_id>/poll/", table.poll, name="poll"),
    path("t/<int:game_id>/stream/", table.stream, name="stream"),
    path("t/<int:game_id>/log/", table.game_log, name="game_log"),
    path("t/<int:game_id>/orders/", table.standing_orders, name="standing_orders"),
    path("t/<int:game_id>/vacation/", table.vacation, name="vacation"),
    path("t/<int:game_id>/back/", table.take_back, name="take_back"),
    path("t/<int:game_id>/end/", table.end_after_this_round, name="end_after_this_round"),
    path("t/<int:game_id>/invite/", invitations.invite, name="invite"),
    path("t/<int:game_id>/bots/", lobby.add_bot, name="add_bot"),
    path("t/<int:game_id>/seats/<int:seat_id>/remove/", lobby.remove_seat, name="remove_seat"),
    path("t/<int:game_id>/leave/", lobby.leave, name="leave"),
    path("t/<int:game_id>/start/", lobby.start, name="start"),
    path("t/<int:game_id>/cancel/", lobby.cancel, name="cancel_table"),
    path("t/<int:game_id>/nudge/", table.nudge, name="nudge"),
    path("t/<int:game_id>/vote/", table.vote_stand_in, name="vote_stand_in"),
    path("t/<int:game_id>/watchable/", table.watchable, name="watchable"),
    path("watch/<str:token>/", table.watch, name="watch"),
    path("watch/<str:token>/poll/", table.watch_poll, name="watch_poll"),
    path("watch/<str:token>/log/", table.watch_log, name="watch_log"),
    path("join/<str:token>/", invitations.join, name="join"),
    path("unsubscribe/<str:token>/", unsubscribe.unsubscribe, name="unsubscribe"),
    path("invitations/<int:invitation_id>/decline/", invitations.decline_invitation,
         name="decline_invitation"),
    # After the game: history, record, replay, rematch.
    path("history/", history.history, name="history"),
    path("history/<int:game_id>/", history.game_record, name="game_record"),
    path("history/<int:game_id>/replay/", history.replay_page, name="replay"),
    path("history/<int:game_id>/rematch/", history.rematch, name="rematch"),
]
