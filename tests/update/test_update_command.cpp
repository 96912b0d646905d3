// `atoms-edge update` as an operator and a vendor run it: bundles made by `update make-bundle`,
// and a crash-on-start update rolled back to the real binary, whose `serve` comes back and reports
// healthy. The service manager is a small script standing in for `systemctl restart`.
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <filesystem>
#include <string>

#include "daemon/cli/command.h"
#include "daemon/update/health_mark.h"
#include "store/migrations.h"
#include "store/state_dir.h"
#include "tests/daemon/helpers.h"
#include "tests/update/update_fixture.h"

using namespace atoms;
using namespace std::chrono_literals;
using test::contains;
namespace fs = std::filesystem;

namespace {

constexpr auto kUpdateDeadline = std::chrono::milliseconds(240s);  // two serve starts, sanitized

struct OperatorBox {
  OperatorBox() {
    stateDir = tmp.file("state");
    Status s = initStateDir(stateDir, InitOptions{"site-update-cli"});
    BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
    root = tmp.file("opt");
    config = tmp.write("atoms-edge.conf", "state.dir = " + stateDir + "\n");
    vendorKey = tmp.file("vendor.key");
    test::writeVendorKeyFile(vendorKey, test::testVendorKey());
    pidFile = tmp.file("serve.pid");
    // Stands in for systemctl restart: stops the serve it started last, starts R/current's.
    restart = test::writeExecutable(
        tmp, "restart.sh",
        "#!/bin/sh\n"
        "if [ -s '" +
            pidFile +
            "' ]; then\n"
            "  pid=$(cat '" +
            pidFile +
            "')\n"
            "  kill -TERM \"$pid\" 2>/dev/null && tail --pid=\"$pid\" -s 0.1 -f /dev/null\n"
            "fi\n"
            "'" +
            root + "/current/atoms-edge' serve --config '" + config + "' >>'" +
            tmp.file("serve.log") +
            "' 2>&1 </dev/null &\n"
            "echo $! > '" +
            pidFile + "'\n");
  }
  ~OperatorBox() { stopServe(); }

  std::string makeBundle(const std::string& binary, const std::string& version,
                         const std::string& key) {
    const std::string out = tmp.file("v" + version + "-" + std::to_string(++made) + ".bundle");
    test::RunResult r = test::runEdge({"update", "make-bundle", "--binary", binary, "--version",
                                       version, "--key", key, "--out", out});
    BOOST_REQUIRE_MESSAGE(r.status == 0, r.err);
    return out;
  }
  std::vector<std::string> rootArgs() const {
    return {"--root", root, "--state-dir", stateDir, "--restart-command", "sh " + restart};
  }
  test::RunResult update(std::vector<std::string> args) const {
    args.insert(args.begin(), "update");
    const auto common = rootArgs();
    args.insert(args.end(), common.begin(), common.end());
    std::vector<std::string> argv{test::edgeBinary()};
    argv.insert(argv.end(), args.begin(), args.end());
    test::ChildProcess child(argv);
    auto status = child.wait(kUpdateDeadline);
    BOOST_REQUIRE_MESSAGE(status.has_value(), "atoms-edge update did not finish in time");
    return {*status, child.out(), child.err()};
  }

  // Ends the serve the restart script started last and waits (pidfd, with a deadline) for it.
  void stopServe() {
    std::error_code ec;
    if (!fs::exists(pidFile, ec)) return;
    const pid_t pid = static_cast<pid_t>(std::stol("0" + test::readFile(pidFile)));
    if (pid <= 0) return;
    const int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    if (::kill(pid, SIGTERM) == 0 && fd >= 0) {
      pollfd p{fd, POLLIN, 0};
      (void)::poll(&p, 1, 60000);
    }
    if (fd >= 0) ::close(fd);
    fs::remove(pidFile, ec);
  }

