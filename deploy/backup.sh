#!/bin/sh
# Dump Dalmuti's database into BACKUP_DIR (custom format, for pg_restore) and delete the
# dumps older than BACKUP_KEEP_DAYS days. Prints the new dump's path.
# Run by dalmuti-backup.service with the settings of /etc/dalmuti/dalmuti.env; by hand:
#   set -a; . /etc/dalmuti/dalmuti.env; set +a; deploy/backup.sh
set -eu
: "${DATABASE_URL:?DATABASE_URL is not set (see /etc/dalmuti/dalmuti.env)}"
BACKUP_DIR="${BACKUP_DIR:-/var/backups/dalmuti}"
BACKUP_KEEP_DAYS="${BACKUP_KEEP_DAYS:-14}"

mkdir -p "$BACKUP_DIR"
target="$BACKUP_DIR/dalmuti-$(date -u +%Y%m%dT%H%M%SZ).dump"
# Written under another name first: a dump cut short never looks like a backup.
pg_dump --format=custom --no-owner --no-privileges --file="$target.partial" "$DATABASE_URL"
mv "$target.partial" "$target"
find "$BACKUP_DIR" -maxdepth 1 -name 'dalmuti-*.dump' -mtime +"$BACKUP_KEEP_DAYS" -delete
echo "$target"
