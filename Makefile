# The two commands of the README: `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install migrate lint lighthouse bench messages clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

migrate: install
	@mkdir -p var/mail
	$(PY) manage.py migrate --noinput

## make run: set everything up and serve the site at http://$(HOST):$(PORT)
## (HOST and PORT reach the settings too: SITE_URL follows them unless it is set)
run: export HOST := $(HOST)
run: export PORT := $(PORT)
run: migrate
	$(PY) manage.py demo_login
	@if [ -n "$$CELERY_BROKER_URL" ]; then \
		echo "Starting a Celery worker with beat beside the web server (Ctrl-C stops both)."; \
		$(VENV)/bin/celery -A dalmuti_site worker -B --loglevel=INFO & worker=$$!; \
		trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
		$(PY) manage.py runserver $(HOST):$(PORT); \
	else \
		echo "No CELERY_BROKER_URL: background tasks run in-process; emails go to var/mail/."; \
		$(PY) manage.py runserver $(HOST):$(PORT); \
	fi

## make test: run the whole test suite, in TEST_WORKERS processes (pytest-xdist; each file's
## tests stay in one process, so that a file's shared server or browser starts once)
TEST_WORKERS ?= 2
test: install
	@mkdir -p var
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

## make lint: ruff, and the import contracts that keep the layers one-way (pyproject.toml)
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

## make lighthouse: Lighthouse (npm's, pinned in package-lock.json) on three pages of the
## production server, failing below the thresholds in tools/lighthouse.py
node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

lighthouse: install node_modules/.package-lock.json
	$(PY) -m tools.lighthouse

## make bench: how fast the rules engine plays (the other benchmarks: README, "Benchmarks")
bench: install
	$(PY) -m tools.bench

## make messages: extract every marked string into locale/{nl,de,fr}/LC_MESSAGES/django.po,
## then compile the .mo files (compiling needs only Python and Babel: python -m tools.i18n compile)
MESSAGE_LOCALES := nl de fr
messages: install
	@if ! command -v xgettext >/dev/null || ! command -v msgmerge >/dev/null; then \
		echo "make messages needs GNU gettext (xgettext, msgmerge) to extract the strings."; \
		echo "Install it: apt-get install gettext (Debian/Ubuntu), brew install gettext (macOS)."; \
		echo "Running and testing the site needs no gettext: the compiled .mo files are committed."; \
		exit 1; \
	fi
	@mkdir -p $(foreach code,$(MESSAGE_LOCALES),locale/$(code)/LC_MESSAGES)
	$(PY) manage.py makemessages $(foreach code,$(MESSAGE_LOCALES),--locale $(code)) \
		--domain django --extension html,txt,py --add-location file --no-obsolete \
		--ignore var --ignore tests --ignore tools --ignore static --ignore '*.egg-info'
	$(PY) -m tools.i18n compile
	@$(PY) -m tools.i18n check || echo "Translate the entries above (untranslated or fuzzy) in the .po files, then run make messages again."

clean:
	rm -rf $(VENV) var/test.sqlite3 node_modules
