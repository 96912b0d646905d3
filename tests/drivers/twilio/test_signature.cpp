#include <boost/test/unit_test.hpp>

#include "base/bytes.h"
#include "drivers/sms/twilio/twilio_signature.h"

namespace atoms::drivers::twilio {
namespace {

// The example of Twilio's "Webhooks security" page, used as the test vector by Twilio's own helper
// libraries (twilio-python, twilio-php, twilio-csharp RequestValidator tests).
const std::string kToken = "12345";
const std::string kUrl = "https://mycompany.com/myapp.php?foo=1&bar=2";
const FormFields kFields{{"CallSid", "CA1234567890ABCDE"},
                         {"Caller", "+14158675309"},
                         {"Digits", "1234"},
                         {"From", "+14158675309"},
                         {"To", "+18005551212"}};
const std::string kSignature = "RSOYDt4T1cUTdK1PDd93/VVr8B8=";

bool valid(const std::string& url, const FormFields& fields, const std::string& signature,
           const std::string& token = kToken) {
  return validTwilioSignature(asBytes(token), url, fields, signature);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(signature)

BOOST_AUTO_TEST_CASE(matchesTwiliosPublishedExample) {
  BOOST_TEST(twilioSignature(asBytes(kToken), kUrl, kFields) == kSignature);
  BOOST_TEST(valid(kUrl, kFields, kSignature));
}

BOOST_AUTO_TEST_CASE(signsARepeatedNameWithEachDistinctValueOnceSorted) {
  // twilio-python / twilio-php "duplicate parameters" vector.
  const FormFields fields{{"Sid", "CA123"},
                          {"SidAccount", "AC123"},
                          {"Digits", "5678"},
                          {"Digits", "1234"},
                          {"Digits", "1234"}};
  BOOST_TEST(twilioSignature(asBytes(kToken), kUrl, fields) == "IK+Dwps556ElfBT0I3Rgjkr1wJU=");
}

BOOST_AUTO_TEST_CASE(signsTheUrlAsGivenIncludingItsCase) {
  // twilio-csharp "mixed case" vector: the host is signed as written.
  BOOST_TEST(twilioSignature(asBytes(kToken), "https://MyCompany.com/myapp.php?foo=1&bar=2",
                             kFields) == "g9IN/x4Cft2g517EjYvEvM/W7LU=");
}

BOOST_AUTO_TEST_CASE(doesNotDependOnTheOrderFieldsArrivedIn) {
  FormFields shuffled(kFields.rbegin(), kFields.rend());
  BOOST_TEST(valid(kUrl, shuffled, kSignature));
}

BOOST_AUTO_TEST_CASE(refusesAnyTampering) {
  FormFields changedValue = kFields;
  changedValue[2].value = "9999";
  FormFields addedField = kFields;
  addedField.push_back({"Body", "hi"});
  FormFields droppedField(kFields.begin(), kFields.end() - 1);
  BOOST_TEST(!valid(kUrl, changedValue, kSignature));
  BOOST_TEST(!valid(kUrl, addedField, kSignature));
  BOOST_TEST(!valid(kUrl, droppedField, kSignature));
  BOOST_TEST(!valid(kUrl + "&extra=1", kFields, kSignature));
  BOOST_TEST(!valid("https://mycompany.com/other.php?foo=1&bar=2", kFields, kSignature));
  BOOST_TEST(!valid("http://mycompany.com/myapp.php?foo=1&bar=2", kFields, kSignature));
  BOOST_TEST(!valid(kUrl, kFields, kSignature, "12346"));
  BOOST_TEST(!valid(kUrl, kFields, kSignature.substr(0, 27)));
  BOOST_TEST(!valid(kUrl, kFields, kSignature + "="));
  BOOST_TEST(!valid(kUrl, kFields, "rsoydt4t1cutdk1pdd93/vvr8b8="));
  BOOST_TEST(!valid(kUrl, kFields, ""));
  BOOST_TEST(!valid(kUrl, kFields, kSignature, ""));
}

BOOST_AUTO_TEST_CASE(acceptsASignatureMadeWithOrWithoutTheDefaultPort) {
  const std::string withPort = "https://mycompany.com:443/myapp.php?foo=1&bar=2";
  const std::string signedWithPort = twilioSignature(asBytes(kToken), withPort, kFields);
  BOOST_TEST(valid(kUrl, kFields, signedWithPort));
  BOOST_TEST(valid(withPort, kFields, kSignature));
  const std::string otherPort =
      twilioSignature(asBytes(kToken), "https://mycompany.com:8443/myapp.php?foo=1&bar=2", kFields);
  BOOST_TEST(!valid(kUrl, kFields, otherPort));
}

BOOST_AUTO_TEST_CASE(togglesOnlyTheSchemesDefaultPort) {
  BOOST_TEST(toggleDefaultPort("https://h.example/x?y=1") == "https://h.example:443/x?y=1");
  BOOST_TEST(toggleDefaultPort("https://h.example:443/x") == "https://h.example/x");
  BOOST_TEST(toggleDefaultPort("http://127.0.0.1:80") == "http://127.0.0.1");
  BOOST_TEST(toggleDefaultPort("http://127.0.0.1:8080/a") == "http://127.0.0.1:8080/a");
  BOOST_TEST(toggleDefaultPort("https://[::1]/a") == "https://[::1]:443/a");
  BOOST_TEST(toggleDefaultPort("https://[::1]:443/a") == "https://[::1]/a");
  BOOST_TEST(toggleDefaultPort("ftp://h/a") == "ftp://h/a");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::drivers::twilio
