"""Board pictures: drawing them in this process's threads or in picture worker processes,
replays' animations, and alt texts.

May use: the shared kernel's notices, tables and admission, and the registry's renderers.
"""
