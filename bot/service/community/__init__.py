"""The people around the games: watchers, ratings and standings, private notes, the inbox
across servers, a server's corrected data files and rules sections, and the language each
reader reads (a user's, a server's).

May use: the shared kernel, turns (:mod:`bot.service.play.turns`), the clock's timing and time
away, and calls (:mod:`bot.service.delivery.calls`).
"""
