"""Differential SQL fuzzer: random schemas, data and queries run by shoal and DuckDB, plus the
metamorphic oracles that need no second engine (ternary logic partitioning, and the same query
with the optimizer's rewrites off). README.md lists the semantic differences it avoids."""

import decimal

# 38-digit decimals (and sums of them) must not round: Python's default context keeps 28 digits.
decimal.getcontext().prec = 100
