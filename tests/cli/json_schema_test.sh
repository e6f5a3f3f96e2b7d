#!/usr/bin/env bash
# judge --json and check --json (and export --format=json) print documents
# that validate against docs/schema/atomfuzz.schema.json and are valid
# UTF-8, whatever bytes the file names hold. Usage: json_schema_test.sh
# ATOMFUZZ REPO
set -euo pipefail
atomfuzz=$1
repo=$2
schema=$repo/docs/schema/atomfuzz.schema.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A name with a byte that is not UTF-8, a quote, a backslash and a newline.
odd=$work/$'odd\xff"\\\nname.case'
cp "$repo/corpus/seed/counter-alloc-uav-structured.case" "$odd"
# With the expectations the spec allows, so that check has words to compare.
"$atomfuzz" fmt --expect "$repo/corpus/spec/e25b-commutative-prefix-sets.case" \
  >"$work/expect.case"
printf 'not a case\n' >"$work/broken.case"

run() {  # NAME EXPECTED_EXIT COMMAND...: saves stdout as NAME.json
  local name=$1 want=$2 got=0
  shift 2
  "$@" >"$work/$name.json" 2>"$work/$name.err" || got=$?
  if [[ $got != "$want" ]]; then
    echo "FAIL $name: exit $got, expected $want"
    cat "$work/$name.err"
    exit 1
  fi
}
cases=("$odd" "$work/expect.case" "$repo"/corpus/spec/e0*.case)
run judge_oracle 0 "$atomfuzz" judge --json "${cases[@]}"
run judge_divergent 1 "$atomfuzz" judge --json --target=fast --deterministic \
  --inject=return-new "${cases[@]}"
run judge_bad_input 2 "$atomfuzz" judge --json "$odd" "$work/broken.case"
run check_oracle 0 "$atomfuzz" check --json "$odd" "$work/expect.case"
run check_mismatch 1 "$atomfuzz" check --json --target=fast --deterministic \
  --inject=imax-unsigned "$work/expect.case"
run export_json 0 "$atomfuzz" export --format=json --on=oracle,fast -o - "$odd"

/usr/bin/python3 - "$schema" "$work" <<'PY'
import glob, json, os, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
validator = jsonschema.Draft202012Validator(schema)
seen = {}
for path in sorted(glob.glob(os.path.join(sys.argv[2], "*.json"))):
    raw = open(path, "rb").read()
    doc = json.loads(raw.decode("utf-8"))  # strict: fails on bad UTF-8
    errors = list(validator.iter_errors(doc))
    if errors:
        print(f"FAIL {os.path.basename(path)}: {errors[0].message}")
        sys.exit(1)
    seen[os.path.basename(path)] = doc
# The documents say what happened, not just something schema-shaped.
assert seen["judge_oracle.json"]["allowed"] == len(seen["judge_oracle.json"]["cases"])
assert seen["judge_divergent.json"]["divergent"] >= 1
assert any(c["run"] == "bad-input" for c in seen["judge_bad_input.json"]["cases"])
assert "\ufffd" in seen["judge_oracle.json"]["cases"][0]["file"]
assert all(c["met"] for c in seen["check_oracle.json"]["cases"])
assert seen["check_mismatch.json"]["cases"][0]["mismatches"], "no mismatch listed"
exported = seen["export_json.json"]
assert [t["target"] for t in exported["targets"]] == ["oracle", "fast"]
assert all(t["verdict"]["kind"] == "allowed" for t in exported["targets"])
assert "\ufffd" in exported["file"]
print(f"json_schema: {len(seen)} documents valid")
PY
