#include "drivers/sms/modem/pdu.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <span>

#include "base/bytes.h"
#include "drivers/sms/encoding/gsm7.h"
#include "drivers/sms/encoding/utf.h"

namespace atoms::drivers::modem {

namespace {

constexpr std::size_t kMaxPduOctets = 200;  // SMSC (12) + the largest TPDU (164), with room
constexpr int kMaxAddressDigits = 20;
constexpr std::uint8_t kTypeInternational = 0x91;
constexpr std::uint8_t kTypeUnknown = 0x81;

bool isAlphanumericType(std::uint8_t type) { return (type & 0x70) == 0x50; }
bool isInternationalType(std::uint8_t type) { return (type & 0x70) == 0x10; }

// Reads a TPDU front to back; every read names the field it was reading when the data ended.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  Result<std::uint8_t> byte(const char* field) {
    if (at_ >= bytes_.size()) return ended(field);
    return bytes_[at_++];
  }
  Result<std::span<const std::uint8_t>> take(std::size_t n, const char* field) {
    if (bytes_.size() - at_ < n) return ended(field);
    const auto out = bytes_.subspan(at_, n);
    at_ += n;
    return out;
  }
  std::size_t remaining() const { return bytes_.size() - at_; }
  std::size_t offset() const { return at_; }

 private:
  static Error ended(const char* field) {
    return makeError(std::string("PDU ends inside ") + field);
  }
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
};

// --- septets ------------------------------------------------------------------------------

// Writes septets into `octets` starting at septet position `start` (the fill bits before it,
// after a UDH, stay zero). `octets` must hold ceil((start + n) * 7 / 8) bytes.
void packSeptets(std::span<const std::uint8_t> septets, std::size_t start,
                 std::vector<std::uint8_t>& octets) {
  for (std::size_t i = 0; i < septets.size(); ++i) {
    const std::size_t bit = (start + i) * 7;
    const std::size_t at = bit / 8;
    const unsigned shift = bit % 8;
    const unsigned s = septets[i] & 0x7F;
    octets[at] = static_cast<std::uint8_t>(octets[at] | ((s << shift) & 0xFF));
    if (shift > 1) octets[at + 1] = static_cast<std::uint8_t>(octets[at + 1] | (s >> (8 - shift)));
  }
}

// Precondition: octets hold at least ceil((start + count) * 7 / 8) bytes.
std::vector<std::uint8_t> unpackSeptets(std::span<const std::uint8_t> octets, std::size_t start,
                                        std::size_t count) {
  std::vector<std::uint8_t> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t bit = (start + i) * 7;
    const std::size_t at = bit / 8;
    const unsigned shift = bit % 8;
    unsigned s = octets[at] >> shift;
    if (shift > 1) s |= static_cast<unsigned>(octets[at + 1]) << (8 - shift);
    out[i] = static_cast<std::uint8_t>(s & 0x7F);
  }
  return out;
}

std::size_t octetsForSeptets(std::size_t septets) { return (septets * 7 + 7) / 8; }
std::size_t septetsForOctets(std::size_t octets) { return (octets * 8 + 6) / 7; }

// --- addresses ----------------------------------------------------------------------------

std::optional<std::uint8_t> digitNibble(char c) {
  if (c >= '0' && c <= '9') return static_cast<std::uint8_t>(c - '0');
  switch (std::tolower(static_cast<unsigned char>(c))) {
    case '*':
      return 0xA;
    case '#':
      return 0xB;
    case 'a':
      return 0xC;
    case 'b':
      return 0xD;
    case 'c':
      return 0xE;
    default:
      return std::nullopt;
  }
}

char nibbleDigit(std::uint8_t n) { return "0123456789*#abc?"[n & 0xF]; }

