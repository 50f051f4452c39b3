"""The case format: YAML + the DSL of spec/case.lark → the frozen case model, and back. May import
records (SGF set-ups), jpdref and the top-level foundations."""
