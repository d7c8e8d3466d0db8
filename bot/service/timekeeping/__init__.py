"""Time: turn limits and deadlines, reminders and timeouts (the turn clock), playing hours,
time banks, quiet hours, time away, and the one scheduler task that fires what is due.

May use: the shared kernel, turns and computers (:mod:`bot.service.play`) to play a timeout,
calls and digests (:mod:`bot.service.delivery`), the table's controls and onlookers. The
scheduler is given the turn clock, the digests and the admission, to fire what is due.
"""