// Semi-octets, low nibble first, 0xF filler when odd.
Result<std::vector<std::uint8_t>> bcd(std::string_view digits, const char* field) {
  std::vector<std::uint8_t> out((digits.size() + 1) / 2, 0xFF);
  for (std::size_t i = 0; i < digits.size(); ++i) {
    const auto n = digitNibble(digits[i]);
    if (!n)
      return makeError(std::string(field) + ": '" + std::string(digits) + "' is not a number");
    std::uint8_t& o = out[i / 2];
    o = i % 2 == 0 ? static_cast<std::uint8_t>((o & 0xF0) | *n)
                   : static_cast<std::uint8_t>((o & 0x0F) | (*n << 4));
  }
  return out;
}

Result<std::string> digitsOf(std::span<const std::uint8_t> octets, std::size_t count,
                             const char* field) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint8_t n = i % 2 == 0 ? (octets[i / 2] & 0x0F) : (octets[i / 2] >> 4);
    if (n == 0xF) return makeError(std::string(field) + ": filler inside the number");
    out.push_back(nibbleDigit(n));
  }
  return out;
}

// The digits of an address and its type, validated: "+..." only with an international type.
Result<std::string> addressDigits(const Address& a, const char* field) {
  std::string_view text = a.text;
  if (isInternationalType(a.type)) {
    if (text.empty() || text[0] != '+')
      return makeError(std::string(field) + ": an international number starts with +");
    text.remove_prefix(1);
  }
  if (text.empty()) return makeError(std::string(field) + ": empty number");
  if (text.size() > kMaxAddressDigits)
    return makeError(std::string(field) + ": more than 20 digits");
  return std::string(text);
}

// TP-DA / TP-OA / TP-RA: length in semi-octets, type, value.
Status appendAddress(std::vector<std::uint8_t>& out, const Address& a, const char* field) {
  if (isAlphanumericType(a.type)) {
    const auto septets = encodeGsm7(a.text);
    if (!septets || septets->empty() || septets->size() > 11)
      return makeError(std::string(field) + ": an alphanumeric sender is 1 to 11 GSM-7 characters");
    std::vector<std::uint8_t> packed(octetsForSeptets(septets->size()), 0);
    packSeptets(*septets, 0, packed);
    out.push_back(static_cast<std::uint8_t>((septets->size() * 7 + 3) / 4));
    out.push_back(a.type);
    out.insert(out.end(), packed.begin(), packed.end());
    return Status::success();
  }
  const auto digits = addressDigits(a, field);
  if (!digits) return digits.error();
  const auto value = bcd(*digits, field);
  if (!value) return value.error();
  out.push_back(static_cast<std::uint8_t>(digits->size()));
  out.push_back(a.type);
  out.insert(out.end(), value->begin(), value->end());
  return Status::success();
}

Result<Address> readAddress(Reader& r, const char* field) {
  const auto length = r.byte(field);
  if (!length) return length.error();
  const auto type = r.byte(field);
  if (!type) return type.error();
  if (*length > kMaxAddressDigits) return makeError(std::string(field) + ": longer than 20 digits");
  const auto value = r.take((*length + 1) / 2, field);
  if (!value) return value.error();
  Address a;
  a.type = *type;
  if (isAlphanumericType(*type)) {
    const auto text = decodeGsm7(unpackSeptets(*value, 0, *length * 4 / 7));
    if (!text) return makeError(std::string(field) + ": " + text.error().message);
    a.text = *text;
    return a;
  }
  const auto digits = digitsOf(*value, *length, field);
  if (!digits) return digits.error();
  a.text = (isInternationalType(*type) ? "+" : "") + *digits;
  return a;
}

// The SMSC field that precedes the TPDU in modem hex: length in octets (0 = default SMSC).
Status appendSmsc(std::vector<std::uint8_t>& out, const std::string& smsc) {
  if (smsc.empty()) {
    out.push_back(0);
    return Status::success();
  }
  Address a{smsc, smsc[0] == '+' ? kTypeInternational : kTypeUnknown};
  const auto digits = addressDigits(a, "SMSC address");
  if (!digits) return digits.error();
  const auto value = bcd(*digits, "SMSC address");
  if (!value) return value.error();
  out.push_back(static_cast<std::uint8_t>(value->size() + 1));
  out.push_back(a.type);
  out.insert(out.end(), value->begin(), value->end());
  return Status::success();
}

