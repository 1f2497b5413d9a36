#!/bin/sh
# The scenario reference in app/scenario/README.md is what `hashscope help scenarios` prints from the
# keyword table, word for word. Usage: scenario_reference_matches.sh HASHSCOPE README
set -eu
hashscope=$1 readme=$2
in_readme=$(mktemp) printed=$(mktemp)
trap 'rm -f "$in_readme" "$printed"' EXIT
sed -n '/^<!-- scenario reference:/,/^<!-- end of the scenario reference -->/p' "$readme" |
  sed '1d;$d' >"$in_readme"
if [ ! -s "$in_readme" ]; then
  echo "$readme has no scenario reference between its markers" >&2
  exit 1
fi
"$hashscope" help scenarios >"$printed"
if ! diff -u "$in_readme" "$printed"; then
  echo "the scenario reference in $readme differs from 'hashscope help scenarios' (above);" >&2
  echo "paste the command's output between the markers" >&2
  exit 1
fi
