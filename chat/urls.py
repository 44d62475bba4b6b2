from django.urls import path

import dalmuti_site.converters  # noqa: F401  (the <id:…> converter)

from . import views

urlpatterns = [
    path("t/<id:game_id>/chat/", views.conversation, name="chat"),
    path("t/<id:game_id>/chat/post/", views.post, name="chat_post"),
]
