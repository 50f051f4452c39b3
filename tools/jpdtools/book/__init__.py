"""The committee case book (``jpd book``) and the one SVG board renderer (:mod:`.svg`).

The book is a static site computed from the same observations ``jpd explain`` prints: the suite is
run once through the reference adapter (:mod:`.observe`), and each kind of page has its own module
(cases, clauses, seed articles, open questions, rulesets, where the rulesets differ, the index).
"""
