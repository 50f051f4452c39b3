"""One thin module per ``jpd`` subcommand (see ``jpdtools.cli``). May import every stage."""
