#!/usr/bin/env bash
# Move a config into ~/dotfiles and symlink it back; add the alias hook to the shell rc on request.
set -euo pipefail
REPO="${DOTFILES:-$HOME/dotfiles}"

refuse_secret() {
  case "$1" in
    *"/.ssh/"*|*"/.aws/"*|*".env"|*".netrc"|*".git-credentials") echo "refusing to version a secret file: $1" >&2; exit 1 ;;
  esac
}

add() {
  local src="$1"
  [[ -f "$src" && ! -L "$src" ]] || { echo "not a regular file: $src" >&2; exit 1; }
  refuse_secret "$src"
  local name; name="$(basename "$src")"; name="${name#.}"
  mkdir -p "$REPO"
  mv "$src" "$REPO/$name"
  ln -s "$REPO/$name" "$src"
  echo "linked $src -> $REPO/$name"
}

hook() {
  local rc="$HOME/.${SHELL##*/}rc"
  local line='[ -f ~/dotfiles/aliases.sh ] && source ~/dotfiles/aliases.sh'
  grep -qxF "$line" "$rc" 2>/dev/null && { echo "already present in $rc"; return; }
  printf '\n%s\n' "$line" >> "$rc"
  echo "added alias hook to $rc"
}

case "${1:-}" in
  add) add "${2:?usage: dot.sh add <file>}" ;;
  hook) hook ;;
  *) echo "usage: dot.sh add <file> | hook" >&2; exit 2 ;;
esac
