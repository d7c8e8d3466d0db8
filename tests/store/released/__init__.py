"""The migration steps as they were released, written once per dialect, kept unchanged so
that ``tests/store/test_migrations.py`` can check that the steps written once build the same
schema, step by step, as these did."""