Result<std::string> readSmsc(Reader& r) {
  const auto length = r.byte("the SMSC address");
  if (!length) return length.error();
  if (*length == 0) return std::string();
  if (*length > 11) return makeError("SMSC address: longer than 11 octets");
  const auto type = r.byte("the SMSC address");
  if (!type) return type.error();
  const auto value = r.take(*length - 1, "the SMSC address");
  if (!value) return value.error();
  std::size_t digits = value->size() * 2;
  if (!value->empty() && (value->back() >> 4) == 0xF) --digits;
  const auto text = digitsOf(*value, digits, "SMSC address");
  if (!text) return text.error();
  return (isInternationalType(*type) ? "+" : "") + *text;
}

// --- timestamps -----------------------------------------------------------------------------

// Howard Hinnant's days_from_civil / civil_from_days (public domain).
long long daysFromCivil(int y, int m, int d) {
  y -= m <= 2;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = static_cast<unsigned>((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1);
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long long>(doe) - 719468;
}

void civilFromDays(long long z, int& y, int& m, int& d) {
  z += 719468;
  const long long era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  y = static_cast<int>(yoe + era * 400) + (m <= 2);
}

std::uint8_t swappedBcd(int value) {
  return static_cast<std::uint8_t>(((value % 10) << 4) | (value / 10 % 10));
}

void appendTime(std::vector<std::uint8_t>& out, const SmscTime& t) {
  if (!t.valid) {
    out.insert(out.end(), t.raw.begin(), t.raw.end());
    return;
  }
  for (int v : {t.year % 100, t.month, t.day, t.hour, t.minute, t.second})
    out.push_back(swappedBcd(v));
  const int q = std::min(std::abs(t.offsetQuarters), 79);
  std::uint8_t tz = swappedBcd(q);
  if (t.offsetQuarters < 0) tz |= 0x08;
  out.push_back(tz);
}

Result<SmscTime> readTime(Reader& r, const char* field) {
  const auto bytes = r.take(7, field);
  if (!bytes) return bytes.error();
  SmscTime t;
  std::copy(bytes->begin(), bytes->end(), t.raw.begin());
  int v[7];
  for (int i = 0; i < 7; ++i) {
    const std::uint8_t b = (*bytes)[i];
    const int lo = b & 0x0F;
    const int hi = b >> 4;
    const int tens = i == 6 ? (lo & 0x07) : lo;
    if (tens > 9 || hi > 9) t.valid = false;
    v[i] = tens * 10 + hi;
  }
  t.year = v[0] >= 90 ? 1900 + v[0] : 2000 + v[0];  // SMS began in the 1990s
  t.month = v[1];
  t.day = v[2];
  t.hour = v[3];
  t.minute = v[4];
  t.second = v[5];
  t.offsetQuarters = ((*bytes)[6] & 0x08) ? -v[6] : v[6];
  if (t.month < 1 || t.month > 12 || t.day < 1 || t.day > 31 || t.hour > 23 || t.minute > 59 ||
      t.second > 59 || v[6] > 79) {
    t.valid = false;
  }
  if (!t.valid) {
    t.year = 2000;
    t.month = t.day = 1;
    t.hour = t.minute = t.second = t.offsetQuarters = 0;
  }
  return t;
}

// --- user data ------------------------------------------------------------------------------

std::vector<std::uint8_t> headerOf(const UserData& ud) {
  std::vector<std::uint8_t> ies;
  if (ud.concat) {
    const ConcatInfo& c = *ud.concat;
    if (c.sixteenBitReference) {
      ies.insert(ies.end(), {0x08, 0x04, static_cast<std::uint8_t>(c.reference >> 8),
                             static_cast<std::uint8_t>(c.reference & 0xFF), c.total, c.sequence});
    } else {
      ies.insert(ies.end(),
                 {0x00, 0x03, static_cast<std::uint8_t>(c.reference & 0xFF), c.total, c.sequence});
    }
  }
  ies.insert(ies.end(), ud.otherHeader.begin(), ud.otherHeader.end());
  if (ies.empty()) return ies;
  ies.insert(ies.begin(), static_cast<std::uint8_t>(ies.size()));
  return ies;
}

// Appends TP-UDL and TP-UD; sets udhi when a header was written.
Status appendUserData(std::vector<std::uint8_t>& out, const UserData& ud, bool& udhi) {
  if (ud.concat) {
    const ConcatInfo& c = *ud.concat;
    if (c.total < 1 || c.sequence < 1 || c.sequence > c.total)
      return makeError("user data: concatenation part " + std::to_string(c.sequence) + " of " +
                       std::to_string(c.total) + " is not a valid part number");
    if (!c.sixteenBitReference && c.reference > 0xFF)
      return makeError("user data: an 8-bit concatenation reference is 0..255");
  }
  if (ud.otherHeader.size() > kMaxUserDataOctets)
    return makeError("user data: header longer than the user data");
  const std::vector<std::uint8_t> header = headerOf(ud);
  udhi = !header.empty();
  if (ud.coding == DataCoding::kGsm7) {
    if (std::any_of(ud.units.begin(), ud.units.end(), [](std::uint8_t s) { return s > 0x7F; }))
      return makeError("user data: a GSM-7 septet is above 0x7F");
    const std::size_t start = septetsForOctets(header.size());
    const std::size_t total = start + ud.units.size();
    if (total > kMaxUserDataSeptets)
      return makeError("user data: " + std::to_string(total) + " septets, the limit is 160");
    std::vector<std::uint8_t> packed(octetsForSeptets(total), 0);
    std::copy(header.begin(), header.end(), packed.begin());
    packSeptets(ud.units, start, packed);
    out.push_back(static_cast<std::uint8_t>(total));
    out.insert(out.end(), packed.begin(), packed.end());
    return Status::success();
  }
  const std::size_t total = header.size() + ud.units.size();
  if (total > kMaxUserDataOctets)
    return makeError("user data: " + std::to_string(total) + " octets, the limit is 140");
  out.push_back(static_cast<std::uint8_t>(total));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), ud.units.begin(), ud.units.end());
  return Status::success();
}

