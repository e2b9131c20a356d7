"""Benchmarks: each bench_*.py prints figures; none of them asserts a target."""
