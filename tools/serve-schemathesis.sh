#!/usr/bin/env bash
# schemathesis (from PyPI, in a private venv) against docs/openapi.yaml and a running `swift-yolo serve`:
# every generated request must get an answer its schema declares (status, content type, body,
# headers), no 5xx, and 405 for a method a path does not take. Not checked: that every schema-valid
# request is accepted (positive_data_acceptance), since a schema cannot say which class names the
# model has, or that only an end-to-end model takes end2end=true: those are 400s by design.
#
#   tools/serve-schemathesis.sh SWIFT_YOLO MODEL [EXAMPLES]   (VENV=.venv-schemathesis)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$1 model=$2 examples=${3:-15}
venv=${VENV:-.venv-schemathesis}
[ -x "$venv/bin/schemathesis" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet schemathesis; }
log=$(mktemp)
"$binary" serve --model "$model" --port 0 --read-timeout 5 >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q listening "$log" && break; sleep 0.1; done
port=$(sed -n 's/.*127.0.0.1:\([0-9]*\).*/\1/p' "$log")
[ -n "$port" ] || { cat "$log"; exit 1; }
report=$(mktemp)
status=0
"$venv/bin/schemathesis" run docs/openapi.yaml --url "http://127.0.0.1:$port" --max-examples "$examples" \
    --generation-deterministic --request-timeout 30 --exclude-checks positive_data_acceptance >"$report" 2>&1 || status=$?
if [ $status -ne 0 ]; then cat "$report"; rm -f "$report"; echo "serve-schemathesis: FAILED"; exit 1; fi
echo "serve-schemathesis: $(grep -E '^ *[0-9]+ generated' "$report" | xargs) against docs/openapi.yaml"
rm -f "$report"
