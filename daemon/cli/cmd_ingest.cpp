// `atoms-edge ingest`: the cloud side of the sync protocol (docs/sync-ingest.md). Consumes the
// segments the boxes publish, verifies them against each site's registered key and last verified
// checkpoint, stores them in its own store (SQLCipher in a directory, or PostgreSQL for a fleet),
// acks, and keeps evidence of gaps, forks and tampering.
#include <Poco/Logger.h>
#include <Poco/Message.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <random>
#include <sstream>

#include "base/canonical_json.h"
#include "base/file_io.h"
#include "daemon/cli/commands.h"
#include "daemon/log/log.h"
#include "daemon/log/setup.h"
#include "daemon/service/process.h"
#include "store/audit_entry.h"
#include "sync/ingest/ingest_report.h"
#include "sync/ingest/ingest_service.h"
#include "sync/ingest/ingest_store.h"
#include "sync/ingest/ingester.h"
#include "sync/ingest/sites_file.h"
#include "sync/paho_transport.h"
#include "sync/segment.h"
#include "sync/worker_thread.h"

namespace atoms::cli {
namespace {

using sync::ingest::IngestStore;

constexpr const char* kName = "atoms-edge ingest: ";

std::string nowText() { return formatTimestamp(std::chrono::system_clock::now()); }

std::string defaultClientId() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') return "atoms-ingest";
  return std::string("atoms-ingest-") + host;
}

// The service's events as structured log lines (daemon/log), with their fields in order.
sync::ingest::IngestLogger loggerFor(Poco::Logger& logger) {
  return [&logger](sync::ingest::IngestLogLevel level, const std::string& msg,
                   const sync::ingest::IngestLogFields& fields) {
    logEvent(logger, pocoPriority(level), msg, fields);
  };
}

Result<std::uint64_t> parseCount(const std::string& option, const std::string& text,
                                 std::uint64_t max) {
  std::uint64_t n = 0;
  if (text.empty() || text.size() > 12) return makeError("--" + option + " must be a number");
  for (char c : text) {
    if (c < '0' || c > '9') return makeError("--" + option + " must be a number");
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (n > max) return makeError("--" + option + " must be at most " + std::to_string(max));
  return n;
}

json::Value siteReportJson(const sync::ingest::SiteReport& r) {
  json::Object o{{"site", r.site},
                 {"entries", static_cast<std::int64_t>(r.entries)},
                 {"verifiedSize", static_cast<std::int64_t>(r.verifiedSize)},
                 {"verifiedRoot", toBase64(r.verifiedRoot)},
                 {"verifiedAt", r.verifiedAt},
                 {"duplicates", static_cast<std::int64_t>(r.duplicates)},
                 {"gaps", static_cast<std::int64_t>(r.gaps)},
                 {"forks", static_cast<std::int64_t>(r.forks)},
                 {"invalid", static_cast<std::int64_t>(r.invalid)},
                 {"alarms", static_cast<std::int64_t>(r.alarms)}};
  if (r.ackedSize) {
    o.emplace("ackedSize", static_cast<std::int64_t>(*r.ackedSize));
    o.emplace("ackedAt", r.ackedAt);
  } else {
    o.emplace("ackedSize", json::Value());
    o.emplace("ackedAt", json::Value());
  }
  return o;
}

// One line per site (or one JSON object per line with --json), then the evidence rows (text only).
int report(IngestStore& store, bool asJson, Io& io) {
  auto r = sync::ingest::storeReport(store);
  if (!r) {
    io.err << kName << r.message() << "\n";
    return kExitFailure;
  }
  if (asJson) {
    json::Array sites;
    for (const auto& s : r->sites) sites.push_back(siteReportJson(s));
    json::Object o{{"sites", std::move(sites)},
                   {"unknownSite", static_cast<std::int64_t>(r->unknownSite)}};
    io.out << json::canonical(o) << "\n";
    io.out.flush();
    return io.out ? kExitOk : kExitFailure;
  }
  io.out << "sites " << r->sites.size() << " unknown-site segments " << r->unknownSite << "\n";
  for (const auto& s : r->sites) {
    io.out << "site " << s.site << " entries " << s.entries << " verified " << s.verifiedSize
           << " root " << toBase64(s.verifiedRoot) << " at " << s.verifiedAt << " acked ";
    if (s.ackedSize) {
      io.out << *s.ackedSize << " at " << s.ackedAt;
    } else {
      io.out << "never";
    }
    io.out << " duplicates " << s.duplicates << " gaps " << s.gaps << " forks " << s.forks
           << " invalid " << s.invalid << " alarms " << s.alarms << "\n";
  }
  auto evidence = store.evidence();
  if (!evidence) {
    io.err << kName << evidence.message() << "\n";
    return kExitFailure;
  }
  for (const auto& e : *evidence) {
    if (e.kind == "gap") continue;  // normal after a restart: counted above
    io.out << "evidence " << e.id << " " << e.kind << " site " << e.site;
    if (e.from && e.to) io.out << " segment " << *e.from << ".." << *e.to;
    io.out << " seen " << e.count << " last " << e.lastSeen << ": " << e.detail << "\n";
  }
  io.out.flush();
  return io.out ? kExitOk : kExitFailure;
}

// The stored entries of one site as segments, one canonical JSON per line (export-segments' form).
int exportStored(IngestStore& store, const Args& args, Io& io) {
  const std::string site = args.get("export", "");
  auto from = parseCount("from", args.get("from", "0"), json::kMaxSafeInteger);
  if (!from) {
    io.err << kName << from.message() << "\n";
    return kExitUsage;
  }
  std::uint64_t toDefault = 0;
  if (!args.has("to")) {
    auto rec = store.loadSite(site);
    if (rec && *rec) toDefault = (**rec).state.size;
  }
  auto to = args.has("to") ? parseCount("to", args.get("to", ""), json::kMaxSafeInteger)
                           : Result<std::uint64_t>(toDefault);
  auto maxBytes = parseCount("max-bytes", args.get("max-bytes", "1048576"), 1ULL << 32);
  for (const auto* r : {&to, &maxBytes}) {
    if (!*r) {
      io.err << kName << r->message() << "\n";
      return kExitUsage;
    }
  }
  auto segments = sync::ingest::storedSegments(store, site, *from, *to, *maxBytes);
  if (!segments) {
    io.err << kName << segments.message() << "\n";
    return kExitFailure;
  }
  for (const Segment& seg : *segments) io.out << segmentJson(seg) << "\n";
  io.out.flush();
  return io.out ? kExitOk : kExitFailure;
}

// Blocks until SIGTERM, SIGINT or SIGQUIT (blocked in every thread by prepareServiceSignals).
void waitForTermination() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGQUIT);
  int sig = 0;
  while (sigwait(&set, &sig) != 0) {
  }
}

