// bench_sms_webhook: inbound SMS webhook to committed message, over real loopback HTTP.
//
// A TwilioGateway (drivers/sms/twilio) serves its webhooks into the real Inbox (sms/mailbox) on a
// fresh state directory: every message is committed to the SQLCipher database with its signed
// "sms.in" audit entry (WAL, synchronous=FULL) before the webhook answers 200. C client threads
// send N correctly signed Twilio requests over keep-alive connections on an open-loop schedule of
// R requests per second in total. Latency is measured from the moment a request was due, not when
// it was sent, so a server that falls behind is charged for the queue it causes (no coordinated
// omission). At the end every message must be in the inbox exactly once.
//
// Usage: bench_sms_webhook [--requests N] [--rate R] [--clients C] [--threads T] [--memory]
// (defaults 5000, 250, 8, 16). --memory replaces the Inbox by a sink that only counts, to show
// what the driver itself costs. Prints figures; asserts only that every request was stored.
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
  int requests = 5000;
  int rate = 250;
  int clients = 8;
  int threads = 16;
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
      o.rate = v;
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

}  // namespace
}  // namespace atoms

int main(int argc, char** argv) {
  using namespace atoms;
  const Options opt = parseArgs(argc, argv);

  testing::TempDir tmp;
  const std::string stateDir = tmp.sub("state");
  if (Status s = initStateDir(stateDir, {"bench-site"}); !s) die(s.message());
  auto opened = SiteStore::open(stateDir);
  if (!opened) die(opened.message());
  std::unique_ptr<SiteStore> store = std::move(*opened);
  atoms::LockedStoreRunner runner(*store);
  auto now = [] { return std::chrono::system_clock::now(); };
  sms::mailbox::Outbox outbox(runner, now, [] { return 0.5; });
  sms::mailbox::Inbox inbox(runner, outbox, "twilio", now);

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
  CountingSink counting;
  drivers::SmsSink& sink = opt.memory ? static_cast<drivers::SmsSink&>(counting) : inbox;
  if (Status s = gateway.start(sink); !s) die(s.message());

  const std::uint16_t port = gateway.webhookPort();
  const std::string url = "https://shop-42.example.net/atoms/sms/inbound";
  std::vector<Prepared> requests;
  requests.reserve(static_cast<std::size_t>(opt.requests));
  for (int i = 0; i < opt.requests; ++i) requests.push_back(prepare(i, url));

  std::vector<double> latencyMs(static_cast<std::size_t>(opt.requests), 0);
  std::vector<double> serviceMs(static_cast<std::size_t>(opt.requests), 0);
  std::atomic<int> failures{0};
  const auto interval = std::chrono::nanoseconds(1'000'000'000LL / opt.rate);
  const Clock::time_point start = Clock::now() + std::chrono::milliseconds(100);
  std::vector<Clock::time_point> finished(static_cast<std::size_t>(opt.clients), start);

  std::vector<std::thread> clients;
  for (int c = 0; c < opt.clients; ++c) {
    clients.emplace_back([&, c] {
      Poco::Net::HTTPClientSession session("127.0.0.1", port);
      session.setKeepAlive(true);
      session.setTimeout(Poco::Timespan(30, 0));
      for (int i = c; i < opt.requests; i += opt.clients) {
        const Clock::time_point due = start + interval * i;
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
        latencyMs[static_cast<std::size_t>(i)] =
            std::chrono::duration<double, std::milli>(done - due).count();
        serviceMs[static_cast<std::size_t>(i)] =
            std::chrono::duration<double, std::milli>(done - sent).count();
        finished[static_cast<std::size_t>(c)] = done;
      }
    });
  }
  for (std::thread& t : clients) t.join();
  const Clock::time_point end = *std::max_element(finished.begin(), finished.end());
  gateway.stop();

  std::int64_t stored = counting.count.load();
  Status counted = opt.memory ? Status() : runner.run([&](SiteStore& st) -> Status {
    auto stmt = st.db().prepare("SELECT COUNT(*) FROM sms_inbox WHERE state = 'new'");
    if (!stmt) return stmt.error();
    auto row = stmt->step();
    if (!row) return row.error();
    stored = stmt->columnInt64(0);
    return Status::success();
  });
  if (!counted) die(counted.message());

  std::sort(latencyMs.begin(), latencyMs.end());
  std::sort(serviceMs.begin(), serviceMs.end());
  const double seconds = std::chrono::duration<double>(end - start).count();
  std::printf(
      "sms webhook benchmark: %d signed inbound requests, %d clients (keep-alive), %d server "
      "threads, target %d/s\n",
      opt.requests, opt.clients, opt.threads, opt.rate);
  if (opt.memory) {
    std::printf("sink: in memory, nothing stored (what the driver itself costs)\n");
  } else {
    std::printf(
        "each answered 200 only after Inbox::acceptInbound committed (row + signed audit "
        "entry, WAL, synchronous=FULL)\n");
  }
  std::printf("achieved: %.1f requests/s over %.2f s; failures %d; stored %lld of %d\n",
              opt.requests / seconds, seconds, failures.load(), static_cast<long long>(stored),
              opt.requests);
  std::printf("latency from due time (ms): p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n",
              percentile(latencyMs, 0.50), percentile(latencyMs, 0.90), percentile(latencyMs, 0.99),
              latencyMs.back());
  std::printf("service time, send to answer (ms): p50 %.2f  p99 %.2f  max %.2f\n",
              percentile(serviceMs, 0.50), percentile(serviceMs, 0.99), serviceMs.back());
  if (failures > 0 || stored != opt.requests) die("not every request was stored exactly once");
  return 0;
}
