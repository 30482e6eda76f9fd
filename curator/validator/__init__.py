"""The validator: a pure function from (repository state, proposal) to sorted findings
(``verdict.validate_proposal``), one rule family a module under ``rules/``.

The CLI, the pre-commit hook, CI, the MCP server and the review UI all call
``validate_proposal``; none of them has a check of its own. This package's own
module is empty so that importing one of its parts (``state``, ``finding``) loads
nothing else.
"""
