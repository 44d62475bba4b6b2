from django.conf import settings
from django.contrib.auth import views as auth_views
from django.urls import path

from . import confirmation, views
from .forms import ConfirmedAddressResetForm, ResetPasswordForm

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("welcome/", views.signup_welcome, name="signup_welcome"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("profile/channel/", views.profile_channel, name="profile_channel"),
    path("profile/standing-orders/", views.standing_orders, name="profile_standing_orders"),
    path("delete/", views.delete_account, name="delete_account"),
    path("data/", views.download_data, name="download_data"),
    path("confirm/<str:token>/", views.confirm_email, name="confirm_email"),
    path("resend-confirmation/", views.resend_confirmation, name="resend_confirmation"),
    path("language/", views.set_language, name="set_language"),
    path(
        "password/change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "password/reset/",
        auth_views.PasswordResetView.as_view(
            form_class=ConfirmedAddressResetForm,
            email_template_name="registration/password_reset_email.txt",
            html_email_template_name="registration/password_reset_email.html",
            extra_email_context={"site_url": settings.SITE_URL},
        ),
        name="password_reset",
    ),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(
            extra_context={"days": confirmation.VALID_FOR.days}),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(form_class=ResetPasswordForm),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
