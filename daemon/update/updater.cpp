#include "daemon/update/updater.h"

#include <sodium.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <filesystem>
#include <fstream>

#include "base/canonical_json.h"
#include "base/file_io.h"
#include "base/file_system.h"
#include "base/timestamp.h"
#include "daemon/update/health_mark.h"
#include "store/database.h"
#include "store/key_file.h"
#include "store/state_dir.h"

namespace atoms::update {
namespace {

constexpr const char* kBinaryName = "atoms-edge";

std::string slotDir(const UpdateEnv& env, const std::string& slot) {
  return env.root + "/slots/" + slot;
}
std::string slotBinary(const UpdateEnv& env, const std::string& slot) {
  return slotDir(env, slot) + "/" + kBinaryName;
}
std::string currentLink(const UpdateEnv& env) { return env.root + "/current"; }
std::string statePath(const UpdateEnv& env) { return env.root + "/update.json"; }
std::string otherSlot(const std::string& slot) { return slot == "a" ? "b" : "a"; }

std::string updateNowText(const UpdateEnv& env) {
  return formatTimestamp(env.clock != nullptr ? env.clock->now()
                                              : std::chrono::system_clock::now());
}

std::string secondsText(std::chrono::milliseconds d) {
  return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(d).count()) + " s";
}

// The slot R/current points at ("a" / "b"); nullopt before the first apply.
Result<std::optional<std::string>> activeSlot(const UpdateEnv& env) {
  std::error_code ec;
  const std::filesystem::path target = std::filesystem::read_symlink(currentLink(env), ec);
  if (ec) {
    if (!posixFileSystem().exists(currentLink(env))) return std::optional<std::string>();
    return makeError(currentLink(env) + " is not a symlink to a slot: " + ec.message());
  }
  const std::string t = target.string();
  if (t != "slots/a" && t != "slots/b") {
    return makeError(currentLink(env) + " points at " + t + ", not at slots/a or slots/b");
  }
  return std::optional<std::string>(t.substr(6));
}

Result<std::optional<Manifest>> slotManifest(const UpdateEnv& env, const std::string& slot) {
  const std::string path = slotDir(env, slot) + "/manifest.json";
  auto text = readFileToString(path);
  if (!text) {
    if (text.kind() == ErrorKind::kNotFound) return std::optional<Manifest>();
    return text.error();
  }
  std::string line = *text;
  while (!line.empty() && line.back() == '\n') line.pop_back();
  auto manifest = parseManifest(line);
  if (!manifest) return makeError(path + ": " + manifest.message(), ErrorKind::kCorrupt);
  return std::optional<Manifest>(std::move(*manifest));
}

// R/update.json
struct StoredState {
  std::optional<Pending> pending;
  std::optional<LastResult> last;
};

std::string fieldOf(const json::Value& v, const char* key) {
  const json::Value* f = v.find(key);
  return f != nullptr && f->isString() ? f->asString() : std::string();
}

Result<StoredState> readStoredState(const UpdateEnv& env) {
  auto text = readFileToString(statePath(env));
  if (!text) {
    if (text.kind() == ErrorKind::kNotFound) return StoredState{};
    return text.error();
  }
  auto parsed = json::parse(*text);
  if (!parsed || !parsed->isObject()) {
    return makeError(statePath(env) + " is damaged", ErrorKind::kCorrupt);
  }
  StoredState s;
  if (const json::Value* p = parsed->find("pending"); p != nullptr && p->isObject()) {
    s.pending = Pending{fieldOf(*p, "slot"), fieldOf(*p, "from"), fieldOf(*p, "version"),
                        fieldOf(*p, "since")};
  }
  if (const json::Value* l = parsed->find("last"); l != nullptr && l->isObject()) {
    s.last = LastResult{fieldOf(*l, "result"), fieldOf(*l, "version"), fieldOf(*l, "at"),
                        fieldOf(*l, "detail")};
  }
  return s;
}

Status writeStoredState(const UpdateEnv& env, const StoredState& s) {
  json::Object o{{"pending", nullptr}, {"last", nullptr}};
  if (s.pending) {
    o["pending"] = json::Object{{"slot", s.pending->slot},
                                {"from", s.pending->from},
                                {"version", s.pending->version},
                                {"since", s.pending->since}};
  }
  if (s.last) {
    o["last"] = json::Object{{"result", s.last->result},
                             {"version", s.last->version},
                             {"at", s.last->at},
                             {"detail", s.last->detail}};
  }
  if (Status w = replaceFileDurably(statePath(env), json::canonical(o) + "\n"); !w) {
    return makeError("cannot write " + statePath(env) + ": " + w.message());
  }
  return Status::success();
}

// Records the last result in R/update.json and a line in R/update.log. Best effort for the log.
Status recordResult(const UpdateEnv& env, StoredState& s, const std::string& result,
                    const std::string& version, const std::string& detail) {
  s.last = LastResult{result, version, updateNowText(env), detail};
  std::ofstream log(env.root + "/update.log", std::ios::app);
  log << json::canonical(json::Object{
             {"at", s.last->at}, {"detail", detail}, {"result", result}, {"version", version}})
      << "\n";
  return writeStoredState(env, s);
}

// A refusal: recorded as the last result when R exists, returned with `kind` (kRefused: a rule
// said no; kCorrupt / kInvalid: the bundle itself is bad).
Error refuseUpdate(const UpdateEnv& env, const std::string& version, const std::string& why,
                   ErrorKind kind = ErrorKind::kRefused) {
  if (posixFileSystem().exists(env.root)) {
    auto s = readStoredState(env);
    StoredState state = s ? *s : StoredState{};
    (void)recordResult(env, state, "refused", version, why);
  }
  return makeError(why, kind);
}

// Points R/current at slot: a new symlink renamed over the old one, then R synced.
Status switchTo(const UpdateEnv& env, const std::string& slot) {
  const std::string tmp = currentLink(env) + ".new";
  ::unlink(tmp.c_str());
  const std::string target = "slots/" + slot;
  if (::symlink(target.c_str(), tmp.c_str()) != 0) {
    return makeError("cannot create " + tmp + ": " + errnoText(errno));
  }
  if (Status s = posixFileSystem().rename(tmp, currentLink(env)); !s) {
    return makeError("cannot switch " + currentLink(env) + " to " + target + ": " + s.message());
  }
  return fsyncDirectory(env.root);
}

Status makeDirIfMissing(const std::string& dir, unsigned mode) {
  FileSystem& fs = posixFileSystem();
  if (fs.exists(dir)) return Status::success();
  if (Status s = fs.makeDirectory(dir, mode); !s) {
    return makeError("cannot create " + dir + ": " + s.message());
  }
  return Status::success();
}

// Removes a slot folder (its binary and manifest; nothing else is ever put there).
Status removeSlotDir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  if (ec) return makeError("cannot remove " + dir + ": " + ec.message());
  return Status::success();
}

