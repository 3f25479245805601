#!/usr/bin/env sh
# ctxloop from a shell: the JSON contract, a Markdown context pack, a list of paths.
# Run from the repository you want searched:  sh examples/cli.sh "the task"
# Data arrives on stdout, progress and errors on stderr; exit codes: 0 done, 1 failed,
# 2 usage (bad flag, no task, root not found), 130 interrupted.
set -eu

TASK=${1:-"email verification links expire too early"}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# 1. JSON, summarised without jq: files with scores and regions, then the open gaps.
npx ctxloop retrieve --task "$TASK" --json --quiet > "$OUT/context.json"
node -e '
  const result = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  console.log(`provider ${result.provider}, ${result.files.length} files, ${result.tokens} tokens`);
  for (const file of result.files) {
    const regions = file.regions.map((r) => `${r.start}-${r.end}${r.symbol ? ` ${r.symbol}` : ""}`).join(", ");
    console.log(`  ${file.score.toFixed(2)}  ${file.path}  [${regions}]`);
  }
  for (const gap of result.gaps) console.log(`  gap: ${gap}`);
' "$OUT/context.json"

# 2. A Markdown context pack with the code of each region, ready to paste into a prompt.
#    A long task is safest on stdin: no quoting to get wrong.
printf '%s\n' "$TASK" | npx ctxloop retrieve --format md --with-content --budget 4000 > "$OUT/context.md"
echo "context pack: $(wc -l < "$OUT/context.md") lines"
head -n 20 "$OUT/context.md"

# 3. Just the paths, one a line: feed them to another tool.
npx ctxloop retrieve --task "$TASK" --format paths --quiet | while IFS= read -r path; do
  echo "would open: $path"
done
