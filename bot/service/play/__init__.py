"""A turn and its actions: what a seat may do now, playing it (people's and computers'),
the destinations a choice offers, each turn's one post, and endings by agreement (resigning,
draws, takebacks) with the offers that ask for them.

May use: the host's shared kernel (``bot.service.desk``, ``tables``, ``notices``, ``text``,
``errors``, ``wire``), the clock's deadlines and banks (:mod:`bot.service.timekeeping`), who
is called how (:mod:`bot.service.delivery.calls`), the table's controls
(:mod:`bot.service.seating.table_controls`), ratings and onlookers
(:mod:`bot.service.community`), the registry, engines and players. Never a frontend.
"""
