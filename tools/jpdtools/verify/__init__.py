"""Verifying third-party programs: outcomes and parallel execution, the GTP and JSON-lines harnesses,
the manifests of implementations/ (never their code) and the verify reports. May import review (the
status proofs), proof, run, suite, records, jpdref and the top-level foundations."""
