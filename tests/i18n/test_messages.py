"""Messages written for their reader: the catalog's translation or English, plural forms by
each language's rule, places filled in the reader's language, the pseudo-locale, and the
languages Discord's locale codes read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from i18n import SUPPORTED, catalogs, from_discord, normalise, pseudo, said, said_plural, write
from i18n.extract import PLURAL_FORMS

Translations = dict[str | tuple[str, str], str | tuple[str, ...]]


def write_catalog(folder: Path, locale: str, translations: Translations, fuzzy=()) -> None:
    """A catalog for ``locale`` in ``folder`` holding ``translations`` (a plural message by
    its English forms, with its forms), with the language's plural rule."""
    catalog = Catalog(locale=locale.replace("-", "_"))
    catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[locale])]
    for english, translated in translations.items():
        flags = ("fuzzy",) if english in fuzzy else ()
        catalog.add(english, translated, flags=flags)
    path = catalogs.path_of(locale, folder)
    path.parent.mkdir(parents=True)
    with path.open("wb") as file:
        write_po(file, catalog)


SEATS = ("{count} seat is free.", "{count} seats are free.")


@pytest.fixture
def translated(tmp_path):
    """Small catalogs in German, French, Spanish and Brazilian Portuguese, read instead of
    the shipped ones."""
    write_catalog(
        tmp_path,
        "de",
        {
            "Your turn, {player}.": "Du bist dran, {player}.",
            "{player} joined as {role}.": "{player} spielt als {role} mit.",
            "the Dragon": "der Drache",
            SEATS: ("Ein Platz ist frei.", "{count} Plätze sind frei."),
            "Roll the die.": "Würfle.",
        },
        fuzzy={"Roll the die."},
    )
    write_catalog(
        tmp_path,
        "fr",
        {
            "{player} joined as {role}.": "{player} devient {role}.",
            "the Dragon": "le Dragon",
            SEATS: ("{count} place est libre.", "{count} places sont libres."),
        },
    )
    write_catalog(tmp_path, "es", {SEATS: ("Queda {count} asiento.", "Quedan {count} asientos.")})
    write_catalog(tmp_path, "pt-BR", {SEATS: ("{count} lugar livre.", "{count} lugares livres.")})
    with catalogs.reading(tmp_path):
        yield tmp_path


def test_english_is_the_message_itself(translated):
    assert write(said("Your turn, {player}.", player="Ana"), "en") == "Your turn, Ana."


def test_a_translation_is_chosen_for_its_reader(translated):
    turn = said("Your turn, {player}.", player="Ana")
    assert write(turn, "de") == "Du bist dran, Ana."
    assert turn.english() == "Your turn, Ana."


def test_a_message_a_catalog_lacks_reads_in_english(translated):
    assert write(said("Your turn, {player}.", player="Ana"), "fr") == "Your turn, Ana."
    assert write(said("Only in English."), "de") == "Only in English."


def test_a_translation_marked_as_a_guess_is_not_shown(translated):
    assert write(said("Roll the die."), "de") == "Roll the die."


def test_the_shipped_catalogs_are_read_again_outside_the_block(translated):
    with catalogs.reading(translated / "elsewhere"):
        assert write(said("Your turn, {player}.", player="Ana"), "de") == "Your turn, Ana."
    assert write(said("Your turn, {player}.", player="Ana"), "de") == "Du bist dran, Ana."
    assert catalogs.folder() == translated


def test_leaving_the_block_reads_the_shipped_folder_again(tmp_path):
    with catalogs.reading(tmp_path):
        assert catalogs.folder() == tmp_path
    assert catalogs.folder() == catalogs.FOLDER


@pytest.mark.parametrize(
    ("locale", "counts"),
    [
        ("en", {0: "0 seats are free.", 1: "1 seat is free.", 2: "2 seats are free."}),
        ("de", {0: "0 Plätze sind frei.", 1: "Ein Platz ist frei.", 2: "2 Plätze sind frei."}),
        # French reads 0 as singular.
        ("fr", {0: "0 place est libre.", 1: "1 place est libre.", 2: "2 places sont libres."}),
        ("es", {0: "Quedan 0 asientos.", 1: "Queda 1 asiento.", 5: "Quedan 5 asientos."}),
        ("pt-BR", {0: "0 lugares livres.", 1: "1 lugar livre.", 21: "21 lugares livres."}),
    ],
)
def test_a_number_chooses_the_form_by_its_languages_rule(translated, locale, counts):
    for count, expected in counts.items():
        assert write(said_plural(*SEATS, count), locale) == expected


def test_a_plural_message_a_catalog_lacks_follows_englishs_rule(translated):
    rolls = said_plural("{count} roll", "{count} rolls", 0)
    assert write(rolls, "fr") == "0 rolls"


def test_places_are_filled_in_the_readers_language_nested_messages_too(translated):
    joined = said("{player} joined as {role}.", player="Ana", role=said("the Dragon"))
    assert write(joined, "fr") == "Ana devient le Dragon."
    assert write(joined, "de") == "Ana spielt als der Drache mit."
    assert write(joined, "en") == "Ana joined as the Dragon."


