"""One module per command; each ``run`` returns an exit code."""