int runIngest(const Args& args, Io& io) {
  const std::string dir = args.get("store", "");
  if (dir.empty()) {
    io.err << kName << "--store DIR or --store postgresql://... is required\n";
    return kExitUsage;
  }
  if (args.has("report") || args.has("export")) {
    if (args.has("export") && args.get("export", "").empty()) {
      io.err << kName << "--export needs a SITE\n";
      return kExitUsage;
    }
    auto store = IngestStore::open(dir, IngestStore::Mode::kReadOnly);
    if (!store) {
      io.err << kName << store.message() << "\n";
      return kExitConfig;
    }
    if (args.has("export")) return exportStored(**store, args, io);
    return report(**store, args.has("json"), io);
  }
  if (!args.has("broker") && !args.has("sites")) {
    io.err << kName << "give --broker URI to run, --sites FILE to register sites, or --report\n";
    return kExitUsage;
  }

  // Everything that can be wrong on the command line is checked before anything is opened.
  LogSettings logSettings;
  if (args.has("log-level")) {
    auto level = parseLogLevel(args.get("log-level", ""));
    if (!level) {
      io.err << kName << "--log-level must be one of error, warning, info, debug\n";
      return kExitUsage;
    }
    logSettings.level = *level;
  }
  std::optional<std::vector<sync::ingest::SiteKey>> sites;
  if (args.has("sites")) {
    auto parsed = sync::ingest::readSitesFile(args.get("sites", ""));
    if (!parsed) {
      io.err << kName << parsed.message() << "\n";
      return kExitConfig;
    }
    sites = std::move(*parsed);
  }
  sync::MqttSettings mqtt;
  sync::ingest::IngestOptions options;
  if (args.has("broker")) {
    mqtt.uri = args.get("broker", "");
    mqtt.clientId = args.get("client-id", defaultClientId());
    const std::string version = args.get("mqtt-version", "5");
    if (version != "5" && version != "3.1.1") {
      io.err << kName << "--mqtt-version must be 5 or 3.1.1\n";
      return kExitUsage;
    }
    mqtt.mqttVersion = version == "5" ? 5 : 4;
    mqtt.caFile = args.get("ca-file", "");
    mqtt.clientCert = args.get("client-cert", "");
    mqtt.clientKey = args.get("client-key", "");
    mqtt.username = args.get("username", "");
    if (args.has("password-file")) {
      if (mqtt.username.empty()) {
        io.err << kName << "--password-file needs --username\n";
        return kExitUsage;
      }
      auto pw = readSecretLine(args.get("password-file", ""), "--password-file");
      if (!pw) {
        io.err << kName << pw.message() << "\n";
        return kExitConfig;
      }
      mqtt.password = std::move(*pw);
    }
    options.shareGroup = args.get("group", options.shareGroup);
    if (args.has("reorder-wait-ms")) {
      auto ms = parseCount("reorder-wait-ms", args.get("reorder-wait-ms", ""), 600000);
      if (!ms) {
        io.err << kName << ms.message() << "\n";
        return kExitUsage;
      }
      options.reorderWait = std::chrono::milliseconds(*ms);
    }
    for (const auto& [option, bound] : {std::pair{"backoff-min-ms", &options.backoff.initial},
                                        std::pair{"backoff-max-ms", &options.backoff.max}}) {
      if (!args.has(option)) continue;
      auto ms = parseCount(option, args.get(option, ""), 3600000);
      if (!ms || *ms == 0) {
        io.err << kName << (ms ? "--" + std::string(option) + " must be at least 1" : ms.message())
               << "\n";
        return kExitUsage;
      }
      *bound = std::chrono::milliseconds(*ms);
    }
    if (options.backoff.max < options.backoff.initial) {
      io.err << kName << "--backoff-max-ms must be at least --backoff-min-ms\n";
      return kExitUsage;
    }
    // 0 by default: a member that stops or dies leaves the shared subscription at once, instead
    // of a persistent session that goes on taking its share of the segments (docs/sync-ingest.md).
    mqtt.sessionExpiry = std::chrono::seconds(0);
    if (args.has("session-expiry-s")) {
      auto s = parseCount("session-expiry-s", args.get("session-expiry-s", ""), 30 * 24 * 3600);
      if (!s) {
        io.err << kName << s.message() << "\n";
        return kExitUsage;
      }
      mqtt.sessionExpiry = std::chrono::seconds(*s);
    }
  }

  if (Status s = prepareServiceSignals(); !s) {
    io.err << kName << s.message() << "\n";
    return kExitSoftware;
  }
  applyLogSettings(logSettings, io.err);
  Poco::Logger& logger = Poco::Logger::get("ingest");

  auto opened = IngestStore::open(dir, IngestStore::Mode::kReadWrite);
  if (!opened) {
    io.err << kName << opened.message() << "\n";
    return kExitConfig;
  }
  std::unique_ptr<IngestStore> store = std::move(*opened);
  if (sites) {
    auto added = store->registerSites(*sites, nowText());
    if (!added) {
      io.err << kName << added.message() << "\n";
      return kExitConfig;
    }
    logInfo(logger, "sites registered",
            {{"listed", sites->size()}, {"new", *added}, {"store", store->describe()}});
  }
  if (!args.has("broker")) return kExitOk;

  auto registered = store->sites();
  if (registered && registered->empty()) {
    logWarning(logger, "no site is registered yet: every segment will be refused (use --sites)");
  }

  // The store, the ingester and the service live on the worker; this thread waits for a signal.
  sync::WorkerThread worker;
  sync::ingest::Ingester ingester(*store, [] { return std::chrono::system_clock::now(); });
  std::unique_ptr<sync::ingest::IngestService> service;
  auto started = worker.call([&]() -> std::string {
    auto transport = sync::PahoTransport::create(mqtt, worker);
    if (!transport) return transport.message();
    auto rng = std::make_shared<std::mt19937_64>(std::random_device{}());
    auto created = sync::ingest::IngestService::create(
        sync::ingest::IngestService::Deps{ingester, std::move(*transport), worker,
                                          [rng] { return (*rng)(); }, loggerFor(logger)},
        options);
    if (!created) return created.message();
    service = std::move(*created);
    service->start();
    return {};
  });
  if (!started || !started->empty()) {
    io.err << kName << (started ? *started : std::string("the worker did not start")) << "\n";
    return kExitConfig;
  }
  logInfo(logger, "ready", {{"store", store->describe()}, {"client_id", mqtt.clientId}});
  waitForTermination();
  (void)worker.call([&] {
    service.reset();
    return true;
  });
  worker.stop();
  return kExitOk;
}

}  // namespace