def test_numbers_and_plain_strings_are_shown_as_they_are(translated):
    joined = said("{player} joined as {role}.", player="the Dragon", role=3)
    assert write(joined, "fr") == "the Dragon devient 3."


def test_a_value_only_a_frontend_knows_is_written_by_it(translated):
    joined = said("{player} joined as {role}.", player=object(), role=said("the Dragon"))
    assert write(joined, "de", lambda value, locale: f"<{locale}>") == (
        "<de> spielt als der Drache mit."
    )
    with pytest.raises(TypeError):
        write(joined, "de")


# The pseudo-locale

LETTERS = re.compile(r"[A-Za-z]")


def test_the_pseudo_locale_accents_brackets_and_lengthens_every_message():
    english = "Only the host can start the game."
    written = write(said(english), "en-XA")
    assert written.startswith(pseudo.OPEN) and written.endswith(pseudo.CLOSE)
    assert pseudo.is_accented(written)
    assert not LETTERS.search(written), written
    assert len(written) >= 1.3 * len(english)


def test_the_pseudo_locale_keeps_places_markup_code_and_addresses():
    message = said(
        "**{title}** starts {when}: type `/game join` or see https://example.org/rules <#12>",
        title="Lions",
        when="soon",
    )
    written = write(message, "en-XA")
    for kept in ("**Lions**", "soon", "`/game join`", "https://example.org/rules", "<#12>"):
        assert kept in written, (kept, written)
    assert "šţáŕţš" in written


def test_the_pseudo_locale_keeps_a_slash_commands_name_in_plain_text():
    written = pseudo.accented("Use /game new to open a table.")
    assert "/game new" in written
    assert "Ûšé" in written


def test_the_pseudo_locale_writes_nested_messages_accented_too():
    joined = said("{player} joined as {role}.", player="Ana", role=said("the Dragon"))
    written = write(joined, "en-XA")
    assert "Ana" in written
    assert written.count(pseudo.OPEN) == 2, "the role, a message of its own, is marked too"


def test_the_pseudo_locale_takes_the_plural_rule_of_english():
    assert write(said_plural(*SEATS, 1), "en-XA").startswith(pseudo.OPEN + "1 šéáţ")
    assert write(said_plural(*SEATS, 0), "en-XA").startswith(pseudo.OPEN + "0 šéáţš")


# Discord's locale codes

DISCORD_LOCALES = {
    "en-US": "en",
    "en-GB": "en",
    "bg": None,
    "zh-CN": None,
    "zh-TW": None,
    "hr": None,
    "cs": None,
    "da": None,
    "nl": None,
    "fi": None,
    "fr": "fr",
    "de": "de",
    "el": None,
    "hi": None,
    "hu": None,
    "it": None,
    "ja": None,
    "ko": None,
    "lt": None,
    "no": None,
    "pl": None,
    "pt-BR": "pt-BR",
    "ro": None,
    "ru": None,
    "es-ES": "es",
    "es-419": "es",
    "sv-SE": None,
    "th": None,
    "tr": None,
    "uk": None,
    "vi": None,
    "id": None,
}
"""Every locale Discord sends, and the language the host answers it in (None: no catalog
for it, so the caller falls back to the server's language, then English)."""


def test_discord_has_the_32_locales_listed():
    import discord

    assert len(DISCORD_LOCALES) == 32
    assert set(DISCORD_LOCALES) <= {locale.value for locale in discord.Locale}


@pytest.mark.parametrize(("code", "expected"), sorted(DISCORD_LOCALES.items()))
def test_each_discord_locale_reads_its_shipped_language_or_none(code, expected):
    assert from_discord(code) == expected


def test_no_locale_reads_none():
    assert from_discord(None) is None
    assert from_discord("xx") is None


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("pt_br", "pt-BR"),
        ("PT-BR", "pt-BR"),
        ("de-AT", "de"),
        ("es-419", "es"),
        ("en-xa", "en-XA"),
        ("fr", "fr"),
        ("it", None),
        ("", None),
    ],
)
def test_a_code_is_read_loosely_as_a_supported_locale(code, expected):
    assert normalise(code) == expected
    assert expected is None or expected in SUPPORTED


# Messages said wrongly


def test_a_message_refuses_a_missing_place():
    with pytest.raises(ValueError, match="player"):
        said("Your turn, {player}.")


def test_a_message_refuses_a_place_it_does_not_have():
    with pytest.raises(ValueError, match="colour"):
        said("Your turn, {player}.", player="Ana", colour="red")


def test_a_plural_message_refuses_a_missing_place_but_may_leave_out_its_count():
    assert write(said_plural("One seat is free.", "{count} seats are free.", 1), "en") == (
        "One seat is free."
    )
    with pytest.raises(ValueError, match="title"):
        said_plural("{count} seat in {title}", "{count} seats in {title}", 2)
    with pytest.raises(ValueError, match="count"):
        said_plural("A seat is free.", "Seats are free.", 2)
