"""The offline local table: the same games and host, played from a terminal or a script."""
