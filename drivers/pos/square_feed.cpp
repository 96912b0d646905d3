#include "drivers/pos/square_feed.h"

#include <Poco/Exception.h>
#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/Net/NetSSL.h>
#include <Poco/URI.h>
#include <openssl/crypto.h>

#include <charconv>
#include <istream>
#include <memory>

#include "drivers/http/base_url.h"
#include "drivers/http/client_tls.h"
#include "drivers/http/printable.h"
#include "drivers/pos/square_orders.h"

namespace atoms::drivers::pos {
namespace {

bool squareLoopback(const std::string& host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]";
}

std::optional<std::chrono::seconds> squareRetryAfter(const Poco::Net::HTTPResponse& response) {
  if (!response.has("Retry-After")) return std::nullopt;
  const std::string value = response.get("Retry-After");
  long long n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end != value.data() + value.size() || n < 0) return std::nullopt;
  return std::chrono::seconds(std::min<long long>(n, 24 * 3600));
}

std::string squareReadBounded(std::istream& in) {
  std::string out;
  char buf[16384];
  while (in && out.size() <= square::kMaxReplyBytes) {
    in.read(buf, sizeof buf);
    out.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  return out;
}

}  // namespace

Status validateSquareConfig(const SquareConfig& c) {
  auto bad = [](const std::string& what) -> Status {
    return makeError("pos.square." + what, ErrorKind::kInvalid);
  };
  try {
    const Poco::URI uri(c.baseUrl);
    if (uri.getScheme() != "https" &&
        !(uri.getScheme() == "http" && squareLoopback(uri.getHost()))) {
      return bad("base_url '" + printable(c.baseUrl, 80) +
                 "': must be https (plain http only to a loopback address, for tests)");
    }
    if (uri.getHost().empty()) return bad("base_url '" + printable(c.baseUrl, 80) + "': no host");
  } catch (const Poco::Exception&) {
    return bad("base_url '" + printable(c.baseUrl, 80) + "' is not a URL");
  }
  if (c.locationIds.empty() || c.locationIds.size() > square::kMaxLocations) {
    return bad("location_ids: give 1 to 10 Square location ids");
  }
  for (const std::string& l : c.locationIds) {
    if (l.empty() || l.size() > 64) return bad("location_ids: '" + printable(l) + "' is not an id");
  }
  if (c.accessToken.empty()) return bad("access_token_file: the access token is empty");
  if (c.pageLimit < 1 || c.pageLimit > square::kPageLimit) return bad("page_limit: 1 to 500");
  if (c.currency.size() != 3)
    return bad("currency '" + printable(c.currency) + "': a 3-letter code");
  return Status::success();
}

SquareFeed::SquareFeed(SquareConfig config) : config_(std::move(config)) {
  token_ = SecretBytes(std::span<const std::uint8_t>(
      reinterpret_cast<const std::uint8_t*>(config_.accessToken.data()),
      config_.accessToken.size()));
  OPENSSL_cleanse(config_.accessToken.data(), config_.accessToken.size());
  config_.accessToken.clear();
  Poco::Net::initializeSSL();
  // validateSquareConfig refuses a URL that does not parse; fetches then fail clearly.
  const BaseUrl url = BaseUrl::parse(config_.baseUrl);
  scheme_ = url.scheme;
  host_ = url.host;
  port_ = url.port;
  basePath_ = url.basePath;
  if (scheme_ == "https") {
    try {
      tls_ = clientTlsContext();
    } catch (const Poco::Exception&) {
      tls_.reset();
    }
  }
}

SquareFeed::~SquareFeed() { Poco::Net::uninitializeSSL(); }

std::variant<FeedPage, FeedError> SquareFeed::fetch(const FeedQuery& query) {
  using Kind = FeedError::Kind;
  const std::string where = "Square at " + scheme_ + "://" + host_ + ":" + std::to_string(port_);
  if (host_.empty()) return FeedError{Kind::kInvalid, "pos.square.base_url is not usable", {}};
  const std::string body = square::searchRequestBody(config_.locationIds, query, config_.pageLimit);
  int status = 0;
  std::string reply;
  std::optional<std::chrono::seconds> wait;
  try {
    std::unique_ptr<Poco::Net::HTTPClientSession> session;
    if (scheme_ == "https") {
      if (!tls_) return FeedError{Kind::kUnavailable, "cannot set up TLS for " + where, {}};
      session = std::make_unique<Poco::Net::HTTPSClientSession>(host_, port_, tls_);
    } else {
      session = std::make_unique<Poco::Net::HTTPClientSession>(host_, port_);
    }
    session->setTimeout(Poco::Timespan(config_.connectTimeout.count() * 1000),
                        Poco::Timespan(config_.requestTimeout.count() * 1000),
                        Poco::Timespan(config_.requestTimeout.count() * 1000));
    Poco::Net::HTTPRequest req(Poco::Net::HTTPRequest::HTTP_POST,
                               basePath_ + std::string(square::kSearchPath),
                               Poco::Net::HTTPMessage::HTTP_1_1);
    req.set("Accept", "application/json");
    req.set("User-Agent", "atoms-edge");
    req.set("Square-Version", config_.squareVersion);
    {
      std::string header = "Bearer ";
      header.append(reinterpret_cast<const char*>(token_.data()), token_.size());
      req.set("Authorization", header);
      OPENSSL_cleanse(header.data(), header.size());
    }
    req.setContentType("application/json");
    req.setContentLength(static_cast<std::streamsize>(body.size()));
    session->sendRequest(req) << body;
    Poco::Net::HTTPResponse response;
    std::istream& in = session->receiveResponse(response);
    status = static_cast<int>(response.getStatus());
    reply = squareReadBounded(in);
    wait = squareRetryAfter(response);
  } catch (const Poco::TimeoutException&) {
    return FeedError{Kind::kUnavailable, "no answer from " + where + " within the timeout", {}};
  } catch (const Poco::Exception& e) {
    return FeedError{
        Kind::kUnavailable, "cannot reach " + where + ": " + printable(e.displayText(), 200), {}};
  } catch (const std::exception& e) {
    return FeedError{
        Kind::kUnavailable, "cannot reach " + where + ": " + printable(e.what(), 200), {}};
  }
  if (status == 200) {
    auto page = square::parseSearchResponse(reply, config_.currency);
    if (!page) return FeedError{Kind::kInvalid, page.message(), {}};
    return std::move(*page);
  }
  std::string what = where + " answered HTTP " + std::to_string(status);
  const std::string errors = square::describeErrors(reply);
  if (!errors.empty()) what += " (" + errors + ")";
  if (status == 401 || status == 403) {
    return FeedError{Kind::kAuth,
                     "Square refused the access token: " + what +
                         "; replace the token in pos.square.access_token_file and restart",
                     {}};
  }
  if (status == 429) return FeedError{Kind::kRateLimited, what + ": rate limited", wait};
  if (status == 400) return FeedError{Kind::kInvalid, what, {}};
  return FeedError{Kind::kUnavailable, what, wait};
}

}  // namespace atoms::drivers::pos
