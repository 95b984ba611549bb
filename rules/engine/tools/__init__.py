"""Not rules: the self-play agents and their path search (used by tests, bench/ and manage.py)."""
