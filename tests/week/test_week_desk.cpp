// The week's draft on the box (domain/week/): edits with the labor check and versions, overrides,
// copy and templates, and publication (docs/decisions/0032-schedule-drafts.md).
#include <algorithm>
#include <boost/test/unit_test.hpp>

#include "domain/site/site_repository.h"
#include "store/receipt.h"
#include "tests/week/week_fixture.h"

namespace atoms::week::testing {

namespace {

const site::Shift* findShift(const std::vector<site::Shift>& shifts, std::string_view id) {
  for (const site::Shift& s : shifts) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

AddShiftEdit addAt(Week week, int day, int from, int to, std::optional<std::string> who) {
  return AddShiftEdit{"line", WeekFixture::local(week, day, from),
                      WeekFixture::local(week, day, to), std::nullopt, std::move(who)};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(week_draft)

BOOST_FIXTURE_TEST_CASE(opensTheDraftFromThePublishedWeek, WeekFixture) {
  auto view = desk->open(kWeek1, "p-kwame", now);
  BOOST_TEST_REQUIRE(view.ok(), view.message());
  BOOST_TEST(view->draft.version == 1);
  BOOST_TEST(view->draft.shifts.size() == 2u);
  BOOST_TEST(view->check.labor.minutes == 16 * 60);
  BOOST_TEST(view->check.labor.wageCents == 16 * 2200);
  BOOST_TEST(view->check.labor.days[1].minutes == 8 * 60);
  BOOST_TEST(audits("schedule.draft_opened").size() == 1u);
  // Opening again does not open a second draft.
  auto again = desk->open(kWeek1, "p-kwame", now);
  BOOST_TEST_REQUIRE(again.ok());
  BOOST_TEST(audits("schedule.draft_opened").size() == 1u);
}

BOOST_FIXTURE_TEST_CASE(refusesAWeekThatDoesNotStartOnTheWorkweek, WeekFixture) {
  auto view = desk->open(kWeek1 + std::chrono::days(1), "p-kwame", now);
  BOOST_TEST(!view.ok());
  BOOST_TEST(view.kind() == ErrorKind::kInvalid);
  BOOST_TEST(view.message().find("Sunday") != std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(eachEditSavesANewVersionWithItsFindings, WeekFixture) {
  auto added = desk->edit(kWeek2, 1, addAt(kWeek2, 1, 9, 17, "p-ana"), "p-kwame", now);
  BOOST_TEST_REQUIRE(added.ok(), added.message());
  BOOST_TEST(added->status == DeskStatus::kDone);
  BOOST_TEST(added->view.draft.version == 2);
  BOOST_TEST_REQUIRE(added->view.draft.shifts.size() == 1u);
  const std::string id = added->view.draft.shifts[0].id;
  BOOST_TEST(id == "2026-03-15-1");
  BOOST_TEST(added->view.check.labor.minutes == 8 * 60);

  // A 14-hour day: daily overtime (and double time) in California, with its premium.
  auto extended = desk->edit(
      kWeek2, 2, ExtendShiftEdit{id, local(kWeek2, 1, 7), local(kWeek2, 1, 21)}, "p-kwame", now);
  BOOST_TEST_REQUIRE(extended.ok(), extended.message());
  BOOST_TEST(extended->status == DeskStatus::kDone);
  BOOST_TEST(extended->view.draft.version == 3);
  BOOST_TEST(extended->view.check.labor.premiumCents > 0);
  const bool overtime = std::any_of(extended->findings.begin(), extended->findings.end(),
                                    [](const WeekFinding& f) { return f.premiumCents > 0; });
  BOOST_TEST(overtime);

  auto cut = desk->edit(kWeek2, 3, CutShiftEdit{id, local(kWeek2, 1, 9), local(kWeek2, 1, 13)},
                        "p-kwame", now);
  BOOST_TEST_REQUIRE(cut.ok(), cut.message());
  BOOST_TEST(cut->view.check.labor.minutes == 4 * 60);
  BOOST_TEST(cut->view.check.labor.premiumCents == 0);

  auto open = desk->edit(kWeek2, 4, UnassignEdit{id}, "p-kwame", now);
  BOOST_TEST_REQUIRE(open.ok(), open.message());
  BOOST_TEST(open->view.check.labor.openMinutes == 4 * 60);
  BOOST_TEST(open->view.check.labor.minutes == 0);

  auto assigned = desk->edit(kWeek2, 5, AssignEdit{id, "p-ben"}, "p-kwame", now);
  BOOST_TEST_REQUIRE(assigned.ok(), assigned.message());
  BOOST_TEST(*assigned->view.draft.shifts[0].assignee == "p-ben");

  auto second = desk->edit(kWeek2, 6, addAt(kWeek2, 4, 9, 17, "p-ana"), "p-kwame", now);
  BOOST_TEST_REQUIRE(second.ok(), second.message());
  auto swapped = desk->edit(kWeek2, 7, SwapShiftsEdit{id, "2026-03-15-2"}, "p-kwame", now);
  BOOST_TEST_REQUIRE(swapped.ok(), swapped.message());
  BOOST_TEST(*findShift(swapped->view.draft.shifts, id)->assignee == "p-ana");
  BOOST_TEST(*findShift(swapped->view.draft.shifts, "2026-03-15-2")->assignee == "p-ben");

  auto moved = desk->edit(
      kWeek2, 8, MoveShiftEdit{id, local(kWeek2, 2, 12), local(kWeek2, 2, 18), std::nullopt},
      "p-kwame", now);
  BOOST_TEST_REQUIRE(moved.ok(), moved.message());
  BOOST_TEST(moved->view.check.labor.days[2].minutes == 6 * 60);

  auto deleted = desk->edit(kWeek2, 9, DeleteShiftEdit{id}, "p-kwame", now);
  BOOST_TEST_REQUIRE(deleted.ok(), deleted.message());
  BOOST_TEST(deleted->view.draft.shifts.size() == 1u);
  BOOST_TEST(deleted->view.draft.version == 10);
  BOOST_TEST(audits("schedule.draft_edit").size() == 9u);

  auto history = desk->history(kWeek2, 3);
  BOOST_TEST_REQUIRE(history.ok());
  BOOST_TEST(history->front().kind == "delete");
  // Nothing of it reached the published schedule.
  BOOST_TEST(storedShifts().size() == 2u);
}

BOOST_FIXTURE_TEST_CASE(aStaleEditIsRefusedNamingWhoChangedTheWeekAndWhen, WeekFixture) {
  auto first = desk->edit(kWeek2, 1, addAt(kWeek2, 1, 9, 17, "p-ana"), "p-kwame", now);
  BOOST_TEST_REQUIRE(first.ok(), first.message());
  // A second manager edits the version they loaded, which is now behind.
  auto second = desk->edit(kWeek2, 1, addAt(kWeek2, 2, 9, 17, "p-ben"), "p-rosa", now);
  BOOST_TEST_REQUIRE(second.ok(), second.message());
  BOOST_TEST(second->status == DeskStatus::kStale);
  BOOST_TEST_REQUIRE(second->newer.has_value());
  BOOST_TEST(second->newer->by == "p-kwame");
  BOOST_TEST(second->newer->version == 2);
  BOOST_TEST(second->newer->kind == "add");
  BOOST_TEST(second->message.find("p-kwame") != std::string::npos);
  BOOST_TEST(second->message.find("2026-03-01T18:00:00") != std::string::npos);
  // Nothing was lost and nothing was added.
  BOOST_TEST(second->view.draft.shifts.size() == 1u);
  BOOST_TEST(count("SELECT count(*) FROM schedule_draft_shift") == 1);
  BOOST_TEST(count("SELECT version FROM schedule_draft") == 2);
}

BOOST_FIXTURE_TEST_CASE(aDeniedEditIsNotSavedAndAMinorsLimitCannotBeOverridden, WeekFixture) {
  // Tom is 15: 19:00-23:00 on a school night is outside a minor's hours.
  auto late = desk->edit(kWeek2, 1, addAt(kWeek2, 1, 19, 23, "p-tom"), "p-kwame", now,
                         std::string("short-staffed"));
  BOOST_TEST_REQUIRE(late.ok(), late.message());
  BOOST_TEST(late->status == DeskStatus::kDenied);
  BOOST_TEST_REQUIRE(!late->newDenials.empty());
  BOOST_TEST(!late->newDenials.front().overridable);
  BOOST_TEST(late->message.find("cannot be overridden") != std::string::npos);
  BOOST_TEST(late->view.draft.version == 1);
  BOOST_TEST(count("SELECT count(*) FROM schedule_draft_shift") == 0);
  BOOST_TEST(audits("schedule.draft_edit").empty());
}

BOOST_FIXTURE_TEST_CASE(timeOffMayBeOverriddenWithARecordedReason, WeekFixture) {
  // Ben has Tuesday off.
  auto refused = desk->edit(kWeek2, 1, addAt(kWeek2, 2, 9, 17, "p-ben"), "p-kwame", now);
  BOOST_TEST_REQUIRE(refused.ok(), refused.message());
  BOOST_TEST(refused->status == DeskStatus::kDenied);
  BOOST_TEST_REQUIRE(refused->newDenials.size() == 1u);
  BOOST_TEST(refused->newDenials[0].ruleId == "R-SCH-TIME-OFF");
  BOOST_TEST(refused->newDenials[0].overridable);
  BOOST_TEST(refused->message.find("override") != std::string::npos);

  auto saved = desk->edit(kWeek2, 1, addAt(kWeek2, 2, 9, 17, "p-ben"), "p-kwame", now,
                          std::string("Ben asked to work; his trip moved"));
  BOOST_TEST_REQUIRE(saved.ok(), saved.message());
  BOOST_TEST(saved->status == DeskStatus::kDone);
  BOOST_TEST_REQUIRE(saved->overridden.size() == 1u);
  BOOST_TEST(saved->overridden[0].reason == "Ben asked to work; his trip moved");
  const auto edits = audits("schedule.draft_edit");
  BOOST_TEST_REQUIRE(edits.size() == 1u);
  const json::Value* overrides = edits[0].find("overrides");
  BOOST_TEST_REQUIRE(overrides != nullptr);
  BOOST_TEST(overrides->asArray().size() == 1u);
  BOOST_TEST(count("SELECT count(*) FROM schedule_draft_override") == 1);
  // A later edit elsewhere is not held up by the finding already overridden.
  auto later = desk->edit(kWeek2, 2, addAt(kWeek2, 4, 9, 17, "p-ana"), "p-kwame", now);
  BOOST_TEST_REQUIRE(later.ok(), later.message());
  BOOST_TEST(later->status == DeskStatus::kDone);
}

BOOST_FIXTURE_TEST_CASE(badEditsAreErrorsThatChangeNothing, WeekFixture) {
  auto unknown = desk->edit(kWeek2, 1, DeleteShiftEdit{"nope"}, "p-kwame", now);
  BOOST_TEST(unknown.kind() == ErrorKind::kNotFound);
  auto outside = desk->edit(kWeek2, 1, addAt(kWeek2, 8, 9, 17, "p-ana"), "p-kwame", now);
  BOOST_TEST(outside.kind() == ErrorKind::kInvalid);
  BOOST_TEST(outside.message().find("not in the week") != std::string::npos);
  auto backwards = desk->edit(kWeek2, 1, addAt(kWeek2, 1, 17, 9, "p-ana"), "p-kwame", now);
  BOOST_TEST(backwards.kind() == ErrorKind::kInvalid);
  // Sunday 2026-03-08 02:30 does not exist in Los Angeles.
  auto gap = desk->edit(kWeek1, 1, addAt(kWeek1, 0, 2, 4, "p-ana"), "p-kwame", now);
  BOOST_TEST(gap.kind() == ErrorKind::kInvalid);
  BOOST_TEST(count("SELECT max(version) FROM schedule_draft") == 1);
}

BOOST_FIXTURE_TEST_CASE(copiesLastWeekAndAppliesASavedTemplate, WeekFixture) {
  auto copied = desk->copyWeek(kWeek2, 1, kWeek1, "p-kwame", now);
  BOOST_TEST_REQUIRE(copied.ok(), copied.message());
  BOOST_TEST(copied->status == DeskStatus::kDone);
  BOOST_TEST_REQUIRE(copied->view.draft.shifts.size() == 2u);
  BOOST_TEST((copied->view.draft.shifts[0].start.local == local(kWeek2, 1, 9)));
  BOOST_TEST(*copied->view.draft.shifts[1].assignee == "p-ana");

  auto saved = desk->saveTemplate(kWeek2, "two days", "p-kwame", now);
  BOOST_TEST_REQUIRE(saved.ok(), saved.message());
  BOOST_TEST(saved->shifts.size() == 2u);
  auto names = desk->templateNames();
  BOOST_TEST_REQUIRE(names.ok());
  BOOST_TEST(names->size() == 1u);

  const Week week3 = kWeek2 + std::chrono::days(7);
  auto applied = desk->applyTemplate(week3, 1, "two days", "p-kwame", now);
  BOOST_TEST_REQUIRE(applied.ok(), applied.message());
  BOOST_TEST_REQUIRE(applied->view.draft.shifts.size() == 2u);
  BOOST_TEST((applied->view.draft.shifts[1].start.local == local(week3, 3, 9)));
  auto missing = desk->applyTemplate(week3, 2, "none", "p-kwame", now);
  BOOST_TEST(missing.kind() == ErrorKind::kNotFound);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(week_publish)

BOOST_FIXTURE_TEST_CASE(publishesTheDraftWithAReceiptAnAuditEntryAndTexts, WeekFixture) {
  auto a = desk->edit(kWeek2, 1, addAt(kWeek2, 1, 9, 17, "p-ana"), "p-kwame", now);
  BOOST_TEST_REQUIRE(a.ok(), a.message());
  auto b = desk->edit(kWeek2, 2, addAt(kWeek2, 6, 10, 14, "p-tom"), "p-kwame", now);
  BOOST_TEST_REQUIRE(b.ok(), b.message());
  BOOST_TEST(b->status == DeskStatus::kDone, b->message);
  auto c = desk->edit(kWeek2, 3, addAt(kWeek2, 4, 9, 13, std::nullopt), "p-kwame", now);
  BOOST_TEST_REQUIRE(c.ok(), c.message());

  auto published = desk->publish(kWeek2, 4, "p-kwame", now);
  BOOST_TEST_REQUIRE(published.ok(), published.message());
  BOOST_TEST(published->status == DeskStatus::kDone, published->message);
  BOOST_TEST(published->versionId == "week-2026-03-15-1");
  BOOST_TEST(published->view.draft.version == 5);
  BOOST_TEST(
      (published->view.draft.publishedVersion == std::optional<std::string>("week-2026-03-15-1")));

  // The site's schedule now holds the week and its version.
  auto model = site::loadSite(store->db());
  BOOST_TEST_REQUIRE(model.ok());
  BOOST_TEST(model->shifts.size() == 5u);
  BOOST_TEST_REQUIRE(model->scheduleVersions.size() == 2u);
  BOOST_TEST(model->scheduleVersions[1].id == "week-2026-03-15-1");
  BOOST_TEST(model->scheduleVersions[1].shiftIds.size() == 3u);

  // Ana and Tom are told their shifts; the open shift tells nobody.
  BOOST_TEST_REQUIRE(texts.size() == 2u);
  BOOST_TEST(texts[0].to == "+15552000001");
  BOOST_TEST((texts[0].kind == sms::MessageClass::kNotice));
  BOOST_TEST(texts[0].body ==
             "Hi Ana, your schedule for the week of Sun Mar 15 is posted. New or changed: Mon "
             "Mar 16 09:00-17:00 line cook. Questions? Reply here or ask Kwame Asante.");
  BOOST_TEST(texts[0].id == "schedule-week-2026-03-15-1-p-ana");
  BOOST_TEST_REQUIRE(published->notices.size() == 2u);
  BOOST_TEST(published->notices[1].outcome == "queued");

  // The receipt is signed and lists every shift of the version.
  BOOST_TEST_REQUIRE(published->receiptSeq.has_value());
  auto text = store->log().entryText(*published->receiptSeq);
  BOOST_TEST_REQUIRE(text.ok());
  auto entry = json::parse(*text);
  BOOST_TEST_REQUIRE(entry.ok());
  const json::Value& receipt = *entry->find("body");
  BOOST_TEST(verifyReceipt(receipt, store->verifierKey()).ok());
  BOOST_TEST(receipt.find("scheduleVersion")->asString() == "week-2026-03-15-1");
  BOOST_TEST(receipt.find("shifts")->asArray().size() == 3u);
  const auto entries = audits("schedule.published");
  BOOST_TEST_REQUIRE(entries.size() == 1u);
  BOOST_TEST(entries[0].find("receiptSeq")->asInt() ==
             static_cast<std::int64_t>(*published->receiptSeq));

  // Publishing the same draft version again is stale: the publication made a new version.
  auto again = desk->publish(kWeek2, 4, "p-rosa", now);
  BOOST_TEST_REQUIRE(again.ok());
  BOOST_TEST(again->status == DeskStatus::kStale);
  BOOST_TEST(again->newer->kind == "publish");
}

BOOST_FIXTURE_TEST_CASE(aLatePostingIsDeniedUnlessAManagerGivesAReason, WeekFixture) {
  // A shift six days out: San Francisco asks for 14 days' notice.
  auto a = desk->edit(kWeek1, 1, addAt(kWeek1, 5, 9, 17, "p-ben"), "p-kwame", now);
  BOOST_TEST_REQUIRE(a.ok(), a.message());
  auto refused = desk->publish(kWeek1, 2, "p-kwame", now);
  BOOST_TEST_REQUIRE(refused.ok(), refused.message());
  BOOST_TEST(refused->status == DeskStatus::kDenied);
  BOOST_TEST_REQUIRE(!refused->denials.empty());
  BOOST_TEST(refused->denials[0].overridable);
  BOOST_TEST(storedShifts().size() == 2u);
  BOOST_TEST(texts.empty());

  auto published = desk->publish(kWeek1, 2, "p-kwame", now, std::string("new hire starts Friday"));
  BOOST_TEST_REQUIRE(published.ok(), published.message());
  BOOST_TEST(published->status == DeskStatus::kDone, published->message);
  BOOST_TEST(storedShifts().size() == 3u);
  BOOST_TEST_REQUIRE(texts.size() == 1u);
  BOOST_TEST(texts[0].to == "+15552000002");
}

BOOST_FIXTURE_TEST_CASE(aChangeAfterPostingCostsItsPremiumAndTellsThePerson, WeekFixture) {
  // Week 1 is published (a month ago). Moving Ana's Wednesday five days ahead costs
  // predictability pay in San Francisco (less than seven days' notice).
  now = at(kToday, 5, 10);
  auto moved = desk->edit(
      kWeek1, 1, MoveShiftEdit{"s-2", local(kWeek1, 3, 12), local(kWeek1, 3, 20), std::nullopt},
      "p-kwame", now);
  BOOST_TEST_REQUIRE(moved.ok(), moved.message());
  BOOST_TEST(moved->status == DeskStatus::kDone);
  auto published = desk->publish(kWeek1, 2, "p-kwame", now);
  BOOST_TEST_REQUIRE(published.ok(), published.message());
  BOOST_TEST(published->status == DeskStatus::kDone, published->message);
  BOOST_TEST_REQUIRE(published->changes.size() == 1u);
  BOOST_TEST(published->premiumCents > 0);
  BOOST_TEST_REQUIRE(texts.size() == 1u);
  BOOST_TEST(texts[0].body.find("Wed Mar 11 12:00-20:00") != std::string::npos);
  const std::vector<site::Shift> stored = storedShifts();
  const site::Shift* s2 = findShift(stored, "s-2");
  BOOST_TEST_REQUIRE(s2 != nullptr);
  BOOST_TEST((s2->start.local == local(kWeek1, 3, 12)));
}

BOOST_FIXTURE_TEST_CASE(aCoverMadeOutsideTheDraftIsKeptAndAClashIsAConflict, WeekFixture) {
  auto opened = desk->open(kWeek1, "p-kwame", now);
  BOOST_TEST_REQUIRE(opened.ok());
  // A call-out gives Ana's Monday to Ben in the published schedule meanwhile.
  BOOST_TEST_REQUIRE(
      store->db().exec("UPDATE site_shift SET assignee_id = 'p-ben' WHERE id = 's-1'").ok());
  // The draft changes Wednesday only: the cover is kept.
  auto e = desk->edit(kWeek1, 1, AssignEdit{"s-2", "p-ben"}, "p-kwame", now);
  BOOST_TEST_REQUIRE(e.ok(), e.message());
  auto published = desk->publish(kWeek1, 2, "p-kwame", now, std::string("cover"));
  BOOST_TEST_REQUIRE(published.ok(), published.message());
  BOOST_TEST(published->status == DeskStatus::kDone, published->message);
  BOOST_TEST(*findShift(storedShifts(), "s-1")->assignee == "p-ben");
  BOOST_TEST(*findShift(storedShifts(), "s-2")->assignee == "p-ben");

  // Now both sides change Wednesday: nothing is published.
  BOOST_TEST_REQUIRE(
      store->db().exec("UPDATE site_shift SET assignee_id = 'p-ana' WHERE id = 's-2'").ok());
  auto f = desk->edit(kWeek1, 3, UnassignEdit{"s-2"}, "p-kwame", now);
  BOOST_TEST_REQUIRE(f.ok(), f.message());
  auto clash = desk->publish(kWeek1, 4, "p-kwame", now, std::string("cover"));
  BOOST_TEST_REQUIRE(clash.ok(), clash.message());
  BOOST_TEST(clash->status == DeskStatus::kConflict);
  BOOST_TEST(clash->conflicts == std::vector<std::string>{"s-2"});
  BOOST_TEST(*findShift(storedShifts(), "s-2")->assignee == "p-ana");
}

BOOST_FIXTURE_TEST_CASE(whatHasStartedIsNotEditedAndAnUnpublishedStartedShiftIsDropped,
                        WeekFixture) {
  auto added = desk->edit(kWeek1, 1, addAt(kWeek1, 2, 9, 17, "p-ben"), "p-kwame", now);
  BOOST_TEST_REQUIRE(added.ok(), added.message());
  const std::string id = added->view.draft.shifts[1].id;  // after Ana's Monday
  BOOST_TEST(id == "2026-03-08-1");
  // Tuesday 10:00: Ana's Monday and Ben's new Tuesday shift have started.
  now = at(kWeek1, 2, 10);
  auto late = desk->edit(kWeek1, 2, DeleteShiftEdit{"s-1"}, "p-kwame", now);
  BOOST_TEST(late.kind() == ErrorKind::kInvalid);
  BOOST_TEST(late.message().find("has already started") != std::string::npos);
  auto published = desk->publish(kWeek1, 2, "p-kwame", now);
  BOOST_TEST_REQUIRE(published.ok(), published.message());
  BOOST_TEST(published->status == DeskStatus::kDone, published->message);
  BOOST_TEST(findShift(storedShifts(), id) == nullptr);
  BOOST_TEST(findShift(storedShifts(), "s-1") != nullptr);
  BOOST_TEST(texts.empty());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::week::testing
