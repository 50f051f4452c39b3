"""Driving GTP engines: a robust client (:mod:`.client`), the adapter (:mod:`.adapter`) and the
engine profiles (:mod:`.profiles`)."""
