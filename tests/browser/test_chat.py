"""The table's chat on the page (real Chromium): text and names that look like markup are shown
as text (no element made, no dialog), the canned phrases in the reader's language, a mute
button per seat, and the spectators' screen with both channels."""

from __future__ import annotations

import random

import httpx
from playwright.sync_api import Dialog, Page, expect

from thousand.server.account_routes import COOKIE

from ..chat_support import PASSWORD, ChatClient
from ..server_support import HUMAN, Server
from ..server_support import play_turn as play_turn_over_ws
from .support import open_page, seat_at, shot, table, table_against_bots, wait_turn

SCRIPT = "<script>alert(1)</script>"
BOLD = "<b>x</b>"
IMAGE = "<img src=x onerror=alert(2)>"
BOB = "<i>Bob</i>"


def test_chat_text_and_names_are_shown_as_text(page: Page, server: Server) -> None:
    dialogs: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    table_id = str(server.new_table([HUMAN] * 3)["id"])
    ann = server.sit(table_id, "Ann", 0)["token"]
    bob_token = server.sit(table_id, BOB, 1)["token"]
    bob = ChatClient(server, table_id, bob_token, 1)
    seat_at(page, server, table_id, 0, ann)
    chat = page.locator("#chat")
    expect(chat.locator(".chat-empty")).to_have_text("No messages yet.")
    box = chat.locator(".chat-input")
    box.fill(SCRIPT)
    box.press("Enter")
    expect(chat.locator(".chat-line").last).to_contain_text(SCRIPT)
    expect(box).to_have_value("")
    bob.say(BOLD)
    bob.say(IMAGE)
    expect(chat.locator(".chat-line")).to_have_count(3)
    lines = chat.locator(".chat-line")
    expect(lines.nth(0)).to_have_text(f"Ann: {SCRIPT}")
    expect(lines.nth(1)).to_have_text(f"{BOB}: {BOLD}")
    expect(lines.nth(2)).to_have_text(f"{BOB}: {IMAGE}")
    # nothing the text or the names hold became an element, and no script ran
    for tag in ("script", "b", "i", "img"):
        assert chat.locator(tag).count() == 0, tag
    assert page.locator("script:not([src])").count() == 0
    assert dialogs == []
    # a canned phrase, shown in the reader's language
    chat.get_by_role("button", name="Good game!").click()
    expect(lines.last).to_have_text("Ann: Good game!")
    page.get_by_role("combobox").first.select_option("pl")
    expect(page.locator("#chat .chat-line").last).to_have_text("Ann: Dobra gra!")
    page.get_by_role("combobox").first.select_option("en")
    # a mute per seat: Bob's messages stop reaching this page
    mute = chat.locator('.chat-mute[data-seat="1"]')
    expect(mute).to_have_text(f"Mute {BOB}")
    mute.click()
    expect(chat.locator('.chat-mute[data-seat="1"]')).to_have_attribute("aria-pressed", "true")
    bob.say("you will not see this")
    bob.chat_until("you will not see this")
    box = page.locator("#chat .chat-input")
    box.fill("still here")
    box.press("Enter")
    expect(page.locator("#chat .chat-line").last).to_have_text("Ann: still here")
    expect(page.locator("#chat")).not_to_contain_text("you will not see this")
    # a refusal shows in the panel, one sentence, and stores nothing
    box.fill("x" * 300)
    page.evaluate("document.querySelector('#chat .chat-input').removeAttribute('maxlength')")
    box.fill("y" * 301)
    box.press("Enter")
    expect(page.locator("#chat .chat-error")).to_contain_text("at most 300 characters")
    assert "null" not in page.locator("#chat").inner_text()
    shot(page, "chat-seat")
    bob.close()
    assert dialogs == []


def test_a_spectator_reads_both_channels_and_a_guest_does_not_write(
    page: Page, server: Server
) -> None:
    table_id = str(server.new_table([HUMAN] * 3)["id"])
    ann = ChatClient(server, table_id, server.sit(table_id, "Ann", 0)["token"], 0)
    ann.say(BOLD)
    ann.chat_until(BOLD)
    open_page(page, server, f"/watch/{table_id}")
    chat = page.locator("#chat")
    expect(chat.locator('.chat-log[data-channel="seats"] .chat-line')).to_have_text(f"Ann: {BOLD}")
    expect(chat.locator('.chat-log[data-channel="spectators"] .chat-empty')).to_be_visible()
    expect(chat.locator(".chat-guest")).to_have_text("Sign in to write in the chat")
    assert chat.locator(".chat-input").count() == 0
    assert chat.locator(".chat-mute").count() == 0  # a guest mutes nobody either
    assert chat.locator("b").count() == 0
    ann.send({"type": "chat", "phrase": "thanks"})
    expect(chat.locator('.chat-log[data-channel="seats"] .chat-line').last).to_have_text(
        "Ann: Thanks!"
    )
    shot(page, "chat-spectator")
    ann.close()


def test_a_chat_being_typed_keeps_the_keyboard_while_the_table_moves_on(
    page: Page, server: Server
) -> None:
    table_id, token = table_against_bots(server, seed=11)
    seat_at(page, server, table_id, 0, token)
    wait_turn(page)
    version = table(page).get_attribute("data-version")
    box = page.locator("#chat .chat-input")
    box.click()
    box.press_sequentially("typed while the table moves", delay=10)
    # the seat moves from another connection of its own: the page draws the table again
    other = ChatClient(server, table_id, token, 0)
    assert play_turn_over_ws(other, lambda moves: moves[0])["type"] == "ack"
    other.close()
    expect(table(page)).not_to_have_attribute("data-version", str(version))
    wait_turn(page)
    expect(box).to_be_focused()
    expect(box).to_have_value("typed while the table moves")
    box.press("Enter")
    expect(page.locator("#chat .chat-line").last).to_have_text("Ann: typed while the table moves")


def test_a_signed_in_spectator_writes_to_the_spectators_alone(page: Page, server: Server) -> None:
    dialogs: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    name = f"<b>Eve{random.randrange(10**6)}</b>"
    answer = httpx.post(
        f"{server.http}/api/accounts", json={"name": name, "password": PASSWORD}, timeout=30
    )
    assert answer.status_code == 201, answer.text
    cookie = answer.cookies[COOKIE]
    page.context.add_cookies([{"name": COOKIE, "value": cookie, "url": server.http}])
    table_id = str(server.new_table([HUMAN] * 3)["id"])
    ann = ChatClient(server, table_id, server.sit(table_id, "Ann", 0)["token"], 0)
    open_page(page, server, f"/watch/{table_id}")
    chat = page.locator("#chat")
    box = chat.locator(".chat-input")
    expect(box).to_have_attribute("placeholder", "Write to the spectators")
    box.fill(SCRIPT)
    box.press("Enter")
    spectators = chat.locator('.chat-log[data-channel="spectators"] .chat-line')
    expect(spectators).to_have_count(1)
    expect(spectators.locator(".chat-name")).to_have_text(name)
    expect(spectators.locator(".chat-text")).to_have_text(SCRIPT)
    assert chat.locator("script").count() == 0 and chat.locator("b").count() == 0
    # the seat never hears it: its next line is its own
    ann.say("only mine")
    assert [m["text"] for m in ann.chat_until("only mine")] == ["only mine"]
    expect(chat.locator('.chat-log[data-channel="seats"] .chat-line')).to_have_text(
        "Ann: only mine"
    )
    assert dialogs == []
    ann.close()
