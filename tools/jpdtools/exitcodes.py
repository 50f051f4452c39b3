"""Named exit statuses of the ``jpd`` command."""

SUCCESS = 0
FAILURE = 1  # a check failed: a conformance case, a lint rule
ERROR = 2  # bad input: a file, a value, a ruleset name
NOTHING_SELECTED = 3  # the selection (--id, --tag, --rules, paths) chose no case or ruleset
INTERRUPTED = 130
