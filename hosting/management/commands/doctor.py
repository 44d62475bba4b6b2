"""`manage.py doctor`: check the running installation end to end and say what to fix.

Exits 1 when any check fails, so that a deploy script or a timer can act on it."""

from django.core.management.base import BaseCommand, CommandError

from hosting import checks

MARKS = {checks.OK: "ok", checks.WARNING: "!!", checks.ERROR: "XX", checks.SKIPPED: "--"}


class Command(BaseCommand):
    help = "Check the installation (database, Redis, worker, beat, email, HTTPS...)."

    def handle(self, *args, **options):
        results = checks.run()
        style = {checks.OK: self.style.SUCCESS, checks.WARNING: self.style.WARNING,
                 checks.ERROR: self.style.ERROR, checks.SKIPPED: str}
        for result in results:
            self.stdout.write(style[result.status](f"[{MARKS[result.status]}] {result.title}: ")
                              + result.message)
            if result.fix and result.status != checks.OK:
                self.stdout.write(f"     Fix: {result.fix}")
        failed = [r.title for r in results if r.failed]
        if failed:
            raise CommandError(f"{len(failed)} problem(s): {', '.join(failed)}.")
        self.stdout.write(self.style.SUCCESS("Everything that was checked works."))
