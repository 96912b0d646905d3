#include <boost/test/unit_test.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "daemon/cli/args.h"
#include "daemon/cli/cli.h"
#include "daemon/cli/commands.h"
#include "tests/daemon/helpers.h"

using namespace atoms;
using namespace atoms::cli;

namespace {

struct Captured {
  int code;
  std::string out;
  std::string err;
};

// A table with one fake command, so the dispatcher is tested without running real ones.
std::vector<Command> fakeTable(std::vector<std::string>* seen) {
  Command echo{
      .name = "echo",
      .summary = "print arguments",
      .usage = "atoms-edge echo [--name N] [--loud] [WORD]",
      .help = "Prints things.\n",
      .options = {{"name", "N", "a name"}, {"loud", "", "shout"}},
      .minPositionals = 0,
      .maxPositionals = 1,
      .run =
          [seen](const Args& args, Io& io) {
            seen->push_back("name=" + args.get("name", "-"));
            seen->push_back(std::string("loud=") + (args.has("loud") ? "yes" : "no"));
            for (const auto& p : args.positionals) seen->push_back("pos=" + p);
            io.out << "ran\n";
            return 7;
          },
  };
  return {echo};
}

Captured run(const std::vector<std::string>& args, const std::vector<Command>& table) {
  std::ostringstream out;
  std::ostringstream err;
  Io io{out, err};
  int code = runCli(args, table, io);
  return {code, out.str(), err.str()};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli)

BOOST_AUTO_TEST_CASE(runsTheCommandWithParsedOptionsAndReturnsItsExitCode) {
  std::vector<std::string> seen;
  auto table = fakeTable(&seen);
  Captured r = run({"echo", "--name=ann", "--loud", "word"}, table);
  BOOST_TEST(r.code == 7);
  BOOST_TEST(r.out == "ran\n");
  BOOST_TEST(seen == (std::vector<std::string>{"name=ann", "loud=yes", "pos=word"}),
             boost::test_tools::per_element());
  seen.clear();
  r = run({"echo", "--name", "bob", "--", "--loud"}, table);
  BOOST_TEST(r.code == 7);
  BOOST_TEST(seen == (std::vector<std::string>{"name=bob", "loud=no", "pos=--loud"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(badCommandLinesExitTwoWithOneErrorAndTheUsage) {
  std::vector<std::string> seen;
  auto table = fakeTable(&seen);
  struct Case {
    std::vector<std::string> args;
    std::string error;
  };
  std::vector<Case> cases = {
      {{}, "atoms-edge: no command given"},
      {{"frobnicate"}, "atoms-edge: unknown command 'frobnicate'"},
      {{"--frob"}, "atoms-edge: unknown option '--frob'"},
      {{"echo", "--nmae", "x"}, "atoms-edge echo: unknown option '--nmae'"},
      {{"echo", "-n"}, "atoms-edge echo: unknown option '-n'"},
      {{"echo", "--name"}, "atoms-edge echo: option '--name' needs a value (N)"},
      {{"echo", "--loud=yes"}, "atoms-edge echo: option '--loud' takes no value"},
      {{"echo", "--loud", "--loud"}, "atoms-edge echo: option '--loud' given more than once"},
      {{"echo", "a", "b"}, "atoms-edge echo: unexpected argument 'b'"},
      {{"help", "frobnicate"}, "atoms-edge: unknown command 'frobnicate'"},
  };
  for (const Case& c : cases) {
    Captured r = run(c.args, table);
    BOOST_TEST_CONTEXT("args: " << c.args.size() << " " << (c.args.empty() ? "" : c.args[0])) {
      BOOST_TEST(r.code == kExitUsage);
      BOOST_TEST(r.out.empty());
      BOOST_TEST(r.err.rfind(c.error + "\n", 0) == 0, r.err);
      BOOST_TEST(test::contains(r.err, "usage: atoms-edge"));
    }
  }
  BOOST_TEST(seen.empty());
}

BOOST_AUTO_TEST_CASE(helpIsOfferedEverywhereAndExitsZero) {
  std::vector<std::string> seen;
  auto table = fakeTable(&seen);
  for (auto args : std::vector<std::vector<std::string>>{{"--help"}, {"-h"}, {"help"}}) {
    Captured r = run(args, table);
    BOOST_TEST(r.code == kExitOk);
    BOOST_TEST(test::contains(r.out, "usage: atoms-edge <command>"));
    BOOST_TEST(test::contains(r.out, "  echo   print arguments\n"));
  }
  for (auto args : std::vector<std::vector<std::string>>{
           {"echo", "--help"}, {"echo", "-h"}, {"help", "echo"}, {"echo", "--bogus", "--help"}}) {
    Captured r = run(args, table);
    BOOST_TEST(r.code == kExitOk);
    BOOST_TEST(r.out.rfind("usage: atoms-edge echo [--name N] [--loud] [WORD]\n", 0) == 0, r.out);
    BOOST_TEST(test::contains(r.out, "--name N"));
    BOOST_TEST(test::contains(r.out, "--help"));
  }
  BOOST_TEST(seen.empty());
}

BOOST_AUTO_TEST_CASE(everyRealCommandHasANameSummaryUsageAndHelp) {
  std::vector<Command> table = allCommands();
  BOOST_REQUIRE(!table.empty());
  for (const Command& c : table) {
    BOOST_TEST_CONTEXT(c.name) {
      BOOST_TEST(!c.name.empty());
      BOOST_TEST(!c.summary.empty());
      BOOST_TEST(c.summary.find('\n') == std::string::npos);
      BOOST_TEST(c.usage.rfind("atoms-edge " + c.name, 0) == 0);
      BOOST_TEST(!c.help.empty());
      BOOST_TEST(static_cast<bool>(c.run));
      for (const OptionSpec& o : c.options) BOOST_TEST(o.name != "help");
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