Command ingestCommand() {
  return Command{
      .name = "ingest",
      .summary = "the cloud side: verify, store and ack the sites' audit segments",
      .usage =
          "atoms-edge ingest --store DIR [--sites FILE] [--broker URI [options]] | "
          "--store DIR --report [--json] | --store DIR --export SITE [--from A] [--to B]",
      .help =
          "Subscribes to $share/ingest/atoms/v1/+/audit (QoS 1, persistent session) and checks\n"
          "every segment against the last checkpoint verified for its site: the checkpoint\n"
          "signature with the site's registered key, the consistency proof, the entries' hash\n"
          "chain and every receipt signature. Verified entries are stored once each in the\n"
          "store, then the ack is published on atoms/v1/S/ack. The store is a directory DIR (an\n"
          "encrypted SQLite store made at first run) or a PostgreSQL database given as a libpq\n"
          "URI postgresql://USER@HOST:PORT/DB (tables made at first run; the password from\n"
          "~/.pgpass, PGPASSWORD or a passfile= parameter, never the command line).\n"
          "Duplicates are acked again; gaps are dropped (the box resends); forks and tampered\n"
          "segments are kept as evidence, never acked, and raise an alarm (log line and the\n"
          "retained topic atoms/v1/S/alarm). Segments of unregistered sites are refused.\n"
          "Several ingest processes may share one broker and one store: one DIR on one\n"
          "machine, one database across machines.\n"
          "\n"
          "--sites FILE registers sites (a JSON list of {\"site\", \"publicKey\"}); without\n"
          "--broker it registers and exits. Runs until SIGTERM or SIGINT.\n"
          "\n"
          "--report prints one line per site: entries stored, the verified size and root and\n"
          "when, the last ack, duplicates, gaps, forks, invalid segments and alarms; then the\n"
          "fork and invalid evidence rows (--json: one JSON object). --export SITE writes the\n"
          "stored entries [A, B) of SITE as segments, one JSON per line, cut as the box's\n"
          "`export-segments --from A --to B` (identical when the range is one segment on\n"
          "both sides: give both the same large --max-bytes), so `diff` compares\n"
          "box and cloud entry by entry. A and B must be 0 or sizes the ingest stored a\n"
          "checkpoint for (B defaults to the verified size). Both only read the store and run\n"
          "beside a running ingest. Operators: docs/sync-ingest.md.\n",
      .options =
          {
              {"store", "DIR|URI",
               "the ingest store: a directory, or a postgresql:// database (made at first run)"},
              {"sites", "FILE", "register the sites listed in FILE (JSON) before running"},
              {"broker", "URI", "tcp://, mqtt://, ssl:// or mqtts:// HOST:PORT"},
              {"client-id", "ID",
               "MQTT client id, distinct per process (default atoms-ingest-HOST)"},
              {"username", "USER", "MQTT username (the broker's ingest identity)"},
              {"password-file", "FILE", "file holding the MQTT password (one line)"},
              {"ca-file", "FILE", "PEM CA certificates for the broker (TLS; default system CAs)"},
              {"client-cert", "FILE", "PEM client certificate (TLS, with --client-key)"},
              {"client-key", "FILE", "PEM key of the client certificate"},
              {"mqtt-version", "V", "5 (default) or 3.1.1"},
              {"group", "NAME", "shared subscription group (default ingest)"},
              {"reorder-wait-ms", "MS",
               "how long a segment that arrived early waits for its predecessor (default 2000)"},
              {"backoff-min-ms", "MS", "first reconnect delay (default 1000)"},
              {"backoff-max-ms", "MS", "longest reconnect delay (default 60000)"},
              {"session-expiry-s", "S",
               "how long the broker keeps this member's session after it goes (default 0: "
               "none, so the group stops sending it segments at once)"},
              {"log-level", "LEVEL", "error, warning, info (default) or debug"},
              {"report", "", "print each site's state, acks and evidence counts, and exit"},
              {"json", "", "with --report: one JSON object instead of lines"},
              {"export", "SITE", "write SITE's stored entries as segments (one JSON per line)"},
              {"from", "A", "with --export: first entry (0 or a stored checkpoint; default 0)"},
              {"to", "B", "with --export: end, exclusive (default the verified size)"},
              {"max-bytes", "BYTES", "with --export: segment size bound (default 1048576)"},
          },
      .minPositionals = 0,
      .maxPositionals = 0,
      .run = runIngest,
  };
}

}  // namespace atoms::cli
