"""The web tests use the host tests' stores: each test runs on SQLite and PostgreSQL."""

from tests.bot.conftest import open_store, store, toy  # noqa: F401 (fixtures)
