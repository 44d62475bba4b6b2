"""The admin's System status page (superusers only) and its "send me a test email"."""

import smtplib

from django.conf import settings
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.core.mail import send_mail
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import checks


def _superuser(request):
    if not request.user.is_superuser:
        raise PermissionDenied(_("Only a superuser may see the system status."))


# What needs fixing comes first on the page; the doctor keeps the order of the checks.
SEVERITY = {checks.ERROR: 0, checks.WARNING: 1, checks.OK: 2, checks.SKIPPED: 3}


def status(request, site):
    _superuser(request)
    results = sorted(checks.run(request), key=lambda r: SEVERITY[r.status])
    context = {
        **site.each_context(request),
        "title": _("System status"),
        "results": results,
        "problems": sum(r.failed for r in results),
        "email": request.user.email,
    }
    return TemplateResponse(request, "hosting/status.html", context)


def test_email(request):
    _superuser(request)
    address = request.user.email
    if not address:
        messages.error(request, _("Your account has no email address: add one in your "
                                  "profile first."))
        return redirect("admin:system_status")
    try:
        send_mail(_("Dalmuti test email"),
                  _("This is the test email you asked for on the System status page of "
                    "%(site)s. Email delivery works.") % {"site": settings.SITE_URL},
                  None, [address], fail_silently=False)
    except (OSError, smtplib.SMTPException) as exc:
        messages.error(request, _("The test email to %(address)s could not be sent: "
                                  "%(error)s") % {"address": address, "error": exc})
    else:
        messages.success(request, _("A test email was sent to %(address)s. If it does not "
                                    "arrive within minutes, look in its spam folder and at "
                                    "your mail provider's log.") % {"address": address})
    return redirect("admin:system_status")


def urls(site):
    """The admin's URLs for this page, wrapped by the admin site (login, staff only)."""
    from django.urls import path

    return [
        path("status/", site.admin_view(lambda request: status(request, site)),
             name="system_status"),
        path("status/test-email/",
             site.admin_view(require_POST(staff_member_required(test_email))),
             name="system_status_test_email"),
    ]
