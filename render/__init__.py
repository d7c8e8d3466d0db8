"""Board pictures. Each game's renderer turns a *public view* into PNG bytes.

Renderers never see engine state, only the dict that ``Game.view(state, None)`` returns,
so nothing secret can reach a picture. Each game's ``render.<game>.render(view) -> bytes``
is registered with its engine in :mod:`games`.
"""
