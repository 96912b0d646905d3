// SendJournal: the modem driver's own durable record of what it handed to the modem. A modem
// cannot be asked afterwards whether it sent something, so without this record reconcile() could
// only ever answer kUnknown. With it:
// - an attempt is written (and fsynced) before the first AT+CMGS, its outcome after the answer;
//   an attempt of several parts also writes "last" before the last part's AT+CMGS;
// - reconcile(key): accepted -> kAccepted with the providerId; every attempt refused by the modem
//   (nothing went out) -> kNotFound; an attempt of several parts that stopped before its last part
//   was typed (a crash, a part refused or unanswered: the recipient's phone holds an incomplete
//   message it can never complete, docs/sms-modem.md) -> kNotFound, so the text is sent again
//   whole, under a new reference; an attempt without an answer once its last (or only) part was
//   typed (a crash, a silent modem after the PDU) -> kUnknown; no record at all -> kNotFound, but
//   only when the journal already existed at `since` (otherwise kUnknown);
// - the concatenation reference the next long text takes (nextReference()), written with each
//   attempt and kept in the first line when old records are dropped, so a restart continues the
//   sequence instead of reusing a reference a phone may still hold parts of;
// - accepted sends keep their recipient and message references, and the delivery state of each
//   part, so status reports arriving after a restart still find their message.
//
// Format: one canonical JSON object per line (store/canonical_json.h); a torn last line after a
// power cut is ignored. Records older than `retention` are dropped when the journal is opened.
// Not thread-safe: owned by the modem gateway's worker thread. Errors name the path.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "drivers/sms/sms_gateway.h"

namespace atoms::drivers::modem {

struct JournalSend {
  std::string providerId;
  std::string to;
  std::vector<int> references;  // TP-MR of each part, in part order (-1: the modem gave none)
  std::vector<std::optional<DeliveryState>> partStates;  // final state per part, once known
  SmsClock::time_point at{};
};

// What an attempt records besides its key.
struct JournalAttempt {
  int parts = 1;           // SMS-SUBMITs the text takes
  int reference = -1;      // its concatenation reference (several parts), else -1
  int nextReference = -1;  // the reference the next long text will take, -1 when unknown
};

class SendJournal {
 public:
  static Result<std::unique_ptr<SendJournal>> open(const std::string& path,
                                                   SmsClock::time_point now,
                                                   std::chrono::hours retention);
  ~SendJournal();
  SendJournal(const SendJournal&) = delete;
  SendJournal& operator=(const SendJournal&) = delete;

  Status recordAttempt(const std::string& key, SmsClock::time_point now,
                       const JournalAttempt& attempt = {});
  // Before the last part of an attempt of several parts is handed to the modem: from here on, the
  // whole text may reach the recipient.
  Status recordLastPart(const std::string& key, SmsClock::time_point now);
  // Some parts went out, the last surely did not: the recipient cannot have the whole text.
  Status recordPartial(const std::string& key, SmsClock::time_point now);
  Status recordAccepted(const std::string& key, const JournalSend& send);
  // The modem refused (an error answer, no prompt): nothing went out.
  Status recordRefused(const std::string& key, SmsClock::time_point now);
  // No answer after the PDU was typed, or some parts went out: it may have been sent.
  Status recordUncertain(const std::string& key, SmsClock::time_point now);
  Status recordPartState(const std::string& providerId, std::size_t part, DeliveryState state,
                         SmsClock::time_point now);

  ReconcileResult reconcile(const std::string& key, SmsClock::time_point since) const;
  // Accepted sends still within the retention, oldest first.
  std::vector<JournalSend> acceptedSends() const;
  // The concatenation reference (0..255) the next long text should take, as last recorded;
  // nullopt for a journal that never recorded one.
  std::optional<int> nextReference() const { return nextReference_; }

 private:
  struct KeyState {
    bool accepted = false;
    bool uncertain = false;    // an attempt without a clean refusal
    bool openAttempt = false;  // the last attempt has no outcome yet
    int openParts = 1;         // of the open attempt
    bool openLastTyped = false;
    std::string providerId;
    // The open attempt stopped before its last part was typed: the text is not whole anywhere.
    bool openIsPartial() const { return openParts > 1 && !openLastTyped; }
  };
  SendJournal(std::string path, int fd, SmsClock::time_point coversFrom,
              std::optional<int> nextReference);
  Status append(const std::string& line);
  void apply(const std::string& line);

  std::string path_;
  int fd_ = -1;
  SmsClock::time_point coversFrom_;
  std::map<std::string, KeyState> keys_;
  std::map<std::string, JournalSend> sends_;  // by providerId
  std::optional<int> nextReference_;
};

}  // namespace atoms::drivers::modem