// Writes manifest.json into dir.
Status writeSlotManifest(const std::string& dir, const Manifest& m) {
  return replaceFileDurably(dir + "/manifest.json", manifestJson(m) + "\n");
}

// Before the first apply: slot a gets the running binary, R/current points at it.
Status seedFirstSlot(const UpdateEnv& env) {
  if (Status s = makeDirIfMissing(env.root + "/slots", 0755); !s) return s;
  const std::string staged = slotDir(env, "a") + ".new";
  if (Status s = removeSlotDir(staged); !s) return s;
  if (Status s = makeDirIfMissing(staged, 0755); !s) return s;
  // The running binary is not signed by a bundle; hash it so status can show what it is.
  FileSystem& fs = posixFileSystem();
  auto in = fs.openForRead(env.runningBinary);
  if (!in) return makeError("cannot read the running binary " + env.runningBinary);
  auto out = fs.createFile(staged + "/" + kBinaryName, CreateMode::kExclusive, 0755);
  if (!out) return makeError("cannot create the first slot in " + staged + ": " + out.message());
  crypto_generichash_state state;
  crypto_generichash_init(&state, nullptr, 0, crypto_generichash_BYTES_MAX);
  std::array<std::uint8_t, 64 * 1024> buffer{};
  std::uint64_t size = 0;
  for (;;) {
    auto n = (*in)->read(buffer);
    if (!n) return makeError("cannot read the running binary: " + n.message());
    if (*n == 0) break;
    size += *n;
    crypto_generichash_update(&state, buffer.data(), *n);
    if (Status s =
            (*out)->append(std::string_view(reinterpret_cast<const char*>(buffer.data()), *n));
        !s) {
      return makeError("cannot write the first slot: " + s.message());
    }
  }
  std::array<std::uint8_t, crypto_generichash_BYTES_MAX> digest{};
  crypto_generichash_final(&state, digest.data(), digest.size());
  if (Status s = (*out)->setMode(0755); !s) return s;
  if (Status s = (*out)->sync(); !s) return s;
  if (Status s = (*out)->close(); !s) return s;
  const Manifest m{.version = env.runningVersion,
                   .schema = env.runningSchema,
                   .binarySize = size,
                   .binaryHash = toHex(digest)};
  if (Status s = writeSlotManifest(staged, m); !s) return s;
  // Nothing points at a slot yet, so a slot a there is a leftover of an interrupted first run.
  if (Status s = removeSlotDir(slotDir(env, "a")); !s) return s;
  if (Status s = fs.rename(staged, slotDir(env, "a")); !s) {
    return makeError("cannot put the first slot in place: " + s.message());
  }
  if (Status s = fsyncDirectory(env.root + "/slots"); !s) return s;
  return switchTo(env, "a");
}

