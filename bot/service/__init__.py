"""The application layer: every use case of the game host, independent of any frontend."""
