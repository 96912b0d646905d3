#include "daemon/demo/foundation_demo.h"

#include <Poco/Logger.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "base/bytes.h"
#include "base/clock.h"
#include "daemon/engine/engine.h"
#include "store/audit_entry.h"
#include "store/log_verifier.h"
#include "store/site_store.h"
#include "sync/segment.h"

namespace atoms {
namespace {

constexpr const char* kSiteId = "demo-bistro";
constexpr const char* kLeadPhone = "+15550100101";
constexpr const char* kFoundationSitePhone = "+15550100999";

TimePoint demoStart() {
  // Friday 2026-11-27 16:55 UTC: the worst moment of the week (seed 000, EC-MGR-009).
  return std::chrono::sys_days{std::chrono::year{2026} / 11 / 27} + std::chrono::hours{16} +
         std::chrono::minutes{55};
}

std::string clockText(TimePoint t) { return formatTimestamp(t).substr(11, 5); }

json::Value ackReceipt(const std::string& ts, std::uint64_t messageSeq) {
  json::Object source{{"n", 1},
                      {"kind", "message"},
                      {"ref", "audit:" + std::to_string(messageSeq)},
                      {"label", "SMS from the shift lead"},
                      {"asOf", ts}};
  json::Object rule{{"ruleId", "OUT-REPLY-IN-THREAD"},
                    {"input", json::Object{{"to", kLeadPhone}, {"inThread", true}}},
                    {"result", "pass"},
                    {"detail", "a reply to the sender's own message needs no prior consent"}};
  return json::Object{
      {"id", "rcpt-demo-0001"},
      {"createdAt", ts},
      {"sources", json::Array{json::Value(std::move(source))}},
      {"snapshot", json::Array{json::Value(json::Object{{"source", "org_model"}, {"asOf", ts}})}},
      {"ruleEvaluations", json::Array{json::Value(std::move(rule))}},
      {"rationale",
       "The shift lead reported being short on the line [1]; the box replied in "
       "the same thread and set a 20-minute check."},
      {"confidence", "0.9"},
      {"gaps", json::Array{json::Value("call-out offers are not part of this demo yet")}},
      {"visibility", "self_mor"},
      {"action", "sms.reply"},
  };
}

// Everything the engine thread does in the demo. Runs only on the engine thread.
class DemoSite {
 public:
  DemoSite(AuditLog& log, Engine& engine, std::ostream& out)
      : log_(log), engine_(engine), out_(out) {}

  void onInboundSms(const std::string& text) {
    const std::string ts = formatTimestamp(engine_.clock().now());
    auto batch = log_.begin();
    if (!batch) return fail(batch.message());
    auto in = batch->add(
        ts, "sms.in", "sms:" + std::string(kLeadPhone),
        json::Object{{"from", kLeadPhone}, {"to", kFoundationSitePhone}, {"body", text}});
    if (!in) return fail(in.message());
    const std::string reply =
        "Thanks, got it: you're short on the line. I've logged it and will check back in 20 "
        "minutes. Need a person now? Call your manager.";
    auto receipt = batch->addReceipt(ts, "engine", ackReceipt(ts, *in));
    if (!receipt) return fail(receipt.message());
    auto outSeq = batch->add(
        ts, "sms.out", "engine",
        json::Object{
            {"to", kLeadPhone}, {"body", reply}, {"receipt", static_cast<std::int64_t>(*receipt)}});
    if (!outSeq) return fail(outSeq.message());
    auto note = batch->commit();
    if (!note) return fail(note.message());
    out_ << clockText(engine_.clock().now()) << "  SMS in from the shift lead: \"" << text << "\"\n"
         << "       reply: \"" << reply << "\"\n"
         << "       audit seq " << *in << ".." << *outSeq << ", receipt signed at seq " << *receipt
         << ", checkpoint signed at size " << log_.size() << "\n";
    engine_.schedule(engine_.clock().now() + std::chrono::minutes(20), [this] { onCheckDue(); });
  }

  void onCheckDue() {
    const std::string ts = formatTimestamp(engine_.clock().now());
    auto seq = log_.append(ts, "timer.fired", "engine", json::Object{{"timer", "callout.check"}});
    if (!seq) return fail(seq.message());
    out_ << clockText(engine_.clock().now()) << "  20-minute check fired on the simulated clock"
         << " (audit seq " << *seq << ")\n";
  }

  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }

 private:
  void fail(const std::string& message) { error_ = message; }

  AuditLog& log_;
  Engine& engine_;
  std::ostream& out_;
  std::string error_;
};

bool fileStartsWith(const std::string& path, std::string_view prefix) {
  std::ifstream in(path, std::ios::binary);
  std::string head(prefix.size(), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  return in && head == prefix;
}

}  // namespace

int runFoundationDemo(const std::string& stateDir, std::ostream& out, std::ostream& err) {
  if (Status st = initStateDir(stateDir, {kSiteId}); !st) {
    err << "demo: " << st.message() << "\n";
    return 1;
  }
  auto store = SiteStore::open(stateDir);
  if (!store) {
    err << "demo: " << store.message() << "\n";
    return 1;
  }
  out << "Site " << kSiteId << " created in " << stateDir
      << " (encrypted database, keys mode 0600).\n"
      << "Site verifier key: " << (*store)->verifierKey().toString() << "\n\n";

  SimulatedClock clock(demoStart());
  Engine engine(clock, Poco::Logger::get("engine"));
  DemoSite site((*store)->log(), engine, out);
  engine.start();
  engine.post([&] { site.onInboundSms("Jamal didn't show, I'm alone on the line"); });
  const bool settled = engine.drain(std::chrono::seconds(30));
  clock.advance(std::chrono::minutes(20));
  const bool fired = engine.drain(std::chrono::seconds(30));
  engine.stop();
  if (!settled || !fired || site.failed()) {
    err << "demo: the engine did not finish its events: " << site.error() << "\n";
    return 1;
  }

  AuditLog& log = (*store)->log();
  const VerifyReport report = verifyDatabase((*store)->db(), (*store)->verifierKey(), kSiteId);
  out << "\nverify: " << (report.ok() ? "ok" : "FAILED: " + report.problem) << ", "
      << report.entries << " entries, " << report.checkpoints << " checkpoints, " << report.receipts
      << " receipts\n";

  auto segments = buildSegments(log, 0, log.signedSize(), 1024 * 1024);
  if (!segments) {
    err << "demo: " << segments.message() << "\n";
    return 1;
  }
  SegmentVerifier independent((*store)->verifierKey());
  bool segmentsOk = true;
  for (const Segment& s : *segments) {
    auto parsed = parseSegment(segmentJson(s));
    segmentsOk = segmentsOk && parsed && independent.accept(*parsed);
  }
  out << "export: " << segments->size()
      << " segment(s) checked with only the public key: " << (segmentsOk ? "ok" : "FAILED") << "\n";

  const bool plaintextHeader = fileStartsWith(stateDir + "/atoms.db", "SQLite format 3");
  // The binary's own path, so the commands below work whether or not it is on PATH.
  std::error_code ec;
  std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (ec || self.empty()) self = "atoms-edge";
  out << "store: atoms.db " << (plaintextHeader ? "HAS a plaintext header" : "is encrypted")
      << "\n\nInspect it yourself:\n"
      << "  " << self << " verify --state-dir " << stateDir << "\n"
      << "  " << self << " export-segments --state-dir " << stateDir << " --from 0\n";
  return report.ok() && segmentsOk && !plaintextHeader ? 0 : 1;
}

}  // namespace atoms
