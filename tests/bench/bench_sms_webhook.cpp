// bench_sms_webhook: inbound SMS webhook to committed message, over real loopback HTTP.
//
// A TwilioGateway (drivers/sms/twilio) serves its webhooks into the real Inbox (sms/mailbox) on a
// fresh state directory per run: every message is committed to the SQLCipher database with its
// signed "sms.in" audit entry (WAL, synchronous=FULL) before the webhook answers 200. C client
// threads send N correctly signed Twilio requests over keep-alive connections on an open-loop
// schedule of R requests per second in total. Latency is measured from the moment a request was
// due, not when it was sent, so a server that falls behind is charged for the queue it causes (no
// coordinated omission). At the end of each run every message must be in the inbox exactly once.
//
// One invocation measures, each on its own fresh store: the raw batch-insert limit
// (Inbox::commitBatch with batches of 128, one thread, no HTTP); then at each rate the per-message
// path as it was before group commit (Inbox with batches of 1) and the group commit (batches up to
// 128).
//
// Usage: bench_sms_webhook [--requests N] [--rate R] [--clients C] [--threads T] [--memory]
// (defaults: 20000 per run, the rates 2000 and 4000, 32 clients, 32 threads). --rate R measures
// that one rate. --memory replaces the Inbox by a sink that only counts, to show what the driver
// itself costs. Prints figures; asserts only that every request was stored.
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/bytes.h"
#include "drivers/sms/twilio/form_body.h"
#include "drivers/sms/twilio/twilio_gateway.h"
#include "drivers/sms/twilio/twilio_signature.h"
#include "sms/mailbox/inbox.h"
#include "sms/mailbox/outbox.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "store/store_runner.h"
#include "tests/bench/bench_support.h"
#include "tests/support/temp_dir.h"

namespace atoms {
namespace {

using namespace drivers::twilio;
using bench::Clock;
using bench::die;
using bench::must;
using bench::secondsSince;

const std::string kToken = "bench-auth-token-0123456789abcdef";
const std::string kAccount = "AC0123456789abcdef0123456789abcdef";

struct Options {
  int requests = 20000;
  std::vector<int> rates{2000, 4000};
  int clients = 32;
  int threads = 32;
  bool memory = false;
};

// The driver alone: takes every message, stores nothing.
class CountingSink final : public drivers::SmsSink {
 public:
  Status acceptInbound(const drivers::InboundSms&) override {
    ++count;
    return {};
  }
  Status acceptReport(const drivers::DeliveryReport&) override { return {}; }
  std::atomic<std::int64_t> count{0};
};

Options parseArgs(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--memory") {
      o.memory = true;
      continue;
    }
    if (i + 1 >= argc) die("missing value after " + arg);
    const int v = std::atoi(argv[++i]);
    if (v <= 0) die("bad value for " + arg);
    if (arg == "--requests") {
      o.requests = v;
    } else if (arg == "--rate") {
      o.rates = {v};
    } else if (arg == "--clients") {
      o.clients = v;
    } else if (arg == "--threads") {
      o.threads = std::min(v, 64);
    } else {
      die("unknown option " + arg + " (--requests N --rate R --clients C --threads T --memory)");
    }
  }
  return o;
}

struct Prepared {
  std::string body;
  std::string signature;
};

// What Twilio sends for one inbound SMS (about 600 bytes encoded), signed for url.
Prepared prepare(int i, const std::string& url) {
  char sid[35];
  std::snprintf(sid, sizeof sid, "SM%032x", static_cast<unsigned>(i));
  char from[16];
  std::snprintf(from, sizeof from, "+1555%07d", 1000000 + i % 500);
  const FormFields fields{{"ToCountry", "US"},
                          {"ToState", "CA"},
                          {"SmsMessageSid", sid},
                          {"NumMedia", "0"},
                          {"ToCity", "OAKLAND"},
                          {"FromZip", "94607"},
                          {"SmsSid", sid},
                          {"FromState", "CA"},
                          {"SmsStatus", "received"},
                          {"FromCity", "OAKLAND"},
                          {"Body",
                           "Running about 10 minutes late, bus broke down. Sorry! Can "
                           "someone start the prep for me? 🚌 #" +
                               std::to_string(i)},
                          {"FromCountry", "US"},
                          {"To", "+15550100000"},
                          {"ToZip", "94607"},
                          {"NumSegments", "2"},
                          {"MessageSid", sid},
                          {"AccountSid", kAccount},
                          {"From", from},
                          {"ApiVersion", "2010-04-01"}};
  return {encodeForm(fields), twilioSignature(asBytes(kToken), url, fields)};
}