// Restarts the service (when the env can) and waits for the health mark of `slot`'s binary.
bool restartAndWait(const UpdateEnv& env, const std::string& slot,
                    std::chrono::milliseconds timeout, std::string& why) {
  if (!env.restartService || !env.waitHealthy) return false;
  if (Status s = env.restartService(); !s) {
    why = "did not start (" + s.message() + ")";
    return false;
  }
  const std::string binary = slotBinary(env, slot);
  const std::string stateDir = env.stateDir;
  if (!env.waitHealthy([&] { return markedHealthyBy(stateDir, binary); }, timeout)) {
    why = "did not report healthy within " + secondsText(timeout);
    return false;
  }
  return true;
}

// Switches to `to` after a failed or unwanted version; refused (kRefused) when `to` expects an
// older schema than the database has now. `reason` says why we go back.
Result<UpdateReport> goBack(const UpdateEnv& env, StoredState& state, const std::string& from,
                            const std::string& to, const std::string& reason, bool automatic) {
  auto fromManifest = slotManifest(env, from);
  auto target = slotManifest(env, to);
  if (!target) return target.error();
  const std::string fromVersion =
      fromManifest && fromManifest->has_value() ? (*fromManifest)->version : "?";
  if (!target->has_value()) {
    return refuseUpdate(env, fromVersion,
                        "there is no previous version to roll back to (slot " + to + " is empty)");
  }
  const Manifest& back = **target;
  auto schema = stateSchemaVersion(env.stateDir);
  if (!schema)
    return refuseUpdate(env, back.version,
                        "cannot read the state directory's schema: " + schema.message());
  if (schema->has_value() && back.schema < **schema) {
    const std::string why = "rolling back to " + back.version +
                            " is refused: it expects store schema " + std::to_string(back.schema) +
                            ", and the state directory is at schema " + std::to_string(**schema) +
                            " (migrations only go forward, so " + back.version +
                            " could not open it)";
    if (!automatic) return refuseUpdate(env, back.version, why);
    state.pending.reset();
    (void)recordResult(env, state, "rollback refused", fromVersion,
                       fromVersion + " " + reason + "; " + why);
    return UpdateReport{.outcome = Outcome::kRollbackRefused,
                        .slot = from,
                        .version = fromVersion,
                        .detail = fromVersion + " " + reason + "; " + why +
                                  ". It stays active: look at its log (journalctl -u atoms-edge).",
                        .healthy = false};
  }
  if (Status s = clearHealthMark(env.stateDir); !s) return s.error();
  if (Status s = switchTo(env, to); !s) return s.error();
  state.pending.reset();
  std::string detail = automatic ? fromVersion + " " + reason + "; rolled back to " + back.version
                                 : "from " + fromVersion + " to " + back.version;
  if (!reason.empty() && !automatic) detail += " (" + reason + ")";
  bool healthy = true;
  if (env.restartService) {
    std::string why;
    healthy = restartAndWait(env, to, env.rollbackTimeout, why);
    detail += healthy ? "; " + back.version + " reports healthy"
                      : "; " + back.version + " has not reported healthy either (it " + why +
                            "): look at journalctl -u atoms-edge";
  }
  if (Status s = recordResult(env, state, "rolled back", back.version, detail); !s) {
    return s.error();
  }
  return UpdateReport{.outcome = Outcome::kRolledBack,
                      .slot = to,
                      .version = back.version,
                      .detail = detail,
                      .healthy = healthy};
}

