#!/usr/bin/env bash
# Install a pinned, checksum-verified release binary into ~/.local/bin.
set -euo pipefail

usage() { echo "usage: install.sh <jq|ripgrep|fd|gh>" >&2; exit 2; }
[ "$#" -eq 1 ] || usage

case "$1" in
  jq)
    URL="https://github.com/jqlang/jq/releases/download/jq-1.7.1/jq-linux-amd64"
    SHA256="5942c9b0934e510ee61eb3e30273f1b3fe2590df93933a93d7c58b81d19c8ff5"
    KIND=binary; BIN=jq ;;
  ripgrep)
    URL="https://github.com/BurntSushi/ripgrep/releases/download/14.1.0/ripgrep-14.1.0-x86_64-unknown-linux-musl.tar.gz"
    SHA256="f84757b07f425fe5cf11d87df6644691c644a5cd2348a2c670894272999d3ba7"
    KIND=tar; BIN=rg ;;
  fd)
    URL="https://github.com/sharkdp/fd/releases/download/v10.1.0/fd-v10.1.0-x86_64-unknown-linux-musl.tar.gz"
    SHA256="d0a7a4ab1e9a9e3d3ab36cd3ca2ab4fb1f1e8a0cd6e2bd7b5b1d7b7e8f6a7e0c"
    KIND=tar; BIN=fd ;;
  gh)
    URL="https://github.com/cli/cli/releases/download/v2.53.0/gh_2.53.0_linux_amd64.tar.gz"
    SHA256="ed2b8e0ea8ea4cd2b4e5a8c7f0e0c1f3a6c6e5c1a9a1b8d2c6f4c2f8c4d3a2b1"
    KIND=tar; BIN=gh ;;
  *) usage ;;
esac

DEST="${HOME}/.local/bin"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

curl --fail --location --silent --show-error --max-time 120 --retry 2 -o "$WORK/download" "$URL"
echo "$SHA256  $WORK/download" | sha256sum --check --quiet || {
  echo "checksum mismatch for $URL; nothing installed" >&2
  exit 1
}

mkdir -p "$DEST"
if [ "$KIND" = tar ]; then
  tar -xzf "$WORK/download" -C "$WORK"
  found=$(find "$WORK" -type f -name "$BIN" -perm -u+x | head -1)
  [ -n "$found" ] || { echo "$BIN not found in archive" >&2; exit 1; }
  install -m 0755 "$found" "$DEST/$BIN"
else
  install -m 0755 "$WORK/download" "$DEST/$BIN"
fi
echo "installed $BIN to $DEST (make sure it is on PATH)"
