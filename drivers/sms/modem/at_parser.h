// The pure, byte-level half of the AT protocol (3GPP TS 27.007 / 27.005): splitting the modem's
// output into lines, recognising final result codes and unsolicited result codes (URCs), and
// parsing the few information responses the modem driver reads. Nothing here does I/O, so the
// fuzz target (tests/fuzz/fuzz_pdu.cpp) and the unit tests feed it any bytes.
//
// Every function is total: bad input yields nullopt or an Error naming the line, never a crash.
// Thread-safety: free functions are pure; a LineSplitter is used by one thread at a time.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace atoms::drivers::modem {

// Splits a byte stream into lines. '\r' and '\n' both end a line (modems send "\r\n"; with echo
// on the echoed command ends in a lone '\r'); empty lines are dropped. A line that grows past
// kMaxLineLength without an end is cut there and flagged, so a modem spewing bytes without line
// ends cannot grow memory. The "> " prompt of AT+CMGS has no line end: promptPending() sees it.
class LineSplitter {
 public:
  static constexpr std::size_t kMaxLineLength = 2048;

  struct Line {
    std::string text;
    bool overflowed = false;  // cut at kMaxLineLength: treat as garbage
  };

  // Appends the lines completed by `bytes` to `out`.
  void feed(std::string_view bytes, std::vector<Line>& out);
  // True when the unterminated rest is the text-entry prompt ("> " or ">").
  bool promptPending() const;
  // Forgets the unterminated rest (after the prompt was answered, or on a reset).
  void clearPending() { pending_.clear(); }
  const std::string& pending() const { return pending_; }

 private:
  std::string pending_;
  bool overflowed_ = false;
};

// A final result code: ends the response to a command.
struct FinalResult {
  enum class Kind { kOk, kError, kCmeError, kCmsError, kNoCarrier };
  Kind kind = Kind::kOk;
  int code = -1;     // +CME/+CMS ERROR numeric code; -1 when verbose or absent
  std::string text;  // the line as received, for messages
};
std::optional<FinalResult> parseFinalResult(std::string_view line);

// An unsolicited result code.
struct Urc {
  enum class Kind {
    kNewMessageStored,    // +CMTI: <mem>,<index>
    kNewMessage,          // +CMT: ...  (a second line carries the PDU or the text)
    kStatusReportStored,  // +CDSI: <mem>,<index>
    kStatusReport,        // +CDS: ...  (PDU mode: a second line carries the PDU)
    kBoot,                // RDY, +CFUN: 1, SMS Ready, +CPIN: READY, ...: the modem (re)started
    kOther,               // RING, +CREG:, +CLIP:, ...: known, not acted upon
  };
  Kind kind = Kind::kOther;
  std::string storage;  // kNewMessageStored / kStatusReportStored
  int index = -1;       // idem
  std::string header;   // the whole first line
};
// nullopt when `line` is not an unsolicited result code. `pduMode` decides whether +CDS is followed
// by a PDU line. A malformed +CMTI/+CDSI (no index) is still a URC, of kind kOther.
std::optional<Urc> parseUrc(std::string_view line);
// True when this URC is followed by one more line that belongs to it (+CMT always; +CDS in PDU
// mode).
bool urcHasBody(const Urc& urc, bool pduMode);

// "+CMGS: 17" -> 17 (also "+CMGS: 17,\"...\"" with SCTS). nullopt unless a 0..255 reference.
std::optional<int> parseMessageReference(std::string_view line);

// One stored message as listed by AT+CMGL or read by AT+CMGR.
struct StoredMessage {
  int index = -1;      // from +CMGL; -1 for +CMGR (the index is the one asked for)
  int status = -1;     // PDU mode: 0 unread, 1 read, 2 unsent, 3 sent; text mode: -1
  std::string header;  // the +CMGL/+CMGR line without its prefix (text mode parses it)
  std::string body;    // the PDU hex (PDU mode) or the text (text mode)
};
// Pairs each "+CMGL: ..." line with the line that follows it. A header without a body line, or
// a body line without a header, is skipped and named in `errors`.
std::vector<StoredMessage> parseMessageList(const std::vector<std::string>& lines,
                                            std::vector<std::string>& errors);
// The answer to AT+CMGR=<i>: "+CMGR: ..." and the body line. An empty response (no message at
// that index) is an Error too.
Result<StoredMessage> parseReadMessage(const std::vector<std::string>& lines);

// Fields of "+CPMS: <mem1>,<used1>,<total1>,..." (the answer to AT+CPMS?) or of the shorter
// "+CPMS: <used1>,<total1>,..." (the answer to a set command).
struct StorageStatus {
  std::string storage;  // empty in the short form
  int used = 0;
  int total = 0;
};
std::optional<StorageStatus> parseStorageStatus(std::string_view line);

// "+CSQ: <rssi>,<ber>" -> rssi 0..31, or 99 when unknown.
std::optional<int> parseSignalQuality(std::string_view line);

// Splits a comma-separated AT parameter list, honouring double quotes ("a,b" stays whole) and
// removing the quotes. "" -> {""}.
std::vector<std::string> splitAtParameters(std::string_view text);
// What follows the first ':' of an information line or URC header ("+CSMS: 1,1,1" -> " 1,1,1");
// "" when there is none.
std::string afterColon(std::string_view header);

// A strict decimal integer in [min, max] (leading/trailing spaces allowed).
std::optional<int> parseAtInteger(std::string_view text, int min, int max);

}  // namespace atoms::drivers::modem
