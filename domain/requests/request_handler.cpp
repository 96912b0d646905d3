#include "domain/requests/request_handler.h"

#include <optional>

#include "domain/requests/request_texts.h"
#include "sms/text/tokens.h"

namespace atoms::requests {

namespace {

using sms::conversation::TurnKind;

// "WITHDRAW R3", "retirar r3", "withdraw request R3": the request's number, else nullopt.
std::optional<std::int64_t> withdrawal(std::string_view body) {
  const std::vector<sms::Token> tokens = sms::tokenize(body);
  if (tokens.empty() || tokens.size() > 4) return std::nullopt;
  const std::string& first = tokens.front().folded;
  if (first != "withdraw" && first != "retirar" && first != "retiro") return std::nullopt;
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    if (sms::isRequestReference(tokens[i].folded)) return std::stoll(tokens[i].folded.substr(1));
  }
  return std::nullopt;
}

}  // namespace

RequestHandler::RequestHandler(RequestDesk& desk, sms::conversation::ReplyHandler& next)
    : desk_(desk), next_(next) {}

std::vector<std::string> RequestHandler::openOfferCodes(SiteStore& store,
                                                        const sms::conversation::Contact& person) {
  return next_.openOfferCodes(store, person);
}

std::vector<std::string> RequestHandler::pastOfferCodes(SiteStore& store,
                                                        const sms::conversation::Contact& person) {
  return next_.pastOfferCodes(store, person);
}

Result<std::optional<RequestAnswer>> RequestHandler::answer(sms::conversation::Turn& turn) {
  const sms::conversation::Contact& sender = turn.sender();
  RequestStep step{turn.store(), turn.batch(), desk_.now(), turn.message().id};
  const callout::Decider who{sender.personId, sender.phone, "sms"};
  if (turn.kind() == TurnKind::kApproval && sms::isRequestReference(turn.keyword().reference)) {
    const std::int64_t id = std::stoll(turn.keyword().reference.substr(1));
    auto decided = desk_.decide(step, who, id, turn.keyword().kind == sms::KeywordKind::kApprove,
                                turn.keyword().remark);
    if (!decided) return decided.error();
    return std::optional<RequestAnswer>(std::move(decided->answer));
  }
  if (turn.kind() != TurnKind::kConversation || turn.injection().flagged()) {
    return std::optional<RequestAnswer>();
  }
  if (auto id = withdrawal(turn.message().body)) {
    auto withdrawn = desk_.withdraw(step, who, *id);
    if (!withdrawn) return withdrawn.error();
    return std::optional<RequestAnswer>(std::move(*withdrawn));
  }
  return desk_.receive(step, sender, turn.message().body, turn.language());
}

Status RequestHandler::handle(sms::conversation::Turn& turn) {
  if (Status s = desk_.site().refresh(turn.store().db()); !s) return s;
  auto answered = answer(turn);
  if (!answered) {
    desk_.site().invalidate();
    return answered.error();
  }
  if (!*answered) return next_.handle(turn);
  if ((*answered)->text.empty()) return Status::success();
  std::vector<sms::conversation::ReceiptSource> sources;
  if ((*answered)->request != 0) {
    sources.push_back({"decision", "request-" + std::to_string((*answered)->request),
                       "request " + requestLabel((*answered)->request)});
  }
  auto replied = turn.reply((*answered)->text, std::move(sources));
  if (!replied) {
    desk_.site().invalidate();
    return replied.error();
  }
  return Status::success();
}

}  // namespace atoms::requests
