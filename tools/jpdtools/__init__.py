"""jpdtools — loading, running, exporting and the ``jpd`` command line for jipingdian."""
