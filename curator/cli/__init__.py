"""The command line: click commands, their shared options and the one error handler."""
