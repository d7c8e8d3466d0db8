"""The catalogs kept in step with the code: messages read from the code as gettext's tools
read them, catalogs rewritten to hold exactly those, translations kept; and every message
in the code is one those tools can read (its text a string literal)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from i18n import SHIPPED, catalogs, said, said_plural, write
from i18n.extract import code_messages, message, update

ROOT = Path(__file__).parents[2]
CODE = ("bot", "engines", "render", "games", "players")

SOURCE = """\
from bot.service.text import said, said_plural

def greet(name, seats):
    # Translators: shown when someone sits down.
    first = said("{player} joined as {role}.", player=name, role=said("the Dragon"))
    second = said_plural("{count} seat is free.", "{count} seats are free.", seats)
    return first + said("{player} joined as {role}.", player=name, role="x") + second
"""


def code(tmp_path: Path, source: str = SOURCE, name: str = "seating.py") -> Path:
    root = tmp_path / "bot"
    root.mkdir(exist_ok=True)
    (root / name).write_text(source, "utf-8")
    return root


def test_the_messages_said_in_the_code_are_read_with_their_places_and_where_they_are(tmp_path):
    found = {m.text: m for m in code_messages([code(tmp_path)])}
    assert sorted(found) == ["the Dragon", "{count} seat is free.", "{player} joined as {role}."]
    joined = found["{player} joined as {role}."]
    assert joined.places == {"player", "role"}
    assert joined.found_in == (("bot/seating.py", 5), ("bot/seating.py", 7))
    assert joined.comments == ("shown when someone sits down.",)
    seats = found["{count} seat is free."]
    assert seats.plural == "{count} seats are free."
    assert seats.places == {"count"}


def po_of(folder: Path, locale: str) -> str:
    return catalogs.path_of(locale, folder).read_text("utf-8")


def test_update_writes_every_shipped_catalog_with_each_languages_plural_rule(tmp_path):
    written = update(code_messages([code(tmp_path)]), tmp_path / "locale")
    assert [p.relative_to(tmp_path / "locale").parts[0] for p in written] == [
        "de", "fr", "es", "pt_BR",
    ]  # fmt: skip
    french = po_of(tmp_path / "locale", "fr")
    assert '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"' in french
    assert '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"' in po_of(tmp_path / "locale", "de")
    assert 'msgid_plural "{count} seats are free."\nmsgstr[0] ""\nmsgstr[1] ""' in french
    assert "#: bot/seating.py\n" in french, "where a message is said, without line numbers"
    assert "#. shown when someone sits down." in french


def test_update_keeps_translations_adds_new_messages_and_drops_gone_ones(tmp_path):
    folder = tmp_path / "locale"
    update([message("Roll the die."), message("{count} die", "{count} dice")], folder)
    path = catalogs.path_of("de", folder)
    text = path.read_text("utf-8")
    text = text.replace(
        'msgid "Roll the die."\nmsgstr ""', 'msgid "Roll the die."\nmsgstr "Würfle."'
    )
    text = text.replace(
        'msgstr[0] ""\nmsgstr[1] ""', 'msgstr[0] "{count} Würfel"\nmsgstr[1] "{count} W."'
    )
    path.write_text(text, "utf-8")

    update([message("{count} die", "{count} dice"), message("Pass.")], folder)
    with path.open("rb") as file:
        read = {
            entry.id if isinstance(entry.id, str) else entry.id[0]: entry for entry in read_po(file)
        }
    assert "Roll the die." not in read
    assert read["{count} die"].string == ("{count} Würfel", "{count} W.")
    assert read["Pass."].string == ""


def test_a_message_turned_plural_keeps_its_translation_as_the_first_form(tmp_path):
    folder = tmp_path / "locale"
    update([message("{count} die")], folder)
    path = catalogs.path_of("fr", folder)
    text = path.read_text("utf-8")
    path.write_text(text.replace('"{count} die"\nmsgstr ""', '"{count} die"\nmsgstr "{count} dé"'))
    update([message("{count} die", "{count} dice")], folder)
    assert 'msgstr[0] "{count} dé"\nmsgstr[1] ""' in path.read_text("utf-8")


def test_command_names_are_entries_of_their_own_context(tmp_path):
    folder = tmp_path / "locale"
    update([message("new"), message("new", context="command")], folder)
    text = po_of(folder, "es")
    assert 'msgctxt "command"\nmsgid "new"\nmsgstr ""' in text
    assert text.count('msgid "new"') == 2


def test_updating_again_with_the_same_messages_changes_no_byte(tmp_path):
    messages = code_messages([code(tmp_path)])
    update(messages, tmp_path / "locale")
    before = {locale: po_of(tmp_path / "locale", locale) for locale in SHIPPED}
    update(messages, tmp_path / "locale")
    assert {locale: po_of(tmp_path / "locale", locale) for locale in SHIPPED} == before


def test_a_translation_written_by_update_is_what_a_reader_reads(tmp_path):
    folder = tmp_path / "locale"
    update(code_messages([code(tmp_path)]), folder)
    path = catalogs.path_of("fr", folder)
    path.write_text(
        path.read_text("utf-8")
        .replace('msgid "the Dragon"\nmsgstr ""', 'msgid "the Dragon"\nmsgstr "le Dragon"')
        .replace(
            'msgid "{player} joined as {role}."\nmsgstr ""',
            'msgid "{player} joined as {role}."\nmsgstr "{player} devient {role}."',
        ),
        "utf-8",
    )
    with catalogs.reading(folder):
        joined = said("{player} joined as {role}.", player="Ana", role=said("the Dragon"))
        assert write(joined, "fr") == "Ana devient le Dragon."
        seats = said_plural("{count} seat is free.", "{count} seats are free.", 2)
        assert write(seats, "fr") == "2 seats are free."


# Every message in the code is one the extractor can read

CALLS = {"said": 1, "said_plural": 2}
"""The calls that make messages, and how many of their first arguments are English texts."""


def unreadable_messages(path: Path, shown_as: str) -> list[str]:
    """The calls in ``path`` the catalog's extractor reads as messages (any call named
    ``said`` or ``said_plural``, as gettext's tools see them) whose texts are not string
    literals: an f-string, a variable, a call, a sum. Such a text never reaches the
    catalog, so it would be shown in English to everyone."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # The message makers themselves hand their texts on (``said`` calls ``i18n.said``).
    makers = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name in CALLS]
    handing_on = {id(call) for maker in makers for call in ast.walk(maker)}
    faults = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or id(node) in handing_on:
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if isinstance(node.func, ast.Attribute):
            name = node.func.attr
        if name not in CALLS:
            continue
        texts = node.args[: CALLS[name]]
        literal = all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in texts)
        if len(texts) < CALLS[name] or not literal:
            faults.append(f"{shown_as}:{node.lineno}: {ast.unparse(node)[:120]}")
    return faults


