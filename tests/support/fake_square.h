// FakeSquare: a local stand-in for Square's Orders API (POST /v2/orders/search), over real HTTP on
// loopback, for the POS tests (library atoms_test_doubles; the demo runs on the simulated POS,
// drivers/pos/simulated_pos.h).
//
// It holds order objects as Square shapes them (JSON text, added with addOrder) and answers a
// search as Square does: bearer token checked (401 {"errors":[{"category":"AUTHENTICATION_ERROR",
// "code":"UNAUTHORIZED",...}]} otherwise), location_ids and the updated_at window [start_at,
// end_at) applied, sorted by updated_at ascending, pages of at most `limit` (and at most
// options.pageSize) with an opaque cursor that is refused unless the query is the same as the
// first page's (400, as Square does). failNext() makes the next searches fail with a status (429
// with Retry-After, 500, 503); expireToken() makes every later search a 401 until setToken().
//
// Threading: every method is thread-safe; one mutex guards the state, no I/O under it.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/canonical_json.h"
#include "base/result.h"

namespace Poco::Net {
class HTTPServerRequest;
class HTTPServerResponse;
}  // namespace Poco::Net

namespace atoms::drivers {
class HttpService;
}

namespace atoms::drivers::pos {

struct FakeSquareOptions {
  std::string token = "EAAAfake-square-token-0123456789";
  std::size_t pageSize = 500;
};

struct FakeSquareFailure {
  int status = 500;
  std::optional<int> retryAfterSeconds;
};

// A Square order object with the fields the driver reads (amounts in cents, USD).
struct FakeSquareOrder {
  std::string id;
  std::string location = "L-MAIN";
  std::string state = "COMPLETED";
  std::int64_t version = 1;
  std::string createdAt, closedAt, updatedAt;
  std::int64_t totalCents = 0, taxCents = 0, tipCents = 0;
  std::string returnOf;  // a return order: returns[0].source_order_id and return_amounts
  std::int64_t returnedTotalCents = 0, returnedTaxCents = 0;
  json::Value toJson() const;
};

class FakeSquare {
 public:
  explicit FakeSquare(FakeSquareOptions options = {});
  ~FakeSquare();
  FakeSquare(const FakeSquare&) = delete;
  FakeSquare& operator=(const FakeSquare&) = delete;

  Status start();
  void stop();
  std::string baseUrl() const;  // "http://127.0.0.1:<port>"
  const std::string& token() const { return options_.token; }

  // Adds an order, or replaces the one with its id (a new version).
  void addOrder(const FakeSquareOrder& order);
  void addOrderJson(json::Value order);
  void failNext(FakeSquareFailure failure, int times = 1);
  void expireToken();
  void setToken(std::string token);
  int searches() const;
  // The bodies of the searches received, in order.
  std::vector<std::string> requests() const;

 private:
  void serve(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response);

  FakeSquareOptions options_;
  mutable std::mutex mutex_;
  std::vector<json::Value> orders_;
  std::deque<FakeSquareFailure> failures_;
  bool expired_ = false;
  std::vector<std::string> requests_;
  // The cursors handed out: the query (canonical JSON) each continues, and where.
  std::map<std::string, std::pair<std::string, std::size_t>> cursors_;
  std::uint64_t nextCursor_ = 0;
  std::unique_ptr<HttpService> server_;
};

}  // namespace atoms::drivers::pos