// Splits a UDH into the concatenation IE and the rest (kept raw). A malformed tail (an element
// running past the header) is kept raw too: the text is still readable.
void parseHeader(std::span<const std::uint8_t> h, UserData& ud) {
  std::size_t at = 0;
  while (at < h.size()) {
    if (h.size() - at < 2 || h.size() - at - 2 < h[at + 1]) {
      ud.otherHeader.insert(ud.otherHeader.end(), h.begin() + static_cast<long>(at), h.end());
      return;
    }
    const std::uint8_t iei = h[at];
    const std::uint8_t len = h[at + 1];
    const auto data = h.subspan(at + 2, len);
    std::optional<ConcatInfo> concat;
    if (iei == 0x00 && len == 3) {
      concat = ConcatInfo{data[0], data[1], data[2], false};
    } else if (iei == 0x08 && len == 4) {
      concat =
          ConcatInfo{static_cast<std::uint16_t>((data[0] << 8) | data[1]), data[2], data[3], true};
    }
    const bool usable = concat && concat->total >= 1 && concat->sequence >= 1 &&
                        concat->sequence <= concat->total && !ud.concat;
    if (usable) {
      ud.concat = concat;
    } else {
      ud.otherHeader.insert(ud.otherHeader.end(), h.begin() + static_cast<long>(at),
                            h.begin() + static_cast<long>(at + 2 + len));
    }
    at += 2 + len;
  }
}

