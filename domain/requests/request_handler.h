// RequestHandler: requests by text in front of the call-out flow, as the conversation layer's
// ReplyHandler (sms/conversation/reply_handler.h). What it takes from a turn:
// - APPROVE Rn / DENY Rn (a worker's request, keywords.h isRequestReference): decided by the desk;
// - WITHDRAW Rn / RETIRAR Rn from the worker: their pending request withdrawn;
// - conversation that reads as a request (sms/text/request_intent.h): filed, or one question;
// everything else (offer replies, APPROVE n of a call-out approval, call-outs, small talk) goes
// to `next` unchanged. Text the injection flag marked is data: it never files or decides anything
// here, and is handed on (the call-out flow gives it its honest answer).
//
// Threading: on the store's writer inside the conversation's transaction; when a turn fails the
// transaction is rolled back and the site snapshot invalidated (a decision may have changed it).
#pragma once

#include <string>
#include <vector>

#include "domain/requests/request_desk.h"
#include "sms/conversation/reply_handler.h"

namespace atoms::requests {

class RequestHandler final : public sms::conversation::ReplyHandler {
 public:
  // Both must outlive the handler.
  RequestHandler(RequestDesk& desk, sms::conversation::ReplyHandler& next);

  std::vector<std::string> openOfferCodes(SiteStore& store,
                                          const sms::conversation::Contact& person) override;
  std::vector<std::string> pastOfferCodes(SiteStore& store,
                                          const sms::conversation::Contact& person) override;
  Status handle(sms::conversation::Turn& turn) override;

 private:
  // The answer of this handler; nullopt: not a request, for `next`.
  Result<std::optional<RequestAnswer>> answer(sms::conversation::Turn& turn);

  RequestDesk& desk_;
  sms::conversation::ReplyHandler& next_;
};

}  // namespace atoms::requests
