// What an inbound text message asks for, when it is one of the fixed replies the box understands:
// the carrier keywords (opt-out, opt-in, help), WHY, taking or declining a shift offer by its
// code, and a manager's APPROVE n / DENY n. Anything else is conversation (kNone) and goes to the
// intent layer as data.
//
// Carrier practice (CTIA, Twilio's and AWS's defaults): a keyword is the whole message, trimmed and
// case-insensitive; here punctuation and a few polite words around it are tolerated too ("Stop.",
// "STOP please", "stop!!"). Opt-out wins over everything else in the same message, because a
// missed opt-out is the costly mistake (a wrong one costs the person a START):
//   opt-out: STOP STOPALL UNSUBSCRIBE CANCEL END QUIT, and OPTOUT / OPT-OUT / REVOKE / REMOVE (the
//            FCC's 2024 revocation rule and AWS's list), ARRET (French, Canadian carriers), and
//            Spanish ALTO PARAR DETENER CANCELAR BAJA; also unmistakable phrases anywhere in a
//            message: "stop texting me", "unsubscribe", "opt me out", "remove me from this list".
//   opt-in:  START UNSTOP, and YES: carriers treat a bare YES as re-subscribe, so an offer never
//            asks for YES (it asks for its code), and the caller acts on kOptIn only for a person
//            who is opted out (for anyone else a YES is just conversation).
//   help:    HELP INFO, Spanish AYUDA.        why: WHY, Spanish POR QUE / PORQUE.
// Offer replies: an offer says "reply 4821 to take it" (offer_code.h). A message that carries one
// of the person's open codes, as its own word ("4821", "#4821", "4821 yes", "yes 4821 see you at
// 5"), takes it; with a declining word ("4821 no", "can't do 4821") it declines it; with both, or
// with two open codes, it is kAmbiguousOffer (the caller asks again, nothing is booked). A message
// that is just a code that is not open is kUnknownOfferCode (the caller says the offer is closed).
// Manager replies: the message starts with APPROVE or APPROVED, or DENY, DENIED, DECLINE, REJECT,
// then the request number ("APPROVE 12", "deny #12 no budget") or a worker's request ("APPROVE R3",
// isRequestReference()); the text after the number is kept
// as the remark. Whether the sender may approve is the caller's check.
//
// Pure and thread-safe after construction.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sms/text/phrase_set.h"

namespace atoms::sms {

enum class KeywordKind {
  kNone,
  kOptOut,
  kOptIn,
  kHelp,
  kWhy,
  kTakeOffer,
  kDeclineOffer,
  kAmbiguousOffer,
  kUnknownOfferCode,
  kApprove,
  kDeny,
};

// "none", "opt_out", "opt_in", "help", "why", "take_offer", "decline_offer", "ambiguous_offer",
// "unknown_offer_code", "approve", "deny": for receipts and the audit log.
std::string_view keywordKindName(KeywordKind kind);

struct ParsedKeyword {
  KeywordKind kind = KeywordKind::kNone;
  std::string keyword;    // the keyword as understood, uppercase ("STOP", "ALTO", "APPROVE")
  std::string reference;  // offer code or request number, when the kind has one (may be empty
                          // for kApprove/kDeny: "APPROVE" alone, the caller asks which)
  std::string remark;     // APPROVE/DENY: the original text after the number, trimmed
};

// Whether `body` is, on its own (surrounding spaces aside, any case), one of the opt-out or opt-in
// words a provider's standard keyword handling acts on and confirms itself (Twilio's defaults on
// long codes: STOP STOPALL UNSUBSCRIBE CANCEL END QUIT REVOKE OPTOUT; START UNSTOP YES). "Stop
// please", ALTO or "stop texting me" are not: the provider neither blocks nor confirms them.
bool isProviderKeyword(std::string_view body);

// Whether a reference names a worker's request by text ("r3", "R12": docs/requests.md) rather
// than a call-out approval (a number).
bool isRequestReference(std::string_view reference);

class KeywordParser {
 public:
  KeywordParser();

  // `openOfferCodes`: the codes of the offers currently open to this sender; `pastOfferCodes`:
  // codes offered to them lately (open ones among them are read as open, first). A closed code in
  // any form a reply to an open one may take ("ok 2708 I can do it") is kUnknownOfferCode, so the
  // sender hears that the shift is covered rather than the help text.
  ParsedKeyword parse(std::string_view body, std::span<const std::string> openOfferCodes = {},
                      std::span<const std::string> pastOfferCodes = {}) const;

 private:
  PhraseSet optOutPhrases_;
};

}  // namespace atoms::sms