Result<UserData> readUserData(Reader& r, DataCoding coding, bool udhi) {
  const auto udl = r.byte("TP-UDL");
  if (!udl) return udl.error();
  UserData ud;
  ud.coding = coding;
  const bool septets = coding == DataCoding::kGsm7;
  if (septets && *udl > kMaxUserDataSeptets)
    return makeError("TP-UDL: " + std::to_string(*udl) + " septets, the limit is 160");
  if (!septets && *udl > kMaxUserDataOctets)
    return makeError("TP-UDL: " + std::to_string(*udl) + " octets, the limit is 140");
  const std::size_t octets = septets ? octetsForSeptets(*udl) : *udl;
  const auto data = r.take(octets, "TP-UD");
  if (!data) return data.error();
  std::size_t headerOctets = 0;
  if (udhi) {
    if (data->empty()) return makeError("TP-UD: header indicated but no user data");
    headerOctets = 1 + (*data)[0];
    if (headerOctets > data->size()) return makeError("TP-UDHL: header longer than the user data");
    parseHeader(data->subspan(1, headerOctets - 1), ud);
  }
  if (septets) {
    const std::size_t start = septetsForOctets(headerOctets);
    if (start > *udl) return makeError("TP-UDL: fewer septets than the header takes");
    ud.units = unpackSeptets(*data, start, *udl - start);
  } else {
    ud.units.assign(data->begin() + static_cast<long>(headerOctets), data->end());
  }
  return ud;
}

std::uint8_t dcsOf(DataCoding coding) {
  switch (coding) {
    case DataCoding::kGsm7:
      return 0x00;
    case DataCoding::kEightBit:
      return 0x04;
    case DataCoding::kUcs2:
      return 0x08;
  }
  return 0x00;
}

Result<std::vector<std::uint8_t>> parseHex(std::string_view hex) {
  if (hex.size() > kMaxPduOctets * 2)
    return makeError("PDU longer than " + std::to_string(kMaxPduOctets) + " octets");
  auto bytes = fromHex(hex);
  if (!bytes) return makeError("PDU is not hex (odd length or a non-hex character)");
  return std::move(*bytes);
}

std::string upperHex(std::span<const std::uint8_t> bytes) {
  std::string h = toHex(bytes);
  for (char& c : h) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return h;
}

Result<EncodedPdu> finish(const std::vector<std::uint8_t>& smsc,
                          const std::vector<std::uint8_t>& tpdu) {
  std::vector<std::uint8_t> all = smsc;
  all.insert(all.end(), tpdu.begin(), tpdu.end());
  return EncodedPdu{upperHex(all), static_cast<int>(tpdu.size())};
}

// Reads the SMSC field and checks the declared TPDU length; leaves r at the TPDU.
Result<std::string> readFront(Reader& r, std::optional<int> tpduLength) {
  auto smsc = readSmsc(r);
  if (!smsc) return smsc;
  if (tpduLength && static_cast<std::size_t>(*tpduLength) != r.remaining())
    return makeError("PDU length " + std::to_string(*tpduLength) + " does not match its " +
                     std::to_string(r.remaining()) + " octets");
  return smsc;
}

Result<DeliverPdu> readDeliver(Reader& r, std::uint8_t first) {
  DeliverPdu d;
  d.moreMessagesToSend = (first & 0x04) == 0;
  d.statusReportIndication = (first & 0x20) != 0;
  d.replyPath = (first & 0x80) != 0;
  auto oa = readAddress(r, "TP-OA");
  if (!oa) return oa.error();
  d.originator = std::move(*oa);
  const auto pid = r.byte("TP-PID");
  if (!pid) return pid.error();
  d.protocolId = *pid;
  const auto dcs = r.byte("TP-DCS");
  if (!dcs) return dcs.error();
  d.dataCodingScheme = *dcs;
  const auto coding = alphabetOfDcs(*dcs);
  if (!coding) return coding.error();
  auto scts = readTime(r, "TP-SCTS");
  if (!scts) return scts.error();
  d.timestamp = *scts;
  auto ud = readUserData(r, *coding, (first & 0x40) != 0);
  if (!ud) return ud.error();
  d.userData = std::move(*ud);
  return d;
}

