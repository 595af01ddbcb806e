#!/usr/bin/env python3
"""SwiftYOLO against the fastest peer at each quantile of the timed passes, from `peers.py` reports.

`peers.py` states its verdict on the medians. On a shared host whose speed drifts between states (a
neighbour's load, the cache and memory it takes), the median can fall in one state for one engine and in
another for the next, and two engines can suffer unequally from the slow state. This script reads the
JSON twins that `peers.py` writes and prints, for each model and thread count, SwiftYOLO's time at the
minimum, p10, p25, the median, p75 and p90 of its passes against the fastest peer's at the same quantile
(the peer may differ between columns). Every engine ran its turns in alternation with the others, so
each quantile of each engine samples the host's states in the same proportion: a ratio that grows from
the fast end to the slow end says SwiftYOLO loses more than the peer when the host is slow.

  python3 Benchmarks/peers-spread.py Benchmarks/results/peers-2026-11-27za-*.json
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peers import percentile  # noqa: E402  (the report's own quantile, so that the median column is its median)

QUANTILES = [(0.0, "min"), (0.1, "p10"), (0.25, "p25"), (0.5, "median"), (0.75, "p75"), (0.9, "p90")]


def spread_rows(report: dict) -> list[str]:
    """One Markdown row per thread count: `SwiftYOLO ms / peer ms (peer) ratio` per quantile."""
    rows = []
    for threads in sorted({result["threads"] for result in report["results"]}):
        results = [result for result in report["results"] if result["threads"] == threads]
        ours = next((result for result in results if result["engine"] == "swiftyolo"), None)
        peers = [result for result in results if result["engine"] != "swiftyolo" and result.get("samples_ms")]
        if ours is None or not peers:
            continue
        cells = []
        for q, _ in QUANTILES:
            mine = percentile(ours["samples_ms"], q)
            theirs, engine = min((percentile(peer["samples_ms"], q), peer["engine"]) for peer in peers)
            cells.append(f"{mine:.1f} / {theirs:.1f} {engine}: **{mine / theirs:.2f}×**")
        name = report["model_name"]
        rows.append(f"| {name} | {threads} | " + " | ".join(cells) + " |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+", type=Path, help="peers-DATE-MODEL.json files written by peers.py")
    arguments = parser.parse_args()
    print("| model | threads | " + " | ".join(label for _, label in QUANTILES) + " |")
    print("|---|---:|" + "---|" * len(QUANTILES))
    for path in arguments.reports:
        try:
            report = json.loads(path.read_text())
            rows = spread_rows(report)
        except (OSError, ValueError, KeyError, TypeError) as error:
            sys.exit(f"peers-spread.py: {path}: not a peers.py report ({error})")
        print("\n".join(rows))


if __name__ == "__main__":
    main()
