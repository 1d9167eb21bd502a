#!/usr/bin/env bash
# Read-only triage of a namespace (or one deployment) with kubectl.
set -euo pipefail
ns="${1:?usage: triage.sh <namespace> [deployment]}"
dep="${2:-}"
selector=()
if [[ -n "$dep" ]]; then
  sel=$(kubectl -n "$ns" get deploy "$dep" -o go-template='{{range $k,$v := .spec.selector.matchLabels}}{{$k}}={{$v}},{{end}}' | sed 's/,$//')
  selector=(-l "$sel")
fi
echo "== context: $(kubectl config current-context)  namespace: $ns"
kubectl -n "$ns" get pods "${selector[@]}" -o wide
echo; echo "== last termination reasons"
kubectl -n "$ns" get pods "${selector[@]}" \
  -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}{range .status.containerStatuses[*]}{.name}:{.restartCount}:{.lastState.terminated.reason}{" "}{end}{"\n"}{end}'
echo; echo "== recent warning events"
kubectl -n "$ns" get events --field-selector type=Warning --sort-by=.lastTimestamp | tail -20
echo; echo "== logs of restarting pods"
for pod in $(kubectl -n "$ns" get pods "${selector[@]}" -o jsonpath='{range .items[?(@.status.containerStatuses[0].restartCount>0)]}{.metadata.name}{"\n"}{end}'); do
  echo "--- $pod (previous)"
  kubectl -n "$ns" logs "$pod" --previous --tail 50 2>/dev/null || echo "(no previous logs)"
done
