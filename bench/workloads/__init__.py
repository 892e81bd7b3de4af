"""Bench workloads: each module exposes run(ctx) -> list of result rows (see bench/common.row)."""