Result<StatusReportPdu> readStatusReport(Reader& r) {
  StatusReportPdu s;
  const auto mr = r.byte("TP-MR");
  if (!mr) return mr.error();
  s.messageReference = *mr;
  auto ra = readAddress(r, "TP-RA");
  if (!ra) return ra.error();
  s.recipient = std::move(*ra);
  auto scts = readTime(r, "TP-SCTS");
  if (!scts) return scts.error();
  s.timestamp = *scts;
  auto dt = readTime(r, "TP-DT");
  if (!dt) return dt.error();
  s.discharge = *dt;
  const auto st = r.byte("TP-ST");
  if (!st) return st.error();
  s.status = *st;
  return s;  // TP-PI and what follows carry nothing the driver uses
}

}  // namespace

bool SmscTime::operator==(const SmscTime& o) const {
  if (valid != o.valid) return false;
  if (!valid) return raw == o.raw;
  return year == o.year && month == o.month && day == o.day && hour == o.hour &&
         minute == o.minute && second == o.second && offsetQuarters == o.offsetQuarters;
}

std::optional<SmsClock::time_point> SmscTime::utc() const {
  if (!valid) return std::nullopt;
  const long long seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 +
                            second - offsetQuarters * 15 * 60;
  return SmsClock::time_point(std::chrono::seconds(seconds));
}

SmscTime SmscTime::fromUtc(SmsClock::time_point t, int offsetQuarters) {
  const long long s = std::chrono::floor<std::chrono::seconds>(t.time_since_epoch()).count() +
                      offsetQuarters * 15 * 60;
  const long long days = (s >= 0 ? s : s - 86399) / 86400;
  const long long rest = s - days * 86400;
  SmscTime out;
  civilFromDays(days, out.year, out.month, out.day);
  out.hour = static_cast<int>(rest / 3600);
  out.minute = static_cast<int>(rest % 3600 / 60);
  out.second = static_cast<int>(rest % 60);
  out.offsetQuarters = offsetQuarters;
  return out;
}

Result<DataCoding> alphabetOfDcs(std::uint8_t dcs) {
  const int group = dcs >> 4;
  if (group <= 0x7) {  // general data coding (0x0-0x3) and marked for deletion (0x4-0x7)
    if (dcs & 0x20) return makeError("TP-DCS " + std::to_string(dcs) + ": compressed text");
    switch ((dcs >> 2) & 0x3) {
      case 1:
        return DataCoding::kEightBit;
      case 2:
        return DataCoding::kUcs2;
      default:
        return DataCoding::kGsm7;  // 3 is reserved: read as the default alphabet
    }
  }
  if (group == 0xC || group == 0xD) return DataCoding::kGsm7;  // message waiting indication
  if (group == 0xE) return DataCoding::kUcs2;
  if (group == 0xF) return (dcs & 0x04) ? DataCoding::kEightBit : DataCoding::kGsm7;
  return DataCoding::kGsm7;  // reserved groups 0x8-0xB: 23.038 says use the default alphabet
}

std::chrono::minutes relativeValidityPeriod(std::uint8_t code) {
  using std::chrono::minutes;
  if (code <= 143) return minutes((code + 1) * 5);
  if (code <= 167) return minutes(12 * 60 + (code - 143) * 30);
  if (code <= 196) return minutes((code - 166) * 24 * 60);
  return minutes((code - 192) * 7 * 24 * 60);
}

std::uint8_t relativeValidityCode(std::chrono::minutes validity) {
  for (int code = 0; code <= 255; ++code) {
    if (relativeValidityPeriod(static_cast<std::uint8_t>(code)) >= validity)
      return static_cast<std::uint8_t>(code);
  }
  return 255;
}

