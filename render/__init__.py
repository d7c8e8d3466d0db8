"""Board pictures. Each game's renderer turns a *public view* into PNG bytes.

Renderers never see engine state, only the dict that ``Game.view(state, None)`` returns,
so nothing secret can reach a picture. Each game's ``render.<game>.render(view) -> bytes``
is registered with its engine in :mod:`games`; it is ``encode(picture(view))``: the RGB
picture drawn on a cached static background, then PNG bytes in the game's fixed palette
(:class:`render.common.Palette`), so a view gives the same bytes in every process.
"""
