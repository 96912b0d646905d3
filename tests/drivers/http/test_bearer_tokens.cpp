#include <boost/test/unit_test.hpp>
// The bearer tokens file (drivers/http/bearer_tokens.h) of the terminals and of the approvals API:
// format, the secret-file mode check, and lookups that never confuse two ids.
#include <sys/stat.h>

#include <string>

#include "drivers/http/bearer_tokens.h"
#include "tests/support/temp_dir.h"
#include "tests/support/text_checks.h"

namespace atoms::drivers {
namespace {

using atoms::testing::TempDir;

const std::string kFrontToken = "front-token-5f1c0a9e7d3b2c41";
const std::string kBackToken = "back-token-0e9d8c7b6a594837";

std::string tokensText() {
  return "# terminals of the demo site\n"
         "\n"
         "front-1 " +
         BearerTokens::hashHex(kFrontToken) +
         "\n"
         "  back.door\t" +
         BearerTokens::hashHex(kBackToken) + "  \r\n";
}

std::string secretFile(const TempDir& dir, const std::string& text, mode_t mode) {
  const std::string path = dir.write("terminals", text);
  BOOST_REQUIRE(::chmod(path.c_str(), mode) == 0);
  return path;
}

using atoms::testing::contains;

}  // namespace

BOOST_AUTO_TEST_SUITE(bearer_tokens)

BOOST_AUTO_TEST_CASE(eachTokenFindsItsOwnTerminal) {
  TempDir dir;
  auto tokens =
      BearerTokens::load(secretFile(dir, tokensText(), 0600), "terminal.tokens_file", "terminal");
  BOOST_REQUIRE_MESSAGE(tokens, tokens.message());
  BOOST_TEST(tokens->size() == 2u);
  BOOST_TEST(tokens->lookup(kFrontToken).value_or("") == "front-1");
  BOOST_TEST(tokens->lookup(kBackToken).value_or("") == "back.door");
  BOOST_TEST(!tokens->lookup("").has_value());
  BOOST_TEST(!tokens->lookup(kFrontToken + "x").has_value());
  BOOST_TEST(!tokens->lookup(BearerTokens::hashHex(kFrontToken)).has_value());
  BOOST_TEST(!BearerTokens().lookup(kFrontToken).has_value());
}

BOOST_AUTO_TEST_CASE(aTerminalMayHaveTwoTokensWhileOneIsReplaced) {
  auto tokens = BearerTokens::parse("front-1 " + BearerTokens::hashHex("old-token-123456") +
                                        "\nfront-1 " + BearerTokens::hashHex("new-token-654321"),
                                    "f", "terminal");
  BOOST_REQUIRE_MESSAGE(tokens, tokens.message());
  BOOST_TEST(tokens->lookup("old-token-123456").value_or("") == "front-1");
  BOOST_TEST(tokens->lookup("new-token-654321").value_or("") == "front-1");
}

BOOST_AUTO_TEST_CASE(aFileOthersCanReadIsRefused) {
  TempDir dir;
  for (mode_t mode : {0640, 0604, 0660, 0644}) {
    const std::string path = secretFile(dir, tokensText(), mode);
    auto tokens = BearerTokens::load(path, "terminal.tokens_file", "terminal");
    BOOST_REQUIRE(!tokens);
    BOOST_TEST(tokens.message() == "terminal.tokens_file " + path +
                                       " is accessible by group or others (mode 0" +
                                       std::to_string(mode / 64) + std::to_string(mode / 8 % 8) +
                                       std::to_string(mode % 8) + "); run chmod 600 " + path);
  }
  BOOST_TEST(BearerTokens::load(secretFile(dir, tokensText(), 0400), "f", "terminal").ok());
}

BOOST_AUTO_TEST_CASE(aMissingFileOrADirectoryIsNamed) {
  TempDir dir;
  auto missing = BearerTokens::load(dir.file("nope"), "terminal.tokens_file", "terminal");
  BOOST_REQUIRE(!missing);
  BOOST_TEST(missing.message() == "terminal.tokens_file " + dir.file("nope") + " does not exist");
  auto directory = BearerTokens::load(dir.path(), "terminal.tokens_file", "terminal");
  BOOST_REQUIRE(!directory);
  BOOST_TEST(contains(directory.message(), "is not a regular file"));
}

BOOST_AUTO_TEST_CASE(badLinesAreNamedWithoutQuotingTheSecret) {
  const std::string hash = BearerTokens::hashHex(kFrontToken);
  struct Case {
    std::string text;
    std::string expected;
  };
  const Case cases[] = {
      {"front-1\n", "f: line 1: expected 'terminal-id sha256-hex-of-token'"},
      {"# c\nfront-1 " + hash + " extra\n",
       "f: line 2: expected 'terminal-id sha256-hex-of-token'"},
      {"front/1 " + hash,
       "f: line 1: terminal id 'front/1' is not 1-64 characters of letters, "
       "digits, '-', '_', '.'"},
      {"front-1 " + kFrontToken,
       "f: line 1: the token hash is not 64 hex digits (store the SHA-256 of the token, never "
       "the token itself)"},
      {"front-1 " + hash.substr(1) + "g",
       "f: line 1: the token hash is not 64 hex digits (store the SHA-256 of the token, never "
       "the token itself)"},
      {"front-1 " + hash + "\nback-1 " + hash,
       "f: line 2: the same token hash is also given to terminal 'front-1'"},
  };
  for (const Case& c : cases) {
    auto tokens = BearerTokens::parse(c.text, "f", "terminal");
    BOOST_TEST_CONTEXT(c.text) {
      BOOST_REQUIRE(!tokens);
      BOOST_TEST(tokens.message() == c.expected);
      BOOST_TEST(!contains(tokens.message(), kFrontToken));
    }
  }
}

BOOST_AUTO_TEST_CASE(anEmptyFileKnowsNoTerminal) {
  auto tokens = BearerTokens::parse("# nobody yet\n\n", "f", "terminal");
  BOOST_REQUIRE_MESSAGE(tokens, tokens.message());
  BOOST_TEST(tokens->size() == 0u);
  BOOST_TEST(!tokens->lookup(kFrontToken).has_value());
}

BOOST_AUTO_TEST_CASE(personTokensNamePersonsInTheirErrors) {
  // The approvals API's file: the same format, with person ids.
  const std::string hash = BearerTokens::hashHex(kFrontToken);
  auto tokens =
      BearerTokens::parse("p-kwame " + hash + "\np-rosa " + BearerTokens::hashHex(kBackToken),
                          "api.tokens_file /etc/atoms-edge/api-tokens", "person");
  BOOST_REQUIRE_MESSAGE(tokens, tokens.message());
  BOOST_TEST(tokens->lookup(kFrontToken).value_or("") == "p-kwame");
  BOOST_TEST(tokens->lookup(kBackToken).value_or("") == "p-rosa");
  auto shape = BearerTokens::parse("p-kwame\n", "f", "person");
  BOOST_REQUIRE(!shape);
  BOOST_TEST(shape.message() == "f: line 1: expected 'person-id sha256-hex-of-token'");
  auto shared = BearerTokens::parse("p-kwame " + hash + "\np-rosa " + hash, "f", "person");
  BOOST_REQUIRE(!shared);
  BOOST_TEST(shared.message() ==
             "f: line 2: the same token hash is also given to person 'p-kwame'");
  auto id = BearerTokens::parse("kwame@site " + hash, "f", "person");
  BOOST_REQUIRE(!id);
  BOOST_TEST(id.message() ==
             "f: line 1: person id 'kwame@site' is not 1-64 characters of letters, digits, '-', "
             "'_', '.'");
}

BOOST_AUTO_TEST_CASE(tokenIdsAreSiteIds) {
  BOOST_TEST(isValidTokenId("front-1"));
  BOOST_TEST(isValidTokenId("p_kwame.2"));
  BOOST_TEST(isValidTokenId(std::string(64, 'a')));
  BOOST_TEST(!isValidTokenId(std::string(65, 'a')));
  BOOST_TEST(!isValidTokenId(""));
  BOOST_TEST(!isValidTokenId("p kwame"));
  BOOST_TEST(!isValidTokenId("p/kwame"));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::drivers
