# The two commands of the README: `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install migrate lint bench messages clean

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
	$(PY) manage.py createcachetable

## make run: set everything up and serve the site at http://$(HOST):$(PORT)
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

## make test: run the whole test suite
test: install
	@mkdir -p var
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .

bench: install
	$(PY) -m games.engine.bench

clean:
	rm -rf $(VENV) var/test.sqlite3
