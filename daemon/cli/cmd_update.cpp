// `atoms-edge update`: signed updates into two slots, with rollback (docs/update.md).
#include <sodium.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <ostream>
#include <thread>

#include "base/bytes.h"
#include "base/clock.h"
#include "daemon/cli/commands.h"
#include "daemon/cli/state_dir_option.h"
#include "daemon/update/bundle.h"
#include "daemon/update/pinned_key.h"
#include "daemon/update/updater.h"
#include "daemon/version.h"
#include "store/key_file.h"
#include "store/migrations.h"

extern char** environ;

namespace atoms::cli {
namespace {

constexpr const char* kDefaultUpdateRoot = "/opt/atoms-edge";
constexpr const char* kDefaultRestart = "systemctl restart atoms-edge.service";

// "120", "120s": whole seconds.
std::optional<std::chrono::seconds> parseSeconds(std::string text) {
  if (!text.empty() && text.back() == 's') text.pop_back();
  if (text.empty() || text.size() > 6) return std::nullopt;
  long n = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return std::chrono::seconds(n);
}

// Runs CMD with /bin/sh -c, its output going where ours goes.
Status runRestartCommand(const std::string& command) {
  pid_t pid = 0;
  std::string shell = "/bin/sh";
  std::string dashC = "-c";
  std::string cmd = command;
  char* argv[] = {shell.data(), dashC.data(), cmd.data(), nullptr};
  if (int rc = posix_spawn(&pid, "/bin/sh", nullptr, nullptr, argv, environ); rc != 0) {
    return makeError("cannot run '" + command + "'");
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return makeError("cannot wait for '" + command + "'");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return makeError("'" + command + "' failed (" +
                     (WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                        : std::string("killed")) +
                     ")");
  }
  return Status::success();
}

// Polls healthy() four times a second until it holds or the timeout passed.
bool pollUntilHealthy(const std::function<bool()>& healthy, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (healthy()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

int updateUsageError(Io& io, const std::string& message) {
  io.err << "atoms-edge update: " << message << "\n";
  return kExitUsage;
}

int updateFailed(Io& io, const Error& e) {
  io.err << "atoms-edge update: " << (e.kind == ErrorKind::kRefused ? "refused: " : "") << e.message
         << "\n";
  return e.kind == ErrorKind::kRefused ? kExitConfig : kExitFailure;
}

int makeKey(const Args& args, Io& io) {
  const std::string out = args.get("out", "");
  if (out.empty()) return updateUsageError(io, "make-key needs --out FILE");
  SecretBytes secret(crypto_sign_SECRETKEYBYTES);
  update::PublicKey pk{};
  crypto_sign_keypair(pk.data(), secret.data());
  if (Status s = writeKeyFile(out, KeyKind::VendorSigning, secret); !s) {
    io.err << "atoms-edge update: " << s.message() << "\n";
    return kExitFailure;
  }
  io.out << "wrote the vendor secret key " << out
         << " (keep it offline; it must never enter the repository or a box)\n"
         << "public key " << toHex(pk) << " (key id " << update::keyId(pk) << ")\n"
         << "pin it in the release build: cmake -DATOMS_UPDATE_PUBLIC_KEY=" << toHex(pk) << "\n";
  return kExitOk;
}

int makeBundleCommand(const Args& args, Io& io) {
  const std::string binary = args.get("binary", "");
  const std::string version = args.get("version", "");
  const std::string keyPath = args.get("key", "");
  const std::string out = args.get("out", "");
  if (binary.empty() || version.empty() || keyPath.empty() || out.empty()) {
    return updateUsageError(io, "make-bundle needs --binary, --version, --key and --out");
  }
  int schema = storeMigrations().back().version;
  if (args.has("schema")) {
    auto n = parseSeconds(args.get("schema", ""));  // a plain number
    if (!n || n->count() < 1) return updateUsageError(io, "--schema must be a number, 1 or more");
    schema = static_cast<int>(n->count());
  }
  auto key = readKeyFile(keyPath, KeyKind::VendorSigning);
  if (!key) {
    io.err << "atoms-edge update: " << key.message() << "\n";
    return kExitFailure;
  }
  if (Status s = update::makeBundle(binary, version, schema, *key, out); !s) {
    io.err << "atoms-edge update: " << s.message() << "\n";
    return kExitFailure;
  }
  const update::PublicKey pk = update::publicKeyOf(*key);
  io.out << "wrote " << out << ": atoms-edge " << version << ", store schema " << schema
         << ", signed by key " << update::keyId(pk) << "\n";
  if (pk != update::pinnedUpdateKey()) {
    io.out << "note: this atoms-edge pins another key (" << update::keyId(update::pinnedUpdateKey())
           << "); boxes built with key " << update::keyId(pk) << " install it\n";
  }
  return kExitOk;
}

std::string outcomeLine(const update::UpdateReport& r) {
  switch (r.outcome) {
    case update::Outcome::kApplied:
      return "applied: " + r.version + " runs from slot " + r.slot + " (" + r.detail + ")";
    case update::Outcome::kSwitched:
      return "switched: " + r.detail;
    case update::Outcome::kRolledBack:
      return "rolled back: " + r.detail;
    case update::Outcome::kRollbackRefused:
      return "NOT HEALTHY, and no rollback: " + r.detail;
    case update::Outcome::kConfirmed:
      return "confirmed: " + r.detail;
    case update::Outcome::kInitialised:
      return "set up: " + r.detail;
    case update::Outcome::kNothingPending:
      return r.detail + (r.slot.empty() ? ""
                                        : (r.healthy ? "; slot " + r.slot + " reports healthy"
                                                     : "; slot " + r.slot +
                                                           " has not reported healthy since its "
                                                           "last switch"));
  }
  return r.detail;
}

int printStatus(const update::UpdateEnv& env, Io& io) {
  auto status = update::updateStatus(env);
  if (!status) return updateFailed(io, status.error());
  io.out << "update root " << env.root << "\n";
  for (const update::SlotView& slot : status->slots) {
    io.out << (slot.active ? "* " : "  ") << "slot " << slot.name << ": ";
    if (slot.manifest) {
      io.out << "atoms-edge " << slot.manifest->version << ", store schema "
             << slot.manifest->schema << (slot.active ? " (active)" : "") << "\n";
    } else {
      io.out << "empty\n";
    }
  }
  const bool anySlot = status->slots[0].manifest || status->slots[1].manifest;
  if (!anySlot) {
    io.out << "no update applied yet; the packaged atoms-edge " << edgeVersion() << " runs\n";
  }
  io.out << "state directory " << env.stateDir << ": "
         << (status->stateSchema ? "store schema " + std::to_string(*status->stateSchema)
                                 : std::string("no database"))
         << "\n";
  if (status->pending) {
    io.out << "pending: " << status->pending->version << " in slot " << status->pending->slot
           << " since " << status->pending->since
           << ", waiting for its health check (update check-health, confirm or rollback)\n";
  }
  if (status->last) {
    io.out << "last result: " << status->last->result
           << (status->last->version.empty() ? "" : " " + status->last->version) << " at "
           << status->last->at << ": " << status->last->detail << "\n";
  } else {
    io.out << "last result: none\n";
  }
  io.out << "update key " << update::keyId(update::pinnedUpdateKey())
         << (update::pinnedKeyIsTestKey()
                 ? " (the TESTS' key: a development build; a box must run a build that pins the "
                   "vendor's key, docs/update.md)"
                 : "")
         << "\n";
  return kExitOk;
}

int runUpdate(const Args& args, Io& io) {
  const std::string action = args.positionals.at(0);
  const std::size_t want = action == "apply" || action == "verify" ? 2 : 1;
  if (args.positionals.size() != want) {
    return updateUsageError(
        io, action == "apply" || action == "verify"
                ? action + " needs the bundle: atoms-edge update " + action + " BUNDLE"
                : action + " takes no further argument");
  }
  if (action == "make-key") return makeKey(args, io);
  if (action == "make-bundle") return makeBundleCommand(args, io);
  if (action == "verify") {
    auto manifest = update::verifyBundle(args.positionals[1], update::pinnedUpdateKey());
    if (!manifest) return updateFailed(io, manifest.error());
    io.out << args.positionals[1] << ": atoms-edge " << manifest->version << ", store schema "
           << manifest->schema << ", signed by the pinned key "
           << update::keyId(update::pinnedUpdateKey()) << "\n";
    return kExitOk;
  }

  SystemClock clock;
  update::UpdateEnv env;
  env.root = args.get("root", kDefaultUpdateRoot);
  env.stateDir = stateDirOf(args);
  env.trustedKey = update::pinnedUpdateKey();
  env.runningBinary = "/proc/self/exe";
  env.runningVersion = edgeVersion();
  env.runningSchema = storeMigrations().back().version;
  env.clock = &clock;
  for (const char* name : {"timeout", "rollback-timeout"}) {
    if (!args.has(name)) continue;
    auto s = parseSeconds(args.get(name, ""));
    if (!s) return updateUsageError(io, std::string("--") + name + " takes seconds, like 120");
    (std::string(name) == "timeout" ? env.healthTimeout : env.rollbackTimeout) = *s;
  }
  if (!args.has("no-restart")) {
    const std::string command = args.get("restart-command", kDefaultRestart);
    env.restartService = [command] { return runRestartCommand(command); };
  }
  env.waitHealthy = pollUntilHealthy;

  if (action == "status") return printStatus(env, io);
  Result<update::UpdateReport> report = makeError("unknown action");
  if (action == "apply") {
    report = update::applyUpdate(env, args.positionals[1], args.has("allow-downgrade"));
  } else if (action == "rollback") {
    report = update::rollbackUpdate(env);
  } else if (action == "check-health") {
    report = update::checkHealth(env);
  } else if (action == "init") {
    report = update::initSlots(env);
  } else if (action == "confirm") {
    report = update::confirmUpdate(env);
  } else {
    return updateUsageError(io, "unknown action '" + action +
                                    "' (init, apply, status, check-health, confirm, rollback, "
                                    "verify, make-bundle, make-key)");
  }
  if (!report) return updateFailed(io, report.error());
  // A rollback the operator asked for is a success when the old version came back healthy; one
  // the box had to make means the update failed.
  const bool wentWrong = report->outcome == update::Outcome::kRollbackRefused ||
                         (report->outcome == update::Outcome::kRolledBack &&
                          (action != "rollback" || !report->healthy));
  (wentWrong ? io.err : io.out) << "atoms-edge update: " << outcomeLine(*report) << "\n";
  return wentWrong ? kExitFailure : kExitOk;
}

}  // namespace

Command updateCommand() {
  return Command{
      .name = "update",
      .summary = "install a signed update into the other slot, check it, roll back",
      .usage =
          "atoms-edge update apply BUNDLE | status | check-health | confirm | rollback |\n"
          "       verify BUNDLE | make-bundle | make-key  [options]",
      .help =
          "init           once: slot a gets this (the packaged) binary, R/current points at\n"
          "               it; then the unit starts R/current/atoms-edge (docs/update.md).\n"
          "apply BUNDLE   checks the bundle's signature against the vendor key built into this\n"
          "               atoms-edge, refuses a downgrade (unless --allow-downgrade) and a\n"
          "               binary older than the store's schema, installs it into the inactive\n"
          "               slot under --root, switches, restarts the service and waits for its\n"
          "               health mark; without one in --timeout it rolls back by itself.\n"
          "status         the slots, their versions, which is active, the last result.\n"
          "check-health   at boot: waits for the pending update's health mark; keeps it, or\n"
          "               rolls back.\n"
          "confirm        keeps a pending update without waiting.\n"
          "rollback       back to the other slot (refused when the store migrated past it).\n"
          "verify BUNDLE  checks a bundle without installing it.\n"
          "make-bundle    (vendor) --binary B --version V --key SECRETKEYFILE --out BUNDLE.\n"
          "make-key       (vendor) --out FILE: a new update-signing key, and its public half.\n"
          "Exit 0 done, 1 the update failed (rolled back) or the bundle is damaged, 78 refused.\n"
          "docs/update.md.\n",
      .options = {{"root", "DIR", "where the slots live (default /opt/atoms-edge)"},
                  stateDirOption(),
                  {"allow-downgrade", "", "apply: install an older (or the same) version"},
                  {"timeout", "SECONDS", "how long the new version has to report healthy (120)"},
                  {"rollback-timeout", "SECONDS",
                   "how long the previous version has after a rollback (120)"},
                  {"restart-command", "CMD",
                   "how to restart the service (default: systemctl restart atoms-edge.service)"},
                  {"no-restart", "", "switch only; the next start and check-health decide"},
                  {"binary", "FILE", "make-bundle: the atoms-edge binary to ship"},
                  {"version", "V", "make-bundle: its version, like 0.2.0"},
                  {"schema", "N",
                   "make-bundle: the store schema it expects (default: this build's)"},
                  {"key", "FILE", "make-bundle: the vendor's secret key file"},
                  {"out", "FILE", "make-bundle: the bundle to write; make-key: the key file"}},
      .minPositionals = 1,
      .maxPositionals = 2,
      .run = runUpdate,
  };
}

}  // namespace atoms::cli
