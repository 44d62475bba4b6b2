from django.urls import path

from . import views

urlpatterns = [
    path("t/<int:game_id>/chat/", views.conversation, name="chat"),
    path("t/<int:game_id>/chat/post/", views.post, name="chat_post"),
]
