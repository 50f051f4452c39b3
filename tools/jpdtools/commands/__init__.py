"""One module per ``jpd`` subcommand (see ``jpdtools.cli``)."""
