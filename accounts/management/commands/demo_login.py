from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "dalmuti-demo"


class Command(BaseCommand):
    help = "Create the demo login if no user exists yet, and print how to log in."

    def handle(self, *args, **options):
        User = get_user_model()
        if User.objects.exists():
            if User.objects.filter(username=DEMO_USERNAME).exists():
                self.stdout.write(
                    f"Demo login: username '{DEMO_USERNAME}', password '{DEMO_PASSWORD}'"
                    " (unless you changed it)."
                )
            return
        User.objects.create_superuser(
            DEMO_USERNAME, "demo@example.com", DEMO_PASSWORD, display_name="Demo",
            email_verified=True,
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Created the demo login: username '{DEMO_USERNAME}', "
                f"password '{DEMO_PASSWORD}' (also an admin at /admin/)."
            )
        )