// After switching to pending.slot: restart, wait, then keep it or go back.
Result<UpdateReport> settlePending(const UpdateEnv& env, StoredState& state, bool restart,
                                   std::chrono::milliseconds timeout) {
  const Pending pending = *state.pending;
  std::string why;
  bool healthy = false;
  if (restart) {
    healthy = restartAndWait(env, pending.slot, timeout, why);
  } else {
    healthy =
        env.waitHealthy &&
        env.waitHealthy(
            [&] { return markedHealthyBy(env.stateDir, slotBinary(env, pending.slot)); }, timeout);
    if (!healthy) why = "did not report healthy within " + secondsText(timeout);
  }
  if (healthy) {
    state.pending.reset();
    const std::string detail = pending.version + " reports healthy";
    if (Status s = recordResult(env, state, "applied", pending.version, detail); !s) {
      return s.error();
    }
    return UpdateReport{.outcome = Outcome::kApplied,
                        .slot = pending.slot,
                        .version = pending.version,
                        .detail = detail};
  }
  return goBack(env, state, pending.slot, pending.from, why, true);
}

std::unique_ptr<FileLock> lockRoot(const UpdateEnv& env, Status& status) {
  if (Status s = makeDirIfMissing(env.root, 0755); !s) {
    status = s;
    return nullptr;
  }
  auto lock = posixFileSystem().lockFile(env.root + "/update.lock");
  if (!lock) {
    status = makeError("cannot lock " + env.root + "/update.lock: " + lock.message());
    return nullptr;
  }
  return std::move(*lock);
}

}  // namespace

Result<std::optional<int>> stateSchemaVersion(const std::string& stateDir) {
  const StateDirPaths paths = resolveStatePaths(stateDir);
  if (!posixFileSystem().exists(paths.database)) return std::optional<int>();
  auto key = readKeyFile(paths.dbKey, KeyKind::Database);
  if (!key) {
    // The key may be a systemd credential only the service sees: then the schema serve reported
    // in its health mark at its last start (it migrates before it is ready) stands in.
    auto mark = readHealthMark(stateDir);
    if (mark && mark->schema > 0) return std::optional<int>(mark->schema);
    return makeError(key.message() +
                     "; and no health mark says the schema (start the service once, or make "
                     "db.key readable to update)");
  }
  auto db = Database::open(paths.database, *key, OpenMode::ReadOnly);
  if (!db) return db.error();
  auto stmt = db->prepare("SELECT max(version) FROM schema_migrations");
  if (!stmt) return stmt.error();
  auto row = stmt->step();
  if (!row) return row.error();
  if (!*row || stmt->columnIsNull(0)) return std::optional<int>();
  return std::optional<int>(static_cast<int>(stmt->columnInt64(0)));
}

