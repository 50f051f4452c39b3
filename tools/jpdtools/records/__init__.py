"""Game records: the SGF reader and refereeing a record through the engine. May import jpdref and
the top-level foundations (errors, paths, presets, yamlsrc, table) only."""
