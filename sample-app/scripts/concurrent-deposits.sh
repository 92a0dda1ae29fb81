#!/usr/bin/env bash
# Fires many 1-cent deposits at once at one account, spread over the given instances, then prints
# the balance: it grows by exactly the number of deposits, because each deposit holds the account's lock.
# Usage: sample-app/scripts/concurrent-deposits.sh [deposits] [account] [base URL ...]
set -euo pipefail
deposits=${1:-200}
account=${2:-alice}
shift $(( $# > 2 ? 2 : $# ))
urls=("${@:-http://localhost:8080}")

before=$(curl -s "${urls[0]}/accounts/$account" | sed -E 's/.*"balance":([0-9]+).*/\1/')
for i in $(seq 1 "$deposits"); do
  echo "${urls[$(( i % ${#urls[@]} ))]}/accounts/$account/deposit?cents=1"
done | xargs -P 16 -n 1 curl -s -o /dev/null -w '%{http_code}\n' -X POST | sort | uniq -c
after=$(curl -s "${urls[0]}/accounts/$account" | sed -E 's/.*"balance":([0-9]+).*/\1/')
echo "balance of $account: $before -> $after (expected $(( before + deposits )))"
