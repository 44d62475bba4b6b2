from django.urls import path

from . import history, views

urlpatterns = [
    path("", views.home, name="home"),
    path("tables/new/", views.new_table, name="new_table"),
    path("t/<int:game_id>/", views.game_page, name="game"),
    path("t/<int:game_id>/act/", views.act, name="act"),
    path("t/<int:game_id>/poll/", views.poll, name="poll"),
    path("t/<int:game_id>/log/", views.game_log, name="game_log"),
    path("t/<int:game_id>/orders/", views.standing_orders, name="standing_orders"),
    path("t/<int:game_id>/vacation/", views.vacation, name="vacation"),
    path("t/<int:game_id>/back/", views.take_back, name="take_back"),
    path("t/<int:game_id>/invite/", views.invite, name="invite"),
    path("t/<int:game_id>/bots/", views.add_bot, name="add_bot"),
    path("t/<int:game_id>/seats/<int:seat_id>/remove/", views.remove_seat, name="remove_seat"),
    path("t/<int:game_id>/leave/", views.leave, name="leave"),
    path("t/<int:game_id>/start/", views.start, name="start"),
    path("join/<str:token>/", views.join, name="join"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("invitations/<int:invitation_id>/decline/", views.decline_invitation,
         name="decline_invitation"),
    # After the game: history, record, replay, rematch.
    path("history/", history.history, name="history"),
    path("history/<int:game_id>/", history.game_record, name="game_record"),
    path("history/<int:game_id>/replay/", history.replay, name="replay"),
    path("history/<int:game_id>/rematch/", history.rematch, name="rematch"),
]
