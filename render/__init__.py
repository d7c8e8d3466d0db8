"""Board pictures. Each game's renderer turns a *public view* into PNG bytes.

Renderers never see engine state, only the dict that ``Game.view(state, None)`` returns,
so nothing secret can reach a picture. Each game's ``render.<game>.render(view, locale)
-> bytes`` is registered with its engine in :mod:`games`; it is ``encode(picture(view,
locale))``: the RGB picture drawn on a cached static background (one per language), then
PNG bytes in the game's fixed palette (:class:`render.common.Palette`), so a view gives the
same bytes in every process.

A picture's own words (legends, captions, whose turn it is) are catalog messages written in
``locale`` (:mod:`i18n`); the names, numbers and notation the view and the game's data give
are drawn as they are. Type never goes under a board's smallest size, so a longer word is
set smaller down to it, then broken into lines where the board has room, then cut short
(:func:`render.common.fit`).
"""
