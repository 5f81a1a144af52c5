"""Audits of the platform as a whole: ``burraco audit secrecy`` (counterfactual worlds)."""
