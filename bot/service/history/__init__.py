"""A game's story and where games stand: history by turn, record files and their playback,
replays, the listings (``/game status``, ``/game list``) and each game's page on the web.

May use: the shared kernel, pictures (:mod:`bot.service.boards`), turns, the clock's timing and
banks, and onlookers (:mod:`bot.service.community.watchers`).
"""
