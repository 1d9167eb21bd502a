#!/usr/bin/env bash
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: rollback.sh <namespace> <deployment>" >&2
  exit 2
fi

kubectl rollout undo -n "$1" "deployment/$2"
kubectl rollout status -n "$1" "deployment/$2" --timeout=300s