DeliveryState deliveryStateOfStatus(std::uint8_t status) {
  if (status <= 0x1F) return DeliveryState::kDelivered;
  if (status <= 0x3F) return DeliveryState::kSent;
  if (status <= 0x5F) return DeliveryState::kFailed;
  if (status <= 0x7F) return DeliveryState::kUndelivered;
  return DeliveryState::kFailed;
}

Result<EncodedPdu> encodeSubmit(const SubmitPdu& pdu) {
  std::vector<std::uint8_t> smsc;
  if (Status s = appendSmsc(smsc, pdu.smsc); !s) return s.error();
  std::vector<std::uint8_t> t;
  std::uint8_t first = 0x01;  // TP-MTI SMS-SUBMIT
  if (pdu.rejectDuplicates) first |= 0x04;
  if (pdu.validity) first |= 0x10;  // TP-VPF relative
  if (pdu.statusReportRequest) first |= 0x20;
  t.push_back(first);
  t.push_back(pdu.messageReference);
  const Address da{pdu.destination, !pdu.destination.empty() && pdu.destination[0] == '+'
                                        ? kTypeInternational
                                        : kTypeUnknown};
  if (Status s = appendAddress(t, da, "destination"); !s) return s.error();
  t.push_back(pdu.protocolId);
  t.push_back(dcsOf(pdu.userData.coding));
  if (pdu.validity) t.push_back(relativeValidityCode(*pdu.validity));
  bool udhi = false;
  if (Status s = appendUserData(t, pdu.userData, udhi); !s) return s.error();
  if (udhi) t[0] |= 0x40;
  return finish(smsc, t);
}

Result<EncodedPdu> encodeDeliver(const DeliverPdu& pdu) {
  std::vector<std::uint8_t> smsc;
  if (Status s = appendSmsc(smsc, pdu.smsc); !s) return s.error();
  std::vector<std::uint8_t> t;
  std::uint8_t first = 0x00;  // TP-MTI SMS-DELIVER
  if (!pdu.moreMessagesToSend) first |= 0x04;
  if (pdu.statusReportIndication) first |= 0x20;
  if (pdu.replyPath) first |= 0x80;
  t.push_back(first);
  if (Status s = appendAddress(t, pdu.originator, "originator"); !s) return s.error();
  t.push_back(pdu.protocolId);
  const auto coding = alphabetOfDcs(pdu.dataCodingScheme);
  if (!coding) return coding.error();
  if (*coding != pdu.userData.coding)
    return makeError("TP-DCS does not match the user data's alphabet");
  t.push_back(pdu.dataCodingScheme);
  appendTime(t, pdu.timestamp);
  bool udhi = false;
  if (Status s = appendUserData(t, pdu.userData, udhi); !s) return s.error();
  if (udhi) t[0] |= 0x40;
  return finish(smsc, t);
}

Result<EncodedPdu> encodeStatusReport(const StatusReportPdu& pdu) {
  std::vector<std::uint8_t> smsc;
  if (Status s = appendSmsc(smsc, pdu.smsc); !s) return s.error();
  std::vector<std::uint8_t> t;
  t.push_back(0x06);  // TP-MTI SMS-STATUS-REPORT, TP-MMS: no more messages
  t.push_back(pdu.messageReference);
  if (Status s = appendAddress(t, pdu.recipient, "recipient"); !s) return s.error();
  appendTime(t, pdu.timestamp);
  appendTime(t, pdu.discharge);
  t.push_back(pdu.status);
  return finish(smsc, t);
}

