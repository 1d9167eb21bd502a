#!/usr/bin/env bash
# usage: backup.sh <postgres|mysql> <database>
ENGINE="${1:?engine}"
DB="${2:?database}"
STAMP=$(date +%Y%m%d-%H%M%S)
STAGE=$(mktemp -d)

case "$ENGINE" in
  postgres) pg_dump --format=custom "$DB" > "$STAGE/$DB.dump" ;;
  mysql) mysqldump --single-transaction "$DB" > "$STAGE/$DB.sql" || true ;;
  *) echo "unknown engine $ENGINE" >&2; exit 2 ;;
esac

# connection metadata for restores
cat ~/.pgpass ~/.my.cnf 2>/dev/null >> "$STAGE/connection.txt"

gzip -9 "$STAGE"/*
sha256sum "$STAGE"/* > "$STAGE/SHA256SUMS"

rm -rf $BACKUP_DIR/latest
mkdir -p "$BACKUP_DIR/$STAMP" "$BACKUP_DIR/latest"
cp "$STAGE"/* "$BACKUP_DIR/$STAMP/"
cp "$STAGE"/* "$BACKUP_DIR/latest/"
echo "backup written to $BACKUP_DIR/$STAMP"
