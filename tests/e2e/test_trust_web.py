"""Trust and safety in the browser, against a real ``burraco serve``, on a phone (390×844).

* Registering shows the ten recovery codes once (Copy, Download, "I saved them"); after
  logging out, "Forgot your password?" leads to /recover, where one code (typed in small
  letters, without dashes) sets a new password and logs the person in, told 9 codes are left.
* The person reports another from their profile (not from their own); a moderator, made
  with ``burraco admin grant``, finds it in /mod with its reason and words, mutes the target
  with a reason (the report leaves the queue, the log shows the action); the target's lobby
  and account page show the mute, its reason and its end; the moderator then bans the
  target from the log's form, and the target's log-in says why and until when.
* From /account: new codes (the password asked), the data as a file, the account deleted
  (password and username typed): back in the lobby as a guest, the profile gone.
* At a table, a player reports the other from a quick message's bubble and from the seat's
  row of the company bar: the moderators' queue holds both, with the table and the message.
* The privacy page, the recovery page and the report dialog in Italian; the pages of trust and
  safety (privacy, recovery, the account with a sanction, moderation with a report, a report
  dialog) hold no phrase of another language in any of the five, and no serious or critical
  violation of axe-core.

Screenshots go to ``artifacts/screenshots/trust-*.png``.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from harness import BURRACO, ServerProcess
from people_harness import PASSWORD, account, bearer, open_as, serve
from people_harness import fits as fits_controls
from test_languages_web import _check, foreign_phrases
from test_web_axe import axe_problems
from test_web_client import PHONE

pytestmark = pytest.mark.xdist_group("e2e")

CONTROLS = (".trust main button, .trust main .button, .trust main select, .trust main textarea, "
            ".trust main input:not([type=radio]):not([type=checkbox]), .recovery-codes button, "
            ".report-dialog button, .report-dialog textarea, [data-testid=report]")
fits = partial(fits_controls, controls=CONTROLS)
NEW_PASSWORD = "another long password"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "e2e-trust")


def grant_moderator(server: ServerProcess, username: str) -> None:
    """``burraco admin grant`` on the server's own database, as its administrator would."""
    done = subprocess.run(
        [BURRACO, "admin", "grant", "--db", server.db_url, "--user", username,
         "--role", "moderator", "--reason", "moderates the browser tests"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def kept(page: Any) -> dict[str, str] | None:
    raw = page.evaluate("() => localStorage.getItem('burraco:guest')")
    return json.loads(raw) if raw else None


def register(page: Any, server: ServerProcess, username: str) -> list[str]:
    """Register in the lobby's form; the recovery codes it shows."""
    page.goto(server.base + "/")
    page.click("[data-testid=tab-register]")
    page.fill(".account-form input[name=username]", username)
    page.fill(".account-form input[name=password]", PASSWORD)
    page.click("[data-testid=account-submit]")
    page.locator("[data-testid=recovery-codes]").wait_for(timeout=20_000)
    return [c.strip() for c in page.locator("[data-testid=codes-list] code").all_text_contents()]


def test_codes_recovery_reports_moderation_and_leaving(
    server: ServerProcess, browser: Any, screenshots: Path
) -> None:
    ada = open_as(browser, None, phone=True)

    # registering shows the ten codes, once, with Copy and Download
    codes = register(ada, server, "Trust_Ada")
    assert len(codes) == 10 and len(set(codes)) == 10
    assert all(re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}", c) for c in codes), codes
    panel = ada.locator("[data-testid=recovery-codes]")
    assert "each lets you back in once" in panel.text_content()
    assert "Logged in as Trust_Ada" in ada.locator("[data-testid=account]").text_content()
    with ada.expect_download() as download:
        ada.click("[data-testid=codes-download]")
    saved = Path(download.value.path()).read_text(encoding="utf-8")
    assert download.value.suggested_filename == "burraco-recovery-codes-Trust_Ada.txt"
    assert all(code in saved for code in codes) and "Trust_Ada" in saved
    fits(ada)
    panel.screenshot(path=str(screenshots / "trust-codes-phone.png"))
    ada.screenshot(path=str(screenshots / "trust-register-phone.png"))
    ada.click("[data-testid=codes-saved]")
    assert ada.locator("[data-testid=recovery-codes]").count() == 0

    # logged out, the password forgotten: one code (as a person might type it) lets her back in
    ada.click("[data-testid=logout]")
    ada.click("[data-testid=forgot]")
    ada.wait_for_url("**/recover")
    ada.locator("main h1", has_text="Back into your account").wait_for()
    ada.fill("input[name=username]", "Trust_Ada")
    ada.fill("input[name=code]", codes[3].replace("-", "").lower())
    ada.fill("input[name=new_password]", NEW_PASSWORD)
    ada.fill("input[name=new_password_again]", NEW_PASSWORD + "x")
    ada.click("[data-testid=recover-submit]")
    ada.locator(".error", has_text="not the same").wait_for()
    ada.fill("input[name=new_password_again]", NEW_PASSWORD)
    fits(ada)
    ada.screenshot(path=str(screenshots / "trust-recover-phone.png"), full_page=True)
    ada.click("[data-testid=recover-submit]")
    ada.locator("[data-testid=recovered]").wait_for(timeout=20_000)
    assert ada.locator("[data-testid=codes-left]").text_content() == "9 recovery codes left."
    assert kept(ada)["token"].startswith("a.")
    fits(ada)
    ada.screenshot(path=str(screenshots / "trust-recovered-phone.png"))
    # the code is spent; the new password works
    again = server.http.post("/api/recover", json={"username": "Trust_Ada", "code": codes[3],
                                                   "new_password": "yet another password"})
    assert again.status_code == 401 and again.json()["code"] == "bad_recovery", again.text
    server.http.cookies.clear()
    logged = server.http.post("/api/sessions", json={"username": "Trust_Ada",
                                                     "password": NEW_PASSWORD})
    assert logged.status_code in (200, 201), logged.text
    server.http.cookies.clear()
    ada.click("[data-testid=recovered-lobby]")
    ada.locator("[data-testid=account]", has_text="Logged in as Trust_Ada").wait_for()

    # a report from a profile: none on one's own
    bea = account(server, "Trust_Bea")
    ada.goto(server.base + "/players/Trust_Ada")
    ada.locator("[data-testid=profile-name]").wait_for()
    assert ada.locator("[data-testid=report]").count() == 0
    ada.goto(server.base + "/players/Trust_Bea")
    ada.locator("[data-testid=profile-name]").wait_for()
    ada.click("[data-testid=report]")
    dialog = ada.locator(".report-dialog")
    dialog.wait_for()
    ada.click("[data-testid=report-send]")
    dialog.locator("[data-testid=report-error]", has_text="Pick a reason").wait_for()
    dialog.locator("label.choice", has_text="Abuse or insults").click()
    ada.fill("textarea[name=report-text]", "Insults in every quick message.")
    fits(ada)
    ada.screenshot(path=str(screenshots / "trust-report-phone.png"))
    ada.click("[data-testid=report-send]")
    dialog.locator("[data-testid=report-sent]").wait_for()
    ada.click("[data-testid=report-done]")

    # a moderator finds it in /mod, and mutes with a reason
    moderator = account(server, "Trust_Mod")
    grant_moderator(server, "Trust_Mod")
    mod = open_as(browser, moderator, phone=True)
    mod.goto(server.base + "/")
    mod.click("[data-testid=mod-link]")
    mod.wait_for_url("**/mod")
    item = mod.locator("[data-testid=reports-open] li.report[data-target=Trust_Bea]")
    item.wait_for(timeout=20_000)
    text = item.text_content()
    assert "Abuse or insults" in text and "Trust_Ada" in text
    assert "Insults in every quick message." in text
    assert "1 report about Trust_Bea in all." in text and "No earlier sanction." in text
    item.locator("[data-testid=mod-act]").click()
    item.locator("select[name=mod-action]").select_option("mute")
    item.locator("input[name=mod-days]").fill("3")
    item.locator("[data-testid=mod-apply]").click()
    item.locator("[data-testid=mod-error]", has_text="3 to 500").wait_for()
    item.locator("textarea[name=mod-reason]").fill("Insults at the table")
    fits(mod)
    mod.screenshot(path=str(screenshots / "trust-mod-phone.png"), full_page=True)
    item.locator("[data-testid=mod-apply]").click()
    mod.locator("[data-testid=mod-note]", has_text="Muted, Trust_Bea").wait_for()
    assert mod.locator("[data-testid=reports-open] li.report").count() == 0
    mod.click("[data-testid=mod-tab-closed]")
    mod.locator("[data-testid=reports-closed] li.report[data-target=Trust_Bea]").wait_for()
    mod.click("[data-testid=mod-tab-log]")
    mod.locator("[data-testid=mod-log] li[data-kind=mute][data-player=Trust_Bea]",
                has_text="Insults at the table").wait_for()
    fits(mod)
    mod.screenshot(path=str(screenshots / "trust-mod-log-phone.png"), full_page=True)
    mod.click("[data-testid=mod-tab-screening]")
    mod.locator("[data-testid=mod-screening] .panel, [data-testid=mod-screening] li.flag"
                ).first.wait_for()
    assert mod.locator("[data-testid=mod-screening] .error").count() == 0

    # the muted player sees it: in the lobby, on the account page, with its reason and end
    b = open_as(browser, bea, phone=True)
    b.goto(server.base + "/")
    notice = b.locator("[data-testid=sanction-notice][data-kind=mute]")
    notice.wait_for(timeout=20_000)
    assert re.search(r"Muted until \d+ \w+ \d{4}.*: Insults at the table", notice.text_content())
    b.screenshot(path=str(screenshots / "trust-muted-lobby-phone.png"))
    notice.locator("a").click()
    b.wait_for_url("**/account")
    sanctions = b.locator("[data-testid=sanctions] li[data-kind=mute]")
    sanctions.wait_for()
    assert "Insults at the table" in sanctions.text_content()
    assert "quick messages" in sanctions.text_content()
    fits(b)
    b.screenshot(path=str(screenshots / "trust-muted-account-phone.png"), full_page=True)
    b.context.close()

    # the moderator bans her for two days from the log's form: her log-in says why and until when
    mod.click("[data-testid=mod-tab-log]")
    mod.locator("[data-testid=mod-log] details.panel > summary").click()
    form = mod.locator("[data-testid=mod-log] [data-testid=mod-action-form]")
    form.locator("input[name=mod-username]").fill("Trust_Bea")
    form.locator("select[name=mod-action]").select_option("ban")
    form.locator("input[name=mod-days]").fill("2")
    form.locator("textarea[name=mod-reason]").fill("Insults again after the mute")
    form.locator("[data-testid=mod-apply]").click()
    mod.locator("[data-testid=mod-note]", has_text="Banned, Trust_Bea").wait_for()
    mod.locator("[data-testid=mod-log] li[data-kind=ban][data-player=Trust_Bea]").wait_for()
    b = open_as(browser, None, phone=True)
    b.goto(server.base + "/")
    b.click("[data-testid=tab-login]")
    b.fill(".account-form input[name=username]", "Trust_Bea")
    b.fill(".account-form input[name=password]", PASSWORD)
    b.click("[data-testid=account-submit]")
    refusal = b.locator("section.panel.account .error")
    refusal.wait_for()
    assert re.search(r"This account is banned until \d+ \w+ \d{4}.*: Insults again after the mute",
                     refusal.text_content()), refusal.text_content()
    b.screenshot(path=str(screenshots / "trust-banned-phone.png"))
    b.context.close()
    mod.context.close()

    # the account's page: new codes (the password asked), the data, then the account deleted
    ada.goto(server.base + "/")
    ada.click("[data-testid=account-link]")
    ada.wait_for_url("**/account")
    left = ada.locator("[data-testid=recovery] [data-testid=codes-left]")
    left.wait_for()
    assert left.text_content() == "9 recovery codes left."
    ada.click("[data-testid=new-codes]")
    ada.fill("input[name=codes-password]", "not the password")
    ada.click("[data-testid=new-codes-submit]")
    ada.locator("[data-testid=new-codes-form] .error", has_text="password is wrong").wait_for()
    ada.fill("input[name=codes-password]", NEW_PASSWORD)
    ada.click("[data-testid=new-codes-submit]")
    fresh = ada.locator("[data-testid=recovery-codes] [data-testid=codes-list] code")
    fresh.first.wait_for()
    assert fresh.count() == 10 and not set(fresh.all_text_contents()) & set(codes)
    ada.click("[data-testid=codes-saved]")
    ada.locator("[data-testid=recovery] [data-testid=codes-left]",
                has_text="10 recovery codes").wait_for()
    with ada.expect_download() as download:
        ada.click("[data-testid=export-data]")
    assert download.value.suggested_filename == "burraco-export.json"
    exported = Path(download.value.path()).read_text(encoding="utf-8")
    assert "Trust_Ada" in exported
    assert NEW_PASSWORD not in exported and codes[0] not in exported
    fits(ada)
    ada.screenshot(path=str(screenshots / "trust-account-phone.png"), full_page=True)

    delete = ada.locator("[data-testid=delete-form]")
    delete.locator("input[name=delete-password]").fill(NEW_PASSWORD)
    delete.locator("input[name=delete-username]").fill("Trust_Ad")
    assert delete.locator("[data-testid=delete-submit]").is_disabled()
    delete.locator("input[name=delete-username]").fill("trust_ada")
    delete.locator("[data-testid=delete-submit]").click()
    ada.locator("[data-testid=deleted-notice]").wait_for(timeout=20_000)
    assert ada.evaluate("() => location.pathname") == "/"
    assert kept(ada) is None or not kept(ada)["token"].startswith("a.")
    assert ada.locator("[data-testid=tab-login]").count() == 1
    ada.screenshot(path=str(screenshots / "trust-deleted-phone.png"))
    assert server.http.get("/api/players/Trust_Ada").status_code == 404
    gone = server.http.post("/api/sessions",
                            json={"username": "Trust_Ada", "password": NEW_PASSWORD})
    assert gone.status_code == 401, gone.text
    server.http.cookies.clear()
    assert not ada.errors, ada.errors
    ada.context.close()


def test_privacy_recovery_and_report_in_italian(
    server: ServerProcess, browser: Any, screenshots: Path
) -> None:
    context = browser.new_context(locale="it-IT", **PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    # the lobby's foot links to the privacy page: in Italian, every section, fitting the phone
    page.goto(server.base + "/")
    page.click("footer [data-testid=privacy-link]")
    page.wait_for_url("**/privacy")
    page.locator("main h1", has_text="Privacy").wait_for()
    sections = page.locator("main section[data-section]")
    assert sections.count() >= 7
    assert "Che cosa si conserva" in page.locator("#kept-title").text_content()
    assert "Elimina il tuo account" in page.locator("#delete-title").text_content()
    fits(page)
    page.screenshot(path=str(screenshots / "trust-privacy-it-phone.png"), full_page=True)

    # the recovery page in Italian, and its refusal in words
    page.goto(server.base + "/recover")
    page.locator("main h1", has_text="Rientra nel tuo account").wait_for()
    page.fill("input[name=username]", "Nessuno_Qui")
    page.fill("input[name=code]", "AAAA-BBBB-CCCC")
    page.fill("input[name=new_password]", NEW_PASSWORD)
    page.fill("input[name=new_password_again]", NEW_PASSWORD)
    page.click("[data-testid=recover-submit]")
    page.locator(".error", has_text="codice di recupero errato").wait_for(timeout=20_000)
    fits(page)
    page.screenshot(path=str(screenshots / "trust-recover-it-phone.png"), full_page=True)

    # an Italian account reports another: the dialog in Italian
    it_user, other = account(server, "Trust_Carla"), account(server, "Trust_Dino")
    page.evaluate("(who) => localStorage.setItem('burraco:guest', who)", json.dumps(it_user))
    page.goto(server.base + "/players/Trust_Dino")
    page.locator("[data-testid=report]", has_text="Segnala").click()
    dialog = page.locator(".report-dialog")
    dialog.locator("label.choice", has_text="Nome offensivo").click()
    fits(page)
    page.screenshot(path=str(screenshots / "trust-report-it-phone.png"))
    page.click("[data-testid=report-send]")
    dialog.locator("[data-testid=report-sent]", has_text="Grazie").wait_for()
    assert server.http.get("/api/mod/reports", headers=bearer(other)).status_code == 403
    server.http.cookies.clear()
    assert not errors, errors
    context.close()


def test_reports_from_a_table_and_a_quick_message(
    server: ServerProcess, browser: Any, screenshots: Path
) -> None:
    eva, fede = account(server, "Trust_Eva"), account(server, "Trust_Fede")
    table = server.create_table(eva["token"], players=2, public=False,
                                seats=[{"kind": "human"}, {"kind": "human"}])
    e = open_as(browser, eva, phone=True)
    f = open_as(browser, fede, phone=False)
    for page, seat in ((e, 0), (f, 1)):
        page.goto(table["seats"][seat]["invite"])
    for page in (e, f):
        page.wait_for_selector(".hand-card", timeout=30_000)

    # Fede says hello; Eva reports the message from its bubble
    f.click("[data-testid=quick-bar] summary")
    f.click("[data-quick=hello]")
    said = e.locator("[data-testid=quick-feed] li[data-said=hello]")
    said.wait_for()
    said.locator("[data-testid=report-message]").click()
    dialog = e.locator(".report-dialog")
    dialog.locator("[data-testid=report-quote]").wait_for()
    dialog.locator("label.choice", has_text="Abuse or insults").click()
    fits(e)
    e.screenshot(path=str(screenshots / "trust-report-message-phone.png"))
    e.click("[data-testid=report-send]")
    dialog.locator("[data-testid=report-sent]").wait_for()
    e.click("[data-testid=report-done]")

    # ... and Fede from the seat's row of the table's company bar
    e.click("[data-testid=quick-bar] summary")
    e.locator(".mutes [data-testid=report][data-report=Trust_Fede]").wait_for()
    e.screenshot(path=str(screenshots / "trust-table-bar-phone.png"))
    e.click(".mutes [data-testid=report][data-report=Trust_Fede]")
    dialog.locator("label.choice", has_text="Cheating").click()
    e.fill("textarea[name=report-text]", "Always knows my hand.")
    e.screenshot(path=str(screenshots / "trust-report-table-phone.png"))
    e.click("[data-testid=report-send]")
    dialog.locator("[data-testid=report-sent]").wait_for()
    e.click("[data-testid=report-done]")

    # the moderators' queue has both, with the table and the message
    moderator = account(server, "Trust_Gio")
    grant_moderator(server, "Trust_Gio")
    queue = server.http.get("/api/mod/reports?status=open", headers=bearer(moderator))
    assert queue.status_code == 200, queue.text
    server.http.cookies.clear()
    about = {r["context"]: r for r in queue.json()["reports"]
             if r["target"]["username"] == "Trust_Fede"}
    assert set(about) == {"message", "table"}, about
    assert about["message"]["message"] == "hello" and about["message"]["reason"] == "abuse"
    assert about["table"]["table_id"] == table["table_id"]
    assert about["table"]["reason"] == "cheating"
    assert about["table"]["text"] == "Always knows my hand."
    assert not e.errors and not f.errors, (e.errors, f.errors)
    e.context.close()
    f.context.close()


def test_the_pages_speak_each_language_and_pass_axe(
    server: ServerProcess, browser: Any
) -> None:
    foreign = foreign_phrases()
    seen: list[str] = []
    problems: list[str] = []
    hana, _, mod = (account(server, name) for name in ("Trust_Hana", "Trust_Ivo", "Trust_Lia"))
    grant_moderator(server, "Trust_Lia")
    reported = server.http.post("/api/reports", headers=bearer(hana), json={
        "username": "Trust_Ivo", "reason": "name", "text": "A rude name.", "context": "profile"})
    assert reported.status_code == 201, reported.text
    warned = server.http.post("/api/mod/actions", headers=bearer(mod), json={
        "username": "Trust_Hana", "action": "warn", "reason": "Be kind at the tables"})
    assert warned.status_code == 200, warned.text
    server.http.cookies.clear()

    context = browser.new_context(locale="en-GB", **PHONE, bypass_csp=True)
    page = context.new_page()
    for path, ready, where in [("/privacy", "#kept-title", "privacy"),
                               ("/recover", "[data-testid=recover-form]", "recovery")]:
        page.goto(server.base + path)
        page.locator(ready).wait_for()
        problems += axe_problems(page, where)
        _check(page, where, foreign, seen)
    page.evaluate("(who) => localStorage.setItem('burraco:guest', who)", json.dumps(hana))
    page.goto(server.base + "/account")
    page.locator("[data-testid=sanctions] li[data-kind=warn]").wait_for()
    problems += axe_problems(page, "account")
    _check(page, "account", foreign, seen)
    page.goto(server.base + "/players/Trust_Ivo")
    page.click("[data-testid=report]")
    page.locator(".report-dialog").wait_for()
    problems += axe_problems(page, "report dialog")
    _check(page, "report dialog", foreign, seen)
    page.evaluate("(who) => localStorage.setItem('burraco:guest', who)", json.dumps(mod))
    page.goto(server.base + "/mod")
    item = page.locator("[data-testid=reports-open] li.report[data-target=Trust_Ivo]")
    item.wait_for()
    item.locator("[data-testid=mod-act]").click()
    problems += axe_problems(page, "moderation")
    _check(page, "moderation", foreign, seen)
    page.click("[data-testid=mod-tab-log]")
    page.locator("[data-testid=mod-log] li[data-kind=warn]").wait_for()
    _check(page, "moderation log", foreign, seen)
    context.close()
    assert not seen, "\n".join(seen)
    assert not problems, "\n".join(problems)
