// LedgerGateway: a fake provider whose memory lives outside the process that calls it, for the
// SIGKILL crash test. Each accepted message is one line "A <key> <provider id> END" appended with
// a single write() to a ledger file, which survives the caller being killed at any instruction
// (SIGKILL cannot undo a completed write(); power loss is the store's crash test's business).
// Every send is appended, even one whose key is already there: the gateway does NOT deduplicate,
// so a message the outbox sent twice shows up twice. reconcile() answers from the ledger.
//
// Faults (seeded): faultPercent of sends fail before anything is written (retryable), as many
// more are written and then answer a retryable error with maybeAccepted (a lost answer).
// Threading: one caller at a time (the dispatcher thread).
#pragma once

#include <map>
#include <random>
#include <string>
#include <vector>

#include "base/result.h"
#include "drivers/sms/sms_gateway.h"

namespace atoms::sms::mailbox::testing {

struct LedgerLine {
  std::string key;
  std::string providerId;
};

class LedgerGateway final : public drivers::SmsGateway {
 public:
  LedgerGateway(std::string path, unsigned seed, int faultPercent);
  ~LedgerGateway() override;

  std::string_view name() const override { return "ledger"; }
  Status start(drivers::SmsSink&) override { return Status::success(); }
  void stop() override {}
  drivers::SendResult send(const drivers::OutboundSms& message) override;
  drivers::ReconcileResult reconcile(const drivers::OutboundSms& message,
                                     drivers::SmsClock::time_point since) override;

  // The complete lines of the ledger, in order; a line cut short by a kill is not one.
  static Result<std::vector<LedgerLine>> read(const std::string& path);

 private:
  std::string path_;
  int fd_ = -1;
  std::mt19937 rng_;
  int faultPercent_;
};

}  // namespace atoms::sms::mailbox::testing
