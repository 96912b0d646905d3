// What the update tests share: the tests' vendor key (its public half is the one the build pins
// by default, daemon/CMakeLists.txt), another key, and a box with an update root and a state
// directory in a temporary folder.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "base/secret.h"
#include "daemon/update/bundle.h"
#include "daemon/update/updater.h"
#include "tests/support/temp_dir.h"

namespace atoms {
// So BOOST_TEST can print what it compares.
inline std::ostream& boost_test_print_type(std::ostream& os, ErrorKind kind) {
  return os << "ErrorKind(" << static_cast<int>(kind) << ")";
}
namespace update {
inline std::ostream& boost_test_print_type(std::ostream& os, Outcome outcome) {
  return os << "Outcome(" << static_cast<int>(outcome) << ")";
}
}  // namespace update
}  // namespace atoms

namespace atoms::test {

// The secret half of the tests' vendor key. Public on purpose: a build that pins it (every build
// that does not set ATOMS_UPDATE_PUBLIC_KEY) installs whatever anyone signs with it.
inline constexpr const char* kTestVendorSecretHex =
    "50dc24e4d14cbcf01b77bf100f520f46ac80676886c8efcdf6c55d17e6c754b8"
    "398dd25f5bf32d043c553e61075c7204bf0b63cac2196ea0890dcfee53434db7";

SecretBytes testVendorKey();
// A fresh Ed25519 key the box does not trust.
SecretBytes otherVendorKey();
// Writes key as a vendor key file (mode 0600) at path.
void writeVendorKeyFile(const std::string& path, const SecretBytes& key);

// Writes an executable file.
std::string writeExecutable(const atoms::testing::TempDir& dir, const std::string& name,
                            const std::string& text);
// A stand-in binary that reports healthy as serve does: writes $ATOMS_TEST_STATE/update.health
// naming itself. `tag` makes each copy's bytes differ.
std::string healthyScript(const std::string& tag);
// One that crashes on start (exit 1), never reporting healthy.
inline constexpr const char* kCrashScript = "#!/bin/sh\necho 'crashing on start' >&2\nexit 1\n";

// Flips one bit of the byte at offset (BOOST_REQUIREs it exists).
void flipByte(const std::string& path, std::size_t offset);

}  // namespace atoms::test
