// Every text the requests desk sends, English and Spanish: plain, kind, short, never asking why,
// always naming a human to reach (docs/requests.md). `what` is requestWords() of the request.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "domain/requests/request_store.h"
#include "sms/conversation/replies.h"

namespace atoms::requests {

using sms::conversation::ReplyContext;

// The request in a few words: "Sat Mar 7 off", "Fri Mar 6 - Sun Mar 8 off", "Sat Mar 7 (night)
// off", "no mornings", "only weekends", "no Sunday"; Spanish: "libre el sáb 7 mar", "sin
// mañanas", "solo sáb y dom".
std::string requestWords(const RequestRow& row, bool spanish);
// "R3": how texts name request 3 (APPROVE R3).
std::string requestLabel(std::int64_t id);

// To the worker.
std::string requestReceivedText(const ReplyContext& c, const std::string& what, std::int64_t id);
std::string requestQuestionText(const ReplyContext& c, std::string_view question);
std::string requestApprovedText(const ReplyContext& c, const std::string& what);
std::string requestDeniedText(const ReplyContext& c, const std::string& what);
std::string requestWithdrawnText(const ReplyContext& c, std::int64_t id);

// To the approver.
std::string requestForManagerText(const ReplyContext& c, const std::string& name,
                                  const std::string& what, std::int64_t id, std::size_t touched);
std::string requestRecordedText(const ReplyContext& c, std::int64_t id, bool approved,
                                std::size_t touched);
std::string requestClosedText(const ReplyContext& c, std::int64_t id);
std::string requestNotYoursText(const ReplyContext& c, std::int64_t id);
std::string requestSelfText(const ReplyContext& c, std::int64_t id);
std::string requestPausedText(const ReplyContext& c);

}  // namespace atoms::requests