Result<SubmitPdu> decodeSubmit(std::string_view hex, std::optional<int> tpduLength) {
  const auto bytes = parseHex(hex);
  if (!bytes) return bytes.error();
  Reader r(*bytes);
  auto smsc = readFront(r, tpduLength);
  if (!smsc) return smsc.error();
  SubmitPdu p;
  p.smsc = std::move(*smsc);
  const auto first = r.byte("the first octet");
  if (!first) return first.error();
  if ((*first & 0x03) != 0x01) return makeError("not an SMS-SUBMIT (TP-MTI)");
  p.rejectDuplicates = (*first & 0x04) != 0;
  p.statusReportRequest = (*first & 0x20) != 0;
  const int vpf = (*first >> 3) & 0x03;
  if (vpf == 1 || vpf == 3) return makeError("TP-VPF: only a relative validity period is read");
  const auto mr = r.byte("TP-MR");
  if (!mr) return mr.error();
  p.messageReference = *mr;
  auto da = readAddress(r, "TP-DA");
  if (!da) return da.error();
  if (isAlphanumericType(da->type)) return makeError("TP-DA: an alphanumeric destination");
  if (da->type != kTypeInternational && da->type != kTypeUnknown)
    return makeError("TP-DA: type of address " + std::to_string(da->type) + " is not read");
  p.destination = da->text;
  const auto pid = r.byte("TP-PID");
  if (!pid) return pid.error();
  p.protocolId = *pid;
  const auto dcs = r.byte("TP-DCS");
  if (!dcs) return dcs.error();
  if (*dcs != 0x00 && *dcs != 0x04 && *dcs != 0x08)
    return makeError("TP-DCS " + std::to_string(*dcs) + ": only 0x00, 0x04 and 0x08 are read");
  const auto coding = alphabetOfDcs(*dcs);
  if (!coding) return coding.error();
  if (vpf == 2) {
    const auto vp = r.byte("TP-VP");
    if (!vp) return vp.error();
    p.validity = relativeValidityPeriod(*vp);
  }
  auto ud = readUserData(r, *coding, (*first & 0x40) != 0);
  if (!ud) return ud.error();
  p.userData = std::move(*ud);
  if (r.remaining() != 0) return makeError("PDU has octets after the user data");
  return p;
}

Result<IncomingPdu> decodeIncoming(std::string_view hex, std::optional<int> tpduLength) {
  const auto bytes = parseHex(hex);
  if (!bytes) return bytes.error();
  Reader r(*bytes);
  auto smsc = readFront(r, tpduLength);
  if (!smsc) return smsc.error();
  const auto first = r.byte("the first octet");
  if (!first) return first.error();
  switch (*first & 0x03) {
    case 0x00: {
      auto d = readDeliver(r, *first);
      if (!d) return d.error();
      d->smsc = std::move(*smsc);
      return IncomingPdu(std::move(*d));
    }
    case 0x02: {
      auto s = readStatusReport(r);
      if (!s) return s.error();
      s->smsc = std::move(*smsc);
      return IncomingPdu(std::move(*s));
    }
    case 0x01:
      return makeError("an SMS-SUBMIT (an outgoing message), not a received one");
    default:
      return makeError("TP-MTI 3 is reserved");
  }
}

Result<std::string> userDataText(const UserData& ud) {
  switch (ud.coding) {
    case DataCoding::kGsm7:
      return decodeGsm7(ud.units);
    case DataCoding::kEightBit: {
      std::string out;
      for (std::uint8_t b : ud.units) appendUtf8(out, b);
      return out;
    }
    case DataCoding::kUcs2: {
      if (ud.units.size() % 2 != 0) return makeError("UCS-2 text with an odd number of octets");
      std::u16string units;
      for (std::size_t i = 0; i < ud.units.size(); i += 2)
        units.push_back(static_cast<char16_t>((ud.units[i] << 8) | ud.units[i + 1]));
      auto text = utf16ToUtf8(units);
      if (text) return text;
      // An unpaired surrogate (a sender that split a pair across parts): shown as U+FFFD.
      for (std::size_t i = 0; i < units.size(); ++i) {
        const char16_t u = units[i];
        const bool high = u >= 0xD800 && u <= 0xDBFF;
        const bool low = u >= 0xDC00 && u <= 0xDFFF;
        if (high && i + 1 < units.size() && units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF) {
          ++i;
        } else if (high || low) {
          units[i] = 0xFFFD;
        }
      }
      return utf16ToUtf8(units);
    }
  }
  return makeError("unknown data coding");
}

}  // namespace atoms::drivers::modem
