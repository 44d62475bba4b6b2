#!/bin/sh
# Restore a dump made by backup.sh into the database DATABASE_URL names, which must be
# new and empty (createdb): everything is restored in one transaction, or nothing.
#   deploy/restore.sh /var/backups/dalmuti/dalmuti-20260101T031500Z.dump
# Then run `manage.py migrate` (a dump from an older version is brought up to date) and
# `manage.py doctor`. The README's "Backups" section has the whole drill.
set -eu
dump="${1:?usage: restore.sh DUMP}"
: "${DATABASE_URL:?DATABASE_URL is not set (see /etc/dalmuti/dalmuti.env)}"
pg_restore --exit-on-error --single-transaction --no-owner --no-privileges \
    --dbname="$DATABASE_URL" "$dump"
echo "restored $dump"
