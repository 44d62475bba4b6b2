"""Tools for the people who build the site, run from a checkout, never installed with it:

    python -m tools.bench          # the rules engine: random-bot rounds per second
    python -m tools.arena ...      # bot strength, one level against another
    python -m tools.bench_table    # the game page, the poll, emails per round (own database)
    python -m tools.bench_load ... # real server processes under simulated players (own database)
    python -m tools.i18n compile   # the translation catalogues, .po -> .mo, without GNU gettext
    python -m tools.lighthouse     # Lighthouse scores of three pages, production server

`pyproject.toml` leaves this package out of the distribution; the tests import it from the
repository, as they import `tests.helpers`.
"""
