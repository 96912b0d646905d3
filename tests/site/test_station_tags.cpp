// Station tags and hire dates in the site model: the site file reads, validates and writes them,
// the store keeps them (migration 5), and a bad tag is refused whole.
#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

#include "domain/site/site_file.h"
#include "domain/site/site_repository.h"
#include "domain/site/station_tag.h"
#include "store/state_dir.h"
#include "tests/site/site_test_util.h"
#include "tests/support/temp_dir.h"
#include "tests/support/text_checks.h"

using namespace atoms;
using namespace atoms::site;
using namespace atoms::site::testing;
using atoms::testing::TempDir;

namespace {

using atoms::testing::contains;

json::Array tagArray(const std::vector<std::string>& tags) {
  json::Array a;
  for (const auto& t : tags) a.emplace_back(t);
  return a;
}

// The small site with the bar tagged `tags`.
Result<SiteModel> withBarTags(const std::vector<std::string>& tags) {
  return parseMutated([&](json::Object& o) { at(o, "stations", 1)["tags"] = tagArray(tags); });
}

Database freshStore(TempDir& dir) {
  Status s = initStateDir(dir.sub("state"), {"t-site"});
  BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
  auto state = openStateDir(dir.sub("state"), OpenMode::ReadWrite);
  BOOST_REQUIRE_MESSAGE(state.ok(), state.message());
  return std::move(state->db);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(station_tags)

BOOST_AUTO_TEST_CASE(tagFormIsLowerSnakeWords) {
  for (const char* good : {"alcohol_service", "bar", "ho2", "power_driven_meat_machine", "a1_b2"}) {
    BOOST_TEST(isStationTagForm(good), good);
  }
  for (const char* bad :
       {"", "Alcohol", "alcohol service", "_bar", "bar_", "a__b", "2bar", "bar-1", "caf\xc3\xa9"}) {
    BOOST_TEST(!isStationTagForm(bad), bad);
  }
  BOOST_TEST(!isStationTagForm(std::string(65, 'a')));
  // Every tag of the vocabulary has the form and a meaning to document.
  for (const StationTagInfo& info : stationTags()) {
    BOOST_TEST(isStationTagForm(info.tag), info.tag);
    BOOST_TEST(!info.meaning.empty(), info.tag);
  }
  BOOST_TEST(isKnownStationTag("alcohol_service"));
  BOOST_TEST(!isKnownStationTag("alcohol"));
}

BOOST_AUTO_TEST_CASE(tagsAndHireDateAreReadInOrder) {
  auto m = parseMutated([](json::Object& o) {
    at(o, "stations", 1)["tags"] = tagArray({"bartending", "alcohol_service"});
    at(o, "people", 0)["hireDate"] = "2026-05-04";
  });
  BOOST_REQUIRE_MESSAGE(m.ok(), m.message());
  BOOST_TEST(m->stations.at(1).tags == (std::vector<std::string>{"bartending", "alcohol_service"}),
             boost::test_tools::per_element());
  BOOST_TEST(m->stations.at(0).tags.empty());
  BOOST_TEST((m->people.at(0).hireDate == Date{std::chrono::year{2026} / 5 / 4}));
  BOOST_TEST(!m->people.at(1).hireDate.has_value());
}

BOOST_AUTO_TEST_CASE(badTagsAreRefusedNamingTheStation) {
  struct Case {
    std::vector<std::string> tags;
    std::string error;
  };
  const std::vector<Case> cases{
      {{"Alcohol Service"},
       "stations[1] (id bar): tag 'Alcohol Service' must be lower_snake words"},
      {{"alcohol-service"}, "stations[1] (id bar): tag 'alcohol-service' must be lower_snake"},
      {{"alchohol_service"},
       "stations[1] (id bar): tag 'alchohol_service' is not a known station tag (known: "
       "alcohol_service, bartending"},
      {{"bartending", "bartending"}, "stations[1] (id bar): tag 'bartending' is listed twice"},
  };
  for (const Case& c : cases) {
    auto r = withBarTags(c.tags);
    BOOST_REQUIRE(!r.ok());
    BOOST_TEST(contains(r.message(), c.error), r.message());
  }
  BOOST_TEST(contains(errorOf([](json::Object& o) { at(o, "stations", 0)["tags"] = "bar"; }),
                      "stations[0] (id line): 'tags' must be an array"));
  BOOST_TEST(contains(errorOf([](json::Object& o) {
                        at(o, "stations", 0)["tags"] = json::Array{json::Value(std::int64_t{1})};
                      }),
                      "stations[0] (id line): 'tags' must be an array of strings"));
}

BOOST_AUTO_TEST_CASE(badHireDatesAreRefusedNamingThePerson) {
  BOOST_TEST(
      contains(errorOf([](json::Object& o) { at(o, "people", 1)["hireDate"] = "2026-13-01"; }),
               "people[1] (id p-ana): hireDate '2026-13-01' is not a date"));
  BOOST_TEST(contains(errorOf([](json::Object& o) {
                        at(o, "people", 1)["birthDate"] = "2000-05-01";
                        at(o, "people", 1)["hireDate"] = "1999-05-01";
                      }),
                      "people[1] (id p-ana): hireDate is before birthDate"));
}

BOOST_AUTO_TEST_CASE(writeReadRoundTripKeepsTagsAndHireDates) {
  auto m = parseMutated([](json::Object& o) {
    at(o, "stations", 0)["tags"] = tagArray({"food_handling", "power_driven_meat_machine"});
    at(o, "people", 1)["hireDate"] = "2026-05-20";
  });
  BOOST_REQUIRE_MESSAGE(m.ok(), m.message());
  const std::string written = writeSiteFile(*m);
  BOOST_TEST(contains(written, R"("tags": ["food_handling", "power_driven_meat_machine"])"),
             written);
  BOOST_TEST(contains(written, R"("hireDate": "2026-05-20")"), written);
  auto again = parseSiteFile(written);
  BOOST_REQUIRE_MESSAGE(again.ok(), again.message());
  BOOST_TEST((*again == *m));
  BOOST_TEST(writeSiteFile(*again) == written);
}

BOOST_AUTO_TEST_CASE(theStoreKeepsTagsAndHireDates) {
  TempDir dir;
  Database db = freshStore(dir);
  auto m = parseMutated([](json::Object& o) {
    at(o, "stations", 1)["tags"] = tagArray({"bartending", "alcohol_service"});
    at(o, "stations", 0)["tags"] = tagArray({"food_handling"});
    at(o, "people", 0)["hireDate"] = "2026-05-04";
  });
  BOOST_REQUIRE_MESSAGE(m.ok(), m.message());
  Status s = importSite(db, *m);
  BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
  auto loaded = loadSite(db);
  BOOST_REQUIRE_MESSAGE(loaded.ok(), loaded.message());
  BOOST_TEST((*loaded == *m));
  BOOST_TEST(writeSiteFile(*loaded) == writeSiteFile(*m));
}

// A model with a bad tag (built in code, not from a file) is refused by the store as a whole:
// the site imported before stays, tags and all.
BOOST_AUTO_TEST_CASE(aBadTagImportsNothing) {
  TempDir dir;
  Database db = freshStore(dir);
  auto good = withBarTags({"bartending"});
  BOOST_REQUIRE_MESSAGE(good.ok(), good.message());
  BOOST_REQUIRE(importSite(db, *good).ok());

  SiteModel bad = *good;
  bad.people.pop_back();
  bad.stations.at(0).tags = {"food_handling", "Bar Work"};
  Status s = importSite(db, bad);
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(contains(s.message(), "stations[0] (id line): tag 'Bar Work'"), s.message());
  auto loaded = loadSite(db);
  BOOST_REQUIRE_MESSAGE(loaded.ok(), loaded.message());
  BOOST_TEST((*loaded == *good));
}

BOOST_AUTO_TEST_SUITE_END()
