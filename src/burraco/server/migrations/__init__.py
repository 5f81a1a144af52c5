"""Alembic migrations, shipped inside the package: ``burraco serve`` upgrades on start."""
