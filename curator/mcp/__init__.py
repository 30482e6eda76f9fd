"""The MCP surface (SPEC §7): agents search, read, relate and propose; nothing else."""