double percentile(std::vector<double> sorted, double p) {
  if (sorted.empty()) return 0;
  const std::size_t i = std::min(sorted.size() - 1, static_cast<std::size_t>(p * sorted.size()));
  return sorted[i];
}

// What one run measured.
struct Figures {
  double achieved = 0;            // requests/s, first due to last answer
  std::vector<double> latencyMs;  // from due time, sorted
  std::vector<double> serviceMs;  // from send, sorted
  int failures = 0;
  std::int64_t stored = 0;
  std::size_t batches = 0;  // signed checkpoints the run added (one per committed batch)
};

// Open-loop load: `rate` requests/s in total, request i due at start + i/rate, sent by client
// i % clients on its keep-alive connection.
void sendLoad(std::uint16_t port, const std::vector<Prepared>& requests, int rate, int clients,
              Figures& out) {
  const std::size_t n = requests.size();
  out.latencyMs.assign(n, 0);
  out.serviceMs.assign(n, 0);
  std::atomic<int> failures{0};
  const auto interval = std::chrono::nanoseconds(1'000'000'000LL / rate);
  const Clock::time_point start = Clock::now() + std::chrono::milliseconds(100);
  std::vector<Clock::time_point> finished(static_cast<std::size_t>(clients), start);
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      Poco::Net::HTTPClientSession session("127.0.0.1", port);
      session.setKeepAlive(true);
      session.setTimeout(Poco::Timespan(30, 0));
      for (std::size_t i = static_cast<std::size_t>(c); i < n;
           i += static_cast<std::size_t>(clients)) {
        const Clock::time_point due = start + interval * static_cast<std::int64_t>(i);
        std::this_thread::sleep_until(due);  // the load schedule, not a wait for a result
        const Clock::time_point sent = Clock::now();
        try {
          Poco::Net::HTTPRequest req(Poco::Net::HTTPRequest::HTTP_POST, "/sms/inbound",
                                     Poco::Net::HTTPMessage::HTTP_1_1);
          req.setKeepAlive(true);
          req.setContentType("application/x-www-form-urlencoded");
          req.setContentLength(static_cast<std::streamsize>(requests[i].body.size()));
          req.set("X-Twilio-Signature", requests[i].signature);
          session.sendRequest(req) << requests[i].body;
          Poco::Net::HTTPResponse resp;
          std::istream& in = session.receiveResponse(resp);
          std::ostringstream answer;
          answer << in.rdbuf();
          if (resp.getStatus() != Poco::Net::HTTPResponse::HTTP_OK) ++failures;
        } catch (const std::exception& e) {
          if (failures++ == 0) std::fprintf(stderr, "request failed: %s\n", e.what());
          session.reset();
        }
        const Clock::time_point done = Clock::now();
        out.latencyMs[i] = std::chrono::duration<double, std::milli>(done - due).count();
        out.serviceMs[i] = std::chrono::duration<double, std::milli>(done - sent).count();
        finished[static_cast<std::size_t>(c)] = done;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  const Clock::time_point end = *std::max_element(finished.begin(), finished.end());
  out.achieved = static_cast<double>(n) / std::chrono::duration<double>(end - start).count();
  out.failures = failures.load();
  std::sort(out.latencyMs.begin(), out.latencyMs.end());
  std::sort(out.serviceMs.begin(), out.serviceMs.end());
}

// A fresh state directory with an Inbox on it.
struct FreshInbox {
  explicit FreshInbox(std::size_t maxBatch) {
    const std::string stateDir = tmp.sub("state");
    if (Status s = initStateDir(stateDir, {"bench-site"}); !s) die(s.message());
    store = must(SiteStore::open(stateDir), "open the store");
    runner = std::make_unique<LockedStoreRunner>(*store);
    outbox = std::make_unique<sms::mailbox::Outbox>(*runner, now, [] { return 0.5; });
    inbox = std::make_unique<sms::mailbox::Inbox>(*runner, *outbox, "twilio", now, maxBatch);
  }

  std::int64_t newRows() {
    std::int64_t n = 0;
    must(runner->run([&](SiteStore& st) -> Status {
      auto stmt = st.db().prepare("SELECT COUNT(*) FROM sms_inbox WHERE state = 'new'");
      if (!stmt) return stmt.error();
      auto row = stmt->step();
      if (!row) return row.error();
      n = stmt->columnInt64(0);
      return Status::success();
    }),
         "count the inbox");
    return n;
  }

  std::size_t checkpoints() {
    std::size_t n = 0;
    must(runner->run([&](SiteStore& st) -> Status {
      n = st.log().signedSizes().size();
      return Status::success();
    }),
         "count the checkpoints");
    return n;
  }

  static TimePoint now() { return std::chrono::system_clock::now(); }

  testing::TempDir tmp;
  std::unique_ptr<SiteStore> store;
  std::unique_ptr<LockedStoreRunner> runner;
  std::unique_ptr<sms::mailbox::Outbox> outbox;
  std::unique_ptr<sms::mailbox::Inbox> inbox;
};

// The webhook in front of `sink` at `rate`; every request must come back 200.
Figures runWebhook(const Options& opt, const std::vector<Prepared>& requests, int rate,
                   drivers::SmsSink& sink) {
  TwilioConfig config;
  config.accountSid = kAccount;
  config.authToken = SecretBytes(asBytes(kToken));
  config.apiBaseUrl = "http://127.0.0.1:9";  // never called
  config.from = "+15550100000";
  // As behind the TLS proxy of a real site: signed for the public URL, served on loopback.
  config.publicUrl = "https://shop-42.example.net/atoms";
  config.listenPort = 0;
  config.webhookThreads = opt.threads;
  std::atomic<int> refusals{0};
  TwilioGatewayOptions gatewayOptions;
  gatewayOptions.onRefused = [&](const RefusedWebhook& r) {
    if (refusals++ == 0) std::fprintf(stderr, "refused: %d %s\n", r.httpStatus, r.reason.c_str());
  };
  TwilioGateway gateway(std::move(config), gatewayOptions);
  if (Status s = gateway.start(sink); !s) die(s.message());
  Figures f;
  sendLoad(gateway.webhookPort(), requests, rate, opt.clients, f);
  gateway.stop();
  return f;
}

// A run through the real Inbox with batches of up to maxBatch; dies unless all were stored once.
Figures runInbox(const Options& opt, const std::vector<Prepared>& requests, int rate,
                 std::size_t maxBatch) {
  FreshInbox fresh(maxBatch);
  const std::size_t before = fresh.checkpoints();
  Figures f = runWebhook(opt, requests, rate, *fresh.inbox);
  f.stored = fresh.newRows();
  f.batches = fresh.checkpoints() - before;
  if (f.failures > 0 || f.stored != static_cast<std::int64_t>(requests.size())) {
    die("not every request was stored exactly once (failures " + std::to_string(f.failures) +
        ", stored " + std::to_string(f.stored) + " of " + std::to_string(requests.size()) + ")");
  }
  return f;
}

// Rows per second that Inbox::commitBatch stores in full batches of 128 from one thread: the
// limit of the store under the inbox, without HTTP or waiting callers.
double rawBatchInsertRate(int rows) {
  FreshInbox fresh(kMaxGroupCommitItems);
  const std::size_t batch = kMaxGroupCommitItems;
  const std::size_t total = (static_cast<std::size_t>(rows) + batch - 1) / batch * batch;
  std::vector<drivers::InboundSms> messages(total);
  for (std::size_t i = 0; i < total; ++i) {
    char sid[35];
    std::snprintf(sid, sizeof sid, "SM%032zx", i);
    messages[i].providerId = sid;
    messages[i].from = "+1555" + std::to_string(1000000 + i % 500);
    messages[i].to = "+15550100000";
    messages[i].body =
        "Running about 10 minutes late, bus broke down. Sorry! #" + std::to_string(i);
  }
  std::vector<sms::mailbox::Inbox::Arrival> arrivals(batch);
  std::vector<sms::mailbox::Inbox::Arrival*> pointers;
  for (auto& a : arrivals) pointers.push_back(&a);
  std::vector<Status> results(batch);
  const Clock::time_point start = Clock::now();
  for (std::size_t from = 0; from < total; from += batch) {
    for (std::size_t i = 0; i < batch; ++i) arrivals[i] = {&messages[from + i], std::nullopt};
    fresh.inbox->commitBatch(pointers, results);
    for (const Status& s : results) must(s, "commit a batch");
  }
  const double seconds = secondsSince(start);
  if (fresh.newRows() != static_cast<std::int64_t>(total)) die("the raw batches lost rows");
  return static_cast<double>(total) / seconds;
}

void printRow(const char* path, int offered, const Figures& f) {
  std::printf("%-34s %8d %10.1f %8.2f %8.2f %8.2f %9.2f", path, offered, f.achieved,
              percentile(f.latencyMs, 0.50), percentile(f.latencyMs, 0.90),
              percentile(f.latencyMs, 0.99), f.latencyMs.empty() ? 0.0 : f.latencyMs.back());
  if (f.batches > 0) {
    std::printf(" %8zu (%.1f)", f.batches,
                static_cast<double>(f.stored) / static_cast<double>(f.batches));
  }
  std::printf("\n");
}

}  // namespace
}  // namespace atoms

