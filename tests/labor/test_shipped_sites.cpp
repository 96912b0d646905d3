// The site files shipped under etc/ (the demo's, the examples an operator copies) name an industry
// that their cities' ordinances cover: with "restaurant", which is no industry at all, San
// Francisco's Fair Workweek rules never applied to the demo.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "domain/labor/applicability.h"
#include "domain/labor/rule_table.h"
#include "domain/site/industry.h"
#include "domain/site/site_file.h"
#include "tests/support/build_paths.h"

namespace atoms::labor {
namespace {

std::vector<std::filesystem::path> shippedSiteFiles() {
  std::vector<std::filesystem::path> out;
  for (const char* dir : {"/etc/sites", "/etc/demo"}) {
    for (const auto& e : std::filesystem::directory_iterator(atoms::testing::sourceDir() + dir))
      if (e.path().extension() == ".json") out.push_back(e.path());
  }
  return out;
}

std::string contentsOf(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shipped_sites)

BOOST_AUTO_TEST_CASE(every_shipped_site_file_gets_the_rules_its_city_has) {
  const std::vector<std::filesystem::path> files = shippedSiteFiles();
  BOOST_TEST_REQUIRE(files.size() >= 2u);
  const Date today{2026, 12, 1};
  for (const auto& path : files) {
    BOOST_TEST_CONTEXT(path.filename().string()) {
      auto model = site::parseSiteFile(contentsOf(path));
      BOOST_TEST_REQUIRE(model.ok(), model.message());
      BOOST_TEST(site::isKnownIndustry(model->site.industry));
      auto book =
          loadRuleBook(atoms::testing::sourceDir() + "/etc/labor", model->site.jurisdictions);
      BOOST_TEST_REQUIRE(book.ok(), book.message());
      // The most local jurisdiction (the city): each of its rules in force covers this site, the
      // employer's size being unknown (which counts as covered).
      const std::string& city = model->site.jurisdictions.back();
      int inForce = 0;
      for (const Rule& r : book->rules()) {
        if (r.jurisdiction != city || !r.inForceOn(today)) continue;
        ++inForce;
        BOOST_TEST(covers(r, model->site.industry, EmployerSize{}),
                   r.id << " does not cover a " << model->site.industry);
      }
      BOOST_TEST(inForce > 0, city << " has no rule in force");
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::labor
