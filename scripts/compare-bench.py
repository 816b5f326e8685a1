#!/usr/bin/env python3
"""Compares two bench runs' results.csv: whether each run of each (layout, mode, query, run, rep) returned the same
samples and payload and sent the same bytes and requests. Times are not compared (these machines are noisy).

    scripts/compare-bench.py OLD/results.csv NEW/results.csv     # exit 1 if a row differs or is missing
"""
import csv
import sys

KEYS = ("layout", "mode", "query", "run", "rep")
FIELDS = ("samples", "payload_bytes", "bytes", "requests", "get_requests")


def load(path):
    with open(path, newline="") as f:
        return {tuple(row[k] for k in KEYS): row for row in csv.DictReader(f)}


def main(old_path, new_path):
    old, new = load(old_path), load(new_path)
    same = differ = 0
    for key in sorted(set(old) | set(new)):
        if key not in old or key not in new:
            print("only in", new_path if key in new else old_path, dict(zip(KEYS, key)))
            differ += 1
            continue
        changes = [f"{f} {old[key][f]} -> {new[key][f]}" for f in FIELDS if old[key][f] != new[key][f]]
        if changes:
            print(dict(zip(KEYS, key)), "; ".join(changes))
            differ += 1
        else:
            same += 1
    print(f"{same}/{same + differ} rows identical in {', '.join(FIELDS)}")
    return 0 if differ == 0 else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