int main(int argc, char** argv) {
  using namespace atoms;
  const Options opt = parseArgs(argc, argv);
  const std::string url = "https://shop-42.example.net/atoms/sms/inbound";
  std::vector<Prepared> requests;
  requests.reserve(static_cast<std::size_t>(opt.requests));
  for (int i = 0; i < opt.requests; ++i) requests.push_back(prepare(i, url));

  std::printf(
      "sms webhook benchmark: %d signed inbound requests per run, %d clients (keep-alive), %d "
      "server threads, a fresh store per run\n",
      opt.requests, opt.clients, opt.threads);
  if (opt.memory) {
    std::printf("sink: in memory, nothing stored (what the driver itself costs)\n");
  } else {
    std::printf(
        "each answered 200 only after its row and signed audit entry were committed (WAL, "
        "synchronous=FULL)\n");
    std::printf(
        "raw batch insert limit (Inbox::commitBatch, batches of %zu, one thread): %.0f "
        "rows/s\n",
        kMaxGroupCommitItems, rawBatchInsertRate(opt.requests));
  }
  std::printf("%-34s %8s %10s %8s %8s %8s %9s %s\n", "path", "offered/s", "achieved/s", "p50 ms",
              "p90 ms", "p99 ms", "max ms", "batches (mean size)");
  if (opt.memory) {
    for (int rate : opt.rates) {
      CountingSink counting;
      Figures f = runWebhook(opt, requests, rate, counting);
      f.stored = counting.count.load();
      printRow("driver alone (memory sink)", rate, f);
      if (f.failures > 0 || f.stored != opt.requests) die("not every request was taken");
    }
    return 0;
  }
  for (int rate : opt.rates) {
    printRow("per message (before: batches of 1)", rate, runInbox(opt, requests, rate, 1));
    printRow("group commit (batches up to 128)", rate,
             runInbox(opt, requests, rate, kMaxGroupCommitItems));
  }
  std::printf("latency is from each request's due time to its answer (open loop)\n");
  return 0;
}