@pytest.mark.parametrize("folder", CODE)
def test_every_message_in_the_code_is_a_string_literal(folder):
    faults = [
        fault
        for path in sorted((ROOT / folder).rglob("*.py"))
        for fault in unreadable_messages(path, str(path.relative_to(ROOT)))
    ]
    assert not faults, "messages the catalog cannot read:\n" + "\n".join(faults)


def test_the_literal_check_sees_f_strings_variables_and_sums(tmp_path):
    path = tmp_path / "made_up.py"
    path.write_text(
        textwrap.dedent(
            """\
            from bot.service import text
            from bot.service.text import said, said_plural

            said("Fine, {name}.", name=name)
            said("Fine " "too.")
            said(f"Hello {name}")
            said(template, name=name)
            text.said("Hello " + name)
            said_plural("{count} seat", many, count)
            said_plural("{count} seat", "{count} seats", count)

            def said(text, /, **args):
                return i18n.said(text, **args)
            """
        ),
        "utf-8",
    )
    assert unreadable_messages(path, "made_up.py") == [
        "made_up.py:6: said(f'Hello {name}')",
        "made_up.py:7: said(template, name=name)",
        "made_up.py:8: text.said('Hello ' + name)",
        "made_up.py:9: said_plural('{count} seat', many, count)",
    ]
