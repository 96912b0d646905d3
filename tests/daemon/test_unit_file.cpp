// The shipped systemd unit (image/atoms-edge.service; the issue "The appliance", item 2): systemd's
// own offline security analysis rates its exposure at 1.5 or lower, and it asks for what serve
// does (Type=notify, a watchdog).
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <memory>
#include <regex>
#include <string>

#include "tests/daemon/helpers.h"
#include "tests/support/build_paths.h"

namespace {

// What the command wrote on stdout and stderr together.
std::string outputOf(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen((command + " 2>&1").c_str(), "r"), ::pclose);
  BOOST_REQUIRE(pipe != nullptr);
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe.get())) out.append(buf, n);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(unit_file)

BOOST_AUTO_TEST_CASE(theUnitsExposureIsAtMostOnePointFive) {
  const std::string unit = atoms::testing::sourceDir() + "/image/atoms-edge.service";
  const std::string report = outputOf("systemd-analyze security --offline=true " + unit);
  std::smatch m;
  BOOST_REQUIRE_MESSAGE(
      std::regex_search(report, m, std::regex("Overall exposure level for [^:]+: ([0-9.]+)")),
      report);
  BOOST_TEST(std::stod(m[1].str()) <= 1.5, report);
  const std::string text = atoms::test::readFile(unit);
  BOOST_TEST(atoms::test::contains(text, "\nType=notify\n"));
  BOOST_TEST(atoms::test::contains(text, "\nWatchdogSec="));
}

BOOST_AUTO_TEST_SUITE_END()
