#!/bin/sh
# Run manage.py as the site's user, with the settings of the environment file:
#   deploy/manage.sh migrate
#   deploy/manage.sh doctor
# DALMUTI_ENV_FILE (default /etc/dalmuti/dalmuti.env) and DALMUTI_USER (default dalmuti)
# name others. Run as root, it drops to that user; run as that user, it stays.
set -eu
ENV_FILE="${DALMUTI_ENV_FILE:-/etc/dalmuti/dalmuti.env}"
RUN_AS="${DALMUTI_USER:-dalmuti}"
cd "$(dirname "$0")/.."
set -a
. "$ENV_FILE"
set +a
if [ "$(id -u)" = 0 ]; then
    exec setpriv --reuid="$RUN_AS" --regid="$(id -g "$RUN_AS")" --init-groups \
        .venv/bin/python manage.py "$@"
fi
exec .venv/bin/python manage.py "$@"
