"""The table before its game: opening a game, seats, joining and leaving, starting, the
lobby's buttons, invitations and rematches, and the table sizes each game is played at.

May use: the shared kernel, a turn's first steps (:mod:`bot.service.play`), deadlines and time
away (:mod:`bot.service.timekeeping`), calls (:mod:`bot.service.delivery.calls`) and a new
game's page address (:mod:`bot.service.history.web_pages`).
"""
