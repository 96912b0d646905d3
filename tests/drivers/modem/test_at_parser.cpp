#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

#include "drivers/sms/modem/at_parser.h"

using namespace atoms::drivers::modem;

namespace {

std::vector<std::string> texts(const std::vector<LineSplitter::Line>& lines) {
  std::vector<std::string> out;
  for (const auto& l : lines) out.push_back(l.text);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(at_parser)

BOOST_AUTO_TEST_CASE(splitsLinesAcrossReadsAndDropsEmptyOnes) {
  LineSplitter s;
  std::vector<LineSplitter::Line> lines;
  s.feed("\r\n+CSQ: 2", lines);
  BOOST_TEST(lines.empty());
  s.feed("1,99\r\n\r\nOK\r\n", lines);
  BOOST_TEST(texts(lines) == (std::vector<std::string>{"+CSQ: 21,99", "OK"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(endsTheEchoAtItsCarriageReturn) {
  LineSplitter s;
  std::vector<LineSplitter::Line> lines;
  s.feed("AT+CMGF=0\r\r\nOK\r\n", lines);
  BOOST_TEST(texts(lines) == (std::vector<std::string>{"AT+CMGF=0", "OK"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(seesThePromptWithoutALineEnd) {
  LineSplitter s;
  std::vector<LineSplitter::Line> lines;
  s.feed("\r\n> ", lines);
  BOOST_TEST(lines.empty());
  BOOST_TEST(s.promptPending());
  s.clearPending();
  BOOST_TEST(!s.promptPending());
  s.feed(">x", lines);
  BOOST_TEST(!s.promptPending());
}

BOOST_AUTO_TEST_CASE(cutsAnEndlessLineAndFlagsIt) {
  LineSplitter s;
  std::vector<LineSplitter::Line> lines;
  s.feed(std::string(LineSplitter::kMaxLineLength * 2 + 10, 'x'), lines);
  BOOST_TEST_REQUIRE(lines.size() == 2u);
  BOOST_TEST(lines[0].overflowed);
  BOOST_TEST(lines[1].overflowed);
  BOOST_TEST(s.pending().size() == 10u);
  s.feed("\r\nOK\r\n", lines);
  BOOST_TEST(lines[2].overflowed);  // the rest of the same endless line
  BOOST_TEST(!lines[3].overflowed);
  BOOST_TEST(lines[3].text == "OK");
}

BOOST_AUTO_TEST_CASE(recognisesFinalResults) {
  BOOST_CHECK(parseFinalResult("OK")->kind == FinalResult::Kind::kOk);
  BOOST_CHECK(parseFinalResult("ERROR")->kind == FinalResult::Kind::kError);
  BOOST_CHECK(parseFinalResult("NO CARRIER")->kind == FinalResult::Kind::kNoCarrier);
  const auto cms = parseFinalResult("+CMS ERROR: 500");
  BOOST_CHECK(cms->kind == FinalResult::Kind::kCmsError);
  BOOST_TEST(cms->code == 500);
  const auto cme = parseFinalResult("+CME ERROR: SIM not inserted");
  BOOST_CHECK(cme->kind == FinalResult::Kind::kCmeError);
  BOOST_TEST(cme->code == -1);
  BOOST_TEST(!parseFinalResult("OKAY").has_value());
  BOOST_TEST(!parseFinalResult("+CMGS: 3").has_value());
}

BOOST_AUTO_TEST_CASE(recognisesUnsolicitedResultCodes) {
  const auto cmti = parseUrc("+CMTI: \"SM\",3");
  BOOST_CHECK(cmti->kind == Urc::Kind::kNewMessageStored);
  BOOST_TEST(cmti->storage == "SM");
  BOOST_TEST(cmti->index == 3);
  const auto cdsi = parseUrc("+CDSI: \"SR\",12");
  BOOST_CHECK(cdsi->kind == Urc::Kind::kStatusReportStored);
  BOOST_TEST(cdsi->index == 12);
  BOOST_CHECK(parseUrc("+CMTI: \"SM\"")->kind == Urc::Kind::kOther);  // no index: nothing to read
  BOOST_CHECK(parseUrc("+CMTI: \"\",1")->kind == Urc::Kind::kOther);
  const auto cmt = parseUrc("+CMT: ,24");
  BOOST_CHECK(cmt->kind == Urc::Kind::kNewMessage);
  BOOST_TEST(urcHasBody(*cmt, true));
  BOOST_TEST(urcHasBody(*cmt, false));
  const auto cds = parseUrc("+CDS: 25");
  BOOST_TEST(urcHasBody(*cds, true));
  BOOST_TEST(!urcHasBody(*cds, false));  // text mode: one line
  for (const char* boot : {"RDY", "+CFUN: 1", "SMS Ready", "+CPIN: READY", "^SYSSTART"})
    BOOST_CHECK(parseUrc(boot)->kind == Urc::Kind::kBoot);
  BOOST_CHECK(parseUrc("RING")->kind == Urc::Kind::kOther);
  BOOST_CHECK(parseUrc("+CREG: 1")->kind == Urc::Kind::kOther);
  BOOST_TEST(!parseUrc("hello").has_value());
  BOOST_TEST(!parseUrc("OK").has_value());
}

BOOST_AUTO_TEST_CASE(readsMessageReferences) {
  BOOST_TEST(*parseMessageReference("+CMGS: 17") == 17);
  BOOST_TEST(*parseMessageReference("+CMGS: 0") == 0);
  BOOST_TEST(*parseMessageReference("+CMGS: 5,\"24/01/02,10:11:12+04\"") == 5);
  BOOST_TEST(!parseMessageReference("+CMGS: 256").has_value());
  BOOST_TEST(!parseMessageReference("+CMGS: x").has_value());
  BOOST_TEST(!parseMessageReference("+CMGW: 1").has_value());
}

BOOST_AUTO_TEST_CASE(pairsListedMessagesWithTheirBodies) {
  std::vector<std::string> errors;
  const auto list = parseMessageList({"+CMGL: 1,0,,24", "0011AA", "+CMGL: 4,1,,3", "+CMGL: 5,1,,2",
                                      "00FF", "stray", "+CMGL: x,1,,2", "00"},
                                     errors);
  BOOST_TEST_REQUIRE(list.size() == 2u);
  BOOST_TEST(list[0].index == 1);
  BOOST_TEST(list[0].status == 0);
  BOOST_TEST(list[0].body == "0011AA");
  BOOST_TEST(list[0].header == "1,0,,24");
  BOOST_TEST(list[1].index == 5);
  BOOST_TEST(list[1].body == "00FF");
  BOOST_TEST(errors.size() == 3u);  // 4 has no body, a stray line, an entry without an index
}

BOOST_AUTO_TEST_CASE(readsOneStoredMessage) {
  const auto m = parseReadMessage({"+CMGR: 0,,23", "0011000B"});
  BOOST_TEST_REQUIRE(m.ok(), m.message());
  BOOST_TEST(m->status == 0);
  BOOST_TEST(m->body == "0011000B");
  BOOST_TEST(!parseReadMessage({}).ok());
  BOOST_TEST(!parseReadMessage({"+CMGR: 0,,23"}).ok());
}

BOOST_AUTO_TEST_CASE(readsStorageAndSignal) {
  const auto full = parseStorageStatus("+CPMS: \"SM\",3,30,\"SM\",3,30,\"SM\",3,30");
  BOOST_TEST(full->storage == "SM");
  BOOST_TEST(full->used == 3);
  BOOST_TEST(full->total == 30);
  const auto shortForm = parseStorageStatus("+CPMS: 4,50,4,50,4,50");
  BOOST_TEST(shortForm->storage == "");
  BOOST_TEST(shortForm->used == 4);
  BOOST_TEST(!parseStorageStatus("+CPMS: \"SM\"").has_value());
  BOOST_TEST(*parseSignalQuality("+CSQ: 21,99") == 21);
  BOOST_TEST(*parseSignalQuality("+CSQ: 99,99") == 99);
  BOOST_TEST(!parseSignalQuality("+CSQ: 40,0").has_value());
}

BOOST_AUTO_TEST_CASE(splitsParametersHonouringQuotes) {
  const auto p = splitAtParameters("\"REC READ\",\"+4912345\",,\"24/01/02,10:11:12+04\"");
  BOOST_TEST(p == (std::vector<std::string>{"REC READ", "+4912345", "", "24/01/02,10:11:12+04"}),
             boost::test_tools::per_element());
  BOOST_TEST(splitAtParameters("").size() == 1u);
  BOOST_TEST(*parseAtInteger(" 12 ", 0, 20) == 12);
  BOOST_TEST(!parseAtInteger("12a", 0, 20).has_value());
  BOOST_TEST(!parseAtInteger("21", 0, 20).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