  atoms::testing::TempDir tmp;
  std::string stateDir, root, config, vendorKey, pidFile, restart;
  int made = 0;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(update_command)

BOOST_AUTO_TEST_CASE(badBundlesAreRefusedWithClearWordsAndExitCodes) {
  OperatorBox box;
  const std::string script = test::writeExecutable(box.tmp, "new", test::healthyScript("new"));

  const std::string good = box.makeBundle(script, "9.0.0", box.vendorKey);
  const std::string tampered = box.tmp.file("tampered.bundle");
  fs::copy_file(good, tampered);
  test::flipByte(tampered, fs::file_size(good) - 3);
  test::RunResult r = box.update({"apply", tampered});
  BOOST_TEST(r.status == atoms::cli::kExitFailure, r.err);
  BOOST_TEST(contains(r.err, "does not match the signed manifest"), r.err);

  const std::string otherKey = box.tmp.file("other.key");
  test::writeVendorKeyFile(otherKey, test::otherVendorKey());
  r = box.update({"apply", box.makeBundle(script, "9.0.0", otherKey)});
  BOOST_TEST(r.status == atoms::cli::kExitConfig, r.err);
  BOOST_TEST(contains(r.err, "refused: bundle"), r.err);
  BOOST_TEST(contains(r.err, "not by the update key this atoms-edge trusts"), r.err);

  r = box.update({"apply", box.makeBundle(script, "0.0.1", box.vendorKey)});
  BOOST_TEST(r.status == atoms::cli::kExitConfig, r.err);
  BOOST_TEST(contains(r.err, "older than the installed"), r.err);
  BOOST_TEST(contains(r.err, "--allow-downgrade"), r.err);

  // Nothing was installed or started; status says what the last attempt was.
  BOOST_TEST(!fs::exists(box.root + "/current"));
  BOOST_TEST(!fs::exists(box.pidFile));
  test::RunResult status = box.update({"status"});
  BOOST_TEST(status.status == 0, status.err);
  BOOST_TEST(contains(status.out, "slot a: empty"), status.out);
  BOOST_TEST(contains(status.out, "last result: refused 0.0.1"), status.out);
  BOOST_TEST(contains(status.out, "the TESTS' key"), status.out);
}

BOOST_AUTO_TEST_CASE(makeKeyWritesASecretFileAndPrintsWhatToPin) {
  atoms::testing::TempDir tmp;
  const std::string key = tmp.file("vendor.key");
  test::RunResult r = test::runEdge({"update", "make-key", "--out", key});
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(test::fileMode(key) == 0600U);
  BOOST_TEST(contains(r.out, "must never enter the repository"), r.out);
  BOOST_TEST(contains(r.out, "-DATOMS_UPDATE_PUBLIC_KEY="), r.out);
  BOOST_TEST(contains(test::readFile(key), "atoms-edge-key v1 vendor-ed25519\n"));
  // Never over an existing key.
  test::RunResult again = test::runEdge({"update", "make-key", "--out", key});
  BOOST_TEST(again.status == atoms::cli::kExitFailure, again.err);
}

BOOST_AUTO_TEST_CASE(aCrashOnStartUpdateIsRolledBackAndThePreviousServeRunsAgain) {
  OperatorBox box;
  const std::string crash = test::writeExecutable(box.tmp, "crash", test::kCrashScript);
  const std::string bundle = box.makeBundle(crash, "9.0.0", box.vendorKey);
  // The crash gets 2 s (it exits at once; no mark can come); the real serve gets minutes.
  test::RunResult r = box.update({"apply", bundle, "--timeout", "2", "--rollback-timeout", "200"});
  BOOST_TEST(r.status == atoms::cli::kExitFailure, r.err + r.out);
  BOOST_TEST(contains(r.err, "rolled back: 9.0.0 did not report healthy within 2 s"), r.err);
  BOOST_TEST(contains(r.err, "reports healthy"), r.err);

  // The packaged binary (this build's atoms-edge, seeded into slot a) runs again and said so.
  BOOST_TEST(fs::read_symlink(box.root + "/current").string() == "slots/a");
  auto mark = update::readHealthMark(box.stateDir);
  BOOST_REQUIRE_MESSAGE(mark.ok(), mark.message());
  BOOST_TEST(mark->exe == fs::canonical(box.root + "/slots/a/atoms-edge").string());
  BOOST_TEST(::kill(static_cast<pid_t>(mark->pid), 0) == 0);

  test::RunResult status = box.update({"status"});
  BOOST_TEST(status.status == 0, status.err);
  BOOST_TEST(contains(status.out, "* slot a: atoms-edge 0.1.0"), status.out);
  BOOST_TEST(contains(status.out, "  slot b: atoms-edge 9.0.0"), status.out);
  BOOST_TEST(contains(status.out, "last result: rolled back 0.1.0"), status.out);
}

BOOST_AUTO_TEST_CASE(aGoodUpdateRunsAndTheOperatorCanRollItBack) {
  OperatorBox box;
  // This build's own binary, shipped as 9.0.0: serve runs from slot b and reports healthy.
  const std::string bundle = box.makeBundle(test::edgeBinary(), "9.0.0", box.vendorKey);
  test::RunResult verified = test::runEdge({"update", "verify", bundle});
  BOOST_TEST(verified.status == 0, verified.err);
  BOOST_TEST(contains(verified.out, "atoms-edge 9.0.0"), verified.out);

  test::RunResult r = box.update({"apply", bundle, "--timeout", "200"});
  BOOST_TEST(r.status == 0, r.err + r.out);
  BOOST_TEST(contains(r.out, "applied: 9.0.0 runs from slot b"), r.out);
  auto mark = update::readHealthMark(box.stateDir);
  BOOST_REQUIRE_MESSAGE(mark.ok(), mark.message());
  BOOST_TEST(mark->exe == fs::canonical(box.root + "/slots/b/atoms-edge").string());
  BOOST_TEST(mark->schema == storeMigrations().back().version);

  // Same schema on both sides: the operator may go back, and the packaged version runs again.
  r = box.update({"rollback", "--rollback-timeout", "200"});
  BOOST_TEST(r.status == 0, r.err + r.out);
  BOOST_TEST(contains(r.out, "rolled back: from 9.0.0 to 0.1.0 (asked by the operator)"), r.out);
  mark = update::readHealthMark(box.stateDir);
  BOOST_REQUIRE_MESSAGE(mark.ok(), mark.message());
  BOOST_TEST(mark->exe == fs::canonical(box.root + "/slots/a/atoms-edge").string());
  test::RunResult status = box.update({"status"});
  BOOST_TEST(contains(status.out, "* slot a: atoms-edge 0.1.0"), status.out);
  BOOST_TEST(contains(status.out, "last result: rolled back 0.1.0"), status.out);
}

BOOST_AUTO_TEST_SUITE_END()