Result<UpdateReport> initSlots(const UpdateEnv& env) {
  Status locked;
  auto lock = lockRoot(env, locked);
  if (!lock) return locked.error();
  auto active = activeSlot(env);
  if (!active) return active.error();
  if (active->has_value()) {
    return UpdateReport{.outcome = Outcome::kNothingPending,
                        .slot = **active,
                        .detail = env.root + " is already set up (slot " + **active + " active)"};
  }
  if (Status s = makeDirIfMissing(env.root + "/slots", 0755); !s) return s.error();
  if (Status s = seedFirstSlot(env); !s) return s.error();
  StoredState state;
  if (Status s = recordResult(env, state, "set up", env.runningVersion,
                              "slot a holds the packaged atoms-edge " + env.runningVersion);
      !s) {
    return s.error();
  }
  return UpdateReport{.outcome = Outcome::kInitialised,
                      .slot = "a",
                      .version = env.runningVersion,
                      .detail = "slot a holds atoms-edge " + env.runningVersion + "; " +
                                currentLink(env) + " points at it"};
}

Result<UpdateReport> applyUpdate(const UpdateEnv& env, const std::string& bundlePath,
                                 bool allowDowngrade) {
  Status locked;
  auto lock = lockRoot(env, locked);
  if (!lock) return locked.error();

  auto bundle = openBundle(bundlePath, env.trustedKey);
  if (!bundle) {
    if (bundle.kind() == ErrorKind::kIo || bundle.kind() == ErrorKind::kNotFound) {
      return bundle.error();
    }
    return refuseUpdate(env, "", bundle.message(), bundle.kind());
  }
  const Manifest& incoming = bundle->manifest;
  auto stored = readStoredState(env);
  if (!stored) return stored.error();
  StoredState state = *stored;
  if (state.pending) {
    return refuseUpdate(env, incoming.version,
                        "the update to " + state.pending->version + " (since " +
                            state.pending->since +
                            ") is still waiting for its health check; run `atoms-edge update "
                            "check-health`, `update confirm` or `update rollback` first");
  }
  auto active = activeSlot(env);
  if (!active) return active.error();
  std::string from = active->value_or("a");
  Manifest installed{.version = env.runningVersion, .schema = env.runningSchema};
  if (active->has_value()) {
    auto m = slotManifest(env, from);
    if (!m) return m.error();
    if (!m->has_value()) return makeError("the active slot " + from + " has no manifest.json");
    installed = **m;
  }
  const int order = compareVersions(incoming.version, installed.version);
  if (order <= 0 && !allowDowngrade) {
    return refuseUpdate(env, incoming.version,
                        "bundle " + incoming.version + " is " +
                            (order == 0 ? "the version already installed"
                                        : "older than the installed " + installed.version) +
                            "; --allow-downgrade installs it anyway (only when its schema allows)");
  }
  auto schema = stateSchemaVersion(env.stateDir);
  if (!schema) {
    return refuseUpdate(env, incoming.version,
                        "cannot read the state directory's schema: " + schema.message());
  }
  if (schema->has_value() && incoming.schema < **schema) {
    return refuseUpdate(env, incoming.version,
                        "bundle " + incoming.version + " expects store schema " +
                            std::to_string(incoming.schema) +
                            ", and the state directory is at schema " + std::to_string(**schema) +
                            " (migrations only go forward, so it could not open the database)");
  }

  // The binary is checked as it is staged, before anything else changes.
  const std::string target = otherSlot(from);
  const std::string staged = slotDir(env, target) + ".new";
  if (Status s = makeDirIfMissing(env.root + "/slots", 0755); !s) return s.error();
  if (Status s = removeSlotDir(staged); !s) return s.error();
  if (Status s = makeDirIfMissing(staged, 0755); !s) return s.error();
  if (Status s = extractBinary(bundlePath, *bundle, staged + "/" + kBinaryName); !s) {
    (void)removeSlotDir(staged);
    if (s.kind() == ErrorKind::kCorrupt) {
      return refuseUpdate(env, incoming.version, s.message(), ErrorKind::kCorrupt);
    }
    return s.error();
  }
  if (Status s = writeSlotManifest(staged, incoming); !s) return s.error();
  if (!active->has_value()) {
    if (Status s = seedFirstSlot(env); !s) return s.error();
  }
  if (Status s = removeSlotDir(slotDir(env, target)); !s) return s.error();
  if (Status s = posixFileSystem().rename(staged, slotDir(env, target)); !s) {
    return makeError("cannot put slot " + target + " in place: " + s.message());
  }
  if (Status s = fsyncDirectory(env.root + "/slots"); !s) return s.error();

  state.pending = Pending{target, from, incoming.version, updateNowText(env)};
  if (Status s = writeStoredState(env, state); !s) return s.error();
  if (posixFileSystem().exists(env.stateDir)) {
    if (Status s = clearHealthMark(env.stateDir); !s) return s.error();
  }
  if (Status s = switchTo(env, target); !s) return s.error();
  if (!env.restartService) {
    const std::string detail = "switched to " + incoming.version + " in slot " + target +
                               "; it runs from the next start of the service, and `update "
                               "check-health` keeps it or rolls back";
    std::ofstream(env.root + "/update.log", std::ios::app)
        << json::canonical(json::Object{{"at", state.pending->since},
                                        {"detail", detail},
                                        {"result", "switched"},
                                        {"version", incoming.version}})
        << "\n";
    return UpdateReport{.outcome = Outcome::kSwitched,
                        .slot = target,
                        .version = incoming.version,
                        .detail = detail,
                        .healthy = false};
  }
  return settlePending(env, state, true, env.healthTimeout);
}

