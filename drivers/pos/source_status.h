// SourceStatus: how a POS connection is doing, as each driver reports it after each contact
// (a poll, a push request, a file): the POS health (domain/pos/pos_health.h) keeps since when a
// source is failing or silent and answers "is POS data fresh?".
#pragma once

#include <functional>
#include <string>

namespace atoms::drivers::pos {

struct SourceStatus {
  enum class Kind {
    kOk,          // the source was heard from and what it sent is stored
    kFailing,     // the contact failed (the provider, the network, the store)
    kAuthFailed,  // the provider refused our credentials: nothing comes until the config changes
  };
  std::string source;
  Kind kind = Kind::kOk;
  std::string detail;  // one line; empty for kOk
};

// Called from the driver's thread; must be thread-safe and quick.
using SourceStatusListener = std::function<void(const SourceStatus&)>;

}  // namespace atoms::drivers::pos
