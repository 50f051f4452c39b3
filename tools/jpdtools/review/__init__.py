"""Checks of the suite against the spec (``jpd lint``). May import run, suite, records, jpdref and the
top-level foundations."""
