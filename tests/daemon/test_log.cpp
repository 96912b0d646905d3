#include <Poco/AutoPtr.h>
#include <Poco/Logger.h>
#include <Poco/Timestamp.h>

#include <boost/test/unit_test.hpp>
#include <iostream>
#include <sstream>
#include <string>

#include "daemon/log/formatters.h"
#include "daemon/log/log.h"
#include "daemon/log/setup.h"
#include "tests/daemon/helpers.h"

using namespace atoms;

namespace {

// Logs one event through logEvent() into a capture channel and returns the message.
Poco::Message capture(std::string_view msg, std::initializer_list<LogField> fields) {
  Poco::AutoPtr<test::CaptureChannel> channel(new test::CaptureChannel);
  Poco::Logger& logger = Poco::Logger::get("store");
  logger.setChannel(channel);
  logger.setLevel(Poco::Message::PRIO_INFORMATION);
  logInfo(logger, msg, fields);
  auto messages = channel->messages();
  BOOST_REQUIRE_EQUAL(messages.size(), 1u);
  Poco::Message m = messages[0];
  // 2026-11-29T17:00:00.123Z
  m.setTime(Poco::Timestamp::fromEpochTime(1'795'971'600) + 123'000);
  return m;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(logging)

BOOST_AUTO_TEST_CASE(logfmtLineHasTimestampLevelComponentMessageAndFieldsInOrder) {
  Poco::Message m = capture("opened database", {{"path", "/x"}, {"count", 3}});
  std::string line;
  LogfmtFormatter().format(m, line);
  BOOST_TEST(line ==
             "ts=2026-11-29T17:00:00.123Z level=info component=store msg=\"opened database\" "
             "path=/x count=3");
}

BOOST_AUTO_TEST_CASE(logfmtQuotesAndEscapesValuesSoAnEventStaysOnOneLine) {
  Poco::Message m = capture("two\nlines", {{"a", "has space"},
                                           {"b", "say \"hi\""},
                                           {"c", ""},
                                           {"d", "k=v"},
                                           {"e", "back\\slash"},
                                           {"f", std::string("nul\x01", 4)}});
  std::string line;
  LogfmtFormatter().format(m, line);
  BOOST_TEST(line.find('\n') == std::string::npos);
  BOOST_TEST(test::contains(line, "msg=\"two\\nlines\""));
  BOOST_TEST(test::contains(line, " a=\"has space\""));
  BOOST_TEST(test::contains(line, " b=\"say \\\"hi\\\"\""));
  BOOST_TEST(test::contains(line, " c=\"\""));
  BOOST_TEST(test::contains(line, " d=\"k=v\""));
  BOOST_TEST(test::contains(line, " e=back\\slash"));
  BOOST_TEST(test::contains(line, " f=\"nul\\u0001\""));
}

BOOST_AUTO_TEST_CASE(jsonLineCarriesTheSameFields) {
  Poco::Message m = capture("opened \"db\"", {{"path", "/x"}, {"count", 3}});
  std::string line;
  JsonFormatter().format(m, line);
  BOOST_TEST(line ==
             "{\"ts\":\"2026-11-29T17:00:00.123Z\",\"level\":\"info\",\"component\":\"store\","
             "\"msg\":\"opened \\\"db\\\"\",\"path\":\"/x\",\"count\":\"3\"}");
}

BOOST_AUTO_TEST_CASE(levelBelowTheSettingIsNotWritten) {
  std::ostringstream sink;
  applyLogSettings(LogSettings{Poco::Message::PRIO_WARNING, LogFormat::kLogfmt}, sink);
  Poco::Logger& logger = Poco::Logger::get("test.log.level");
  logInfo(logger, "not shown");
  logWarning(logger, "shown", {{"k", "v"}});
  std::string out = sink.str();
  BOOST_TEST(!test::contains(out, "not shown"));
  // ts=YYYY-MM-DDTHH:MM:SS.mmmZ, then the rest exactly.
  const std::string shape = "dddd-dd-ddTdd:dd:dd.dddZ";
  BOOST_REQUIRE(out.size() > 3 + shape.size());
  BOOST_TEST(out.substr(0, 3) == "ts=");
  for (std::size_t i = 0; i < shape.size(); ++i) {
    char c = out[3 + i];
    bool ok = shape[i] == 'd' ? (c >= '0' && c <= '9') : c == shape[i];
    BOOST_TEST(ok, "ts character " << i << " in " << out);
  }
  BOOST_TEST(out.substr(3 + shape.size()) ==
             " level=warn component=test.log.level msg=\"shown\" k=v\n");
  // Leave the process-wide loggers on a stream that outlives this test, and quiet.
  applyLogSettings(LogSettings{Poco::Message::PRIO_FATAL, LogFormat::kLogfmt}, std::cerr);
}

BOOST_AUTO_TEST_CASE(levelAndFormatNamesParse) {
  BOOST_TEST((parseLogLevel("information") == Poco::Message::PRIO_INFORMATION));
  BOOST_TEST((parseLogLevel("info") == Poco::Message::PRIO_INFORMATION));
  BOOST_TEST((parseLogLevel("trace") == Poco::Message::PRIO_TRACE));
  BOOST_TEST((parseLogLevel("fatal") == Poco::Message::PRIO_FATAL));
  BOOST_TEST(!parseLogLevel("loud").has_value());
  BOOST_TEST(!parseLogLevel("INFO").has_value());
  BOOST_TEST((parseLogFormat("json") == LogFormat::kJson));
  BOOST_TEST(!parseLogFormat("xml").has_value());
}

BOOST_AUTO_TEST_SUITE_END()
