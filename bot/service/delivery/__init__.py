"""Telling people: the outbox that sends every stored notice once and in order, folding a
backlog into what is still true, keeping to Discord's pace, how each player wants to be called
(``/notify``), and digests.

May use: the shared kernel, quiet hours (:mod:`bot.service.timekeeping.quiet_hours`), what a
turn's post says (:mod:`bot.service.play.turn_posts`), the table's controls and onlookers.
"""
