#!/usr/bin/env bash
# Bounded memory at a scale too large for the tests: ingests the synthetic dataset of SCALE into each layout with a
# heap of HEAP_MB, then runs one broad query (about 18% of the samples) in each layout and mode in a JVM of its own
# with that heap, and checks the process's peak resident size (GNU time's "maximum resident set size", Linux's
# VmHWM) against HEAP_MB + ALLOWANCE_MB. The allowance is what a JVM holds besides its heap: metaspace, code, thread
# stacks, the garbage collector's structures (see BoundedMemoryTest's Javadoc, from Native Memory Tracking), some of
# which grow with the heap; by default 128 MB plus an eighth of the heap (measured here: 100 to 160 MB beyond
# heaps of 256 to 512 MB). Prints a table; exits 1 if a run fails or exceeds the bound.
#
#   scripts/bounded-memory.sh mini                       # about 6 GB of disk, a few minutes
#   scripts/bounded-memory.sh medium /tmp/lb-medium      # one layout at a time, about 21 GB of disk at most
#   HEAP_MB=512 scripts/bounded-memory.sh medium /tmp/lb-medium l3 fac
#
# At medium each layout's dataset is deleted before the next is ingested, so the disk holds one at a time.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scale=${1:?usage: bounded-memory.sh SCALE [DATA_DIR] [LAYOUTS...]}
data=${2:-$(mktemp -d -t layoutbench-memory-XXXX)}
shift $(( $# >= 2 ? 2 : 1 ))
layouts=${*:-l1 l2 l3 fac}
heap=${HEAP_MB:-256}
allowance=${ALLOWANCE_MB:-$(( 128 + heap / 8 ))}
where="CAST(width AS DOUBLE) / CAST(height AS DOUBLE) > 1.5"
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }
"$here/layoutbench" --version >/dev/null   # builds the CLI jar if needed
mkdir -p "$data"
jar="$data/layoutbench-cli.jar"   # a copy: a build during the run does not change what is measured
cp "$here/examples/target/layoutbench-cli.jar" "$jar"
java=(java "-Xmx${heap}m" -XX:ActiveProcessorCount=2 --add-modules jdk.incubator.vector -jar "$jar")
bound_kb=$(( (heap + allowance) * 1024 ))
status=0
# The line that says why a run failed: the CLI's error, not GNU time's "Command exited with non-zero status".
failure() { grep -v -e '^MAXRSS' -e '^Command exited' -e 'incubator modules' -e '^(run again' "$1" | tail -1 | cut -c1-160; }
printf '| scale | layout | mode | heap limit | samples | peak resident | bound | |\n|---|---|---|---|---|---|---|---|\n'
for layout in $layouts; do
  [ "$scale" = medium ] || [ "$scale" = full ] && rm -rf "$data/objects"
  log="$data/ingest-$layout.log"
  if ! /usr/bin/time -f "MAXRSS %M" "${java[@]}" ingest --scale "$scale" --layouts "$layout" --profile none \
      --data-dir "$data" >"$log" 2>&1; then
    echo "| $scale | $layout | ingest | ${heap} MB | | | | FAILED: $(failure "$log") |"
    status=1
    continue
  fi
  rss_kb=$(grep '^MAXRSS' "$log" | awk '{print $2}')
  verdict=ok; [ "$rss_kb" -le "$bound_kb" ] || { verdict=OVER; status=1; }
  echo "| $scale | $layout | ingest | ${heap} MB | | $((rss_kb / 1024)) MB | $((bound_kb / 1024)) MB | $verdict |"
  for mode in paper optimized; do
    log="$data/query-$layout-$mode.log"
    if ! /usr/bin/time -f "MAXRSS %M" "${java[@]}" query --scale "$scale" --layout "$layout" --mode "$mode" \
        --where "$where" --profile none --data-dir "$data" >"$log" 2>&1; then
      echo "| $scale | $layout | $mode | ${heap} MB | | | | FAILED: $(failure "$log") |"
      status=1
      continue
    fi
    samples=$(grep -m1 'Samples:' "$log" | awk '{print $2}')
    rss_kb=$(grep '^MAXRSS' "$log" | awk '{print $2}')
    verdict=ok; [ "$rss_kb" -le "$bound_kb" ] || { verdict=OVER; status=1; }
    echo "| $scale | $layout | $mode | ${heap} MB | $samples | $((rss_kb / 1024)) MB | $((bound_kb / 1024)) MB | $verdict |"
  done
done
exit $status
