"""jpdtools — loading, running, exporting and the ``jpd`` command line for jipingdian.

One folder per stage of the flow of data (docs/contributors.md, "The flow of data"):
``records`` (SGF game records) ← ``suite`` (the case format) ← ``run`` (plan, execute, compare,
report) ← ``review`` (lint), ``verify`` (third-party programs), ``export`` ← ``commands`` (the
``jpd`` subcommands) ← ``cli``.
The modules at this level (atomic, errors, exitcodes, outdir, paths, presets, table, yamlsrc) are
shared by all.
"""