Result<UpdateReport> rollbackUpdate(const UpdateEnv& env) {
  Status locked;
  auto lock = lockRoot(env, locked);
  if (!lock) return locked.error();
  auto active = activeSlot(env);
  if (!active) return active.error();
  if (!active->has_value()) {
    return refuseUpdate(env, "", "nothing to roll back: no update was ever applied here");
  }
  auto stored = readStoredState(env);
  if (!stored) return stored.error();
  StoredState state = *stored;
  return goBack(env, state, **active, otherSlot(**active), "asked by the operator", false);
}

Result<UpdateReport> checkHealth(const UpdateEnv& env) {
  Status locked;
  auto lock = lockRoot(env, locked);
  if (!lock) return locked.error();
  auto stored = readStoredState(env);
  if (!stored) return stored.error();
  StoredState state = *stored;
  if (!state.pending) {
    auto active = activeSlot(env);
    if (!active) return active.error();
    const std::string slot = active->value_or("");
    const bool healthy = !slot.empty() && markedHealthyBy(env.stateDir, slotBinary(env, slot));
    return UpdateReport{.outcome = Outcome::kNothingPending,
                        .slot = slot,
                        .detail = "no update is waiting for its health check",
                        .healthy = healthy};
  }
  // The service starts by itself (boot, or systemctl): wait for it, restart only to go back.
  return settlePending(env, state, false, env.healthTimeout);
}

Result<UpdateReport> confirmUpdate(const UpdateEnv& env) {
  Status locked;
  auto lock = lockRoot(env, locked);
  if (!lock) return locked.error();
  auto stored = readStoredState(env);
  if (!stored) return stored.error();
  StoredState state = *stored;
  if (!state.pending) {
    return UpdateReport{.outcome = Outcome::kNothingPending,
                        .detail = "no update is waiting to be confirmed"};
  }
  const Pending pending = *state.pending;
  state.pending.reset();
  const std::string detail = pending.version + " confirmed by the operator";
  if (Status s = recordResult(env, state, "confirmed", pending.version, detail); !s) {
    return s.error();
  }
  return UpdateReport{.outcome = Outcome::kConfirmed,
                      .slot = pending.slot,
                      .version = pending.version,
                      .detail = detail};
}

Result<UpdateStatus> updateStatus(const UpdateEnv& env) {
  UpdateStatus status;
  auto active = activeSlot(env);
  if (!active) return active.error();
  for (const char* name : {"a", "b"}) {
    auto m = slotManifest(env, name);
    if (!m) return m.error();
    status.slots.push_back(SlotView{name, *m, active->has_value() && **active == name});
  }
  auto stored = readStoredState(env);
  if (!stored) return stored.error();
  status.pending = stored->pending;
  status.last = stored->last;
  auto schema = stateSchemaVersion(env.stateDir);
  if (schema) status.stateSchema = *schema;
  return status;
}

}  // namespace atoms::update
