#include <boost/test/unit_test.hpp>
#include <functional>
#include <string>
#include <vector>

#include "base/bytes.h"
#include "base/canonical_json.h"
#include "store/receipt.h"
#include "store/signed_note.h"
#include "tests/store/audit_fixture.h"
#include "tests/support/text_checks.h"

namespace atoms {
namespace {

using json::Array;
using json::Object;
using json::Value;
using testing::sampleReceipt;

using atoms::testing::contains;

SigningKey siteKey() { return SigningKey::generate("atoms-edge/demo-site"); }

Value signedSample(const SigningKey& key) {
  auto r = signReceipt(sampleReceipt(), key);
  BOOST_REQUIRE_MESSAGE(r.ok(), r.message());
  return *r;
}

// A different value of the same JSON type, so only the signature can tell.
Value mutated(const Value& v) {
  switch (v.type()) {
    case json::Type::kString:
      return Value(v.asString() + "x");
    case json::Type::kInt:
      return Value(v.asInt() + 1);
    case json::Type::kBool:
      return Value(!v.asBool());
    case json::Type::kArray: {
      Array a = v.asArray();
      a.emplace_back("extra");
      return Value(std::move(a));
    }
    case json::Type::kObject: {
      Object o = v.asObject();
      o.emplace("zz", 1);
      return Value(std::move(o));
    }
    case json::Type::kNull:
      break;
  }
  return Value(1);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(receipt)

BOOST_AUTO_TEST_CASE(signedReceiptVerifiesAndSigCoversBodyWithoutSig) {
  const SigningKey key = siteKey();
  const Value body = signedSample(key);
  BOOST_TEST(verifyReceipt(body, key.verifier()).ok());

  const Value* sig = body.find("sig");
  BOOST_REQUIRE(sig != nullptr && sig->isString());
  const auto raw = fromBase64(sig->asString());
  BOOST_REQUIRE(raw.has_value());
  BOOST_TEST(raw->size() == 64U);
  // Independently: the signature is over canonical(receipt without sig), i.e. the input.
  BOOST_TEST(key.verifier().verify(asBytes(json::canonical(sampleReceipt())), *raw));
  // The signed receipt is the input plus sig and nothing else.
  Object withoutSig = body.asObject();
  withoutSig.erase("sig");
  BOOST_TEST((Value(withoutSig) == sampleReceipt()));
}

BOOST_AUTO_TEST_CASE(refusesToSignAReceiptThatAlreadyHasASig) {
  const SigningKey key = siteKey();
  auto again = signReceipt(signedSample(key), key);
  BOOST_REQUIRE(!again.ok());
  BOOST_TEST(contains(again.message(), "already has a sig"));
}

BOOST_AUTO_TEST_CASE(everyTamperedFieldIsDetected) {
  const SigningKey key = siteKey();
  const Value body = signedSample(key);
  std::size_t checked = 0;
  for (const auto& [field, value] : body.asObject()) {
    if (field == "sig") continue;
    Value changed = body;
    changed.asObject()[field] = mutated(value);
    // Still a valid shape where the mutation keeps one, so the signature is what catches it.
    Status s = verifyReceipt(changed, key.verifier());
    BOOST_TEST_CONTEXT("field " << field) {
      BOOST_TEST(!s.ok());
      BOOST_TEST(contains(s.message(), "receipt:"));
    }
    Value removed = body;
    removed.asObject().erase(field);
    BOOST_TEST_CONTEXT("removed " << field) {
      BOOST_TEST(!verifyReceipt(removed, key.verifier()).ok());
    }
    ++checked;
  }
  BOOST_TEST(checked == sampleReceipt().asObject().size());

  Value nested = body;
  nested.asObject()["ruleEvaluations"].asArray()[0].asObject()["result"] = "fail";
  Status s = verifyReceipt(nested, key.verifier());
  BOOST_TEST(s.message() == "receipt: signature does not verify with the site key");

  Value added = body;
  added.asObject().emplace("note", "added later");
  BOOST_TEST(verifyReceipt(added, key.verifier()).message() ==
             "receipt: signature does not verify with the site key");
}

BOOST_AUTO_TEST_CASE(anotherKeyOrABrokenSigIsRefused) {
  const SigningKey key = siteKey();
  const Value body = signedSample(key);
  BOOST_TEST(verifyReceipt(body, siteKey().verifier()).message() ==
             "receipt: signature does not verify with the site key");

  Value missing = body;
  missing.asObject().erase("sig");
  BOOST_TEST(verifyReceipt(missing, key.verifier()).message() == "receipt: missing sig");

  Value notBase64 = body;
  notBase64.asObject()["sig"] = "not base64!";
  BOOST_TEST(verifyReceipt(notBase64, key.verifier()).message() ==
             "receipt: sig is not base64 of 64 bytes");

  Value shortSig = body;
  shortSig.asObject()["sig"] = toBase64(Bytes(63, 1));
  BOOST_TEST(verifyReceipt(shortSig, key.verifier()).message() ==
             "receipt: sig is not base64 of 64 bytes");

  Value notString = body;
  notString.asObject()["sig"] = 5;
  BOOST_TEST(verifyReceipt(notString, key.verifier()).message() == "receipt: sig must be a string");
}

BOOST_AUTO_TEST_CASE(shapeErrorsNameTheField) {
  struct Case {
    std::string expected;
    std::function<void(Object&)> change;
  };
  auto source0 = [](Object& r) -> Object& { return r["sources"].asArray()[0].asObject(); };
  auto rule0 = [](Object& r) -> Object& { return r["ruleEvaluations"].asArray()[0].asObject(); };
  const std::vector<Case> cases{
      {"receipt: id is missing", [](Object& r) { r.erase("id"); }},
      {"receipt: id must not be empty", [](Object& r) { r["id"] = ""; }},
      {"receipt: runId must be a string", [](Object& r) { r["runId"] = 7; }},
      {"receipt: createdAt must be an ISO date-time",
       [](Object& r) { r["createdAt"] = "yesterday"; }},
      {"receipt: createdAt must be an ISO date-time",
       [](Object& r) { r["createdAt"] = "2026-02-30T00:00:00Z"; }},
      {"receipt: sources must have at least one source", [](Object& r) { r["sources"] = Array{}; }},
      {"receipt: sources must be an array", [](Object& r) { r["sources"] = "none"; }},
      {"receipt: sources[0] must be an object", [](Object& r) { r["sources"].asArray()[0] = "x"; }},
      {"receipt: sources[0].kind must be one of org, mirror, memory, service, policy, message, "
       "decision",
       [&](Object& r) { source0(r)["kind"] = "rumour"; }},
      {"receipt: sources[0].n must be an integer >= 1", [&](Object& r) { source0(r)["n"] = 0; }},
      {"receipt: sources[1].n repeats number 1",
       [](Object& r) { r["sources"].asArray()[1].asObject()["n"] = 1; }},
      {"receipt: sources[0].ref must not be empty", [&](Object& r) { source0(r)["ref"] = ""; }},
      {"receipt: sources[0].label is missing", [&](Object& r) { source0(r).erase("label"); }},
      {"receipt: sources[0].asOf must be an ISO date-time",
       [&](Object& r) { source0(r)["asOf"] = "2026-09-07"; }},
      {"receipt: sources[0].extra is not a known field",
       [&](Object& r) { source0(r)["extra"] = 1; }},
      {"receipt: snapshot[0].version must be an integer",
       [](Object& r) { r["snapshot"].asArray()[0].asObject()["version"] = "3"; }},
      {"receipt: snapshot[0].staleSince must be an ISO date-time",
       [](Object& r) { r["snapshot"].asArray()[0].asObject()["staleSince"] = "soon"; }},
      {"receipt: ruleEvaluations[0].result must be one of pass, fail, threshold_exceeded, n/a",
       [&](Object& r) { rule0(r)["result"] = "maybe"; }},
      {"receipt: ruleEvaluations[0].input must be an object",
       [&](Object& r) { rule0(r)["input"] = Array{}; }},
      {"receipt: ruleEvaluations[0].detail is missing",
       [&](Object& r) { rule0(r).erase("detail"); }},
      {"receipt: rationale has more than 120 words",
       [](Object& r) {
         std::string words;
         for (int i = 0; i < 121; ++i) words += "word ";
         r["rationale"] = words;
       }},
      {"receipt: confidence must be a decimal string", [](Object& r) { r["confidence"] = 1; }},
      {"receipt: confidence must be a decimal string", [](Object& r) { r["confidence"] = "1.5"; }},
      {"receipt: gaps[0] must be a string", [](Object& r) { r["gaps"] = Array{3}; }},
      {"receipt: modelCalls[0].tier is missing",
       [](Object& r) {
         r["modelCalls"] = Array{Object{{"purpose", "x"}, {"requestHash", "h"}}};
       }},
      {"receipt: visibility must be one of self, self_mor, self_owner, owner",
       [](Object& r) { r["visibility"] = "public"; }},
      {"receipt: \"Bad-Field\" is not a receipt field", [](Object& r) { r["Bad-Field"] = 1; }},
  };
  const SigningKey key = siteKey();
  for (const Case& c : cases) {
    Value r = sampleReceipt();
    c.change(r.asObject());
    auto signedR = signReceipt(r, key);
    BOOST_TEST_CONTEXT("expected: " << c.expected) {
      BOOST_TEST(!signedR.ok());
      if (!signedR.ok()) BOOST_TEST(contains(signedR.message(), c.expected), signedR.message());
      // The same rule applies when checking: a correctly signed but malformed receipt fails.
      BOOST_TEST(!validateReceipt(r).ok());
    }
  }
}

BOOST_AUTO_TEST_CASE(confidenceIsADecimalStringFromZeroToOne) {
  const SigningKey key = siteKey();
  for (const char* good : {"0", "1", "0.5", "0.86", "1.0", "1.000000", "0.123456"}) {
    Value r = sampleReceipt();
    r.asObject()["confidence"] = good;
    BOOST_TEST(validateReceipt(r).ok(), good);
  }
  for (const char* bad : {"", "01", ".5", "0.", "1.01", "2", "-0.1", "0.1234567", "0,5", "0.8e1"}) {
    Value r = sampleReceipt();
    r.asObject()["confidence"] = bad;
    BOOST_TEST(!validateReceipt(r).ok(), bad);
  }
}

BOOST_AUTO_TEST_CASE(optionalFieldsMayBeAbsentAndExtensionsAreSigned) {
  const SigningKey key = siteKey();
  Value r = sampleReceipt();
  r.asObject().erase("runId");
  r.asObject().erase("outcome");
  std::string words;
  for (int i = 0; i < 120; ++i) words += "w ";
  r.asObject()["rationale"] = words;  // exactly 120 words is fine
  r.asObject()["snapshot"] = Array{};
  r.asObject()["ruleEvaluations"] = Array{};
  r.asObject()["modelCalls"] =
      Array{Object{{"purpose", "brief"}, {"tier", "fast"}, {"requestHash", "sha256:ab"}}};
  r.asObject()["action"] = Object{{"kind", "SEND_MESSAGE"}, {"amountCents", 1250}};
  auto signedR = signReceipt(r, key);
  BOOST_REQUIRE_MESSAGE(signedR.ok(), signedR.message());
  BOOST_TEST(verifyReceipt(*signedR, key.verifier()).ok());
  Value changed = *signedR;
  changed.asObject()["action"].asObject()["amountCents"] = 1251;
  BOOST_TEST(!verifyReceipt(changed, key.verifier()).ok());
}

BOOST_AUTO_TEST_CASE(invalidJsonValuesAreRefusedBeforeSigning) {
  Value r = sampleReceipt();
  r.asObject()["id"] = std::string("\xff\xfe");
  auto signedR = signReceipt(r, siteKey());
  BOOST_REQUIRE(!signedR.ok());
  BOOST_TEST(contains(signedR.message(), "receipt:"));
  BOOST_TEST(!signReceipt(Value(Array{}), siteKey()).ok());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms
