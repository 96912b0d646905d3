// Reassembly of concatenated SMS (3GPP TS 23.040 9.2.3.24.1): parts of one message share the
// sender, the reference and the part count, and may arrive in any order, twice, or never.
//
// A message completes when every part 1..total is there. A message still incomplete `timeout`
// after its first part arrived is released anyway by expire(), with "[…]" where parts are missing,
// so a lost part never holds the rest back forever. Each part remembers where the modem stores it
// (if it does), so the caller deletes every copy once the whole message is committed.
//
// Once the caller committed a message it calls remember(): the keys of its parts (sender,
// reference, part number, SMSC time stamp) are kept for kRememberWindows reassembly windows (at
// most maxRemembered parts, the oldest forgotten first). A part the network delivers again after
// that (a lost acknowledgement, a stored copy whose deletion failed) is then a repeat (repeatOf()):
// the caller drops it, and add() never holds it, so it is not released later as a new, truncated
// message. Memory only: after a restart a repeated part is reassembled again (docs/sms-modem.md).
//
// Time is passed in. Not thread-safe: owned by the modem gateway's worker thread.
#pragma once

#include <chrono>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "drivers/sms/modem/pdu.h"
#include "drivers/sms/sms_gateway.h"

namespace atoms::drivers::modem {

// Where the modem keeps a received message: a storage name ("SM", "ME", "SR") and an index.
struct StoredLocation {
  std::string storage;
  int index = -1;
  auto operator<=>(const StoredLocation&) const = default;
};

struct ReceivedPart {
  std::string originator;
  std::optional<ConcatInfo> concat;        // nullopt: a message of one part
  std::string text;                        // UTF-8 of this part
  SmscTime timestamp;                      // the SMSC's time stamp: part of the message's identity
  std::optional<StoredLocation> location;  // nullopt: delivered directly (+CMT), not stored
};

// One part of a concatenated message as the network names it: equal keys are the same part
// delivered again (the SMSC keeps its time stamp when it retries).
struct PartKey {
  std::string originator;
  std::uint16_t reference = 0;
  bool sixteenBitReference = false;
  std::uint8_t total = 0;
  std::uint8_t sequence = 0;
  std::string timestamp;  // the SMSC time stamp, as text
  auto operator<=>(const PartKey&) const = default;
};

struct AssembledMessage {
  std::string originator;
  std::string text;
  // Stable for the same message read again (after a restart, from storage): the sender, the
  // reference, each part's number and time stamp, and the text. The gateway hashes it into the
  // inbox's providerId, so a message handed twice is deduplicated there.
  std::string identity;
  SmscTime firstTimestamp;  // of the lowest-numbered part present
  std::vector<StoredLocation> locations;
  int missingParts = 0;
  std::vector<PartKey> parts;  // the parts present; empty for a message of one part
};

class ConcatReassembler {
 public:
  // How many reassembly windows the parts of a committed message are remembered.
  static constexpr int kRememberWindows = 6;
  enum class Repeat { kNo, kFirst, kAgain };  // kFirst: the first repeat of that part

  // `maxMessages` bounds memory: beyond it, the oldest incomplete message is released early.
  // `maxRemembered` bounds the parts remember() keeps.
  explicit ConcatReassembler(std::chrono::milliseconds timeout, std::size_t maxMessages = 256,
                             std::size_t maxRemembered = 4096);

  // Whether `part` belongs to a message already committed (remember()); counts it when it does.
  // A part of one segment is never a repeat here (the inbox deduplicates whole messages).
  Repeat repeatOf(const ReceivedPart& part, SmsClock::time_point now);
  // After the caller committed `message`: its parts are repeats from now on.
  void remember(const AssembledMessage& message, SmsClock::time_point now);
  std::uint64_t repeatsDropped() const { return repeatsDropped_; }
  std::size_t remembered() const { return seen_.size(); }

  // Adds a part; returns the message when this part completes it (a single part at once). A repeat
  // (repeatOf()) is not held: nullopt.
  std::optional<AssembledMessage> add(ReceivedPart part, SmsClock::time_point now);
  // Releases the messages whose time is up (or that overflowed), incomplete.
  std::vector<AssembledMessage> expire(SmsClock::time_point now);
  // When expire() next has something to release; nullopt when nothing is waiting.
  std::optional<SmsClock::time_point> nextDeadline() const;

  bool holds(const StoredLocation& location) const;
  // Forgets the parts the modem stores (they are read again from storage after a re-init, when
  // their indexes may no longer be what they were); parts delivered directly stay.
  void dropStored();
  std::size_t waiting() const { return messages_.size(); }

 private:
  using Key = std::tuple<std::string, std::uint16_t, std::uint8_t, bool>;
  struct Slot {
    std::string text;
    SmscTime timestamp;
    std::vector<StoredLocation> locations;
    bool fromStorage = false;
  };
  struct Pending {
    std::map<std::uint8_t, Slot> parts;  // by sequence number
    SmsClock::time_point deadline;
    std::uint64_t order = 0;  // arrival order of the first part, for overflow
  };

  struct Seen {
    SmsClock::time_point until;
    bool repeated = false;
  };

  static AssembledMessage assemble(const Key& key, const Pending& pending);
  void forgetOld(SmsClock::time_point now);

  std::chrono::milliseconds timeout_;
  std::size_t maxMessages_;
  std::size_t maxRemembered_;
  std::map<Key, Pending> messages_;
  std::uint64_t nextOrder_ = 0;
  std::map<PartKey, Seen> seen_;
  std::deque<std::pair<SmsClock::time_point, PartKey>> seenOrder_;  // oldest first
  std::uint64_t repeatsDropped_ = 0;
};

}  // namespace atoms::drivers::modem
