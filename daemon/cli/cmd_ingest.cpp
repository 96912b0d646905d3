// `atoms-edge ingest`: the cloud side of the sync protocol (docs/sync-ingest.md). Consumes the
// segments the boxes publish, verifies them against each site's registered key and last verified
// checkpoint, stores them in its own SQLCipher store, acks, and keeps evidence of gaps, forks and
// tampering.
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

#include "base/file_io.h"
#include "daemon/cli/commands.h"
#include "daemon/log/log.h"
#include "daemon/log/setup.h"
#include "daemon/service/process.h"
#include "store/audit_entry.h"
#include "sync/ingest/ingest_service.h"
#include "sync/ingest/ingest_store.h"
#include "sync/ingest/ingester.h"
#include "sync/ingest/sites_file.h"
#include "sync/paho_transport.h"
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

int report(IngestStore& store, Io& io) {
  auto sites = store.sites();
  if (!sites) {
    io.err << kName << sites.message() << "\n";
    return kExitFailure;
  }
  auto evidence = store.evidence();
  if (!evidence) {
    io.err << kName << evidence.message() << "\n";
    return kExitFailure;
  }
  io.out << "sites " << sites->size() << "\n";
  for (const auto& s : *sites) {
    std::map<std::string, std::uint64_t> counts;
    for (const auto& e : *evidence) {
      if (e.site == s.key.site) counts[e.kind] += e.count;
    }
    io.out << "site " << s.key.site << " verified " << s.state.size << " root "
           << toBase64(s.state.root) << " updated " << s.updatedAt;
    for (const auto& [kind, n] : counts) io.out << " " << kind << " " << n;
    io.out << "\n";
  }
  for (const auto& e : *evidence) {
    io.out << "evidence " << e.id << " " << e.kind << " site " << e.site;
    if (e.from && e.to) io.out << " segment " << *e.from << ".." << *e.to;
    io.out << " seen " << e.count << " last " << e.lastSeen << ": " << e.detail << "\n";
  }
  return kExitOk;
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
    io.err << kName << "--store DIR is required\n";
    return kExitUsage;
  }
  if (args.has("report")) {
    auto store = IngestStore::open(dir, IngestStore::Mode::kReadOnly);
    if (!store) {
      io.err << kName << store.message() << "\n";
      return kExitConfig;
    }
    return report(**store, io);
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
            {{"listed", sites->size()}, {"new", *added}, {"store", dir}});
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
  logInfo(logger, "ready", {{"store", dir}, {"client_id", mqtt.clientId}});
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
          "--store DIR --report",
      .help =
          "Subscribes to $share/ingest/atoms/v1/+/audit (QoS 1, persistent session) and checks\n"
          "every segment against the last checkpoint verified for its site: the checkpoint\n"
          "signature with the site's registered key, the consistency proof, the entries' hash\n"
          "chain and every receipt signature. Verified entries are stored once each in DIR (an\n"
          "encrypted store made at first run), then the ack is published on atoms/v1/S/ack.\n"
          "Duplicates are acked again; gaps are dropped (the box resends); forks and tampered\n"
          "segments are kept as evidence, never acked, and raise an alarm (log line and the\n"
          "retained topic atoms/v1/S/alarm). Segments of unregistered sites are refused.\n"
          "Several ingest processes may share one broker and one DIR.\n"
          "\n"
          "--sites FILE registers sites (a JSON list of {\"site\", \"publicKey\"}); without\n"
          "--broker it registers and exits. --report prints each site's verified size and the\n"
          "evidence kept. Runs until SIGTERM or SIGINT. Operators: docs/sync-ingest.md.\n",
      .options =
          {
              {"store", "DIR", "the ingest store directory (created at first run)"},
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
              {"report", "", "print the verified state and the evidence of each site, and exit"},
          },
      .minPositionals = 0,
      .maxPositionals = 0,
      .run = runIngest,
  };
}

}  // namespace atoms::cli
