"""Checks of the suite against the spec (``jpd lint``). May import proof, run, suite, records, jpdref
and the top-level foundations."""
