"""Validator rules, one family a module. Each ``check(subject, state)`` yields findings."""
