"""Planning and executing case × ruleset items: the runner, the adapters, the comparator, the reference
count and the reports of a run. May import suite, records, jpdref and the top-level foundations."""
