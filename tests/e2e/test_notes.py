"""Private notes on a simulated Discord: `/game note` keeps a player's note and answers
only them, `/hand` shows it to them alone, and no message anybody else can see holds it."""

from tests.e2e.conftest import text_of, texts
from tests.e2e.test_stgeorge import open_two_player_game, play_turn

NOTE = "zq-note: keep two Knights near the Lair"


async def test_a_note_is_seen_by_its_author_alone(simcord_env, world):
    _, _, users = world
    channel, players = await open_two_player_game(world)
    knights, dragon = players["knights"], players["dragon"]
    kept = await knights.slash(channel, "game note", text=NOTE)
    assert kept.response.flags.ephemeral and NOTE in texts([kept])[0]
    for _ in range(3):
        await play_turn(channel, players)
    hand = await knights.slash(channel, "hand")
    assert hand.response.flags.ephemeral and f"📝 Your note: {NOTE}" in texts([hand])[0]
    theirs = await dragon.slash(channel, "game note")
    assert "no note" in texts([theirs])[0]
    for member in (dragon, users["carol"]):
        seen = [text_of(m) for m in channel.history(viewer=member)]
        dm = member.user.dm_channel
        seen += [text_of(m) for m in dm.history()] if dm is not None else []
        assert not [text for text in seen if "zq-note" in text]
    cleared = await knights.slash(channel, "game note", clear=True)
    assert "gone" in texts([cleared])[0]
