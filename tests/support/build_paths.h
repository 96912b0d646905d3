// Where the source tree and the programs the tests run live in this build.
//
// The values come from a file the build generates (tests/support/CMakeLists.txt), not from compile
// definitions: absolute paths on a compiler command line differ in every clone and would make every
// test source miss the compiler cache (docs/testing.md, "Warm CI").
#pragma once

#include <string>

namespace atoms::testing {

/// The project's source directory (etc/, docs/ and tests/ under it).
std::string sourceDir();
/// The atoms-edge binary of this build.
std::string edgeBinary();
/// tests/store's append_child, the audit appender the crash test kills.
std::string appendChild();
/// tests/sms/mailbox's outbox_child, the outbox drainer the crash test kills.
std::string outboxChild();

}  // namespace atoms::testing
